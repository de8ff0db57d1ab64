// Platform files checked before SimGrid sees them (issue 31, deliverable 3):
// the XML checker against SimGrid's units and the hosts a run needs, every
// platform collsim generates passing it (no false refusals), and `collsim
// run` on hostile platform files: exit 2 with one line, never SimGrid's
// abort (134).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "platform.hpp"
#include "platform_check.hpp"
#include "run_cli.hpp"

namespace collsim {
namespace {

using platforms::check_platform_xml;

const std::string kDoctype = "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n";

// A flat cluster of `n` hosts node-0 .. node-(n-1) with the given bw and lat.
std::string cluster_xml(int n, const std::string& bw = "1GBps", const std::string& lat = "2.5us",
                        const std::string& prefix = "node-") {
  return "<?xml version='1.0'?>\n" + kDoctype + "<platform version=\"4.1\">\n  <cluster id=\"c\" prefix=\"" +
         prefix + "\" suffix=\"\" radical=\"0-" + std::to_string(n - 1) + "\" speed=\"1Gf\" bw=\"" + bw +
         "\" lat=\"" + lat + "\"/>\n</platform>\n";
}

// A hand-written zone: four hosts, a link each, routes through two links.
std::string zone_xml(const std::string& link0_bw = "10Gbps", const std::string& routed = "l1") {
  std::string xml =
      "<?xml version='1.0'?>\n" + kDoctype + "<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n"
      "  <prop id=\"note\" value=\"hand-written\"/>\n";
  for (int i = 0; i < 4; ++i)
    xml += "  <host id=\"node-" + std::to_string(i) + "\" speed=\"1e9f,5e8f\" core=\"2\"/>\n";
  xml += "  <link id=\"l0\" bandwidth=\"" + link0_bw + "\" latency=\"1e-6s\"/>\n"
         "  <link id=\"l1\" bandwidth=\"100MBps\" latency=\"1ms\" sharing_policy=\"SPLITDUPLEX\"/>\n"
         "  <link id=\"l2\" bandwidth=\"1GiBps\" latency=\"5us\" sharing_policy=\"FATPIPE\"/>\n"
         "  <router id=\"r\"/>\n";
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j)
      xml += "  <route src=\"node-" + std::to_string(i) + "\" dst=\"node-" + std::to_string(j) +
             "\"><link_ctn id=\"l0\"/><link_ctn id=\"" + routed + "\" direction=\"UP\"/><link_ctn id=\"l2\"/></route>\n";
  return xml + "  <route src=\"node-0\" dst=\"r\"><link_ctn id=\"l1_DOWN\"/></route>\n</zone>\n</platform>\n";
}

// The one-line refusal of `xml` for `hosts` hosts ("" if accepted).
std::string refusal(const std::string& xml, int64_t hosts = 4) {
  try {
    check_platform_xml(xml, "f.xml", hosts);
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

TEST(PlatformCheck, SimGridUnits) {
  EXPECT_DOUBLE_EQ(platforms::parse_bandwidth("10Gbps"), 1.25e9);
  EXPECT_DOUBLE_EQ(platforms::parse_bandwidth("1GBps"), 1e9);
  EXPECT_DOUBLE_EQ(platforms::parse_bandwidth("100MBps"), 1e8);
  EXPECT_DOUBLE_EQ(platforms::parse_bandwidth("1GiBps"), 1073741824.0);
  EXPECT_DOUBLE_EQ(platforms::parse_bandwidth("125"), 125);  // bare: bytes per second
  EXPECT_DOUBLE_EQ(platforms::parse_time("5us"), 5e-6);
  EXPECT_DOUBLE_EQ(platforms::parse_time("1e-6s"), 1e-6);
  EXPECT_DOUBLE_EQ(platforms::parse_time("1ms"), 1e-3);
  EXPECT_DOUBLE_EQ(platforms::parse_time("2m"), 120);  // SimGrid's "m" is minutes
  EXPECT_DOUBLE_EQ(platforms::parse_time("0"), 0);
  EXPECT_DOUBLE_EQ(platforms::parse_speed("2Gf"), 2e9);
  EXPECT_DOUBLE_EQ(platforms::parse_speed("3megaflops"), 3e6);
  for (const char* bad : {"", "Gbps", "10Gbit", "1 Gbps", "1e999Bps", "1KBps"})
    EXPECT_THROW(platforms::parse_bandwidth(bad), std::invalid_argument) << bad;
  EXPECT_THROW(platforms::parse_time("5usec"), std::invalid_argument);
}

// Every preset, topology, duplex and node size collsim writes is accepted
// for the hosts its runs use: the checker refuses no platform of ours.
TEST(PlatformCheck, EveryGeneratedPlatformPasses) {
  int checked = 0;
  for (platforms::Platform pf : platforms::presets())
    for (const char* topology : {"flat", "fat-tree", "fat-tree:2", "torus", "torus:4,4,4", "dragonfly"})
      for (bool duplex : {true, false})
        for (int64_t cores : {int64_t{1}, int64_t{4}}) {
          pf.topology = platforms::parse_topology(topology);
          pf.nodes = pf.topology.kind == platforms::Topology::Kind::flat ? pf.nodes : 64;
          pf.full_duplex = duplex;
          pf.cores_per_node = cores;
          pf.intra_beta = pf.intra_beta > 0 ? pf.intra_beta : 1e-10;
          std::string xml;
          try {
            xml = platforms::platform_xml(pf);
          } catch (const std::invalid_argument&) {
            continue;  // a combination validate() refuses (half duplex on flat LogGP)
          }
          const int64_t p = pf.nodes * pf.cores_per_node;
          EXPECT_EQ(refusal(xml, platforms::hosts_used(pf, p)), "") << pf.name << " " << topology << "\n" << xml;
          ++checked;
        }
  EXPECT_GT(checked, 80);
  EXPECT_EQ(refusal(zone_xml()), "");
  EXPECT_EQ(refusal(cluster_xml(4, "1e9", "0")), "");  // bare numbers, zero latency
}

TEST(PlatformCheck, HostsTheRunNeeds) {
  platforms::Platform pf = *platforms::find_preset("alphabeta");
  pf.nodes = 8;
  EXPECT_EQ(platforms::hosts_used(pf, 5), 5);
  pf.cores_per_node = 4;
  EXPECT_EQ(platforms::hosts_used(pf, 5), 2);
  pf.round_robin = true;
  EXPECT_EQ(platforms::hosts_used(pf, 5), 5);
  EXPECT_EQ(platforms::hosts_used(pf, 20), 8);
}

// Each hostile platform gets one line naming the file, the element and the rule.
TEST(PlatformCheck, RefusalsNameFileElementAndRule) {
  const std::string version = kDoctype + "<platform version=\"4.1\">";
  const std::string host_zone = version + "<zone id=\"z\" routing=\"Full\">";
  struct Bad {
    std::string xml, says;
  } bads[] = {
      {"", "is empty"},
      {" \n\t", "is empty"},
      {"<platform version=\"4.1\">\n", "not well-formed XML"},
      {"\x7f" "ELF garbage \x01\x02", "not well-formed XML"},
      {"<platform version=\"4.1\"><cluster id=\"c\"", "not well-formed XML"},
      {cluster_xml(4, "1GBps", "2.5us", "host-"), "no host 'node-0'"},
      {cluster_xml(2), "no host 'node-2'"},
      {cluster_xml(4, "0"), "<cluster id='c'>: bw '0' must be > 0"},
      {cluster_xml(4, "0Bps"), "bw '0Bps' must be > 0"},
      {cluster_xml(4, "inf"), "must be > 0 and finite"},
      {cluster_xml(4, "-1GBps"), "must be > 0"},
      {cluster_xml(4, "1GBps", "-1us"), "lat '-1us' must be >= 0"},
      {cluster_xml(4, "1GBps", "nan"), "must be >= 0 and finite"},
      {cluster_xml(4, "1GBps", "1e999s"), "out of range"},
      {cluster_xml(4, "10Gbit"), "unknown unit 'Gbit'"},
      {zone_xml("0Bps"), "line 10, <link id='l0'>: bandwidth '0Bps' must be > 0"},
      {zone_xml("10Gbps", "l9"), "<link_ctn id='l9'>: link 'l9' is not declared"},
      {kDoctype + "<platform version=\"3\"/>", "version '3'"},
      {kDoctype + "<platform/>", "attribute 'version' is required"},
      {kDoctype + "<zone id=\"z\" routing=\"Full\"/>", "root element must be <platform>"},
      {"<platform version=\"4.1\"/>", "must declare <!DOCTYPE platform SYSTEM"},
      {"<!DOCTYPE platform SYSTEM \"simgrid.dtd\"><platform version=\"4.1\"/>", "must declare <!DOCTYPE"},
      {version + "<![CDATA[ ]]></platform>", "a CDATA section inside <platform>"},
      {version + "<host id=\"node-0\" speed=\"1f\"/></platform>", "<host> cannot be inside <platform>"},
      {host_zone + "<host id=\"node-0\" speed=\"0f\"/></zone></platform>", "speed '0f' must be > 0"},
      {host_zone + "<host id=\"node-0\" speed=\"1f\"/><host id=\"node-0\" speed=\"1f\"/></zone></platform>",
       "host 'node-0' is declared twice"},
      {host_zone + "<host id=\"node-0\" speed=\"1f\" core=\"0\"/></zone></platform>", "core '0'"},
      {host_zone + "<hots id=\"node-0\"/></zone></platform>", "unknown element <hots>"},
      {host_zone + "<host id=\"node-0\" speed=\"1f\" colour=\"red\"/></zone></platform>", "unknown attribute 'colour'"},
      {version + "<zone id=\"z\" routing=\"Magic\"/></platform>", "routing 'Magic' is not one of"},
      {version + "<config><prop id=\"tracing\" value=\"yes\"/></config></platform>", "<config> sets SimGrid options"},
      {host_zone + "<link id=\"l\" bandwidth=\"1Bps\" bandwidth_file=\"/etc/passwd\"/></zone></platform>",
       "reads a profile file"},
      {"<!DOCTYPE platform [<!ENTITY a \"aaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]>\n"
       "<platform version=\"4.1\" a=\"&b;\"></platform>",
       "internal DTD subset"},
      {version + "text</platform>", "text inside <platform>"},
      {version + "<cluster id=\"c\" prefix=\"node-\" suffix=\"\" radical=\"0-99999999999\" speed=\"1f\" bw=\"1Bps\" "
                 "lat=\"0\"/></platform>",
       "radical number '99999999999'"},
      {version + "<cluster id=\"c\" prefix=\"node-\" suffix=\"\" radical=\"0-3\" speed=\"1f\" bw=\"1Bps\" lat=\"0\" "
                 "topology=\"TORUS\" topo_parameters=\"2,x\"/></platform>",
       "topo_parameters '2,x'"},
  };
  for (const Bad& b : bads) {
    const std::string why = refusal(b.xml);
    EXPECT_EQ(why.rfind("platform file 'f.xml'", 0), 0u) << why;
    EXPECT_NE(why.find(b.says), std::string::npos) << "wanted '" << b.says << "' for\n" << b.xml << "\ngot: " << why;
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
  }
}

// ---- through `collsim run` ----

// stdout and stderr of a run on platform `file`; status 2 and one line
// expected for a hostile file.
test::CliResult run_on(const std::string& file, const std::vector<std::string>& more = {}) {
  std::vector<std::string> args = {"run", "--collective", "bcast", "--algo", "binomial", "--p",
                                   "4",   "--size",       "1KiB",  "--platform", file};
  args.insert(args.end(), more.begin(), more.end());
  return test::run_collsim_argv(args);
}

int lines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

TEST(PlatformCheck, HostilePlatformFilesExitTwoWithOneLine) {
  struct Bad {
    std::string name, xml, says;
  } bads[] = {
      {"empty.xml", "", "is empty"},
      {"truncated.xml", "<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">", "not well-formed"},
      {"garbage.xml", "\x01\x02garbage\xff", "not well-formed"},
      {"hostnames.xml", cluster_xml(4, "1GBps", "2.5us", "host-"), "no host 'node-0'"},
      {"toofew.xml", cluster_xml(3), "no host 'node-3'"},
      {"bw0.xml", cluster_xml(4, "0Bps"), "must be > 0"},
      {"neglat.xml", cluster_xml(4, "1GBps", "-1us"), "must be >= 0"},
      {"badroute.xml", zone_xml("10Gbps", "nope"), "link 'nope' is not declared"},
  };
  for (const Bad& b : bads) {
    const auto r = run_on(test::write_temp(b.name, b.xml));
    EXPECT_EQ(r.status, 2) << b.name << ": " << r.out;
    EXPECT_EQ(lines(r.out), 1) << b.name << ": " << r.out;
    EXPECT_NE(r.out.find(b.says), std::string::npos) << b.name << ": " << r.out;
  }
  const auto dir = run_on(std::string(TEST_TMPDIR) + "/");  // no .xml: an unknown platform
  EXPECT_EQ(dir.status, 2) << dir.out;
}

TEST(PlatformCheck, HostileMeasuredPlatformFiles) {
  const std::string base = "collsim-platform 1\nalpha 1e-6\nbeta 1e-9\ngamma 1e-9\no 0\n";
  struct Bad {
    std::string name, text, says;
  } bads[] = {
      {"negg.platform", base + "g -1\n", "g must be >= 0"},
      {"nang.platform", base + "g nan\n", "g must be >= 0"},
      {"infg.platform", base + "g inf\n", "g must be >= 0"},
      {"zerobeta.platform", "collsim-platform 1\nalpha 1e-6\nbeta 0\ngamma 1e-9\no 0\ng 0\n", "beta must be > 0"},
  };
  for (const Bad& b : bads) {
    const std::string file = test::write_temp(b.name, b.text);
    const auto r = run_on(file);
    EXPECT_EQ(r.status, 2) << b.name << ": " << r.out;
    EXPECT_EQ(lines(r.out), 1) << b.name << ": " << r.out;
    EXPECT_NE(r.out.find("platform file '" + file + "'"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(b.says), std::string::npos) << b.name << ": " << r.out;
  }
}

// The messages name the option to add, in the user's terms.
TEST(PlatformCheck, SizeMessagesNameTheOptions) {
  auto r = test::run_collsim_argv({"run", "--algo", "binomial", "--p", "4", "--size", "1KiB", "--nodes", "4",
                                   "--cores-per-node", "8"});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("add --intra-beta"), std::string::npos) << r.out;
  r = test::run_collsim_argv({"run", "--algo", "binomial", "--p", "1000000000", "--size", "1KiB", "--engine", "loggp"});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("--p 1000000000 at 1 rank(s) per node needs 1000000000 nodes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--cores-per-node 60"), std::string::npos) << r.out;
  r = test::run_collsim_argv({"run", "--algo", "binomial", "--p", "4", "--size", "1KiB", "--nodes", "0"});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("--nodes must be in"), std::string::npos) << r.out;
}

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string f; std::getline(in, f, ',');) out.push_back(f);
  return out;
}

