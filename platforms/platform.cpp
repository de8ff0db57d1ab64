#include "platform.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <istream>
#include <iterator>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace collsim::platforms {

namespace {

// 15 significant digits: exact to 1e-15 relative, and 1/1e-9 prints as 1000000000.
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

// Links of a flat LogGP platform, whose senders pay G (overhead_flags): 10^18 B/s,
// a gigabyte in a nanosecond.
constexpr double kUnboundedBandwidth = 1e18;

// Above an hour per message or byte, SimGrid's clock (double seconds, with
// nanosecond-scale increments) loses the times; one hour is far beyond any
// network, so larger values are refused instead of simulated wrongly.
constexpr double kLongest = 3600;

// A full-duplex flat cluster preset.
Platform preset(const char* name, double alpha, double beta, double gamma, int64_t nodes, int64_t cores,
                double intra_alpha, double intra_beta, double o, double g, const char* source) {
  Platform pf;
  pf.name = name, pf.source = source;
  pf.alpha = alpha, pf.beta = beta, pf.gamma = gamma, pf.nodes = nodes, pf.cores_per_node = cores;
  pf.intra_alpha = intra_alpha, pf.intra_beta = intra_beta, pf.o = o, pf.g = g;
  return pf;
}

// `pf` with its senders paying the bytes (Machine::bytes_at_sender).
Platform at_sender(Platform pf) {
  pf.bytes_at_sender = true;
  return pf;
}

}  // namespace

double as_written(double v) { return std::strtod(num(v).c_str(), nullptr); }

bool bytes_on_links(const Machine& pf) { return !pf.senders_pay(); }

double link_bandwidth(const Machine& pf) { return bytes_on_links(pf) ? 1.0 / pf.beta : kUnboundedBandwidth; }

const std::vector<Platform>& presets() {
  static const std::vector<Platform> list = {
      // The round numbers of the first issues' closed-form checks; latency that any number of a
      // rank's messages overlap (not the default since issue 17: it flatters flat algorithms).
      preset("alphabeta", 5e-6, 1e-9, 1e-9, 1024, 1, 0, 0, 0, 0,
       "textbook α = 5 µs, β = 1 ns/B (1 GB/s), γ = 1 ns/B; a flat full-duplex cluster"),
      // Seeds 000 and 003: 36 dual-socket nodes, 2 × Intel Xeon Gold 6130F (16 cores each), dual Intel
      // Omni-Path. The seeds print "100 GigaBytes/s" per rail; Omni-Path is a 100 Gbit/s fabric, so we
      // read it as 100 Gbit/s = 12.5 GB/s and model one rail per message (β = 0.08 ns/B). α = 1 µs is
      // Intel's published MPI ping-pong latency class for Omni-Path (not measured by the seeds).
      // Intra-node: shared-memory transport, α = 0.3 µs, β = 0.1 ns/B (10 GB/s single-copy),
      // typical OSU latency/bandwidth on Skylake-SP nodes (assumed, not from the seeds).
      preset("omnipath36x32", 1e-6, 0.08e-9, 0.1e-9, 36, 32, 0.3e-6, 0.1e-9, 0, 0,
       "36 x 32 Omni-Path cluster of seeds 000/003 (alpha, beta: published Omni-Path class figures)"),
      // Seed 003: the VEGA system, 200 of its 768 nodes, each 2 × AMD EPYC 7H12 "Rome" (64 cores, 2.6 GHz).
      // The seed does not name the interconnect; VEGA's CPU partition uses InfiniBand HDR100 (100 Gbit/s)
      // per node (IZUM's system description): β = 0.08 ns/B, α = 1.5 µs (HDR-class MPI latency plus
      // a larger fat tree). Intra-node: α = 0.4 µs, β = 0.15 ns/B (cross-socket shared memory on
      // Rome is slower than on Skylake; assumed).
      preset("rome200x128", 1.5e-6, 0.08e-9, 0.1e-9, 200, 128, 0.4e-6, 0.15e-9, 0, 0,
       "200 x 128 AMD Rome cluster (VEGA) of seed 003 (alpha, beta: HDR100-class figures, assumed)"),
      // The papers' one-ported model (seeds 000-004: a processor sends one message at a time, each
      // costing α + mβ): alphabeta's numbers with the whole α + mβ as the sender's busy time (LogGP
      // g = α, G = β on the sender, L = 0, o = 0), so a rank's sends serialize, and a broadcast to p
      // ranks needs ⌈log2 p⌉α. What SimGrid cannot say: receives do not serialize (a receiver busy α
      // too would add a second α to every message).
      at_sender(preset("oneported", 0, 1e-9, 1e-9, 1024, 1, 0, 0, 0, 5e-6,
       "one-ported alpha-beta: each send keeps its rank busy alpha + m*beta (5 us, 1 ns/B), L = 0; receives overlap")),
      // The default platform. LogGP: L, o, g are LogGOPSim's defaults (Hoefler, Schneider, Lumsdaine, HPDC 2010; its
      // simulator.ggo: L = 2.5 µs, o = 1.5 µs, g = 1 µs), G = 0.1 ns/B is 10 GB/s, the large-message
      // osu_bw plateau of a public OSU run of Open MPI and of MPICH over UCX on 100 Gbit/s InfiniBand
      // (about 10.3 GB/s; gist.github.com/jfgrimm/3af692a5475bdd4ed836b5a18197a209). Not one current
      // system's fitted set (issue 17 asks for one; not found in a source we could check). o >= g,
      // so SMPI charges it exactly (platform.hpp). γ = 0.1 ns/B as on the cluster presets. G is the
      // NIC's (issue 33): each node's link carries its messages' bytes at 1/G, shared by what the node
      // sends and, apart, by what it receives, so a rank's overlapping sends share its bandwidth and
      // p - 1 messages into one rank take (p - 1)mG (until issue 33 the sender's CPU paid mG and
      // receives were unbounded: oneported keeps that).
      preset("loggp", 2.5e-6, 0.1e-9, 0.1e-9, 1024, 1, 0, 0, 1.5e-6, 1e-6,
       "LogGP: L = 2.5 us, o = 1.5 us, g = 1 us (LogGOPSim's defaults), G = 0.1 ns/B on each node's NIC (EDR-class osu_bw)"),
  };
  return list;
}

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const auto& pf : presets()) names.push_back(pf.name);
  return names;
}

