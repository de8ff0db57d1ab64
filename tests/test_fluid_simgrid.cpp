// engine/fluid.hpp against SimGrid 3.32 itself: random transfers at random
// times on small platforms (SPLITDUPLEX, SHARED and FATPIPE links, routes of
// latency 0, the cluster shapes collsim writes), run by
// fluid_simgrid_record under collsim's network flags, then by FluidNetwork
// over the links, routes, latencies and start order SimGrid reports; every
// completion time must agree within 1e-9 relative, and where every message
// is solved (none solo) the transfers must finish in SimGrid's order.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "fluid.hpp"
#include "fluid_replay.hpp"
#include "process.hpp"

using collsim::engine::FluidNetwork;
using collsim::engine::testing::Transfer;

namespace {

namespace fs = std::filesystem;

const char* const kHeader =
    "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    "<platform version=\"4.1\">\n";

// Six hosts in a Full zone: h0-h4 with SPLITDUPLEX private links of
// different latencies (p4's is 0), h5 behind the zero-latency SHARED link z
// (h4 <-> h5: a route of latency 0), a FATPIPE loopback per host (lo5: latency
// 0), and between hosts either the SHARED backbone bb or the FATPIPE fp.
std::string full_zone() {
  std::ostringstream x;
  x << kHeader << "<zone id=\"z0\" routing=\"Full\">\n";
  for (int h = 0; h < 6; ++h) x << "  <host id=\"h" << h << "\" speed=\"1f\"/>\n";
  for (int h = 0; h < 5; ++h)
    x << "  <link id=\"p" << h << "\" bandwidth=\"" << (1 + 0.25 * h) << "GBps\" latency=\"" << (h == 4 ? 0 : 0.5 + h)
      << "us\" sharing_policy=\"SPLITDUPLEX\"/>\n";
  for (int h = 0; h < 6; ++h)
    x << "  <link id=\"lo" << h << "\" bandwidth=\"" << (3 + h) << "GBps\" latency=\"" << (h == 5 ? 0 : 0.2)
      << "us\" sharing_policy=\"FATPIPE\"/>\n";
  x << "  <link id=\"bb\" bandwidth=\"1.5GBps\" latency=\"1us\" sharing_policy=\"SHARED\"/>\n"
       "  <link id=\"fp\" bandwidth=\"1.2GBps\" latency=\"0.3us\" sharing_policy=\"FATPIPE\"/>\n"
       "  <link id=\"z\" bandwidth=\"0.8GBps\" latency=\"0us\" sharing_policy=\"SHARED\"/>\n";
  auto up = [](int h) { return "<link_ctn id=\"p" + std::to_string(h) + "\" direction=\"UP\"/>"; };
  auto down = [](int h) { return "<link_ctn id=\"p" + std::to_string(h) + "\" direction=\"DOWN\"/>"; };
  for (int s = 0; s < 6; ++s)
    for (int d = 0; d < 6; ++d) {
      x << "  <route src=\"h" << s << "\" dst=\"h" << d << "\" symmetrical=\"NO\">";
      if (s == d)
        x << "<link_ctn id=\"lo" << s << "\"/>";
      else if (s == 5)
        x << "<link_ctn id=\"z\"/>" << down(d);
      else if (d == 5)
        x << up(s) << "<link_ctn id=\"z\"/>";
      else
        x << up(s) << "<link_ctn id=\"" << ((s + d) % 2 ? "fp" : "bb") << "\"/>" << down(d);
      x << "</route>\n";
    }
  x << "</zone>\n</platform>\n";
  return x.str();
}

// A cluster as platforms/platform.cpp writes them: private links of
// latency α/2, a FATPIPE loopback per multi-core host, an optional topology.
std::string cluster(int nodes, const char* sharing, const std::string& topology = "",
                    const std::string& parameters = "") {
  std::ostringstream x;
  x << kHeader << "  <cluster id=\"collsim\" prefix=\"node-\" suffix=\"\" radical=\"0-" << nodes - 1
    << "\" speed=\"1f\" core=\"4\" bw=\"12.5GBps\" lat=\"0.5us\" sharing_policy=\"" << sharing << "\"";
  if (!topology.empty()) x << " topology=\"" << topology << "\" topo_parameters=\"" << parameters << "\"";
  x << " loopback_bw=\"10GBps\" loopback_lat=\"0.3us\"/>\n</platform>\n";
  return x.str();
}

struct Sample {
  std::string src, dst;
  double start;
  uint64_t bytes;
};

// `count` transfers between random hosts (self included); with `bursts`,
// starts come from a few instants only, so that many flows start and end
// together.
std::vector<Sample> random_samples(const std::vector<std::string>& hosts, int count, unsigned seed, bool bursts) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> host(0, hosts.size() - 1);
  std::uniform_real_distribution<double> start(0, 2e-3), log_bytes(0, std::log(8e6));
  std::uniform_int_distribution<int> instant(0, 3), zero(0, 40);
  std::vector<Sample> list;
  for (int i = 0; i < count; ++i) {
    Sample s{hosts[host(rng)], hosts[host(rng)], bursts ? instant(rng) * 5e-4 : start(rng), 0};
    s.bytes = zero(rng) == 0 ? 0 : static_cast<uint64_t>(std::exp(log_bytes(rng)));
    list.push_back(s);
  }
  return list;
}