// The simulated time of `run` (--format csv: the time_us column).
std::string time_of(const test::CliResult& r) {
  std::istringstream in(r.out);
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  const std::vector<std::string> names = fields(header), values = fields(row);
  for (size_t i = 0; i < names.size() && i < values.size(); ++i)
    if (names[i] == "time_us") return values[i];
  return "no time_us in: " + r.out;
}

// A platform we generate, written to a file, runs as the preset does; a
// file whose name holds "-->" (once written into the generated XML's
// comment, where it ended the comment) works.
TEST(PlatformCheck, ValidFilesRunAsThePreset) {
  platforms::Platform pf = *platforms::find_preset("alphabeta");
  pf.nodes = 4;
  const std::string xml = test::write_temp("a-->b.xml", platforms::platform_xml(pf));
  const auto preset = run_on("alphabeta", {"--format", "csv"});
  const auto file = run_on(xml, {"--format", "csv"});
  ASSERT_EQ(preset.status, 0) << preset.out;
  ASSERT_EQ(file.status, 0) << file.out;
  EXPECT_EQ(time_of(file), time_of(preset));
  EXPECT_EQ(time_of(file).find("no "), std::string::npos) << file.out;

  std::ostringstream text;
  platforms::write_platform_file(text, pf, "measured");
  const auto measured = run_on(test::write_temp("a-->b.platform", text.str()), {"--format", "csv"});
  ASSERT_EQ(measured.status, 0) << measured.out;
  EXPECT_EQ(time_of(measured), time_of(preset));
}

}  // namespace
}  // namespace collsim