const Platform* find_preset(const std::string& name) {
  for (const auto& pf : presets())
    if (pf.name == name) return &pf;
  return nullptr;
}

std::string summary(const Platform& pf) {
  char numbers[200];
  if (pf.has_overheads())
    std::snprintf(numbers, sizeof numbers, "L = %g us, o = %g us, g = %g us, G = %g ns/B, gamma = %g ns/B",
                  pf.alpha * 1e6, pf.o * 1e6, pf.g * 1e6, pf.beta * 1e9, pf.gamma * 1e9);
  else
    std::snprintf(numbers, sizeof numbers, "alpha = %g us, beta = %g ns/B, gamma = %g ns/B, %s duplex", pf.alpha * 1e6,
                  pf.beta * 1e9, pf.gamma * 1e9, pf.full_duplex ? "full" : "half");
  std::string s = pf.name + " (" + numbers;
  if (pf.cores_per_node > 1) s += ", " + std::to_string(pf.nodes) + " x " + std::to_string(pf.cores_per_node);
  return s + ")";
}

namespace {

// "fat-tree:2", "torus:4,4,8", "flat": as --topology takes it.
std::string topology_name(const Topology& t) {
  static const char* const names[] = {"flat", "fat-tree", "torus", "dragonfly"};
  std::string s = names[static_cast<int>(t.kind)];
  for (size_t i = 0; i < t.shape.size(); ++i) s += (i ? "," : ":") + std::to_string(t.shape[i]);
  return s;
}

std::string us(double seconds) {
  char text[48];
  std::snprintf(text, sizeof text, "%g us", seconds * 1e6);
  return text;
}

std::string ns_per_byte(double seconds) {
  char text[48];
  std::snprintf(text, sizeof text, "%g ns/B", seconds * 1e9);
  return text;
}

}  // namespace

std::vector<std::string> changes(const Platform& pf, int64_t p) {
  // The platform as its preset would be at p, unchanged by any option.
  const Platform* preset = find_preset(pf.name);
  Platform base = preset ? *preset : *find_preset("alphabeta");
  if (!preset) {  // a file: its numbers are its own, named by summary()
    base.alpha = pf.alpha, base.beta = pf.beta, base.gamma = pf.gamma, base.o = pf.o, base.g = pf.g;
    base.full_duplex = pf.full_duplex, base.cores_per_node = 1;
  }
  const bool cluster = base.cores_per_node > 1;
  const int64_t default_nodes = cluster ? base.nodes : (p + pf.cores_per_node - 1) / pf.cores_per_node;
  const bool loggp = pf.has_overheads();
  std::vector<std::string> out;
  auto differs = [&](bool changed, const std::string& what) {
    if (changed) out.push_back(what);
  };
  differs(pf.alpha != base.alpha, std::string(loggp ? "L" : "alpha") + " = " + us(pf.alpha));
  differs(pf.beta != base.beta, std::string(loggp ? "G" : "beta") + " = " + ns_per_byte(pf.beta));
  differs(pf.gamma != base.gamma, "gamma = " + ns_per_byte(pf.gamma));
  differs(pf.o != base.o, "o = " + us(pf.o));
  differs(pf.g != base.g, "g = " + us(pf.g));
  differs(pf.full_duplex != base.full_duplex, pf.full_duplex ? "full duplex" : "half duplex");
  differs(pf.nodes != default_nodes, std::to_string(pf.nodes) + " nodes");
  differs(pf.cores_per_node != base.cores_per_node, std::to_string(pf.cores_per_node) + " cores per node");
  // Within a node only where a node holds several ranks.
  differs(pf.cores_per_node > 1 && pf.intra_alpha != base.intra_alpha, "intra-node alpha = " + us(pf.intra_alpha));
  differs(pf.cores_per_node > 1 && pf.intra_beta != base.intra_beta, "intra-node beta = " + ns_per_byte(pf.intra_beta));
  differs(topology_name(pf.topology) != topology_name(base.topology), "topology " + topology_name(pf.topology));
  differs(pf.round_robin != base.round_robin, pf.round_robin ? "round-robin placement" : "block placement");
  return out;
}

