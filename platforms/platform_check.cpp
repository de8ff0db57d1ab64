#include "platform_check.hpp"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <vector>

#include "bounded_read.hpp"
#include "errors.hpp"
#include "platform.hpp"

namespace collsim::platforms {

namespace {

// Far beyond any platform collsim runs (a run places at most 2^20 ranks), and
// small enough that SimGrid's host objects for it fit in memory.
constexpr int64_t kMaxDeclaredHosts = int64_t{1} << 24;

// ---- SimGrid's units (src/xbt/xbt_parse_units.cpp in SimGrid 3.32) ----

using UnitTable = std::map<std::string, double>;

// `unit` with SimGrid's prefixes: k M G T P E Z Y (powers of 1000) and
// Ki Mi .. Yi (powers of 1024), `value` being the unit's own size.
void add_prefixed(UnitTable& table, const std::string& unit, double value) {
  static const char* const decimal[] = {"k", "M", "G", "T", "P", "E", "Z", "Y"};
  static const char* const binary[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"};
  table[unit] = value;
  double d = value, b = value;
  for (int i = 0; i < 8; ++i) {
    table[decimal[i] + unit] = d *= 1000;
    table[binary[i] + unit] = b *= 1024;
  }
}

const UnitTable& time_units() {
  static const UnitTable t = {{"w", 7 * 24 * 3600.0}, {"d", 24 * 3600.0}, {"h", 3600.0},  {"m", 60.0},  {"s", 1.0},
                              {"ms", 1e-3},           {"us", 1e-6},       {"ns", 1e-9}, {"ps", 1e-12}};
  return t;
}

const UnitTable& bandwidth_units() {
  static const UnitTable t = [] {
    UnitTable u;
    add_prefixed(u, "bps", 0.125);
    add_prefixed(u, "Bps", 1.0);
    return u;
  }();
  return t;
}

const UnitTable& speed_units() {
  static const UnitTable t = [] {
    UnitTable u;
    add_prefixed(u, "f", 1.0);  // SimGrid's binary prefixes on "f" go unused but are harmless
    static const char* const words[] = {"kilo", "mega", "giga", "tera", "peta", "exa", "zeta", "yotta"};
    double v = 1;
    u["flops"] = v;
    for (const char* w : words) u[std::string(w) + "flops"] = v *= 1000;
    return u;
  }();
  return t;
}

// As SimGrid reads a value: strtod, then the rest must be a unit of `units`
// (nothing: `bare`, the base unit).
double value_with_unit(const std::string& text, const UnitTable& units, const char* bare) {
  const char* start = text.c_str();
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(start, &end);
  if (end == start) throw std::invalid_argument("not a number");
  if (errno == ERANGE) throw std::invalid_argument("out of range");
  const std::string unit = *end ? std::string(end) : std::string(bare);
  const auto u = units.find(unit);
  if (u == units.end()) throw std::invalid_argument("unknown unit '" + unit + "'");
  return v * u->second;
}

// ---- messages ----

// A user's text as a message quotes it: one line, at most `most` characters.
std::string printable(const std::string& s, size_t most = 60) {
  std::string out;
  for (char c : s.substr(0, most)) out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
  return s.size() > most ? out + "..." : out;
}

std::string text_of(const xmlChar* s) { return s ? reinterpret_cast<const char*>(s) : ""; }

bool has(xmlNodePtr n, const char* name) { return xmlHasProp(n, reinterpret_cast<const xmlChar*>(name)) != nullptr; }

std::string attr(xmlNodePtr n, const char* name) {
  xmlChar* v = xmlGetProp(n, reinterpret_cast<const xmlChar*>(name));
  std::string s = text_of(v);
  xmlFree(v);
  return s;
}

// ---- what each element may hold (SimGrid 3.32's simgrid.dtd) ----

struct Shape {
  std::vector<const char*> required, optional, parents;
};

const std::vector<const char*> kZones = {"zone", "AS"};
const std::vector<const char*> kRoutes = {"route",           "zoneRoute",     "ASroute",
                                          "bypassRoute",     "bypassZoneRoute", "bypassASroute"};

const std::map<std::string, Shape>& shapes() {
  static const std::map<std::string, Shape> all = {
      {"platform", {{"version"}, {}, {}}},
      {"zone", {{"id", "routing"}, {}, {"platform", "zone", "AS"}}},
      {"AS", {{"id", "routing"}, {}, {"platform", "zone", "AS"}}},
      {"host", {{"id", "speed"}, {"core", "pstate", "coordinates"}, kZones}},
      {"disk", {{"id", "read_bw", "write_bw"}, {}, {"host"}}},
      {"cluster",
       {{"id", "prefix", "suffix", "radical", "speed", "bw", "lat"},
        {"core", "sharing_policy", "topology", "topo_parameters", "router_id", "limiter_link", "loopback_bw",
         "loopback_lat", "bb_bw", "bb_lat", "bb_sharing_policy"},
        {"platform", "zone", "AS"}}},
      {"cabinet", {{"id", "prefix", "suffix", "radical", "speed", "bw", "lat"}, {}, kZones}},
      {"peer", {{"id", "speed", "bw_in", "bw_out"}, {"lat", "coordinates"}, kZones}},
      {"router", {{"id"}, {"coordinates"}, kZones}},
      {"backbone", {{"id", "bandwidth", "latency"}, {}, kZones}},
      {"link", {{"id", "bandwidth"}, {"latency", "sharing_policy"}, kZones}},
      {"route", {{"src", "dst"}, {"symmetrical"}, kZones}},
      {"zoneRoute", {{"src", "dst", "gw_src", "gw_dst"}, {"symmetrical"}, kZones}},
      {"ASroute", {{"src", "dst", "gw_src", "gw_dst"}, {"symmetrical"}, kZones}},
      {"bypassRoute", {{"src", "dst"}, {}, kZones}},
      {"bypassZoneRoute", {{"src", "dst", "gw_src", "gw_dst"}, {}, kZones}},
      {"bypassASroute", {{"src", "dst", "gw_src", "gw_dst"}, {}, kZones}},
      {"link_ctn", {{"id"}, {"direction"}, kRoutes}},
      {"prop", {{"id", "value"}, {}, {"zone", "AS", "host", "link", "cluster", "disk"}}},
  };
  return all;
}

// Elements SimGrid knows that a collsim run must not carry.
const std::map<std::string, std::string>& refused_elements() {
  static const std::map<std::string, std::string> all = {
      {"config", "sets SimGrid options; collsim sets the model itself (give the numbers as options)"},
      {"include", "reads another file, which collsim has not checked"},
      {"trace", "reads a profile file, which collsim has not checked"},
      {"trace_connect", "attaches a profile file, which collsim has not checked"},
      {"actor", "is a deployment element; collsim deploys the ranks itself"},
      {"process", "is a deployment element; collsim deploys the ranks itself"},
      {"argument", "is a deployment element; collsim deploys the ranks itself"},
  };
  return all;
}

const std::map<std::string, std::vector<const char*>>& enums() {
  static const std::map<std::string, std::vector<const char*>> all = {
      {"routing",
       {"Full", "Floyd", "Dijkstra", "DijkstraCache", "None", "Vivaldi", "Cluster", "ClusterTorus", "ClusterFatTree",
        "ClusterDragonfly", "Wifi"}},
      {"sharing_policy", {"SHARED", "SPLITDUPLEX", "FATPIPE", "WIFI"}},
      {"bb_sharing_policy", {"SHARED", "FATPIPE"}},
      {"topology", {"FLAT", "TORUS", "FAT_TREE", "DRAGONFLY"}},
      {"symmetrical", {"YES", "NO", "yes", "no"}},
      {"direction", {"UP", "DOWN", "NONE"}},
  };
  return all;
}

bool listed(const std::vector<const char*>& list, const std::string& s) {
  return std::any_of(list.begin(), list.end(), [&](const char* x) { return s == x; });
}

// ---- the checker ----

// A cluster's or cabinet's hosts: prefix + i + suffix for i in [lo, hi].
struct HostRange {
  std::string prefix, suffix;
  int64_t lo, hi;
  bool holds(const std::string& name) const {
    if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      return false;
    const std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    if (digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos ||
        (digits.size() > 1 && digits[0] == '0'))
      return false;
    const int64_t i = std::stoll(digits);
    return i >= lo && i <= hi;
  }
};

class Checker {
 public:
  explicit Checker(const std::string& file) : file_(file) {}

  void check(xmlDocPtr doc, int64_t hosts) {
    xmlNodePtr root = xmlDocGetRootElement(doc);
    if (!root) fail(nullptr, "no root element");
    if (doc->intSubset && doc->intSubset->children)
      fail(nullptr, "an internal DTD subset (<!ENTITY ...>, <!ELEMENT ...>) is not accepted");
    doctype(doc->intSubset);
    if (text_of(root->name) != "platform") fail(root, "the root element must be <platform>");
    element(root);
    require_hosts(hosts);
  }

 private:
  [[noreturn]] void fail(xmlNodePtr n, const std::string& rule) const {
    std::string where = "platform file '" + printable(file_) + "'";
    if (n) {
      where += ", line " + std::to_string(xmlGetLineNo(n)) + ", <" + printable(text_of(n->name));
      for (const char* key : {"id", "src"})
        if (has(n, key)) where += std::string(" ") + key + "='" + printable(attr(n, key)) + "'";
      where += ">";
    }
    throw std::invalid_argument(where + ": " + rule);
  }

  // SimGrid's parser (FleXML) takes only its own document type, with one of
  // the two system identifiers it knows; without it, it aborts.
  void doctype(xmlDtdPtr dtd) const {
    const std::string system = dtd ? text_of(dtd->SystemID) : "";
    if (!dtd || text_of(dtd->name) != "platform" || dtd->ExternalID ||
        (system != "https://simgrid.org/simgrid.dtd" && system != "http://simgrid.gforge.inria.fr/simgrid/simgrid.dtd"))
      fail(nullptr, "it must declare <!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\"> before <platform> "
                    "(SimGrid's parser needs it)");
  }

  void element(xmlNodePtr n) {
    const std::string tag = text_of(n->name);
    if (const auto r = refused_elements().find(tag); r != refused_elements().end()) fail(n, "<" + tag + "> " + r->second);
    const auto s = shapes().find(tag);
    if (s == shapes().end()) fail(n, "unknown element <" + printable(tag) + "> (SimGrid 3.32 would abort on it)");
    const std::string parent = n->parent && n->parent->type == XML_ELEMENT_NODE ? text_of(n->parent->name) : "";
    if (tag == "platform" ? !parent.empty() : !listed(s->second.parents, parent))
      fail(n, "<" + tag + "> cannot be inside " + (parent.empty() ? "the document" : "<" + parent + ">"));
    attributes(n, s->second);
    declare(n, tag);
    for (xmlNodePtr c = n->children; c; c = c->next) {
      if (c->type == XML_ELEMENT_NODE)
        element(c);
      else if (c->type == XML_CDATA_SECTION_NODE)
        fail(n, "a CDATA section inside <" + tag + "> (SimGrid's parser aborts on it)");
      else if (c->type == XML_TEXT_NODE && !xmlIsBlankNode(c))
        fail(n, "text inside <" + tag + "> (SimGrid's elements hold only elements)");
      else if (c->type == XML_ENTITY_REF_NODE)
        fail(n, "an entity reference inside <" + tag + ">");
    }
  }

  void attributes(xmlNodePtr n, const Shape& shape) {
    for (const char* key : shape.required)
      if (!has(n, key)) fail(n, std::string("attribute '") + key + "' is required");
    for (xmlAttrPtr a = n->properties; a; a = a->next) {
      const std::string key = text_of(a->name);
      if (key.size() > 5 && key.compare(key.size() - 5, 5, "_file") == 0)
        fail(n, "attribute '" + printable(key) + "' reads a profile file, which collsim has not checked");
      if (!listed(shape.required, key) && !listed(shape.optional, key))
        fail(n, "unknown attribute '" + printable(key) + "' (SimGrid 3.32 would abort on it)");
      if (a->ns) fail(n, "attribute '" + printable(key) + "' has a namespace");
      if (const auto e = enums().find(key); e != enums().end() && !listed(e->second, attr(n, key.c_str()))) {
        std::string allowed;
        for (const char* v : e->second) allowed += (allowed.empty() ? "" : ", ") + std::string(v);
        fail(n, key + " '" + printable(attr(n, key.c_str())) + "' is not one of " + allowed);
      }
    }
  }

  // Checks the values of `n` and records what it declares (hosts, links,
  // routers) for the references and the hosts the run needs.
  void declare(xmlNodePtr n, const std::string& tag) {
    if (tag == "platform") return version(n);
    if (tag == "host") {
      speeds(n, "speed");
      count(n, "core");
      return add_host(n, attr(n, "id"));
    }
    if (tag == "disk") return bandwidth(n, "read_bw"), bandwidth(n, "write_bw");
    if (tag == "cluster" || tag == "cabinet") return cluster(n, tag == "cluster");
    if (tag == "peer") {
      speeds(n, "speed");
      bandwidth(n, "bw_in"), bandwidth(n, "bw_out"), latency(n, "lat");
      return add_host(n, attr(n, "id"));
    }
    if (tag == "router") return void(routers_.insert(attr(n, "id")));
    if (tag == "backbone" || tag == "link") return link(n);
    if (tag == "route" || tag == "bypassRoute") return endpoints(n);
    if (tag == "link_ctn") return link_reference(n);
  }

  void version(xmlNodePtr n) {
    const std::string v = attr(n, "version");
    char* end = nullptr;
    const double number = std::strtod(v.c_str(), &end);
    if (v.empty() || *end || !(number >= 4.0 && number <= 4.1))
      fail(n, "version '" + printable(v) + "' is not 4 or 4.1 (SimGrid 3.32's formats; simgrid_update_xml updates "
                                            "older files)");
  }

  double value(xmlNodePtr n, const char* key, const std::string& text, const UnitTable& units, const char* bare) {
    try {
      return value_with_unit(text, units, bare);
    } catch (const std::invalid_argument& e) {
      fail(n, std::string(key) + " '" + printable(text) + "': " + e.what());
    }
  }

  void latency(xmlNodePtr n, const char* key) {
    if (!has(n, key)) return;
    const std::string text = attr(n, key);
    const double v = value(n, key, text, time_units(), "s");
    if (!std::isfinite(v) || v < 0) fail(n, std::string(key) + " '" + printable(text) + "' must be >= 0 and finite");
  }

  // A bandwidth, or a list of them where `list` (WIFI links: one per rate).
  void bandwidth(xmlNodePtr n, const char* key, bool list = false) {
    for (const std::string& text : split(attr(n, key), list ? ";," : "")) {
      const double v = value(n, key, text, bandwidth_units(), "Bps");
      if (!std::isfinite(v) || v <= 0) fail(n, std::string(key) + " '" + printable(text) + "' must be > 0 and finite");
    }
  }

  // One speed per power state, comma-separated.
  void speeds(xmlNodePtr n, const char* key) {
    for (std::string text : split(attr(n, key), ",")) {
      text.erase(0, text.find_first_not_of(" \t"));
      text.erase(text.find_last_not_of(" \t") + 1);
      const double v = value(n, key, text, speed_units(), "f");
      if (!std::isfinite(v) || v <= 0) fail(n, std::string(key) + " '" + printable(text) + "' must be > 0 and finite");
    }
  }

  // A count of cores: an integer in [1, 2^20].
  int64_t count(xmlNodePtr n, const char* key) {
    if (!has(n, key)) return 1;
    const std::string text = attr(n, key);
    if (text.empty() || text.size() > 7 || text.find_first_not_of("0123456789") != std::string::npos ||
        std::stoll(text) < 1 || std::stoll(text) > (int64_t{1} << 20))
      fail(n, std::string(key) + " '" + printable(text) + "' must be an integer in [1, 1048576]");
    return std::stoll(text);
  }

  static std::vector<std::string> split(const std::string& s, const char* separators) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t at; *separators && (at = s.find_first_of(separators, start)) != std::string::npos; start = at + 1)
      parts.push_back(s.substr(start, at - start));
    parts.push_back(s.substr(start));
    return parts;
  }

