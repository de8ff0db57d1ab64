// The LogP-optimal broadcast tree (schedules/logp_tree.hpp): its time
// against an independent greedy simulation, its shape against a worked
// example by hand, its limits. Its plan is verified for every p <= 1,024
// at several lags by `collsim verify plan` in tests/test_plan_verify.cpp's
// catalogue loop; its times in SMPI and the engine in
// tests/test_engine_vs_smpi.cpp (LogPTree.*).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <queue>
#include <stdexcept>
#include <vector>

#include "circulant.hpp"  // ceil_log2
#include "logp_tree.hpp"

namespace collsim {
namespace {

// The greedy schedule of Karp et al., run as events: the earliest free
// holder sends to a new rank, which is free at t + lag, and the sender is
// free again at t + 1. The last rank's ready time: the optimum (their
// Theorem 2.1). No lattice, no table: a different computation.
double greedy_time(int64_t p, double lag) {
  std::priority_queue<double, std::vector<double>, std::greater<double>> free_at;
  free_at.push(0);
  double last = 0;
  for (int64_t reached = 1; reached < p; ++reached) {
    const double t = free_at.top();
    free_at.pop();
    last = std::max(last, t + lag);
    free_at.push(t + 1);
    free_at.push(t + lag);
  }
  return last;
}

// Every rank's ready time down the tree (a send to the k-th child, from 0,
// leaves at ready + k), each rank reached once from its parent.
std::vector<double> ready_times(const LogPTree& tree) {
  std::vector<double> ready(static_cast<size_t>(tree.p()), -1);
  std::vector<int64_t> todo{0};
  ready[0] = 0;
  while (!todo.empty()) {
    const int64_t v = todo.back();
    todo.pop_back();
    const std::vector<int64_t> kids = tree.children(v);
    for (size_t k = 0; k < kids.size(); ++k) {
      EXPECT_EQ(ready[static_cast<size_t>(kids[k])], -1) << "rank " << kids[k] << " reached twice";
      EXPECT_EQ(tree.parent(kids[k]), v);
      ready[static_cast<size_t>(kids[k])] = ready[static_cast<size_t>(v)] + static_cast<double>(k) + tree.lag();
      todo.push_back(kids[k]);
    }
  }
  return ready;
}

TEST(LogPTree, WorkedExampleByHand) {
  // logp_tree.hpp: lag 2, p 8; C = 1, 1, 2, 3, 5, 8 at t = 0 .. 5.
  const LogPTree tree(8, 2);
  EXPECT_DOUBLE_EQ(tree.time(), 5);
  EXPECT_EQ(tree.children(0), (std::vector<int64_t>{5, 3, 2, 1}));
  EXPECT_EQ(tree.children(5), (std::vector<int64_t>{7, 6}));
  EXPECT_EQ(tree.children(3), (std::vector<int64_t>{4}));
  for (int64_t leaf : {1, 2, 4, 6, 7}) EXPECT_TRUE(tree.children(leaf).empty()) << leaf;
  EXPECT_EQ(ready_times(tree), (std::vector<double>{0, 5, 4, 3, 5, 2, 5, 4}));
}

TEST(LogPTree, TimeIsTheGreedyOptimumAndEveryRankIsReachedByIt) {
  for (double lag : {1.0, 1.5, 2.0, 2.5, 3.736, 4.354, 7.0, 40.0})
    for (int64_t p = 1; p <= 300; ++p) {
      const LogPTree tree(p, lag);
      ASSERT_NEAR(tree.time(), greedy_time(p, lag), 1e-9) << "p = " << p << ", lag = " << lag;
      const std::vector<double> ready = ready_times(tree);
      double last = 0;
      for (double t : ready) {
        ASSERT_GE(t, 0) << "a rank never reached at p = " << p << ", lag = " << lag;
        last = std::max(last, t);
      }
      ASSERT_NEAR(last, tree.time(), 1e-9) << "p = " << p << ", lag = " << lag;
    }
}

// Lag 1 (rendezvous: the sender is busy until its child can send) is the
// binomial tree's ⌈log2 p⌉ rounds, up to the largest p.
TEST(LogPTree, LagOneTakesTheBinomialRounds) {
  for (int64_t p : {int64_t{1}, int64_t{2}, int64_t{3}, int64_t{64}, int64_t{65}, int64_t{1} << 20,
                    (int64_t{1} << 31) - 1})
    EXPECT_DOUBLE_EQ(LogPTree(p, 1).time(), ceil_log2(p)) << p;
}

TEST(LogPTree, LargestPAtTheDefaultLag) {
  const int64_t p = (int64_t{1} << 31) - 1;
  const LogPTree tree(p, 3.736);
  EXPECT_LT(tree.time(), ceil_log2(p) * 3.736);  // better than the binomial rounds
  const std::vector<int64_t> kids = tree.children(p - 1);
  EXPECT_TRUE(kids.empty());
  int64_t v = p - 1, depth = 0;
  while (v != 0) v = tree.parent(v), ++depth;
  EXPECT_LE(depth, ceil_log2(p));
}

TEST(LogPTree, RefusesWhatItCannotBuild) {
  EXPECT_THROW(LogPTree(0, 2), std::invalid_argument);
  EXPECT_THROW(LogPTree(int64_t{1} << 31, 2), std::invalid_argument);
  EXPECT_THROW(LogPTree(8, 0.5), std::invalid_argument);
  EXPECT_THROW(LogPTree(8, std::nan("")), std::invalid_argument);
  EXPECT_THROW(LogPTree(8, kMaxLag * 2), std::invalid_argument);
  // 31 rounds of lag 65536: a table of 2 million by 33 budgets.
  EXPECT_THROW(LogPTree((int64_t{1} << 31) - 1, kMaxLag), std::invalid_argument);
}

}  // namespace
}  // namespace collsim