// `count` transfers in copies: a few host pairs and sizes, started at a few
// instants, each drawn transfer repeated 1 to 8 times at once (a node's
// ranks stepping together), so that the network groups identical flows
// (fluid.cpp, join_group).
std::vector<Sample> repeated_samples(const std::vector<std::string>& hosts, int count, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> host(0, hosts.size() - 1);
  std::uniform_int_distribution<int> instant(0, 3), copies(1, 8), size(0, 3);
  const uint64_t sizes[] = {0, 4096, 65536, 1 << 20};
  std::vector<Sample> list;
  while (static_cast<int>(list.size()) < count) {
    const Sample s{hosts[host(rng)], hosts[host(rng)], instant(rng) * 5e-4, sizes[size(rng)]};
    for (int c = copies(rng); c > 0; --c) list.push_back(s);
  }
  list.resize(static_cast<size_t>(count));
  return list;
}

// `count` transfers on a few host pairs, out of step: sizes a few 8-byte
// elements apart around 64 KiB and 1 MiB, started at a few instants plus a
// lag of 0 to 40 ns (some under sg_surf_precision), 1 to 4 copies at once:
// a lock-step plan whose ranks hold 0 or 1 element a segment. The network
// puts each route's overlapping transfers in one class (fluid.cpp,
// join_class), whose members end one by one, some within 1e-9 s.
std::vector<Sample> lagged_samples(const std::vector<std::string>& hosts, int count, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> host(0, 2);
  std::uniform_int_distribution<int> instant(0, 3), lag(0, 40), copies(1, 4), elements(0, 6), large(0, 1);
  std::vector<Sample> list;
  while (static_cast<int>(list.size()) < count) {
    const uint64_t bytes = (large(rng) ? 1 << 20 : 65536) + 8 * static_cast<uint64_t>(elements(rng));
    const Sample s{hosts[host(rng)], hosts[host(rng) + 3], instant(rng) * 2e-4 + lag(rng) * 1e-9, bytes};
    for (int c = copies(rng); c > 0; --c) list.push_back(s);
  }
  list.resize(static_cast<size_t>(count));
  return list;
}

struct Recorded {
  std::map<std::string, std::pair<double, FluidNetwork::Sharing>> links;
  std::map<std::pair<std::string, std::string>, std::pair<double, std::vector<std::string>>> routes;
  std::vector<double> started, end;
  std::vector<size_t> calls;     // the transfers in the order SimGrid started them
  std::vector<size_t> finished;  // and in the order it finished them
};