  void cluster(xmlNodePtr n, bool full) {
    speeds(n, "speed");
    bandwidth(n, "bw");
    latency(n, "lat");
    if (full) {
      count(n, "core");
      for (const char* key : {"loopback_bw", "bb_bw"})
        if (has(n, key)) bandwidth(n, key);
      latency(n, "loopback_lat");
      latency(n, "bb_lat");
      topology(n);
      if (has(n, "router_id")) routers_.insert(attr(n, "router_id"));
      generated_prefixes_.push_back(attr(n, "id") + "_");
    }
    const std::string prefix = attr(n, "prefix"), suffix = attr(n, "suffix");
    for (const std::string& part : split(attr(n, "radical"), ",")) {
      const std::vector<std::string> ends = split(part, "-");
      if (ends.size() > 2) fail(n, "radical part '" + printable(part) + "' is not N or A-B");
      const int64_t lo = radical_number(n, ends.front()), hi = radical_number(n, ends.back());
      if (lo > hi) fail(n, "radical part '" + printable(part) + "' is an empty range");
      declared_hosts_ += hi - lo + 1;
      if (declared_hosts_ > kMaxDeclaredHosts)
        fail(n, "more than " + std::to_string(kMaxDeclaredHosts) + " hosts declared in all");
      ranges_.push_back({prefix, suffix, lo, hi});
    }
    routers_.insert(prefix + attr(n, "id") + "_router" + suffix);
  }

