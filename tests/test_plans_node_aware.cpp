// The node-aware plans (algorithms/common/node_plans.cpp): every plan for
// p = 1 .. 100, node sizes 1 .. 8 and 32, three roots and three block
// counts passes the verifier with the order-sensitive rules (commutative 0;
// multi-lane with the commutative ones);
// the p = 10, c = 4 broadcast equals steps written by hand from the picture
// in the source; node size 1 is the flat algorithm; leaders are the only
// ranks that talk across nodes; a phase left out or run in the wrong order
// fails the verifier.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "plan_builders.hpp"
#include "plan_check.hpp"
#include "plan_families.hpp"

namespace collsim {
namespace {

using plan::Plan;
using plan::Step;

const Collective kNodeAware[] = {Collective::bcast, Collective::reduce, Collective::allreduce};

const Collective kMultiLane[] = {Collective::allreduce, Collective::allgatherv};

// multi-lane: every plan for p = 1 .. 100 (short last nodes included);
// allreduce with the commutative rules its circulant reduce_scatter needs.
TEST(PlansNodeAware, EveryMultiLanePlanUpTo100Verifies) {
  int64_t checked = 0;
  for (Collective c : kMultiLane)
    for (int64_t node_size : {1, 2, 3, 4, 5, 7, 8, 32})
      for (int64_t p = 1; p <= 100; ++p)
        for (int64_t n : {1, 2, 5}) {
          const Plan pl = plan::build_plan(c, "multi-lane", p, 0, n, {node_size});
          if (c == Collective::allreduce) {
            ASSERT_TRUE(pl.header.commutative);
            ASSERT_EQ(pl.header.segments, node_size);
            ASSERT_EQ(pl.header.blocks, node_size * ((p - 1) / node_size + 1) * n);  // c segments of N·n
          } else {
            ASSERT_EQ(pl.header.blocks, p * n);
          }
          const PlanReport rep = check_plan(pl);
          ASSERT_FALSE(rep.failure) << collective_name(c) << " p=" << p << " c=" << node_size << " n=" << n << ": "
                                    << describe(*rep.failure);
          ++checked;
        }
  EXPECT_EQ(checked, 2 * 8 * 100 * 3);
}

// On full nodes a multi-lane rank talks across nodes only to the ranks of
// its own lane (its local index on every other node), each once per step.
TEST(PlansNodeAware, MultiLaneCrossesNodesOnlyInItsLane) {
  const int64_t p = 40, c = 8;
  for (Collective c0 : kMultiLane) {
    const Plan pl = plan::build_plan(c0, "multi-lane", p, 0, 3, {c});
    int64_t crossing = 0;
    for (int64_t r = 0; r < p; ++r)
      for (const Step& s : pl.steps(r))
        for (int64_t peer : {s.send_to, s.recv_from})
          if (peer >= 0 && peer / c != r / c) {
            EXPECT_EQ(peer % c, r % c) << collective_name(c0) << ": rank " << r << " talks to " << peer;
            ++crossing;
          }
    EXPECT_GT(crossing, 0) << collective_name(c0);
  }
}

// The blocks of a step as a sorted list (the plan lists a message's
// segments in root order; which order is the executor's business).
std::vector<int64_t> sorted_blocks(const plan::BlockList& list) {
  std::vector<int64_t> blocks(list.begin(), list.end());
  std::sort(blocks.begin(), blocks.end());
  return blocks;
}

// allgatherv multi-lane, p = 8, c = 4, n = 1 (the picture in
// node_plans.cpp), by hand. Lane {0, 4}: one exchange, 0's block for
// 4's. Within node 0, the circulant allgatherv over 4 ranks (skips 1, 2)
// whose segment i is {i, i + 4}: round 0 local r → r + 1 its segment;
// round 1 local r → r + 2 the segments of r and r − 1.
TEST(PlansNodeAware, MultiLaneAllgathervOnFourCoreNodesByHand) {
  struct Want {
    int64_t to;
    std::vector<int64_t> send;
    int64_t from;
    std::vector<int64_t> recv;
  };
  const std::vector<std::pair<int64_t, std::vector<Want>>> want = {
      {0, {{4, {0}, 4, {4}}, {1, {0, 4}, 3, {3, 7}}, {2, {0, 3, 4, 7}, 2, {1, 2, 5, 6}}}},
      {5, {{1, {5}, 1, {1}}, {6, {1, 5}, 4, {0, 4}}, {7, {0, 1, 4, 5}, 7, {2, 3, 6, 7}}}},
  };
  const Plan pl = plan::build_plan(Collective::allgatherv, "multi-lane", 8, 0, 1, {4});
  for (const auto& [rank, steps] : want) {
    const auto got = pl.steps(rank);
    ASSERT_EQ(got.size(), steps.size()) << "rank " << rank;
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].send_to, steps[i].to) << "rank " << rank << " step " << i;
      EXPECT_EQ(sorted_blocks(got[i].send_blocks), steps[i].send) << "rank " << rank << " step " << i;
      EXPECT_EQ(got[i].recv_from, steps[i].from) << "rank " << rank << " step " << i;
      EXPECT_EQ(sorted_blocks(got[i].recv_blocks), steps[i].recv) << "rank " << rank << " step " << i;
    }
  }
}

