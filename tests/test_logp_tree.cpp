// The LogP-optimal broadcast tree (schedules/logp_tree.hpp): its time
// against an independent greedy simulation, its shape against a worked
// example by hand, its limits. Its plan is verified for every p <= 1,024
// at several lags by `collsim verify plan` in tests/test_plan_verify.cpp's
// catalogue loop; its times in SMPI and the engine in
// tests/test_engine_vs_smpi.cpp (LogPTree.*).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <stdexcept>
#include <vector>

#include "circulant.hpp"  // ceil_log2
#include "logp_tree.hpp"

namespace collsim {
namespace {

// The greedy schedule of Karp et al., run as events: the earliest free
// holder sends to a new rank, which is free at t + lag, and the sender is
// free again at t + 1 (while it has sends left: at most `degree`, 0 for no
// bound). The last rank's ready time: the optimum (their Theorem 2.1; with
// a bound, every holder still gains most by sending at once). No lattice,
// no table: a different computation.
double greedy_time(int64_t p, double lag, int64_t degree = kAnyDegree) {
  using Holder = std::pair<double, int64_t>;  // free at, sends left (−1: no bound)
  std::priority_queue<Holder, std::vector<Holder>, std::greater<Holder>> free_at;
  const int64_t sends = degree == kAnyDegree ? -1 : degree;
  free_at.push({0, sends});
  double last = 0;
  for (int64_t reached = 1; reached < p; ++reached) {
    const auto [t, left] = free_at.top();
    free_at.pop();
    last = std::max(last, t + lag);
    if (left != 1) free_at.push({t + 1, left < 0 ? left : left - 1});
    free_at.push({t + lag, sends});
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

// n blocks down the tree, block by block: a rank starts block j's sends
// when it holds it and has sent block j − 1 to all its children; the q-th
// (from 0) gets it q + lag later. The last block's latest arrival.
double simulated_pipeline(const LogPTree& tree, int64_t blocks) {
  std::vector<std::vector<double>> arrival(static_cast<size_t>(tree.p()));
  arrival[0].assign(static_cast<size_t>(blocks), 0);
  std::vector<int64_t> todo{0};
  double last = 0;
  while (!todo.empty()) {
    const int64_t v = todo.back();
    todo.pop_back();
    const std::vector<int64_t> kids = tree.children(v);
    double start = -1e300;
    for (int64_t j = 0; j < blocks; ++j) {
      start = std::max(arrival[static_cast<size_t>(v)][static_cast<size_t>(j)], start + static_cast<double>(kids.size()));
      for (size_t q = 0; q < kids.size(); ++q) {
        arrival[static_cast<size_t>(kids[q])].push_back(start + static_cast<double>(q) + tree.lag());
        last = std::max(last, arrival[static_cast<size_t>(kids[q])].back());
      }
    }
    todo.insert(todo.end(), kids.begin(), kids.end());
  }
  return last;
}

TEST(LogPTree, PipelineTimeIsTheBlockByBlockSimulation) {
  for (int64_t d : {kAnyDegree, int64_t{2}, int64_t{3}, int64_t{6}})
    for (double lag : {1.0, 2.0, 3.736, 7.0})
      for (int64_t p : {1, 2, 3, 5, 8, 13, 64, 100, 257, 1000})
        for (int64_t n : {1, 2, 7, 40}) {
          const LogPTree tree(p, lag, d);
          ASSERT_NEAR(tree.pipeline_time(n), simulated_pipeline(tree, n), 1e-9)
              << "p = " << p << ", lag = " << lag << ", d = " << d << ", n = " << n;
        }
  // One block: the tree's time. By hand, lag 2, p 8, d 2 (the example below):
  // every parent has two children, so P = 2 below the root and n = 3 blocks
  // reach 7 (ready 6) at 6 + 2·2 = 10.
  EXPECT_DOUBLE_EQ(LogPTree(8, 2, 2).pipeline_time(1), 6);
  EXPECT_DOUBLE_EQ(LogPTree(8, 2, 2).pipeline_time(3), 10);
}

TEST(LogPTree, PipelineDegreeFollowsTheBlockCount) {
  // One block: the bound that fills as fast as the unbounded tree.
  EXPECT_DOUBLE_EQ(LogPTree(64, 3.736, pipeline_degree(64, 3.736, 1).degree).time(), LogPTree(64, 3.736).time());
  // Many blocks: two children, the period of a binary tree.
  EXPECT_EQ(pipeline_degree(64, 3.736, 1000).degree, 2);
  // The pick is the least pipeline time over the bounds it tries.
  for (int64_t n : {1, 4, 16, 64}) {
    const PipelineChoice choice = pipeline_degree(1000, 2.5, n);
    const double picked = LogPTree(1000, 2.5, choice.degree).pipeline_time(n);
    EXPECT_DOUBLE_EQ(choice.time, picked) << n;
    for (int64_t d = 2; d <= 12; ++d) EXPECT_LE(picked, LogPTree(1000, 2.5, d).pipeline_time(n) + 1e-9) << n << " " << d;
  }
}

TEST(LogPTree, DegreeBoundedWorkedExampleByHand) {
  // logp_tree.hpp: lag 2, p 8, d 2; C(t, 2) = 1, 1, 2, 3, 4, 6, 8.
  const LogPTree tree(8, 2, 2);
  EXPECT_DOUBLE_EQ(tree.time(), 6);
  EXPECT_EQ(tree.children(0), (std::vector<int64_t>{4, 1}));
  EXPECT_EQ(tree.children(4), (std::vector<int64_t>{6, 5}));
  EXPECT_EQ(tree.children(1), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(tree.children(6), (std::vector<int64_t>{7}));
  EXPECT_EQ(ready_times(tree), (std::vector<double>{0, 3, 6, 5, 2, 5, 4, 6}));
}

TEST(LogPTree, DegreeBoundedTimeIsTheGreedyOptimum) {
  for (int64_t d : {2, 3, 5})
    for (double lag : {1.0, 2.0, 3.736, 7.0})
      for (int64_t p = 1; p <= 200; ++p) {
        const LogPTree tree(p, lag, d);
        ASSERT_NEAR(tree.time(), greedy_time(p, lag, d), 1e-9) << "p = " << p << ", lag = " << lag << ", d = " << d;
        double last = 0;
        for (double t : ready_times(tree)) {
          ASSERT_GE(t, 0) << "a rank never reached at p = " << p << ", lag = " << lag << ", d = " << d;
          last = std::max(last, t);
        }
        ASSERT_NEAR(last, tree.time(), 1e-9);
        for (int64_t v = 0; v < p; ++v)
          ASSERT_LE(static_cast<int64_t>(tree.children(v).size()), d) << "p = " << p << ", lag = " << lag << ", v = " << v;
      }
  // A bound above what the unbounded tree uses changes nothing.
  EXPECT_DOUBLE_EQ(LogPTree(1000, 3.736, 64).time(), LogPTree(1000, 3.736).time());
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
  EXPECT_THROW(LogPTree(8, 2, 1), std::invalid_argument);   // a chain: linear-pipeline
  EXPECT_THROW(LogPTree(8, 2, -3), std::invalid_argument);
  EXPECT_FALSE(LogPTree::buildable((int64_t{1} << 31) - 1, kMaxLag, 2));
  EXPECT_TRUE(LogPTree::buildable(int64_t{1} << 20, 3.736, 2));
  // 31 rounds of lag 65536: a table of 2 million by 33 budgets.
  EXPECT_THROW(LogPTree((int64_t{1} << 31) - 1, kMaxLag), std::invalid_argument);
}

}  // namespace
}  // namespace collsim