  int64_t radical_number(xmlNodePtr n, const std::string& text) {
    if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
      fail(n, "radical number '" + printable(text) + "' is not an integer in [0, 999999999]");
    return std::stoll(text);
  }

  // topo_parameters as SimGrid's cluster zones read them: TORUS "X,Y,..",
  // FAT_TREE "levels;down,..;up,..;links,.." (one count per level),
  // DRAGONFLY "groups,links;chassis,links;routers,links;nodes".
  void topology(xmlNodePtr n) {
    const std::string kind = has(n, "topology") ? attr(n, "topology") : "FLAT";
    if (kind == "FLAT") return;
    const std::string text = attr(n, "topo_parameters");
    auto bad = [&](const char* shape) {
      fail(n, "topo_parameters '" + printable(text) + "' is not " + shape + " (positive integers)");
    };
    auto numbers = [&](const std::string& part, const char* shape) {
      std::vector<int64_t> v;
      for (const std::string& x : split(part, ",")) {
        if (x.empty() || x.size() > 9 || x.find_first_not_of("0123456789") != std::string::npos || std::stoll(x) < 1)
          bad(shape);
        v.push_back(std::stoll(x));
      }
      return v;
    };
    const std::vector<std::string> parts = split(text, ";");
    if (kind == "TORUS") {
      if (parts.size() != 1) bad("X,Y,..");
      const std::vector<int64_t> sizes = numbers(parts[0], "X,Y,..");
      // SimGrid names a link after the nodes it joins: two sizes of 1 give a node two links to itself of one name.
      if (std::count(sizes.begin(), sizes.end(), 1) > 1)
        fail(n, "topo_parameters '" + printable(text) + "': SimGrid 3.32 cannot wire a torus with two sizes of 1");
    } else if (kind == "FAT_TREE") {
      const char* shape = "levels;down,..;up,..;links,..";
      if (parts.size() != 4) bad(shape);
      const std::vector<int64_t> levels = numbers(parts[0], shape);
      if (levels.size() != 1) bad(shape);
      for (int i = 1; i < 4; ++i)
        if (static_cast<int64_t>(numbers(parts[i], shape).size()) != levels[0]) bad(shape);
    } else {
      const char* shape = "groups,links;chassis,links;routers,links;nodes";
      if (parts.size() != 4) bad(shape);
      std::vector<std::vector<int64_t>> levels;
      for (int i = 0; i < 4; ++i) {
        levels.push_back(numbers(parts[i], shape));
        if (levels.back().size() != (i < 3 ? 2u : 1u)) bad(shape);
      }
      if (levels[0][0] > levels[2][0])  // platforms/topology.hpp says why
        fail(n, "topo_parameters '" + printable(text) +
                    "': SimGrid 3.32 routes the link to group g through router g of a chassis, so it needs no more "
                    "groups than routers per chassis");
    }
  }