TEST(PlansNodeAware, EveryPlanUpTo100Verifies) {
  int64_t checked = 0;
  for (Collective c : kNodeAware)
    for (int64_t node_size : {1, 2, 3, 4, 5, 7, 8, 32})
      for (int64_t p = 1; p <= 100; ++p)
        for (int64_t root : std::set<int64_t>{0, p / 2, p - 1}) {
          if (!rooted(c) && root != 0) continue;
          for (int64_t n : {1, 2, 5}) {
            const Plan pl = plan::build_plan(c, "node-aware", p, root, n, {node_size});
            ASSERT_FALSE(pl.header.commutative);
            const PlanReport rep = check_plan(pl);
            ASSERT_FALSE(rep.failure) << collective_name(c) << " p=" << p << " c=" << node_size << " root=" << root
                                      << " n=" << n << ": " << describe(*rep.failure);
            ++checked;
          }
        }
  // bcast, reduce: roots 0 (p = 1), 0 and 1 (p = 2), three roots beyond; allreduce: root 0.
  EXPECT_EQ(checked, 8 * 3 * (2 * (1 + 2 + 98 * 3) + 100));
}

// Every message between two nodes has a leader at both ends, and at most
// one per node is a leader: the node's link carries one rank's traffic.
TEST(PlansNodeAware, OnlyLeadersCrossNodes) {
  const int64_t p = 45, c = 8, n = 3;
  for (Collective c0 : kNodeAware) {
    const Plan pl = plan::build_plan(c0, "node-aware", p, rooted(c0) ? 13 : 0, n, {c});
    std::vector<int64_t> crossing_rank(static_cast<size_t>((p + c - 1) / c), -1);
    for (int64_t r = 0; r < p; ++r)
      for (const Step& s : pl.steps(r))
        for (int64_t peer : {s.send_to, s.recv_from}) {
          if (peer < 0 || peer / c == r / c) continue;
          int64_t& leader = crossing_rank[static_cast<size_t>(r / c)];
          EXPECT_TRUE(leader < 0 || leader == r) << collective_name(c0) << ": node " << r / c << " has two ranks "
                                                 << leader << " and " << r << " talking to other nodes";
          leader = r;
        }
    for (size_t k = 0; k < crossing_rank.size(); ++k) EXPECT_GE(crossing_rank[k], 0) << "node " << k;
    // bcast, reduce: leaders at the root's local index 13 % 8 = 5, the short last node's last rank (44).
    const std::vector<int64_t> leaders = rooted(c0) ? std::vector<int64_t>{5, 13, 21, 29, 37, 44}
                                                    : std::vector<int64_t>{0, 8, 16, 24, 32, 40};
    EXPECT_EQ(crossing_rank, leaders);
  }
}

// With one rank per node the node-aware plans are the flat ones they use
// between leaders.
TEST(PlansNodeAware, NodeSizeOneIsTheFlatPlan) {
  for (int64_t p : {1, 2, 7, 16, 33}) {
    const Plan bcast = plan::build_plan(Collective::bcast, "node-aware", p, p / 2, 3, {1});
    const Plan flat_bcast = plan::bcast_circulant(p, p / 2, 3);
    const Plan allreduce = plan::build_plan(Collective::allreduce, "node-aware", p, 0, 3, {1});
    const Plan flat_allreduce = plan::allreduce_two_tree(p, 0, 3);
    const Plan reduce = plan::build_plan(Collective::reduce, "node-aware", p, p / 2, 3, {1});
    const Plan flat_reduce = plan::reduce_binary_tree_pipeline(p, p / 2, 3);
    for (int64_t r = 0; r < p; ++r) {
      const auto a = bcast.steps(r), b = flat_bcast.steps(r);
      ASSERT_EQ(a.size(), b.size()) << "p=" << p << " rank " << r;
      for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].send_to, b[i].send_to);
        EXPECT_EQ(a[i].recv_from, b[i].recv_from);
        EXPECT_EQ(a[i].send_blocks, b[i].send_blocks);
        EXPECT_EQ(a[i].recv_blocks, b[i].recv_blocks);
      }
      EXPECT_EQ(allreduce.steps(r).size(), flat_allreduce.steps(r).size()) << "p=" << p << " rank " << r;
      EXPECT_EQ(reduce.steps(r).size(), flat_reduce.steps(r).size()) << "p=" << p << " rank " << r;
    }
  }
}

