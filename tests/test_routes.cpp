// platforms::Routes against SimGrid 3.32 itself (issue 33, deliverable 1):
// for every kind of topology and several shapes, the XML that platform_xml()
// writes is loaded into SimGrid (tests/route_dump.cpp, one process per
// platform) and SimGrid's Host::route_to answers for every pair of hosts, or
// a random sample of pairs on large platforms. Every link Routes names must
// be one of SimGrid's with its bandwidth, latency and sharing (and there are
// as many), and every route must cross the same links in the same order
// with the same latency. Also deliverable 4's dragonfly: the shapes
// SimGrid's routing cannot serve (G > R) are refused with one line, and the
// default dragonfly of 1,024 nodes runs under SMPI.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "platform.hpp"
#include "platform_check.hpp"
#include "routes.hpp"
#include "run_cli.hpp"

namespace collsim {
namespace {

using platforms::Link;
using platforms::Platform;
using platforms::Routes;

// A platform of `nodes` × `cores` on `topology`, from the α-β preset (links
// 1/β) or the LogGP one (flat: unbounded links, the senders pay G).
Platform platform(const std::string& preset, const std::string& topology, int64_t nodes, int64_t cores = 1,
                  bool full_duplex = true) {
  Platform pf = *platforms::find_preset(preset);
  pf.topology = platforms::parse_topology(topology);
  pf.nodes = nodes, pf.cores_per_node = cores, pf.full_duplex = full_duplex;
  pf.alpha = 3e-6;  // α/2 = 1.5 µs; the intra-node numbers below print inexactly in 15 digits
  if (cores > 1) pf.intra_alpha = 0.3e-6, pf.intra_beta = 1.0 / 3e10;
  return pf;
}

struct SimgridLink {
  double bandwidth, latency;
  int sharing;  // simgrid::s4u::Link::SharingPolicy: FATPIPE 0, SHARED 1, SPLITDUPLEX 2
};
struct SimgridRoute {
  int64_t src, dst;
  double latency;
  std::vector<std::string> links;
};
struct SimgridView {
  std::map<std::string, SimgridLink> links;
  std::vector<SimgridRoute> routes;
};

// SimGrid's links and its routes for `pairs`, read from route_dump's output.
SimgridView simgrid_view(const Platform& pf, const std::vector<std::pair<int64_t, int64_t>>& pairs) {
  const std::string xml = test::write_temp("routes_" + std::to_string(getpid()) + ".xml", platforms::platform_xml(pf));
  std::string input;
  for (const auto& [src, dst] : pairs) input += std::to_string(src) + " " + std::to_string(dst) + "\n";
  test::Child dump;
  dump.argv = {ROUTE_DUMP, xml};
  dump.stdin_text = input;
  dump.stderr_to = test::Stderr::err;
  const test::CliResult r = test::run_child(dump);
  EXPECT_EQ(r.status, 0) << r.err;
  SimgridView view;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string kind, name;
    words >> kind;
    if (kind == "link") {
      SimgridLink l{};
      words >> name >> l.bandwidth >> l.latency >> l.sharing;
      EXPECT_TRUE(view.links.emplace(name, l).second) << "SimGrid has two links " << name;
    } else {
      SimgridRoute route{};
      words >> route.src >> route.dst >> route.latency;
      while (words >> name) route.links.push_back(name);
      view.routes.push_back(route);
    }
  }
  EXPECT_EQ(view.routes.size(), pairs.size());
  std::filesystem::remove(xml);
  // The network model's own loopback, which only Full, Floyd and Dijkstra
  // zones route through (a route through it would differ from ours below).
  EXPECT_EQ(view.links.erase("__loopback__"), 1u);
  return view;
}

// Every pair of nodes where there are at most 40, else 3,000 random pairs,
// a node to itself among them.
std::vector<std::pair<int64_t, int64_t>> pairs_of(int64_t nodes) {
  std::vector<std::pair<int64_t, int64_t>> pairs;
  if (nodes <= 40) {
    for (int64_t s = 0; s < nodes; ++s)
      for (int64_t d = 0; d < nodes; ++d) pairs.emplace_back(s, d);
    return pairs;
  }
  std::mt19937_64 random(nodes);
  std::uniform_int_distribution<int64_t> node(0, nodes - 1);
  for (int i = 0; i < 3000; ++i) {
    const int64_t s = node(random);
    pairs.emplace_back(s, i % 100 == 0 ? s : node(random));
  }
  return pairs;
}

// Routes's links and routes equal SimGrid's on `pf`.
void expect_simgrid_routes(const Platform& pf) {
  SCOPED_TRACE(platforms::describe(pf, pf.nodes));
  const Routes routes(pf);
  const auto pairs = pairs_of(pf.nodes);
  const SimgridView view = simgrid_view(pf, pairs);
  // One-to-one: as many links, each of ours one of SimGrid's, no two alike.
  ASSERT_EQ(routes.links(), static_cast<int64_t>(view.links.size()));
  std::set<std::string> named;
  for (int64_t id = 0; id < routes.links(); ++id) {
    const std::string name = routes.name(id);
    const auto it = view.links.find(name);
    ASSERT_NE(it, view.links.end()) << "link " << id << " '" << name << "' is none of SimGrid's";
    ASSERT_TRUE(named.insert(name).second) << name << " named twice";
    const Link ours = routes.link(id);
    EXPECT_EQ(ours.bandwidth, it->second.bandwidth) << name;
    EXPECT_EQ(ours.latency, it->second.latency) << name;
    EXPECT_EQ(ours.sharing == Link::Sharing::fatpipe, it->second.sharing == 0) << name;
    const std::string half = ours.direction == Link::Direction::up     ? "_UP"
                             : ours.direction == Link::Direction::down ? "_DOWN"
                                                                       : "";
    EXPECT_EQ(name.substr(name.size() - half.size()), half) << name;
  }
  std::vector<int64_t> ids;
  int wrong = 0;
  for (const SimgridRoute& expected : view.routes) {
    const double latency = routes.route(expected.src, expected.dst, ids);
    std::vector<std::string> names;
    for (int64_t id : ids) names.push_back(routes.name(id));
    if (names == expected.links && latency == expected.latency) continue;
    if (++wrong > 3) continue;  // the first few say enough
    std::string want, got;
    for (const auto& n : expected.links) want += " " + n;
    for (const auto& n : names) got += " " + n;
    ADD_FAILURE() << "node " << expected.src << " to " << expected.dst << ": SimGrid" << want << " (latency "
                  << expected.latency << "), Routes" << got << " (latency " << latency << ")";
  }
  EXPECT_EQ(wrong, 0) << "of " << view.routes.size() << " routes";
}

TEST(Routes, FlatClustersRouteAsSimgrid) {
  expect_simgrid_routes(platform("alphabeta", "flat", 7));
  expect_simgrid_routes(platform("alphabeta", "flat", 6, 4, false));
  expect_simgrid_routes(platform("loggp", "flat", 9, 3));  // unbounded links
  expect_simgrid_routes(platform("alphabeta", "flat", 1));
  expect_simgrid_routes(platform("alphabeta", "flat", 300, 2));
}

TEST(Routes, FatTreesRouteAsSimgrid) {
  expect_simgrid_routes(platform("alphabeta", "fat-tree", 16));  // one level
  expect_simgrid_routes(platform("alphabeta", "fat-tree:2", 32, 2, false));
  expect_simgrid_routes(platform("loggp", "fat-tree", 128, 2));  // 4 leaves
  expect_simgrid_routes(platform("alphabeta", "fat-tree:2", 256, 1, false));
  expect_simgrid_routes(platform("alphabeta", "fat-tree:4", 96, 4));
  expect_simgrid_routes(platform("loggp", "fat-tree:2", 8192));
}

TEST(Routes, ToriRouteAsSimgrid) {
  expect_simgrid_routes(platform("alphabeta", "torus:4,4", 16));
  expect_simgrid_routes(platform("alphabeta", "torus:5,6", 30, 2, false));
  expect_simgrid_routes(platform("loggp", "torus:2,3,2", 12, 3));
  expect_simgrid_routes(platform("alphabeta", "torus:7", 7));
  expect_simgrid_routes(platform("alphabeta", "torus:1,3,1,4", 12, 1, false));  // wired as 3,4
  expect_simgrid_routes(platform("alphabeta", "torus", 7));                      // 1,1,7: wired as 7
  expect_simgrid_routes(platform("alphabeta", "torus:1,1", 1, 2));
  expect_simgrid_routes(platform("alphabeta", "torus", 216, 2));  // 6,6,6
  expect_simgrid_routes(platform("loggp", "torus:3,4,5", 60, 1, false));
  expect_simgrid_routes(platform("loggp", "torus:16,16,32", 8192));
}

TEST(Routes, DragonfliesRouteAsSimgrid) {
  expect_simgrid_routes(platform("alphabeta", "dragonfly:2,2,2,2", 16));
  expect_simgrid_routes(platform("alphabeta", "dragonfly:3,2,3,2", 36, 2, false));
  expect_simgrid_routes(platform("loggp", "dragonfly:2,3,4,1", 24, 3));
  expect_simgrid_routes(platform("alphabeta", "dragonfly:1,3,2,2", 12, 1, false));
  expect_simgrid_routes(platform("alphabeta", "dragonfly:4,4,4,4", 256, 2));
  expect_simgrid_routes(platform("loggp", "dragonfly:4,3,5,2", 120, 1, false));
  expect_simgrid_routes(platform("loggp", "dragonfly", 1024));           // 8,4,8,4
  expect_simgrid_routes(platform("loggp", "dragonfly:16,4,16,8", 8192));  // 16 groups
}

// Rank to node as hostfile() places ranks.
TEST(Routes, RanksLiveWhereTheHostFileSaysSo) {
  for (bool round_robin : {false, true}) {
    Platform pf = platform("alphabeta", "fat-tree", 32, 4);
    pf.round_robin = round_robin;
    const Routes routes(pf);
    std::istringstream hosts(platforms::hostfile(pf, 100));
    std::string host;
    for (int64_t rank = 0; std::getline(hosts, host); ++rank)
      EXPECT_EQ("node-" + std::to_string(routes.node_of(rank)), host) << "rank " << rank;
  }
}

// The default dragonfly keeps G <= R: 1,024 nodes (once 16 groups of 4
// routers, which crashed SimGrid) and 8,192; the shapes that ran before are
// unchanged.
TEST(Dragonfly, DefaultShapesHaveNoMoreGroupsThanRouters) {
  using platforms::parse_topology;
  using platforms::wiring;
  EXPECT_EQ(wiring(parse_topology("dragonfly"), 64), (std::vector<int64_t>{1, 4, 4, 4}));
  EXPECT_EQ(wiring(parse_topology("dragonfly"), 128), (std::vector<int64_t>{2, 4, 4, 4}));
  EXPECT_EQ(wiring(parse_topology("dragonfly"), 256), (std::vector<int64_t>{4, 4, 4, 4}));
  EXPECT_EQ(wiring(parse_topology("dragonfly"), 1024), (std::vector<int64_t>{8, 4, 8, 4}));
  EXPECT_EQ(wiring(parse_topology("dragonfly"), 8192), (std::vector<int64_t>{16, 4, 32, 4}));
  EXPECT_EQ(wiring(parse_topology("dragonfly"), 320), (std::vector<int64_t>{4, 4, 5, 4}));
}

// SimGrid crashed (exit 139) on 16 groups of 4 routers; now one line, exit 2,
// before SimGrid starts; the 16-group shape with enough routers runs.
TEST(Dragonfly, SixteenGroupsAreRefusedOrRun) {
  const auto refused = test::run_collsim_argv({"run", "--algo", "binomial", "--collective", "bcast", "--p", "1024",
                                               "--platform", "loggp", "--topology", "dragonfly:16,4,4,4", "--size",
                                               "4KiB"});
  EXPECT_EQ(refused.status, 2) << refused.out;
  EXPECT_EQ(std::count(refused.out.begin(), refused.out.end(), '\n'), 1) << refused.out;
  EXPECT_NE(refused.out.find("G <= R"), std::string::npos) << refused.out;
  for (const std::string topology : {"dragonfly", "dragonfly:16,1,16,4"}) {
    const auto ran = test::run_collsim_argv({"run", "--algo", "binomial", "--collective", "bcast", "--p", "1024",
                                             "--platform", "loggp", "--topology", topology, "--size", "4KiB"});
    EXPECT_EQ(ran.status, 0) << topology << ": " << ran.out;
    EXPECT_NE(ran.out.find("binomial                 1024"), std::string::npos) << topology << ": " << ran.out;
  }
}

// A platform file of the user's with such a dragonfly, or a torus with two
// sizes of 1 (SimGrid aborts: two links of one name), is refused by the
// check before SimGrid reads it; the shapes SimGrid can wire pass.
TEST(Dragonfly, PlatformFilesSimgridCannotRouteAreRefused) {
  const auto refusal = [](const std::string& topology, const std::string& parameters, int64_t hosts) {
    const std::string xml =
        "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<platform version=\"4.1\">\n  <cluster id=\"c\" prefix=\"node-\" suffix=\"\" radical=\"0-" +
        std::to_string(hosts - 1) + "\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" topology=\"" + topology +
        "\" topo_parameters=\"" + parameters + "\"/>\n</platform>\n";
    try {
      platforms::check_platform_xml(xml, "f.xml", hosts);
      return std::string();
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  };
  EXPECT_NE(refusal("DRAGONFLY", "5,1;4,1;4,1;4", 320).find("no more groups than routers"), std::string::npos);
  EXPECT_EQ(refusal("DRAGONFLY", "4,1;4,1;4,1;4", 256), "");
  EXPECT_NE(refusal("TORUS", "1,7,1", 7).find("two sizes of 1"), std::string::npos);
  EXPECT_EQ(refusal("TORUS", "1,7", 7), "");
}

}  // namespace
}  // namespace collsim
