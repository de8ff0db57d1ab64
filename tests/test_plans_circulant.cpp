// The circulant and two-tree reduction and scan plans
// (algorithms/common/circulant_plans.cpp, two_tree_plans.cpp) and the plan header's
// `segments`: every plan of
// p = 1 .. 200 passes the verifier (verify/plan_check.hpp); the p = 4 plans
// equal step lists written by hand from the broadcast's tree; block_units
// cuts as allreduce circulant's MPI code does; the text format carries
// `segments` and rejects bad values.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "blocks.hpp"
#include "plan_builders.hpp"
#include "plan_goal.hpp"
#include "plan_check.hpp"
#include "plan_families.hpp"

namespace collsim {
namespace {

using plan::Combine;
using plan::Plan;
using plan::Step;
using Steps = std::vector<std::vector<Step>>;  // per rank

struct Builder {
  Collective c;
  const char* name;
};
void PrintTo(const Builder& b, std::ostream* os) { *os << collective_name(b.c) << " " << b.name; }

const Builder kNew[] = {{Collective::reduce, "circulant"},
                        {Collective::allreduce, "circulant"},
                        {Collective::reduce_scatter, "circulant"},
                        {Collective::allgatherv, "circulant"},
                        {Collective::reduce, "two-tree"},
                        {Collective::allreduce, "two-tree"},
                        {Collective::scan, "two-tree"},
                        {Collective::exscan, "two-tree"}};

// Roots 0, p − 1 (two-tree's order-keeping ones) and one between (its
// commutative path); 0 for the unrooted collectives.
std::vector<int64_t> roots(Collective c, int64_t p) {
  if (c != Collective::reduce || p < 3) return {0};
  return {0, p / 2, p - 1};
}

// One test per builder, so that ctest -j runs them side by side.
class EveryPlanUpTo200 : public testing::TestWithParam<Builder> {};

TEST_P(EveryPlanUpTo200, Verifies) {
  const Builder b = GetParam();
  int64_t checked = 0;
  for (int64_t p = 1; p <= 200; ++p)
    for (int64_t root : roots(b.c, p))
      for (int64_t n : {1, 2, 7}) {
        const PlanReport rep = check_plan(plan::build_plan(b.c, b.name, p, root, n));
        ASSERT_FALSE(rep.failure) << collective_name(b.c) << " " << b.name << " p=" << p << " root=" << root
                                  << " n=" << n << ": " << describe(*rep.failure);
        ++checked;
      }
  EXPECT_EQ(checked, 3 * (b.c == Collective::reduce ? 2 + 3 * 198 : 200));
}

INSTANTIATE_TEST_SUITE_P(PlansCirculant, EveryPlanUpTo200, testing::ValuesIn(kNew),
                         [](const testing::TestParamInfo<Builder>& info) {
                           std::string name = std::string(collective_name(info.param.c)) + "_" + info.param.name;
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

// Headers: commutative where the MPI code needs a commutative ⊕, B = p·n
// per segment, allreduce circulant in p segments.
TEST(PlansCirculant, Headers) {
  const int64_t p = 6, n = 3;
  for (const Builder& b : kNew) {
    const plan::Header h = plan::build_plan(b.c, b.name, p, 0, n).header;
    const bool circulant = std::string(b.name) == "circulant";
    EXPECT_EQ(h.commutative, circulant && b.c != Collective::allgatherv) << b.name;
    EXPECT_EQ(h.blocks, circulant && b.c != Collective::reduce ? p * n : n) << b.name;
    EXPECT_EQ(h.segments, circulant && b.c == Collective::allreduce ? p : 1) << b.name;
  }
  EXPECT_TRUE(plan::build_plan(Collective::reduce, "two-tree", p, 2, n).header.commutative);
  EXPECT_FALSE(plan::build_plan(Collective::reduce, "two-tree", p, p - 1, n).header.commutative);
  EXPECT_THROW(plan::build_plan(Collective::allgatherv, "circulant", int64_t{1} << 30, 0, int64_t{1} << 11),
               std::invalid_argument);
}

Step sendrecv(int64_t to, std::vector<int64_t> out, int64_t from, std::vector<int64_t> in,
              Combine combine = Combine::store) {
  return plan::with_recv(plan::send_step(to, std::move(out)), from, std::move(in), combine);
}

void expect_steps(const Plan& pl, const Steps& want) {
  for (int64_t r = 0; r < pl.header.p; ++r) {
    const std::vector<Step> got = pl.steps(r);
    ASSERT_EQ(got.size(), want[r].size()) << "rank " << r;
    for (size_t k = 0; k < got.size(); ++k) {
      const Step &g = got[k], &w = want[r][k];
      const std::string where = "rank " + std::to_string(r) + " step " + std::to_string(k);
      EXPECT_EQ(g.send_to, w.send_to) << where;
      EXPECT_EQ(g.send_blocks, w.send_blocks) << where;
      EXPECT_EQ(g.send_value, w.send_value) << where;
      EXPECT_EQ(g.recv_from, w.recv_from) << where;
      EXPECT_EQ(g.recv_blocks, w.recv_blocks) << where;
      if (w.recv_from >= 0) {
        EXPECT_EQ(g.combine, w.combine) << where;
      }
    }
  }
}

// The p = 4 broadcast (skips 1, 2; n = 1, rounds 0 and 1): 0 → 1 in round 0,
// 0 → 2 and 1 → 3 in round 1 (seed 003, Algorithm 1; 2 → 0 and 3 → 1 carry
// nothing new and are dropped).
//
// allgatherv: rank r is the root of block r and plays virtual rank
// (r − j) mod 4 for root j. Round 0: r → r + 1 block r. Round 1: r → r + 2
// blocks r (virtual 0) and r − 1 (virtual 1), in root order; from r − 2
// blocks r − 2 and r + 1.
Steps allgather_p4() {
  return {{sendrecv(1, {0}, 3, {3}), sendrecv(2, {0, 3}, 2, {1, 2})},
          {sendrecv(2, {1}, 0, {0}), sendrecv(3, {0, 1}, 3, {2, 3})},
          {sendrecv(3, {2}, 1, {1}), sendrecv(0, {1, 2}, 0, {0, 3})},
          {sendrecv(0, {3}, 2, {2}), sendrecv(1, {2, 3}, 1, {0, 1})}};
}

// reduce_scatter: the same rounds backwards, what came in goes back out as a
// partial result, what went out comes back and is folded in (left).
Steps reduce_scatter_p4() {
  const Combine L = Combine::left;
  return {{sendrecv(2, {1, 2}, 2, {0, 3}, L), sendrecv(3, {3}, 1, {0}, L)},
          {sendrecv(3, {2, 3}, 3, {0, 1}, L), sendrecv(0, {0}, 2, {1}, L)},
          {sendrecv(0, {0, 3}, 0, {1, 2}, L), sendrecv(1, {1}, 3, {2}, L)},
          {sendrecv(1, {0, 1}, 1, {2, 3}, L), sendrecv(2, {2}, 0, {3}, L)}};
}

TEST(PlansCirculant, AllgathervP4ByHand) {
  expect_steps(plan::build_plan(Collective::allgatherv, "circulant", 4, 0, 1), allgather_p4());
}

TEST(PlansCirculant, ReduceScatterP4ByHand) {
  expect_steps(plan::build_plan(Collective::reduce_scatter, "circulant", 4, 0, 1), reduce_scatter_p4());
}

TEST(PlansCirculant, AllreduceP4IsReduceScatterThenAllgather) {
  Steps want = reduce_scatter_p4();
  const Steps allgather = allgather_p4();
  for (int r = 0; r < 4; ++r) want[r].insert(want[r].end(), allgather[r].begin(), allgather[r].end());
  expect_steps(plan::build_plan(Collective::allreduce, "circulant", 4, 0, 1), want);
}

// reduce, root 0: round 1 backwards (2 → 0, 3 → 1), then round 0 (1 → 0
// with m1 ⊕ m3). Root 2: the same on ranks shifted by 2.
TEST(PlansCirculant, ReduceP4ByHand) {
  const Combine L = Combine::left;
  using plan::recv_step;
  using plan::send_step;
  expect_steps(plan::build_plan(Collective::reduce, "circulant", 4, 0, 1),
               {{recv_step(2, {0}, L), recv_step(1, {0}, L)}, {recv_step(3, {0}, L), send_step(0, {0})},
                {send_step(0, {0})}, {send_step(1, {0})}});
  expect_steps(plan::build_plan(Collective::reduce, "circulant", 4, 2, 1),
               {{send_step(2, {0})}, {send_step(3, {0})}, {recv_step(0, {0}, L), recv_step(3, {0}, L)},
                {recv_step(1, {0}, L), send_step(2, {0})}});
}

// allreduce circulant's MPI code cuts count into p segments (block_span,
// ceil) and each into n blocks: 10 elements, p = 4: segments 3, 3, 3, 1;
// n = 2: blocks of 2, 1 | 2, 1 | 2, 1 | 1, 0. A flat cut into 8 would be
// 2, 2, 2, 2, 2, 0, 0, 0.
TEST(PlanSegments, BlockUnitsIsTheNestedCut) {
  plan::Header h;
  h.collective = Collective::allreduce;
  h.p = 4;
  h.blocks = 8;
  h.segments = 4;
  const int64_t begin[] = {0, 2, 3, 5, 6, 8, 9, 10}, end[] = {2, 3, 5, 6, 8, 9, 10, 10};
  for (int64_t b = 0; b < 8; ++b) {
    EXPECT_EQ(plan::block_units(h, 10, b).begin, begin[b]) << b;
    EXPECT_EQ(plan::block_units(h, 10, b).end, end[b]) << b;
  }
  h.segments = 1;
  for (int64_t b = 0; b < 8; ++b) {
    EXPECT_EQ(plan::block_units(h, 10, b).begin, sim::block_span(10, 8, b).begin) << b;
    EXPECT_EQ(plan::block_units(h, 10, b).end, sim::block_span(10, 8, b).end) << b;
  }
  // p = 2^31 − 1 segments of 2^9 blocks (B < 2^40) over 2^50 units: no overflow.
  h.p = h.segments = (int64_t{1} << 31) - 1;
  h.blocks = h.segments * 512;
  const int64_t count = int64_t{1} << 50;
  EXPECT_EQ(plan::block_units(h, count, h.blocks - 1).end, count);
  EXPECT_EQ(plan::block_units(h, count, 0).begin, 0);
}

plan::Header read_header(const std::string& text) {
  std::istringstream in("collsim-plan 1\n" + text);
  return plan::read_plan(in).header;
}

// `empty-messages skip` (Header::skip_empty): set by the all-to-all
// circulant plans only, written only when set, read back; the GOAL export
// leaves out a half of 0 bytes where it is set and writes it elsewhere.
TEST(PlanEmptyMessages, TextFormatAndGoal) {
  for (Collective c : {Collective::allgatherv, Collective::reduce_scatter, Collective::allreduce}) {
    const Plan built = plan::build_plan(c, "circulant", 5, 0, 2);
    EXPECT_TRUE(built.header.skip_empty) << collective_name(c);
    std::ostringstream out;
    plan::write_plan(out, built);
    EXPECT_NE(out.str().find("\nempty-messages skip\n"), std::string::npos) << out.str();
    std::istringstream in(out.str());
    EXPECT_TRUE(plan::read_plan(in).header.skip_empty);
  }
  const Plan reduce = plan::build_plan(Collective::reduce, "circulant", 5, 0, 2);
  EXPECT_FALSE(reduce.header.skip_empty);
  std::ostringstream out;
  plan::write_plan(out, reduce);
  EXPECT_EQ(out.str().find("empty-messages"), std::string::npos) << out.str();
  EXPECT_FALSE(read_header("collective bcast\np 3\nblocks 1\nempty-messages send\n").skip_empty);
  EXPECT_THROW(read_header("collective bcast\np 3\nblocks 1\nempty-messages none\n"), std::invalid_argument);
  // allgatherv at p = 5, n = 2, 5 bytes: GOAL's flat cut of 5 bytes into
  // B = 10 blocks leaves half of them empty. The skipping plan's GOAL has no
  // 0-byte message; with the flag cleared the same plan's has some.
  Plan allgatherv = plan::build_plan(Collective::allgatherv, "circulant", 5, 0, 2);
  std::ostringstream skipped, sent;
  plan::write_goal(skipped, allgatherv, 5, "");
  EXPECT_EQ(skipped.str().find(" 0b "), std::string::npos) << skipped.str();
  EXPECT_NE(skipped.str().find(" 1b "), std::string::npos) << skipped.str();
  allgatherv.header.skip_empty = false;
  plan::write_goal(sent, allgatherv, 5, "");
  EXPECT_NE(sent.str().find("send 0b "), std::string::npos) << sent.str();
}

TEST(PlanSegments, TextFormat) {
  std::ostringstream out;
  const Plan built = plan::build_plan(Collective::allreduce, "circulant", 3, 0, 2);
  plan::write_plan(out, built);
  EXPECT_NE(out.str().find("\nsegments 3\n"), std::string::npos) << out.str();
  std::istringstream in(out.str());
  EXPECT_EQ(plan::read_plan(in).header.segments, 3);
  std::ostringstream flat;
  plan::write_plan(flat, plan::build_plan(Collective::allreduce, "ring", 3, 0, 3));
  EXPECT_EQ(flat.str().find("segments"), std::string::npos) << "written only when not 1";
  EXPECT_EQ(read_header("collective allreduce\np 3\nblocks 6\nsegments 3\n").segments, 3);
  EXPECT_EQ(read_header("collective allreduce\np 3\nblocks 6\n").segments, 1);
  for (const char* bad : {"collective allreduce\np 3\nblocks 6\nsegments 4\n",   // B not a multiple of K
                          "collective allreduce\np 3\nblocks 6\nsegments 0\n",   // K < 1
                          "collective allreduce\np 3\nblocks 2\nsegments 3\n",   // K > B
                          "collective allgatherv\np 3\nblocks 6\nsegments 3\n",  // cut by counts
                          "collective allreduce\np 3\nblocks 6\nsegments 3\nsegments 3\n"})
    EXPECT_THROW(read_header(bad), std::invalid_argument) << bad;
}

TEST(PlanSegments, VerifierRejectsABadSegmentsHeader) {
  Plan pl = plan::build_plan(Collective::allreduce, "circulant", 3, 0, 2);
  pl.header.segments = 4;
  const PlanReport rep = check_plan(pl);
  ASSERT_TRUE(rep.failure);
  EXPECT_EQ(rep.failure->condition, "header");
}

}  // namespace
}  // namespace collsim