std::string describe(const Platform& pf, int64_t p) {
  std::string s = summary(pf);
  const std::vector<std::string> changed = changes(pf, p);
  for (size_t i = 0; i < changed.size(); ++i) s += (i ? ", " : "; changed: ") + changed[i];
  return s;
}

void validate(const Machine& pf) {
  auto nonneg = [&](double v, const char* what) {
    if (!std::isfinite(v) || v < 0 || v > kLongest)
      throw std::invalid_argument(std::string(what) + " must be in [0, 3600] s");
  };
  auto positive = [&](double v, const char* what) {
    if (!std::isfinite(v) || v <= 0 || v > kLongest)
      throw std::invalid_argument(std::string(what) + " must be in (0, 3600] s/B");
  };
  nonneg(pf.alpha, "alpha");
  nonneg(pf.o, "o");
  nonneg(pf.g, "g");
  nonneg(pf.intra_alpha, "intra-node alpha");
  // Bandwidth is 1/β: zero β would be an infinitely fast link, which SimGrid cannot express.
  positive(pf.beta, "beta");
  positive(pf.gamma, "gamma");
  if (pf.cores_per_node > 1) positive(pf.intra_beta, "intra-node beta (with cores-per-node > 1)");
  if (pf.eager_limit < 0) throw std::invalid_argument("the eager limit must be at least 0 bytes");
  if (pf.nodes < 1 || pf.nodes > kMaxNodes) throw std::invalid_argument("nodes must be in [1, 2^24]");
  if (pf.cores_per_node < 1 || pf.cores_per_node > kMaxCoresPerNode)
    throw std::invalid_argument("cores-per-node must be in [1, 4096]");
  cluster_shape(pf.topology, pf.nodes);  // the shape must hold the nodes
  if (!pf.full_duplex && !bytes_on_links(pf))
    throw std::invalid_argument(
        "half duplex: a flat platform whose senders pay the bytes (oneported): its links are unbounded; "
        "give --topology, or --platform loggp");
}

std::vector<std::string> overhead_flags(const Platform& pf) {
  if (!pf.has_overheads()) return {};
  const std::string send = "0:" + num(pf.send_overhead()) + ":" + num(bytes_on_links(pf) ? 0 : pf.beta),
                    recv = "0:" + num(pf.recv_overhead()) + ":0";
  std::vector<std::string> flags = {"--cfg=smpi/os:" + send, "--cfg=smpi/ois:" + send, "--cfg=smpi/or:" + recv};
  // Flat: messages under the limit eager and flowing at once (SMPI compares an int: INT_MAX, the
  // largest MPI count of bytes, is every size).
  if (const int64_t eager = std::min<int64_t>(pf.eager_below(), INT_MAX); eager > 0)
    flags.insert(flags.begin(), {"--cfg=smpi/send-is-detached-thresh:" + std::to_string(eager),
                                 "--cfg=smpi/async-small-thresh:" + std::to_string(eager)});
  return flags;
}

