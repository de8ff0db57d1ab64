// Second, independent checks of rules that one test alone used to catch
// (issue 36, deliverable 3): the LogGP per-message rule and node placement
// against costs worked out by hand, and the block policy against the
// simulated times of its neighbours rather than against its own model.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "run_cli.hpp"

namespace collsim {
namespace {

// The data row of `collsim run ... --format csv` (the line after the header).
struct Row {
  int64_t blocks = 0;
  double time_us = 0, model_us = 0;
  bool correct = false;
};

Row run_row(std::vector<std::string> args) {
  args.insert(args.begin(), "run");
  args.insert(args.end(), {"--format", "csv"});
  const auto r = test::run_collsim_argv(args);
  EXPECT_EQ(r.status, 0) << r.out;
  std::istringstream lines(r.out);
  std::string line, header;
  while (std::getline(lines, line))
    if (line.rfind("collective,", 0) == 0) break;
  Row row;
  if (!std::getline(lines, line)) {
    ADD_FAILURE() << "no data row in: " << r.out;
    return row;
  }
  // collective,algorithm,p,bytes,blocks,time_us,model_us,root,reps,op,layout,correct,...
  std::vector<std::string> f;
  std::istringstream fields(line);
  for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
  if (f.size() < 12) {
    ADD_FAILURE() << "short row: " << line;
    return row;
  }
  row.blocks = std::stoll(f[4]);
  row.time_us = std::stod(f[5]);
  row.model_us = f[6].empty() ? 0 : std::stod(f[6]);
  row.correct = f[11] == "1";
  return row;
}

// One message between two ranks under LogGP's rules as docs/platforms.md
// states them. Under the eager limit (64 KiB): the sender busy max(o, g),
// L and (m + 16)G on the wire (the NIC carries the bytes), the receiver
// busy o. With L = 2.5 us (loggp), o = 3 us, g = 2 us, G = 0.1 ns/B and
// m = 32 KiB: 3 + 2.5 + 3.2784 + 3 = 11.7784 us. From 64 KiB rendezvous,
// and a blocking send and receive pay no overhead in SMPI: 1 MiB takes
// 2.5 + 104.8592 us whatever o and g are. In SMPI and in the engine.
TEST(IndependentRules, LogGpMessageCostWorkedByHand) {
  // (o, g, size) and the time by hand; in the second, g above o rules the sender.
  const double wire_32k = 2.5 + 32784 * 0.1e-3, wire_1m = 2.5 + 1048592 * 0.1e-3;
  const std::vector<std::tuple<std::string, std::string, std::string, double>> cases = {
      {"3e-6", "2e-6", "32KiB", 3 + wire_32k + 3},
      {"1e-6", "4e-6", "32KiB", 4 + wire_32k + 1},
      {"3e-6", "2e-6", "1MiB", wire_1m},
      {"1e-6", "4e-6", "1MiB", wire_1m}};
  for (const auto& [o, g, size, by_hand_us] : cases)
    for (const char* engine : {"smpi", "loggp"}) {
      const Row row = run_row({"--collective", "bcast", "--algo", "binomial", "--p", "2", "--size", size, "--o", o,
                               "--g", g, "--engine", engine});
      EXPECT_TRUE(row.correct) << engine;
      EXPECT_NEAR(row.time_us, by_hand_us, 5e-3) << engine << " o = " << o << " g = " << g << " " << size;
    }
}

// The block count the policy picks is no worse, in simulated time, than one
// block fewer or one more (a policy off by one is caught without reading its
// model). alphabeta, where these models are exact.
TEST(IndependentRules, PolicyBlocksBeatTheirNeighbours) {
  const std::vector<std::vector<std::string>> cases = {
      {"--collective", "bcast", "--algo", "circulant", "--p", "17", "--size", "1MiB"},
      {"--collective", "bcast", "--algo", "two-tree", "--p", "12", "--size", "256KiB"},
      {"--collective", "bcast", "--algo", "linear-pipeline", "--p", "8", "--size", "256KiB"},
  };
  for (auto args : cases) {
    args.insert(args.end(), {"--platform", "alphabeta"});
    const Row chosen = run_row(args);
    ASSERT_GT(chosen.blocks, 1) << args[3];  // a case where blocks matter
    for (const int64_t n : {chosen.blocks - 1, chosen.blocks + 1}) {
      auto with_n = args;
      with_n.insert(with_n.end(), {"--blocks", std::to_string(n)});
      const Row other = run_row(with_n);
      EXPECT_TRUE(other.correct);
      EXPECT_GE(other.time_us, chosen.time_us - 1e-6) << args[3] << " p = " << args[5] << ": n = " << n << " beats the "
                                                     << "policy's " << chosen.blocks;
    }
  }
}

// A chain 0 -> 1 -> 2 -> 3 of one block of `size` on 2 nodes x 2 cores of
// `platform` (intra-node alpha 1 us, beta 0.1 ns/B) sends intra, inter,
// intra with block placement and inter three times round-robin: SMPI and
// the engine must both take the times worked by hand from one message's
// `inter_us` and `intra_us`.
void expect_chain_on_two_nodes(const char* platform, const char* size, double inter_us, double intra_us) {
  const std::vector<std::pair<std::string, double>> placements = {{"block", 2 * intra_us + inter_us},
                                                                  {"round-robin", 3 * inter_us}};
  for (const auto& [placement, by_hand_us] : placements)
    for (const char* engine : {"smpi", "loggp"}) {
      const Row row = run_row({"--collective", "bcast", "--algo", "linear-pipeline", "--blocks", "1", "--p", "4",
                               "--size", size, "--platform", platform, "--nodes", "2", "--cores-per-node", "2",
                               "--intra-alpha", "1e-6", "--intra-beta", "1e-10", "--placement", placement, "--engine",
                               engine});
      EXPECT_TRUE(row.correct);
      // 5 ns: SimGrid's clock gains up to about a nanosecond per eager message over the hand count.
      EXPECT_NEAR(row.time_us, by_hand_us, 5e-3) << platform << " " << size << " " << placement << " " << engine;
    }
}

// Where ranks sit decides which messages stay in a node (alphabeta). By
// hand, with SMPI's 16-byte envelope: inter 5 + 1048592e-3 us, intra
// 1 + 1048592e-4 us.
TEST(IndependentRules, NodePlacementDecidesWhichMessagesStayInANode) {
  expect_chain_on_two_nodes("alphabeta", "1MiB", 5 + 1048592e-3, 1 + 1048592e-4);
}

// The same chain on the default LogGP platform (platform.hpp). 32 KiB is
// eager: a message between nodes takes max(o, g) + L + (m + 16)G + o =
// 1.5 + 2.5 + 3.2784 + 1.5 us; within a node the loopback's α and
// (m + 16)β instead of L and G: 1.5 + 1 + 3.2784 + 1.5 us. 1 MiB is
// rendezvous, and a blocking send and receive pay no overhead: 2.5 +
// 104.8592 us between nodes, 1 + 104.8592 us within one.
TEST(IndependentRules, NodePlacementOnLogGpChargesTheOverheadsOfEagerMessagesOnly) {
  expect_chain_on_two_nodes("loggp", "32KiB", 1.5 + 2.5 + 3.2784 + 1.5, 1.5 + 1 + 3.2784 + 1.5);
  expect_chain_on_two_nodes("loggp", "1MiB", 2.5 + 104.8592, 1 + 104.8592);
}

// The same chain on `oneported`, whose senders pay the bytes
// (engine/loggp.cpp's sweep, which places ranks itself: nothing is shared):
// a message between nodes takes max(o, g) + mβ + L + o = 5 + 1048.576 us;
// within a node the loopback's α and (m + 16)β as well as the sender's mβ:
// 5 + 1048.576 + 1 + 104.8592 us.
TEST(IndependentRules, NodePlacementOnOnePortedChargesTheSenderAndTheLoopback) {
  expect_chain_on_two_nodes("oneported", "1MiB", 5 + 1048.576, 5 + 1048.576 + 1 + 104.8592);
}

}  // namespace
}  // namespace collsim
