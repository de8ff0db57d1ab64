// Platform XML checked before SimGrid sees it (issue 31). SimGrid 3.32's
// own parser aborts the whole run with a backtrace (exit 134) on a file it
// cannot use, and accepts some it should not (a negative latency); so every
// FILE.xml a user names is parsed here first, with libxml2 (no network, no
// DTD loading, no entity substitution, bounded input), and refused with one
// line naming the file, the element and the rule.
//
// What is accepted: the SimGrid 3.32 platform format (version 4.0 or 4.1)
// for what collsim and its users write: <zone>/<AS> (routing Full, Floyd,
// Dijkstra, DijkstraCache, None, Vivaldi, Cluster, ClusterTorus,
// ClusterFatTree, ClusterDragonfly, Wifi), <host>, <link>, <router>,
// <route>/<zoneRoute>/<bypassRoute> with <link_ctn>, <cluster>, <cabinet>,
// <backbone>, <peer>, <disk> and <prop>, each with the attributes SimGrid's
// DTD gives it. Refused besides malformed XML: elements and attributes
// SimGrid does not know; what reads other files or changes SimGrid's
// settings (<config>, <include>, <trace>, <trace_connect>, *_file
// attributes, deployment elements), since a run must model what collsim
// set and touch no file it was not given; a missing <!DOCTYPE platform
// SYSTEM "https://simgrid.org/simgrid.dtd"> (SimGrid's parser needs it), an
// internal DTD subset, CDATA sections and text (its parser aborts); values
// SimGrid cannot parse (its unit tables: "10Gbps", "1GBps", "5us", "1e-6s",
// "2Gf", plain numbers); any latency < 0 or not finite, bandwidth or speed
// <= 0 or not finite; a duplicate host or link id; a route naming a link not
// declared before it; and too few hosts for the run: ranks are placed on
// hosts node-0 .. node-(H-1) (platforms::hostfile), so each must exist once.
#pragma once

#include <cstdint>
#include <string>

namespace collsim::platforms {

// Checks platform XML `xml`, read from `file` (named in messages), for a run
// that places ranks on `hosts` hosts node-0 .. node-(hosts-1). Throws
// std::invalid_argument with one line: "platform file 'F', line N, <link
// id='l1'>: bandwidth '0Bps' must be > 0 and finite".
void check_platform_xml(const std::string& xml, const std::string& file, int64_t hosts);

// Reads `path` (at most kMaxPlatformFileBytes, common/bounded_read.hpp) and
// checks it as above; the limit's LimitError passes through.
void check_platform_xml_file(const std::string& path, int64_t hosts);

// How many distinct hosts platforms::hostfile(pf, p) names: the hosts a
// platform file must provide for p ranks.
struct Platform;
int64_t hosts_used(const Platform& pf, int64_t p);

// SimGrid's value-with-unit syntax (strtod, then a unit from its tables;
// none means seconds, bytes per second, flops): the value in seconds, bytes
// per second or flops. Throws std::invalid_argument ("unknown unit 'x'",
// "not a number", "out of range").
double parse_time(const std::string& text);
double parse_bandwidth(const std::string& text);
double parse_speed(const std::string& text);

}  // namespace collsim::platforms