  void add_host(xmlNodePtr n, const std::string& id) {
    if (!hosts_.insert(id).second) fail(n, "host '" + printable(id) + "' is declared twice");
    if (++declared_hosts_ > kMaxDeclaredHosts)
      fail(n, "more than " + std::to_string(kMaxDeclaredHosts) + " hosts declared in all");
  }

  void link(xmlNodePtr n) {
    const std::string id = attr(n, "id");
    const bool wifi = attr(n, "sharing_policy") == "WIFI", split_duplex = attr(n, "sharing_policy") == "SPLITDUPLEX";
    bandwidth(n, "bandwidth", wifi);
    latency(n, "latency");
    if (!links_.insert(id).second) fail(n, "link '" + printable(id) + "' is declared twice");
    if (split_duplex) links_.insert({id + "_UP", id + "_DOWN"});
  }

  void link_reference(xmlNodePtr n) {
    const std::string id = attr(n, "id");
    if (links_.count(id)) return;
    for (const std::string& prefix : generated_prefixes_)  // a cluster's own links: C_link_N, C_backbone, ...
      if (id.compare(0, prefix.size(), prefix) == 0) return;
    fail(n, "link '" + printable(id) + "' is not declared before this route");
  }

  bool is_netpoint(const std::string& name) const {
    return hosts_.count(name) || routers_.count(name) ||
           std::any_of(ranges_.begin(), ranges_.end(), [&](const HostRange& r) { return r.holds(name); });
  }