std::string platform_xml(const Platform& pf) {
  validate(pf);
  std::string xml =
      "<?xml version='1.0'?>\n"
      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      // No name in the comment: a file name can hold "--", which ends or breaks an XML comment.
      "<!-- collsim platform: alpha=" +
      num(pf.alpha) + " s, beta=" + num(pf.beta) + " s/B, gamma=" + num(pf.gamma) +
      " s/B, o=" + num(pf.o) + " s, g=" + num(pf.g) + " s, " + (pf.full_duplex ? "full" : "half") + " duplex, " +
      std::to_string(pf.nodes) + " x " + std::to_string(pf.cores_per_node) +
      " -->\n"
      "<platform version=\"4.1\">\n"
      // lat = α/2: a route crosses the sender's and the receiver's private link.
      "  <cluster id=\"collsim\" prefix=\"node-\" suffix=\"\" radical=\"0-" +
      std::to_string(pf.nodes - 1) + "\" speed=\"" + num(1.0 / pf.gamma) + "f\" core=\"" +
      std::to_string(pf.cores_per_node) + "\" bw=\"" + num(link_bandwidth(pf)) +
      "Bps\" lat=\"" + num(pf.alpha / 2) + "s\" sharing_policy=\"" + (pf.full_duplex ? "SPLITDUPLEX" : "SHARED") + "\"";
  if (const ClusterShape shape = cluster_shape(pf.topology, pf.nodes); !shape.topology.empty())
    xml += " topology=\"" + shape.topology + "\" topo_parameters=\"" + shape.parameters + "\"";
  if (pf.cores_per_node > 1)
    xml += " loopback_bw=\"" + num(1.0 / pf.intra_beta) + "Bps\" loopback_lat=\"" + num(pf.intra_alpha) + "s\"";
  xml += "/>\n</platform>\n";
  return xml;
}

Platform read_platform_file(std::istream& in, const std::string& name) {
  Platform pf = *find_preset("alphabeta");
  pf.name = name;
  pf.source = "platform file " + name;
  // Times may be 0 (no latency, no overhead); β and γ may not: bandwidth and
  // host speed are their inverses.
  struct Key {
    const char* name;
    double* field;
    bool positive;
    const char* unit;
    bool seen;
  } keys[] = {{"alpha", &pf.alpha, false, "seconds", false},
              {"beta", &pf.beta, true, "seconds per byte", false},
              {"gamma", &pf.gamma, true, "seconds per byte", false},
              {"o", &pf.o, false, "seconds", false},
              {"g", &pf.g, false, "seconds", false}};
  std::string line;
  int number = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++number;
    auto fail = [&](const std::string& why) {
      throw std::invalid_argument("line " + std::to_string(number) + ": " + why);
    };
    std::istringstream words(line.substr(0, line.find('#')));
    std::string key, value, extra;
    if (!(words >> key)) continue;
    if (!header) {
      if (key != "collsim-platform" || !(words >> value) || value != "1" || (words >> extra))
        fail("expected 'collsim-platform 1'");
      header = true;
      continue;
    }
    if (!(words >> value) || (words >> extra)) fail("expected 'KEY VALUE'");
    Key* k = std::find_if(std::begin(keys), std::end(keys), [&](const Key& x) { return key == x.name; });
    if (k == std::end(keys)) fail("unknown key '" + key + "' (alpha, beta, gamma, o, g)");
    if (k->seen) fail("'" + key + "' given twice");
    size_t used = 0;
    try {
      *k->field = std::stod(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != value.size()) fail("'" + value + "' is not a number");
    const double v = *k->field;
    if (!std::isfinite(v) || v < 0 || (k->positive && v == 0) || v > kLongest)
      throw std::invalid_argument(key + " must be " + (k->positive ? "> 0" : ">= 0") + " and at most 3600 " + k->unit +
                                  ", not '" + value + "' (line " + std::to_string(number) + ")");
    k->seen = true;
  }
  if (!header) throw std::invalid_argument("empty file: expected 'collsim-platform 1'");
  for (const Key& k : keys)
    if (!k.seen) throw std::invalid_argument(std::string("missing key '") + k.name + "'");
  validate(pf);
  return pf;
}

void write_platform_file(std::ostream& out, const Platform& pf, const std::string& comment) {
  out << "collsim-platform 1\n";
  std::istringstream lines(comment);
  for (std::string line; std::getline(lines, line);) out << "# " << line << "\n";
  out << "alpha " << num(pf.alpha) << "\nbeta " << num(pf.beta) << "\ngamma " << num(pf.gamma) << "\no " << num(pf.o)
      << "\ng " << num(pf.g) << "\n";
}

void check_fits(const Platform& pf, int64_t p) {
  if (p < 1 || p > pf.nodes * pf.cores_per_node)
    throw std::invalid_argument("p = " + std::to_string(p) + " does not fit platform '" + pf.name + "' (" +
                                std::to_string(pf.nodes) + " nodes x " + std::to_string(pf.cores_per_node) +
                                " cores)");
}

std::string hostfile(const Platform& pf, int64_t p) {
  check_fits(pf, p);
  std::string text;
  for (int64_t rank = 0; rank < p; ++rank)
    text += "node-" + std::to_string(pf.round_robin ? rank % pf.nodes : rank / pf.cores_per_node) + "\n";
  return text;
}

}  // namespace collsim::platforms
