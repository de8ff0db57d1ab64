// The plan engine against SMPI on machine shapes (issue 33, item 2 and the
// incast check of its acceptance list). For every algorithm of ours with a
// plan (the catalog's plan table), at 4 KiB, 64 KiB and 1 MiB, `collsim run
// --engine loggp` must give SMPI's time (`--engine smpi`, same options)
// within 5 % in every cell and 2 % in the median, at 16 ranks (64 on the fat
// tree, whose leaves hold 32 nodes). scripts/engine_vs_smpi.sh makes the
// same table at the sizes (1,024 ranks).
//
// The flat shapes run on the engine's sweep (engine/loggp.hpp), those with
// nodes of several ranks, a topology or round-robin placement
// (SharedLinks_*) on its shared links (engine/shared_links.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "block_policy.hpp"
#include "catalog.hpp"
#include "engine_run.hpp"
#include "plan_builders.hpp"
#include "platform.hpp"
#include "protocol.hpp"
#include "run_cli.hpp"
#include "sim_request.hpp"

namespace collsim::sim {
namespace {

const std::vector<int64_t> kSizes = {4 << 10, 64 << 10, 1 << 20};

// omnipath36x32's intra-node α and β (platforms/platform.cpp), for a LogGP
// cluster of the same node shape.
const std::vector<std::string> kOmnipathIntra = {"--intra-alpha", "0.3e-6", "--intra-beta", "0.1e-9"};

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The rows of `collsim run --format csv ARGS`, by bytes.
std::map<int64_t, Row> rows_by_bytes(const std::vector<std::string>& args) {
  const test::CliResult r = test::run_collsim_argv(std::vector<std::string>{"run", "--format", "csv"} + args);
  std::map<int64_t, Row> rows;
  std::stringstream lines(r.out);
  std::string line;
  bool header = false;
  while (std::getline(lines, line)) {
    if (line.rfind("collective,", 0) == 0) {
      header = true;
    } else if (header && !line.empty()) {
      const Row row = parse_row(line);
      rows[row.bytes] = row;
    }
  }
  EXPECT_EQ(r.status, 0) << r.out;
  return rows;
}

// One cell: the engine's time over SMPI's.
struct Cell {
  std::string what;  // "allreduce ring 1048576 B"
  double smpi_us, engine_us;
  double ratio() const { return engine_us / smpi_us; }
};

// Every plan algorithm of the catalog on a platform (`platform`: collsim
// run's options), both engines, all sizes in one run each.
std::vector<Cell> cross(int64_t p, const std::vector<std::string>& platform) {
  std::string sizes;
  for (int64_t b : kSizes) sizes += (sizes.empty() ? "" : ",") + std::to_string(b);
  std::vector<Cell> cells;
  for (Collective c : kCollectives)
    for (const std::string& name : plan::plan_algorithms(c)) {
      // A graph row (two-tree-overlap) is timed by the graph evaluator,
      // not the lock-step ones: PlanGraphEngine.* compares it.
      if (find_algorithm(c, name).has(kGraph)) continue;
      const std::vector<std::string> args =
          std::vector<std::string>{"--collective", collective_name(c), "--algo", name,
                                   "--p",          std::to_string(p),  "--size", sizes} +
          platform;
      const auto smpi = rows_by_bytes(args + std::vector<std::string>{"--engine", "smpi"});
      const auto engine = rows_by_bytes(args + std::vector<std::string>{"--engine", "loggp"});
      for (int64_t b : kSizes) {
        const std::string what = std::string(collective_name(c)) + " " + name + " " + std::to_string(b) + " B";
        if (!smpi.count(b) || !engine.count(b)) {
          ADD_FAILURE() << what << ": no row";
          continue;
        }
        EXPECT_TRUE(smpi.at(b).correct) << what;
        EXPECT_EQ(engine.at(b).blocks, smpi.at(b).blocks) << what;
        cells.push_back({what, smpi.at(b).time_us, engine.at(b).time_us});
      }
    }
  return cells;
}

// Every cell within 5 % of SMPI, the median within 2 %; the cells out of
// bounds each named with both times.
void expect_within_bounds(int64_t p, const std::vector<std::string>& platform) {
  const std::vector<Cell> cells = cross(p, platform);
  ASSERT_FALSE(cells.empty());
  std::vector<double> ratios;
  for (const Cell& cell : cells) {
    ratios.push_back(cell.ratio());
    EXPECT_NEAR(cell.ratio(), 1.0, 0.05) << cell.what << ": engine " << cell.engine_us << " us, SMPI " << cell.smpi_us
                                         << " us";
  }
  std::sort(ratios.begin(), ratios.end());
  const size_t n = ratios.size();
  const double median = n % 2 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
  EXPECT_NEAR(median, 1.0, 0.02) << "median of " << n << " cells";
  // Every plan algorithm ran: 39 of them today, 3 sizes each.
  EXPECT_GE(n, 30u * kSizes.size());
}

// The controls of issue 33's table: a flat LogGP cluster and Omni-Path with
// one rank per node.
TEST(EngineVsSmpi, FlatLogGP) { expect_within_bounds(16, {"--platform", "loggp"}); }

TEST(EngineVsSmpi, OmnipathOneRankPerNode) {
  expect_within_bounds(16, {"--platform", "omnipath36x32", "--nodes", "16", "--cores-per-node", "1"});
}

// The shapes where messages share links (engine/shared_links.hpp: node
// links, loopbacks, a topology's links). Before the engine shared them
// (16 ranks; engine / SMPI) cells were off by 0.20 to 1.78; see
// results/engine-vs-smpi/README.md.
TEST(EngineVsSmpi, SharedLinks_OmnipathNodes) {
  expect_within_bounds(16, {"--platform", "omnipath36x32", "--nodes", "4", "--cores-per-node", "4"});
}

TEST(EngineVsSmpi, SharedLinks_LogGPNodes) {
  expect_within_bounds(
      16, std::vector<std::string>{"--platform", "loggp", "--nodes", "4", "--cores-per-node", "4"} + kOmnipathIntra);
}

TEST(EngineVsSmpi, SharedLinks_FatTree) {
  expect_within_bounds(64, {"--platform", "loggp", "--topology", "fat-tree:2"});
}

TEST(EngineVsSmpi, SharedLinks_Dragonfly) {
  expect_within_bounds(16, {"--platform", "loggp", "--topology", "dragonfly:2,2,2,2"});
}

TEST(EngineVsSmpi, SharedLinks_RomeNodes) {
  expect_within_bounds(16, {"--platform", "rome200x128", "--nodes", "2", "--cores-per-node", "8"});
}

TEST(EngineVsSmpi, SharedLinks_RoundRobin) {
  expect_within_bounds(
      16, {"--platform", "omnipath36x32", "--nodes", "4", "--cores-per-node", "4", "--placement", "round-robin"});
}

// The incast check. tests/data/incast32.plan: a commutative reduce over 64
// ranks to root 32 in which ranks 0..31 first send their 1 MiB to rank
// r + 32, all at once, then ranks 32..63 reduce to rank 32 along a binomial
// tree (5 rounds). (A plan of the 32 messages alone is no collective: ranks
// that only send would end without their result, and `verify plan` wants
// one.) The platform is α-β (SMPI's rendezvous, a node link of bandwidth
// 1/β each way, shared max-min by the flows that cross it), with
// omnipath36x32's numbers given here, so that the expected times come from
// this file alone. SMPI adds a 16-byte envelope to every message.
constexpr double kAlpha = 1e-6, kBeta = 0.08e-9, kGamma = 0.1e-9;  // between nodes; ⊕ per byte
constexpr double kIntraAlpha = 0.3e-6, kIntraBeta = 0.1e-9;        // within a node
constexpr double kBytes = 1 << 20, kEnvelope = 16;
constexpr int kSenders = 32, kTreeRounds = 5;  // log2 32

std::string incast_plan() { return std::string(COLLSIM_SOURCE_DIR) + "/tests/data/incast32.plan"; }

// `collsim run --plan incast32.plan` on 64 ranks of `nodes` x `cores` under
// `engine` (and more options).
double incast_us(int nodes, int cores, const std::string& engine, const std::vector<std::string>& more = {}) {
  auto num = [](double v) {  // every digit of v
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", v);
    return std::string(text);
  };
  const auto rows = rows_by_bytes(std::vector<std::string>{"--collective",
                                                           "reduce",
                                                           "--plan",
                                                           incast_plan(),
                                                           "--p",
                                                           "64",
                                                           "--root",
                                                           "32",
                                                           "--size",
                                                           "1MiB",
                                                           "--platform",
                                                           "alphabeta",
                                                           "--nodes",
                                                           std::to_string(nodes),
                                                           "--cores-per-node",
                                                           std::to_string(cores),
                                                           "--alpha",
                                                           num(kAlpha),
                                                           "--beta",
                                                           num(kBeta),
                                                           "--gamma",
                                                           num(kGamma),
                                                           "--intra-alpha",
                                                           num(kIntraAlpha),
                                                           "--intra-beta",
                                                           num(kIntraBeta),
                                                           "--engine",
                                                           engine} +
                                  more);
  EXPECT_EQ(rows.size(), 1u);
  return rows.empty() ? 0 : rows.begin()->second.time_us;
}

// One message of the tree on links of α, β, and its ⊕ at the receiver.
double tree_round(double alpha, double beta) { return alpha + (kBytes + kEnvelope) * beta + kGamma * kBytes; }

// Two nodes of 32: the 32 messages leave node 0 on its one link and enter
// node 1 on its one link, each getting 1/32 of 1/β: L + 32·(m + 16)·G, then
// the ⊕ of each receiver; the tree runs within node 1 (intra α, β).
// 2685.396 + 104.858 + 5 · 210.017 = 3840.337 µs.
double incast_on_two_nodes_us() {
  return (kAlpha + kSenders * (kBytes + kEnvelope) * kBeta + kGamma * kBytes +
          kTreeRounds * tree_round(kIntraAlpha, kIntraBeta)) *
         1e6;
}

// 64 nodes of one rank: the 32 messages leave 32 nodes for 32 others, each
// on links of its own: L + (m + 16)·G, 32 times less link time; the tree's
// messages go between nodes too. 6 · 189.745 = 1138.470 µs.
double incast_spread_us() { return (1 + kTreeRounds) * tree_round(kAlpha, kBeta) * 1e6; }

TEST(Incast, ThePlanIsACorrectReduce) {
  const test::CliResult r = test::run_collsim_argv({"verify", "plan", "--file", incast_plan()});
  EXPECT_EQ(r.status, 0) << r.out;
}

TEST(Incast, SmpiSharesTheNodeLinkAmongThirtyTwoMessages) {
  EXPECT_NEAR(incast_us(2, 32, "smpi"), incast_on_two_nodes_us(), 1e-5 * incast_on_two_nodes_us());
}

TEST(Incast, SmpiSpreadOverNodesIsThirtyTwoTimesLessLinkTime) {
  EXPECT_NEAR(incast_us(64, 1, "smpi"), incast_spread_us(), 1e-5 * incast_spread_us());
}

TEST(Incast, EngineSpreadOverNodes) {
  EXPECT_NEAR(incast_us(64, 1, "loggp"), incast_spread_us(), 1e-5 * incast_spread_us());
}

// Before the engine shared links (issue 33 item 1) it let each of the 32
// messages use the whole link: 1,239.829 µs, the spread incast's link time.
TEST(Incast, EngineSharesTheNodeLinkAmongThirtyTwoMessages) {
  EXPECT_NEAR(incast_us(2, 32, "loggp"), incast_on_two_nodes_us(), 1e-5 * incast_on_two_nodes_us());
}

// --contention off: every message as if alone on its links, the first
// phase one message's time, then the tree within node 1.
TEST(Incast, EngineWithoutContentionGivesEachMessageTheWholeLink) {
  const double alone_us = (tree_round(kAlpha, kBeta) + kTreeRounds * tree_round(kIntraAlpha, kIntraBeta)) * 1e6;
  EXPECT_NEAR(incast_us(2, 32, "loggp", {"--contention", "off"}), alone_us, 1e-5 * alone_us);
}

// Incast on the default platform (issue 33, item 5). tests/data/
// incast_to_one.plan: ranks 1..32 each send 32 KiB to rank 0 at once (under
// loggp's eager limit, so every send leaves without waiting), rank 0
// combines them in rank order. loggp's NIC carries the bytes at 1/G, so
// the 32 messages share rank 0's link in. By hand, with loggp's numbers
// (platforms/platform.cpp) and SMPI's 16-byte envelope:
//   each sender: max(o, g) = 1.5 µs, then L = 2.5 µs;
//   the 32 messages on one link: 32 · 32,784 B · 0.1 ns/B = 104.9088 µs;
//   rank 0, per message: o = 1.5 µs, then its ⊕, 32,768 B · 0.1 ns/B;
//   1.5 + 2.5 + 104.9088 + 32 · (1.5 + 3.2768) = 261.7664 µs.
// Before (the sender's CPU paid mG, receives unbounded): 160.1344 µs.
constexpr double kLogGPo = 1.5e-6, kLogGPL = 2.5e-6, kLogGPG = 0.1e-9, kLogGPGamma = 0.1e-9;
constexpr double kIncastBytes = 32 << 10;

double incast_to_one_us(const std::string& engine) {
  const auto rows = rows_by_bytes({"--collective", "reduce", "--plan",
                                   std::string(COLLSIM_SOURCE_DIR) + "/tests/data/incast_to_one.plan", "--p", "33",
                                   "--size", "32KiB", "--engine", engine});
  EXPECT_EQ(rows.size(), 1u);
  return rows.empty() ? 0 : rows.begin()->second.time_us;
}

double incast_to_one_by_hand_us() {
  return (kLogGPo + kLogGPL + kSenders * (kIncastBytes + kEnvelope) * kLogGPG +
          kSenders * (kLogGPo + kLogGPGamma * kIncastBytes)) *
         1e6;
}

TEST(Incast, DefaultPlatformEngineSharesTheReceiversLink) {
  EXPECT_NEAR(incast_to_one_us("loggp"), incast_to_one_by_hand_us(), 1e-5 * incast_to_one_by_hand_us());
}

// SMPI is 15 ns (6e-5) above the hand count here, about half a nanosecond
// per receive; the cause was not found (SimGrid's 1e-9 s event precision
// is the likely one).
TEST(Incast, DefaultPlatformSmpiSharesTheReceiversLink) {
  EXPECT_NEAR(incast_to_one_us("smpi"), incast_to_one_by_hand_us(), 1e-4 * incast_to_one_by_hand_us());
}

// The LogP-optimal tree on the default platform at p = 64, 1 KiB (issue
// 34). A sender is free again after max(o, g) = 1.5 µs (eager: the NIC's
// 1,040 B · 0.1 ns/B = 0.104 µs is done before the next send leaves); its
// child can send o + L + 0.104 + o = 5.604 µs after the send starts. The
// greedy count C(t) = C(t − 1.5) + C(t − 5.604) (1 below 5.604) first
// reaches 64 at 7 · 1.5 + 2 · 5.604 = 21.708 µs (by hand and by a separate
// script; the binomial tree's six rounds take 33.624 µs).
constexpr double kLogPTree64Us = 7 * 1.5 + 2 * 5.604;

double logp_tree_us(const std::string& collective, const std::string& engine) {
  const auto rows = rows_by_bytes({"--collective", collective, "--algo", "logp-tree", "--p", "64", "--size", "1KiB",
                                   "--op", "matmul", "--engine", engine});
  EXPECT_EQ(rows.size(), 1u);
  if (!rows.empty()) {
    EXPECT_TRUE(rows.begin()->second.correct);
  }
  return rows.empty() ? 0 : rows.begin()->second.time_us;
}

TEST(LogPTree, DefaultPlatformEngineTakesTheGreedyCount) {
  EXPECT_NEAR(logp_tree_us("bcast", "loggp"), kLogPTree64Us, 1e-4 * kLogPTree64Us);
}

TEST(LogPTree, DefaultPlatformSmpiTakesTheGreedyCount) {
  EXPECT_NEAR(logp_tree_us("bcast", "smpi"), kLogPTree64Us, 1e-4 * kLogPTree64Us);
}

// The reduction, the tree run backwards: a receiver takes a message every
// o + γm = 1.5 + 1,024 · 0.1 ns = 1.6024 µs, and a child's partial result is
// folded in o + L + 0.104 + o + 0.1024 = 5.7064 µs after its send starts;
// the count reaches 64 at 7 · 1.6024 + 2 · 5.7064 = 22.6296 µs. Every rank
// sends at once, so a parent's leaves share its NIC in: SMPI and the
// engine take 22.942 µs, 1.4 % more. Within 2 %.
TEST(LogPTree, DefaultPlatformReduceTakesAboutTheGreedyCount) {
  const double by_hand_us = 7 * 1.6024 + 2 * 5.7064;
  EXPECT_NEAR(logp_tree_us("reduce", "loggp"), by_hand_us, 0.02 * by_hand_us);
  EXPECT_NEAR(logp_tree_us("reduce", "smpi"), by_hand_us, 0.02 * by_hand_us);
}

// The pipelined LogP tree on alphabeta (rendezvous: lag 1, the gap a whole
// message), p = 64, 1 MiB in n = 16 blocks of 64 KiB. The bound picked for
// 16 blocks is d = 2 (T_2 + 15·2 = 38 gaps; d = 3 fills in 6 but takes
// 6 + 15·3 = 51). With two children a rank, C(t, 2) = C(t − 1, 2) +
// C(t − 1, 1) and C(t, 1) = C(t − 1, 2) + 1 give 1, 2, 4, 7, 12, 20, 33,
// 54, 88: T = 8 rounds; every rank below the root gets a block every 2
// rounds, so the last block arrives after 8 + 2·15 = 38 rounds of
// α + (65,536 + 16)β = 5 + 65.552 µs: 2,680.976 µs in SMPI and the engine.
TEST(LogPTreePipeline, AlphabetaTakesTheBoundedTreesRounds) {
  const double by_hand_us = 38 * (5 + 65.552);
  for (const char* engine : {"smpi", "loggp"}) {
    const auto rows = rows_by_bytes({"--collective", "bcast", "--algo", "logp-tree-pipeline", "--p", "64", "--size",
                                     "1MiB", "--blocks", "16", "--platform", "alphabeta", "--engine", engine});
    ASSERT_EQ(rows.size(), 1u) << engine;
    EXPECT_TRUE(rows.begin()->second.correct) << engine;
    EXPECT_NEAR(rows.begin()->second.time_us, by_hand_us, 1e-5 * by_hand_us) << engine;
  }
}

// The pipelined LogP reduction, the broadcast pipeline above run backwards:
// the same bounded tree (lag 1, 16 blocks: d = 2, 38 rounds), each round
// now a block's message and its fold, α + (65,536 + 16)β + 65,536γ =
// 5 + 65.552 + 65.536 µs: 5,171.344 µs in SMPI and the engine, rank order
// kept (matmul), at root 0; at root 63 rank 0 then sends the whole result
// on, α + (1 MiB + 16)β = 1,053.592 µs more.
TEST(LogPTreePipeline, AlphabetaReduceTakesTheSameRoundsWithTheFold) {
  const double at_root0_us = 38 * (5 + 65.552 + 65.536), sent_on_us = 5 + 1048.592;
  for (const char* engine : {"smpi", "loggp"})
    for (const auto& [root, by_hand_us] : {std::pair{"0", at_root0_us}, std::pair{"63", at_root0_us + sent_on_us}}) {
      const auto rows = rows_by_bytes({"--collective", "reduce", "--algo", "logp-tree-pipeline", "--p", "64", "--size",
                                       "1MiB", "--blocks", "16", "--platform", "alphabeta", "--op", "matmul",
                                       "--root", root, "--engine", engine});
      ASSERT_EQ(rows.size(), 1u) << engine;
      EXPECT_TRUE(rows.begin()->second.correct) << engine << " root " << root;
      EXPECT_NEAR(rows.begin()->second.time_us, by_hand_us, 1e-5 * by_hand_us) << engine << " root " << root;
    }
}

// GOAL in SMPI (issue 34, item 6): our binomial bcast and recursive-doubling
// allreduce at p = 64, 1 KiB, exported as GOAL (the shapes of Schedgen's
// binomialtreebcast and allreduce_recdoub), run in SMPI by the GOAL
// executor, take the plan engine's time for the plan (the GOAL file's
// calcs are the ⊕, γ a unit): within 0.1 %; and the engine's time for the
// GOAL file itself within 1 %.
TEST(GoalInSmpi, PlanExportsTakeThePlansEngineTime) {
  for (const auto& [collective, algo] : std::vector<std::pair<std::string, std::string>>{
           {"bcast", "binomial"}, {"allreduce", "recursive-doubling"}}) {
    const std::string file = std::string(TEST_TMPDIR) + "/smpi_" + algo + ".goal";
    const test::CliResult made = test::run_collsim_argv({"plan", "--collective", collective, "--algo", algo, "--p",
                                                         "64", "--size", "1KiB", "--format", "goal", "--out", file});
    ASSERT_EQ(made.status, 0) << made.out;
    const test::CliResult goal = test::run_collsim_argv({"run", "--plan", file, "--p", "64", "--format", "csv"});
    ASSERT_EQ(goal.status, 0) << goal.out;
    const size_t at = goal.out.find("\ngoal,");
    ASSERT_NE(at, std::string::npos) << goal.out;
    const Row smpi = parse_row(goal.out.substr(at + 1, goal.out.find('\n', at + 1) - at - 1));
    EXPECT_EQ(smpi.engine, "smpi");
    const auto engine = rows_by_bytes({"--collective", collective, "--algo", algo, "--p", "64", "--size", "1KiB",
                                       "--engine", "loggp"});
    ASSERT_EQ(engine.size(), 1u);
    const double want = engine.begin()->second.time_us;
    EXPECT_NEAR(smpi.time_us, want, 1e-3 * want) << algo;
    // The engine's GOAL evaluator (LogGOPSim's rules, the platform's L, o,
    // g, G) on the same file: within 1 % at this eager size (33.614 and
    // 34.228 us; at 256 KiB, rendezvous, it is 5 % above SMPI).
    const test::CliResult rules = test::run_collsim_argv(
        {"run", "--plan", file, "--p", "64", "--engine", "loggp", "--rules", "loggopsim", "--format", "csv"});
    ASSERT_EQ(rules.status, 0) << rules.out;
    const size_t line = rules.out.find("\ngoal,");
    ASSERT_NE(line, std::string::npos) << rules.out;
    const Row goal_engine = parse_row(rules.out.substr(line + 1, rules.out.find('\n', line + 1) - line - 1));
    EXPECT_NEAR(goal_engine.time_us, smpi.time_us, 0.01 * smpi.time_us) << algo;
  }
}

// `collective` circulant on 512 ranks as 4 nodes of 128 (loggp between
// them, intra-node alpha 0.4 us and beta 0.15 ns/B), `size` bytes: the
// command line's options.
std::vector<std::string> circulant_on_four_nodes(const std::string& collective, const std::string& size) {
  return {"--collective", collective,   "--algo", "circulant",        "--p", "512",           "--size",
          size,           "--platform", "loggp",  "--cores-per-node", "128", "--intra-alpha", "0.4e-6",
          "--intra-beta", "0.15e-9"};
}

// Both engines' rows of `args` at `bytes` take the searched n = `blocks`,
// the engine `engine_us`, SMPI the same within 1 % and a correct result;
// the engine's row.
Row expect_searched(const std::vector<std::string>& args, int64_t bytes, int64_t blocks, double engine_us) {
  const Row engine = rows_by_bytes(args + std::vector<std::string>{"--engine", "loggp"}).at(bytes);
  const Row smpi = rows_by_bytes(args + std::vector<std::string>{"--engine", "smpi"}).at(bytes);
  EXPECT_EQ(engine.blocks, blocks);
  EXPECT_EQ(smpi.blocks, blocks);
  EXPECT_NEAR(engine.time_us, engine_us, 1e-3);
  EXPECT_NEAR(smpi.time_us, engine.time_us, 0.01 * engine.time_us);
  EXPECT_TRUE(smpi.correct);
  return engine;
}

// Issue 33, item 5: on nodes whose ranks share a NIC, n comes from the
// engine (sim/driver/engine_run.hpp, contention_blocks), and SMPI runs the
// same n. Circulant bcast at 64 KiB on 4 nodes of 128 cores: the
// closed-form model takes n = 19 (`--blocks model`: 594.330 us on the
// engine); on the engine, n = 16 takes 385.295 us, n = 8 573.317 and
// n = 32 400.523 (eager blocks drift out of step: the time is not unimodal
// in n). Both engines' rows must say n = 16 and that time, the model's
// n = 19 and the neighbours must be slower; on the flat loggp platform
// (one rank a node) n stays the model's.
TEST(BlockPolicy, ContentionAwareOnNodes) {
  const std::vector<std::string> nodes = circulant_on_four_nodes("bcast", "64KiB");
  const int64_t bytes = 64 << 10;
  const Row engine = expect_searched(nodes, bytes, 16, 385.295);
  for (const char* n : {"model", "8", "32"}) {
    const Row fixed = rows_by_bytes(nodes + std::vector<std::string>{"--engine", "loggp", "--blocks", n}).at(bytes);
    EXPECT_GT(fixed.time_us, engine.time_us) << "n = " << n;
    if (std::string(n) == "model") {
      EXPECT_EQ(fixed.blocks, 19);
    }
  }
  // One rank a node: no shared link to search for, the policy's n (19 is
  // the same model's pick at 512 ranks).
  const Row flat = rows_by_bytes({"--collective", "bcast", "--algo", "circulant", "--p", "512", "--size", "64KiB",
                                  "--platform", "loggp", "--engine", "loggp"})
                       .at(bytes);
  const Algorithm& circulant = find_algorithm(Collective::bcast, "circulant");
  EXPECT_EQ(flat.blocks, choose_blocks(circulant, Net(*platforms::find_preset("loggp")), 512, bytes));
}

// A segmented pipeline's search goes past a segment's elements: at 4 KiB
// on 512 ranks a segment is one element (most_blocks = 1, the model's n),
// yet 16 blocks a segment, 15 of them empty, spread each round's messages
// over rounds that a node's NIC serves in turn.
TEST(BlockPolicy, EmptyBlocksOnNodes) {
  const std::vector<std::string> nodes = circulant_on_four_nodes("allreduce", "4KiB");
  const int64_t bytes = 4 << 10;
  const Algorithm& circulant = find_algorithm(Collective::allreduce, "circulant");
  const Net net(*platforms::find_preset("loggp"), element_bytes(Collective::allreduce, Operator::bxor));
  ASSERT_EQ(most_blocks(circulant, net, 512, bytes), 1);
  expect_searched(nodes, bytes, 16, 90.549);
  const Row model = rows_by_bytes(nodes + std::vector<std::string>{"--engine", "loggp", "--blocks", "model"}).at(bytes);
  EXPECT_EQ(model.blocks, 1);
  EXPECT_NEAR(model.time_us, 149.749, 1e-3);
}

// The chosen n is evaluated once: the row takes its time from the search's
// evaluation (issue 33, item 3). A request for every rank's finish, which
// the search does not keep, costs exactly one evaluation more, for the
// same time.
TEST(BlockPolicy, ChosenBlocksEvaluatedOnce) {
  SimRequest req = test::preset_request("loggp", 512);
  req.platform.nodes = 4, req.platform.cores_per_node = 128;
  req.platform.intra_alpha = 0.4e-6, req.platform.intra_beta = 0.15e-9;
  req.algos = {&find_algorithm(Collective::allreduce, "circulant")};
  req.sizes = {4 << 10};
  const int64_t start = plan_evaluations();
  const std::vector<Row> rows = evaluate_plans(req);
  const int64_t searched = plan_evaluations() - start;
  const std::vector<Row> per_rank = evaluate_plans(req, {}, testing::TempDir() + "chosen_blocks_finish.csv");
  EXPECT_EQ(plan_evaluations() - start - searched, searched + 1);
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_EQ(per_rank.size(), 1u);
  EXPECT_EQ(rows[0].blocks, 16);
  EXPECT_EQ(per_rank[0].blocks, 16);
  EXPECT_EQ(rows[0].time_us, per_rank[0].time_us);
  EXPECT_EQ(rows[0].model_us, rows[0].time_us);
}

}  // namespace
}  // namespace collsim::sim