Recorded record(const std::string& name, const std::string& xml, const std::vector<Sample>& list) {
  const fs::path dir = fs::path(TEST_TMPDIR) / ("fluid_simgrid_" + name);
  fs::create_directories(dir);
  std::ofstream(dir / "platform.xml") << xml;
  {
    std::ofstream flows(dir / "flows");
    flows.precision(17);
    for (const Sample& s : list) flows << s.src << " " << s.dst << " " << s.start << " " << s.bytes << "\n";
  }
  collsim::sim::Command cmd;
  cmd.argv = {FLUID_SIMGRID_RECORD,
              (dir / "platform.xml").string(),
              (dir / "flows").string(),
              (dir / "out").string(),
              "--cfg=network/model:CM02",
              "--cfg=network/crosstraffic:0",
              "--cfg=network/TCP-gamma:1e30",
              "--log=root.thres:warning",
              "--log=xbt_cfg.thres:warning"};
  cmd.stderr_to = dir / "stderr";
  const auto status = collsim::sim::run_process(cmd);
  if (!status.ok()) throw std::runtime_error("fluid_simgrid_record: " + status.describe() + ", see " + dir.string());
  Recorded r;
  r.end.assign(list.size(), -1);
  r.started.assign(list.size(), -1);
  r.calls.assign(list.size(), list.size());
  r.finished.assign(list.size(), list.size());
  std::ifstream in(dir / "out");
  for (std::string line; std::getline(in, line);) {
    std::istringstream w(line);
    std::string kind;
    w >> kind;
    if (kind == "link") {
      std::string id, policy;
      double bw;
      w >> id >> bw >> policy;
      r.links[id] = {bw, policy == "fatpipe" ? FluidNetwork::Sharing::fatpipe : FluidNetwork::Sharing::shared};
    } else if (kind == "route") {
      std::string src, dst, link;
      double latency;
      w >> src >> dst >> latency;
      auto& route = r.routes[{src, dst}];
      route.first = latency;
      while (w >> link) route.second.push_back(link);
    } else if (kind == "flow") {
      size_t i, call, finished;
      w >> i >> call;
      w >> r.started.at(i) >> r.end.at(i) >> finished;
      r.calls.at(call) = i;
      r.finished.at(finished) = i;
    }
  }
  return r;
}

// The same transfers through FluidNetwork on SimGrid's links and routes
// (with `every_message`, none solo, as the graph evaluator runs it);
// `finished` gets the order the network finished them in.
std::vector<double> replay(const Recorded& r, const std::vector<Sample>& list, bool every_message,
                           std::vector<size_t>& finished, size_t* grouped = nullptr, size_t* classed = nullptr) {
  FluidNetwork net;
  if (every_message) net.solve_every_message();
  std::map<std::string, FluidNetwork::LinkId> ids;
  for (const auto& [name, link] : r.links) ids[name] = net.add_link(link.first, link.second);
  std::vector<Transfer> transfers;
  for (const Sample& s : list) {
    const auto& route = r.routes.at({s.src, s.dst});
    Transfer t{r.started[transfers.size()], {}, route.first, static_cast<double>(s.bytes)};
    for (const std::string& l : route.second) t.route.push_back(ids.at(l));
    transfers.push_back(t);
  }
  auto end = collsim::engine::testing::replay(net, transfers, r.calls, &finished);
  if (grouped) *grouped = net.flows_grouped();
  if (classed) *classed = net.flows_classed();
  return end;
}

std::vector<std::string> host_names(const char* prefix, int count) {
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) names.push_back(prefix + std::to_string(i));
  return names;
}

// Runs `seeds` random sets of `count` transfers on a platform and checks
// every completion time; returns (and prints) the largest relative difference.
// Drawn `repeated`, the transfers come in copies (repeated_samples) and the
// network must have grouped some of them; `lagged`: see lagged_samples.
enum class Draw { random, repeated, lagged };