// p = 10, c = 4, root 5, n = 1 (the picture in node_plans.cpp):
// leaders 1, 5, 9. Between them the circulant broadcast over 3 nodes from
// node 1 (virtual nodes 1, 2, 0; skips 1, 2): round 0 node 1 → node 2,
// round 1 node 1 → node 0 (node 2's send goes to the root and is
// suppressed). Within a 4-rank node from local 1 (virtual 0 .. 3 = local
// 1, 2, 3, 0): round 0 local 1 → 2, round 1 local 1 → 3 and local 2 → 0.
// Within the 2-rank node: local 1 → local 0.
TEST(PlansNodeAware, TenRanksOnFourCoreNodesByHand) {
  using plan::recv_step;
  using plan::send_step;
  const std::vector<std::vector<Step>> want = {
      {recv_step(2, {0})},
      {recv_step(5, {0}), send_step(2, {0}), send_step(3, {0})},
      {recv_step(1, {0}), send_step(0, {0})},
      {recv_step(1, {0})},
      {recv_step(6, {0})},
      {send_step(9, {0}), send_step(1, {0}), send_step(6, {0}), send_step(7, {0})},
      {recv_step(5, {0}), send_step(4, {0})},
      {recv_step(5, {0})},
      {recv_step(9, {0})},
      {recv_step(5, {0}), send_step(8, {0})},
  };
  const Plan pl = plan::build_plan(Collective::bcast, "node-aware", 10, 5, 1, {4});
  for (int64_t r = 0; r < 10; ++r) {
    const auto got = pl.steps(r);
    ASSERT_EQ(got.size(), want[r].size()) << "rank " << r;
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].send_to, want[r][i].send_to) << "rank " << r << " step " << i;
      EXPECT_EQ(got[i].recv_from, want[r][i].recv_from) << "rank " << r << " step " << i;
      EXPECT_EQ(got[i].send_blocks, want[r][i].send_blocks) << "rank " << r << " step " << i;
      EXPECT_EQ(got[i].recv_blocks, want[r][i].recv_blocks) << "rank " << r << " step " << i;
    }
  }
}

// `good` without the steps that cross nodes of c ranks.
Plan intra_node_only(const Plan& good, int64_t c) {
  Plan broken = good;
  broken.stream = nullptr;
  broken.steps = [good, c](int64_t r) {
    std::vector<Step> kept;
    for (const Step& s : good.steps(r))
      if ((s.send_to < 0 || s.send_to / c == r / c) && (s.recv_from < 0 || s.recv_from / c == r / c))
        kept.push_back(s);
    return kept;
  };
  return broken;
}

// The tests above can fail: a leader that skips its inter-node phase
// leaves its node without the data, so do multi-lane ranks that skip their
// lanes, and an allreduce whose leaders bcast within the node before the
// inter-node allreduce ends with partial sums.
TEST(PlansNodeAware, BrokenPhasesFailTheVerifier) {
  const int64_t p = 12, c = 4, n = 2;
  for (const auto& [c0, name] : {std::pair{Collective::bcast, "node-aware"}, {Collective::allgatherv, "multi-lane"}}) {
    const PlanReport broken = check_plan(intra_node_only(plan::build_plan(c0, name, p, 0, n, {c}), c));
    ASSERT_TRUE(broken.failure) << name;
    // bcast: node 1's leader sends on a block it never got; allgatherv: a
    // rank passes on within its node the other nodes' blocks of its lane.
    EXPECT_EQ(broken.failure->condition, "not-held") << name << ": " << describe(*broken.failure);
  }

  const Plan all = plan::build_plan(Collective::allreduce, "node-aware", p, 0, n, {c});
  Plan early_bcast = all;
  early_bcast.stream = nullptr;
  early_bcast.steps = [all, c](int64_t r) {
    std::vector<Step> steps = all.steps(r), intra_last, rest;
    // A leader's last intra-node phase (its trailing intra-node sends) moved before its inter-node steps.
    if (r % c != 0) return steps;
    size_t cut = steps.size();
    while (cut > 0 && steps[cut - 1].send_to >= 0 && steps[cut - 1].send_to / c == r / c) --cut;
    size_t first_inter = 0;
    while (first_inter < cut && !(steps[first_inter].send_to >= 0 && steps[first_inter].send_to / c != r / c) &&
           !(steps[first_inter].recv_from >= 0 && steps[first_inter].recv_from / c != r / c))
      ++first_inter;
    std::vector<Step> out(steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(first_inter));
    out.insert(out.end(), steps.begin() + static_cast<std::ptrdiff_t>(cut), steps.end());
    out.insert(out.end(), steps.begin() + static_cast<std::ptrdiff_t>(first_inter),
               steps.begin() + static_cast<std::ptrdiff_t>(cut));
    return out;
  };
  const PlanReport wrong = check_plan(early_bcast);
  ASSERT_TRUE(wrong.failure);
  EXPECT_EQ(wrong.failure->condition, "wrong-result") << describe(*wrong.failure);
}

TEST(PlansNodeAware, NodeSizeBelowOneIsRefused) {
  EXPECT_THROW(plan::build_plan(Collective::bcast, "node-aware", 8, 0, 1, {0}), std::invalid_argument);
}

}  // namespace
}  // namespace collsim