  void endpoints(xmlNodePtr n) {
    for (const char* key : {"src", "dst"})
      if (!is_netpoint(attr(n, key)))
        fail(n, std::string(key) + " '" + printable(attr(n, key)) + "' is no host or router declared before it");
  }

  // The run puts ranks on node-0 .. node-(hosts-1) (platforms::hostfile).
  void require_hosts(int64_t hosts) const {
    for (int64_t i = 0; i < hosts; ++i) {
      const std::string name = "node-" + std::to_string(i);
      const auto in_ranges = std::count_if(ranges_.begin(), ranges_.end(), [&](const HostRange& r) { return r.holds(name); });
      const int64_t found = static_cast<int64_t>(hosts_.count(name)) + in_ranges;
      if (found == 0)
        fail(nullptr, "no host '" + name + "': this run places its ranks on hosts node-0 .. node-" +
                          std::to_string(hosts - 1) + " (" + std::to_string(hosts) +
                          " hosts), so the file must declare each");
      if (found > 1) fail(nullptr, "host '" + name + "' is declared " + std::to_string(found) + " times");
    }
  }

  std::string file_;
  std::set<std::string> hosts_, links_, routers_;
  std::vector<HostRange> ranges_;
  std::vector<std::string> generated_prefixes_;
  int64_t declared_hosts_ = 0;
};

struct DocFree {
  void operator()(xmlDocPtr d) const { xmlFreeDoc(d); }
};
struct CtxtFree {
  void operator()(xmlParserCtxtPtr c) const { xmlFreeParserCtxt(c); }
};

// libxml2's first error as one line: "line 3: Opening and ending tag mismatch".
std::string parse_error(xmlParserCtxtPtr ctxt) {
  const xmlError* e = xmlCtxtGetLastError(ctxt);
  if (!e || !e->message) return "not well-formed XML";
  std::string message = e->message;
  while (!message.empty() && std::isspace(static_cast<unsigned char>(message.back()))) message.pop_back();
  message = printable(message, 160);
  return "line " + std::to_string(e->line) + ": not well-formed XML: " + message;
}

}  // namespace