double worst_difference(const std::string& name, const std::string& xml, const std::vector<std::string>& hosts,
                        int count, int seeds, Draw draw = Draw::random) {
  double worst = 0;
  for (int seed = 1; seed <= seeds; ++seed) {
    const auto list = draw == Draw::repeated ? repeated_samples(hosts, count, static_cast<unsigned>(seed))
                      : draw == Draw::lagged ? lagged_samples(hosts, count, static_cast<unsigned>(seed))
                                             : random_samples(hosts, count, static_cast<unsigned>(seed), seed % 2 == 0);
    const Recorded r = record(name + "_" + std::to_string(seed), xml, list);
    // Each transfer's time as the engine's networks give it: with solo
    // messages (fluid.cpp, may_go_solo; the lock-step sweeps) and with every
    // message solved (the graph evaluator). Solved, the transfers ending at
    // one instant also finish in SimGrid's order (which one an MPI_Waitany
    // on several of them returns); solo ones need not.
    for (const bool every_message : {false, true}) {
      std::vector<size_t> finished;
      size_t grouped = 0, classed = 0;
      const std::vector<double> ours = replay(r, list, every_message, finished, &grouped, &classed);
      const std::string how = name + " seed " + std::to_string(seed) + (every_message ? " (every message solved)" : "");
      if (draw == Draw::repeated) {
        EXPECT_EQ(grouped > 0, !every_message) << how << ": " << grouped << " flows grouped";
      } else {
        // Transfers on one route overlap (a few hosts, many transfers, not
        // all started together): some join a class where the order of
        // ends is not read (fluid.cpp, join_class).
        EXPECT_EQ(classed > 0, !every_message) << how << ": " << classed << " flows joined a class";
      }
      if (every_message) {
        EXPECT_EQ(finished, r.finished) << how << ": transfers finished in another order";
      }
      for (size_t i = 0; i < list.size(); ++i) {
        EXPECT_GE(r.end[i], 0) << how << " transfer " << i << " never finished in SimGrid";
        // (0 bytes over a route of latency 0 started at 0 end at 0 in both.)
        const double diff = r.end[i] > 0 ? std::fabs(ours[i] - r.end[i]) / r.end[i] : std::fabs(ours[i] - r.end[i]);
        EXPECT_LE(diff, 1e-9) << how << " transfer " << i << " " << list[i].src << " -> " << list[i].dst << " "
                              << list[i].bytes << " B from " << list[i].start << " s: SimGrid " << r.end[i]
                              << " s, FluidNetwork " << ours[i] << " s";
        worst = std::max(worst, diff);
      }
    }
  }
  std::cout << name << ": " << seeds << " x " << count << " transfers, largest relative difference " << worst << "\n";
  return worst;
}

}  // namespace

TEST(FluidSimGrid, FullZoneWithEveryKindOfLink) {
  worst_difference("full", full_zone(), host_names("h", 6), 300, 6);
}

TEST(FluidSimGrid, FlatClusterSplitDuplexWithLoopback) {
  worst_difference("flat", cluster(4, "SPLITDUPLEX"), host_names("node-", 4), 300, 3);
}

TEST(FluidSimGrid, HalfDuplexFatTree) {
  worst_difference("fattree", cluster(8, "SHARED", "FAT_TREE", "2;4,2;1,2;1,1"), host_names("node-", 8), 300, 3);
}

TEST(FluidSimGrid, TorusAndDragonfly) {
  worst_difference("torus", cluster(8, "SPLITDUPLEX", "TORUS", "2,2,2"), host_names("node-", 8), 300, 2);
  worst_difference("dragonfly", cluster(16, "SPLITDUPLEX", "DRAGONFLY", "2,1;2,1;2,1;2"), host_names("node-", 16),
                   300, 2);
}

// Identical transfers started together: one flow to the network where
// groups are allowed (the lock-step sweeps), each its own where every
// message is solved; SimGrid's times either way.
TEST(FluidSimGrid, IdenticalFlowsStartedTogether) {
  worst_difference("repeated_full", full_zone(), host_names("h", 6), 300, 2, Draw::repeated);
  worst_difference("repeated_fattree", cluster(8, "SHARED", "FAT_TREE", "2;4,2;1,2;1,1"), host_names("node-", 8), 300,
                   2, Draw::repeated);
  worst_difference("repeated_dragonfly", cluster(16, "SPLITDUPLEX", "DRAGONFLY", "2,1;2,1;2,1;2"),
                   host_names("node-", 16), 300, 2, Draw::repeated);
}

// Transfers on a few routes out of step by a few bytes and nanoseconds:
// one class a route where the order of ends is not read, SimGrid's times.
TEST(FluidSimGrid, TransfersOutOfStepOnOneRoute) {
  worst_difference("lagged_full", full_zone(), host_names("h", 6), 300, 3, Draw::lagged);
  worst_difference("lagged_fattree", cluster(8, "SHARED", "FAT_TREE", "2;4,2;1,2;1,1"), host_names("node-", 8), 300, 3,
                   Draw::lagged);
  worst_difference("lagged_dragonfly", cluster(16, "SPLITDUPLEX", "DRAGONFLY", "2,1;2,1;2,1;2"),
                   host_names("node-", 16), 300, 3, Draw::lagged);
}