double parse_time(const std::string& text) { return value_with_unit(text, time_units(), "s"); }
double parse_bandwidth(const std::string& text) { return value_with_unit(text, bandwidth_units(), "Bps"); }
double parse_speed(const std::string& text) { return value_with_unit(text, speed_units(), "f"); }

void check_platform_xml(const std::string& xml, const std::string& file, int64_t hosts) {
  const std::string name = "platform file '" + printable(file) + "'";
  if (xml.find_first_not_of(" \t\r\n") == std::string::npos) throw std::invalid_argument(name + " is empty");
  if (static_cast<int64_t>(xml.size()) > kMaxPlatformFileBytes)
    throw LimitError(name + " is longer than the limit of " + limit_text(kMaxPlatformFileBytes));
  // No network, no DTD loading or validation, no entity substitution, no
  // XInclude, libxml2's default size and depth limits (no XML_PARSE_HUGE).
  const int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
  const std::unique_ptr<xmlParserCtxt, CtxtFree> ctxt(xmlNewParserCtxt());
  if (!ctxt) throw std::runtime_error("libxml2 could not start a parser");
  const std::unique_ptr<xmlDoc, DocFree> doc(
      xmlCtxtReadMemory(ctxt.get(), xml.data(), static_cast<int>(xml.size()), nullptr, nullptr, options));
  if (!doc || !ctxt->wellFormed) throw std::invalid_argument(name + ", " + parse_error(ctxt.get()));
  Checker(file).check(doc.get(), hosts);
}

void check_platform_xml_file(const std::string& path, int64_t hosts) {
  check_platform_xml(read_bounded_file(path, kMaxPlatformFileBytes, "platform file"), path, hosts);
}

int64_t hosts_used(const Platform& pf, int64_t p) {
  if (p < 1) return 0;
  return pf.round_robin ? std::min(p, pf.nodes) : (p - 1) / std::max<int64_t>(pf.cores_per_node, 1) + 1;
}

}  // namespace collsim::platforms
