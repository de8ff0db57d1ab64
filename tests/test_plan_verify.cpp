// The plan verifier (verify/plan_check.hpp): hand-written correct plans pass
// with the step, ⊕ and critical-path counts worked out by hand; one broken
// rule at a time is caught under its name (mutation tests); the text format
// round-trips; `collsim verify plan` exits 0/1/2.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "plan.hpp"
#include "plan_builders.hpp"
#include "plan_check.hpp"
#include "plan_families.hpp"
#include "run_cli.hpp"
#include "scan_check.hpp"

namespace collsim {
namespace {

using plan::Combine;
using plan::Header;
using plan::Plan;
using plan::Step;
using plan::Value;
using Steps = std::vector<std::vector<Step>>;  // per rank

using plan::fold_step;
using plan::recv_step;
using plan::send_step;

// Both halves in one step.
Step sendrecv(Step out, const Step& in) {
  out.recv_from = in.recv_from;
  out.recv_blocks = in.recv_blocks;
  out.combine = in.combine;
  return out;
}

Header header(Collective c, int64_t p, int64_t blocks, int64_t root = 0) {
  Header h;
  h.collective = c;
  h.p = p;
  h.blocks = blocks;
  h.root = root;
  return h;
}

Plan make_plan(const Header& h, Steps ranks) {
  ranks.resize(h.p);
  return {h, [ranks](int64_t r) { return ranks[r]; }};
}

// Root 0 sends to 2, then 1; 2 sends to 3.
Steps binomial_bcast_p4() { return {{send_step(2, {0}), send_step(1, {0})}, {recv_step(0, {0})}, {recv_step(0, {0}), send_step(3, {0})}, {recv_step(2, {0})}}; }

// Two blocks pipelined along 0 -> 1 -> 2 -> 3.
Steps chain_bcast_p4() {
  Steps s(4);
  s[0] = {send_step(1, {0}), send_step(1, {1})};
  for (int64_t r = 1; r <= 2; ++r)
    s[r] = {recv_step(r - 1, {0}), sendrecv(send_step(r + 1, {0}), recv_step(r - 1, {1})), send_step(r + 1, {1})};
  s[3] = {recv_step(2, {0}), recv_step(2, {1})};
  return s;
}

// [0, r-1] travels up the chain and is joined on the left of r's input; the
// last rank stores [0, 3] at the root.
Steps chain_reduce_p4(Combine combine = Combine::left) {
  return {{send_step(1, {0}), recv_step(3, {0})},
          {recv_step(0, {0}, combine), send_step(2, {0})},
          {recv_step(1, {0}, combine), send_step(3, {0})},
          {recv_step(2, {0}, combine), send_step(0, {0})}};
}

// Rank 1 forwards W ⊕ V = [0, 1] to rank 2.
Steps exscan_p3() {
  return {{send_step(1, {0}, Value::input)}, {recv_step(0, {0}), send_step(2, {0}, Value::acc_op_input)}, {recv_step(1, {0})}};
}

// exscan_p3 as MPI_Scan: acc starts as the input, the shift's store
// replaces it, and ranks 1 and 2 fold their input in last: [0, r - 1] ⊕ [r].
Steps scan_p3() {
  Steps s = exscan_p3();
  s[1].push_back(fold_step({0}));
  s[2].push_back(fold_step({0}));
  return s;
}

// Step k: rank r passes block r - k on to r + 1.
Steps allgatherv_ring_p3() {
  Steps s(3);
  for (int64_t r = 0; r < 3; ++r)
    for (int64_t k = 0; k < 2; ++k)
      s[r].push_back(sendrecv(send_step((r + 1) % 3, {(r - k + 3) % 3}), recv_step((r + 2) % 3, {(r - k + 2) % 3})));
  return s;
}

// Each rank sends the other's block and joins it in rank order.
Steps reduce_scatter_p2() {
  return {{sendrecv(send_step(1, {1}), recv_step(1, {0}, Combine::right))}, {sendrecv(send_step(0, {0}), recv_step(0, {1}, Combine::left))}};
}

// Rank r receives from r minus its lowest set bit and sends to r + 2^j,
// highest j first: ceil(log2 p) steps deep. Built per rank on demand.
Plan binomial_bcast(int64_t p) {
  return {header(Collective::bcast, p, 1), [p](int64_t r) {
            std::vector<Step> steps;
            int64_t span = 1;
            while (span < p && !(r & span)) span <<= 1;
            if (r) steps.push_back(recv_step(r - span, {0}));
            for (span >>= 1; span >= 1; span >>= 1)
              if (r + span < p) steps.push_back(send_step(r + span, {0}));
            return steps;
          }};
}

PlanReport passes(const Plan& plan) {
  PlanReport rep = check_plan(plan);
  EXPECT_FALSE(rep.failure) << describe(*rep.failure);
  return rep;
}

// Checks the plan fails with `rule` at (rank, step, block).
void fails(const Plan& plan, const char* rule, int64_t rank, int step, int64_t block) {
  const PlanReport rep = check_plan(plan);
  ASSERT_TRUE(rep.failure) << "expected " << rule;
  EXPECT_EQ(rep.failure->condition, rule) << describe(*rep.failure);
  EXPECT_EQ(rep.failure->rank, rank) << describe(*rep.failure);
  EXPECT_EQ(rep.failure->k, step) << describe(*rep.failure);
  EXPECT_EQ(rep.failure->block, block) << describe(*rep.failure);
}

TEST(PlanVerify, BinomialBcastP4Passes) {
  const PlanReport rep = passes(make_plan(header(Collective::bcast, 4, 1), binomial_bcast_p4()));
  EXPECT_EQ(rep.max_steps, 2);
  EXPECT_EQ(rep.max_ops, 0);
  EXPECT_EQ(rep.critical_path, 2);
  ASSERT_EQ(rep.ranks.size(), 4u);
  EXPECT_EQ(rep.ranks[1].depth, 2);  // after the root's first send
  EXPECT_EQ(rep.ranks[3].depth, 2);
}

TEST(PlanVerify, GeneratedBinomialBcastIsLogPDeep) {
  const PlanReport rep = passes(binomial_bcast(1000));
  EXPECT_EQ(rep.critical_path, 10);
  EXPECT_EQ(rep.max_steps, 10);  // the root
}

TEST(PlanVerify, PipelinedChainBcastPasses) {
  const PlanReport rep = passes(make_plan(header(Collective::bcast, 4, 2), chain_bcast_p4()));
  EXPECT_EQ(rep.max_steps, 3);
  EXPECT_EQ(rep.critical_path, 4);  // blocks + p - 2
}

TEST(PlanVerify, ChainReduceCombineLeftPasses) {
  const PlanReport rep = passes(make_plan(header(Collective::reduce, 4, 1), chain_reduce_p4()));
  EXPECT_EQ(rep.max_ops, 1);
  EXPECT_EQ(rep.ranks[0].ops, 0);  // stores the total
  EXPECT_EQ(rep.critical_path, 4);
}

TEST(PlanVerify, ExscanP3Passes) {
  const PlanReport rep = passes(make_plan(header(Collective::exscan, 3, 1), exscan_p3()));
  EXPECT_EQ(rep.ranks[1].ops, 1);  // acc ⊕ input with acc = [0, 0]
  EXPECT_EQ(rep.critical_path, 2);
}

TEST(PlanVerify, ScanP3WithFoldsPasses) {
  const PlanReport rep = passes(make_plan(header(Collective::scan, 3, 1), scan_p3()));
  EXPECT_EQ(rep.ranks[1].ops, 2);  // acc ⊕ input sent, then the fold
  EXPECT_EQ(rep.ranks[2].ops, 1);
  EXPECT_EQ(rep.ranks[2].steps, 2);
  EXPECT_EQ(rep.critical_path, 2);  // a fold adds no depth
}

TEST(PlanVerify, AllgathervRingP3Passes) {
  const PlanReport rep = passes(make_plan(header(Collective::allgatherv, 3, 3), allgatherv_ring_p3()));
  EXPECT_EQ(rep.max_steps, 2);
  EXPECT_EQ(rep.critical_path, 2);
}

TEST(PlanVerify, ReduceScatterP2Passes) {
  const PlanReport rep = passes(make_plan(header(Collective::reduce_scatter, 2, 2), reduce_scatter_p2()));
  EXPECT_EQ(rep.max_ops, 1);
  EXPECT_EQ(rep.critical_path, 1);
}

// The doubling scans of schedules/scan_plans.hpp as plans: one step per
// round with a message.
Plan scan_plan(const ScanAlgorithm& a, int64_t p) {
  const Header h = header(a.inclusive ? Collective::scan : Collective::exscan, p, 1);
  return {h, [&a, p](int64_t r) {
            std::vector<Step> steps;
            for (int k = 0; k < scan_rounds(a, p); ++k) {
              const ScanRound x = scan_round(a, p, r, k);
              Step s;
              if (x.send_to >= 0) {
                static const Value values[] = {Value::input, Value::acc, Value::acc_op_input};
                s = send_step(x.send_to, {0}, values[static_cast<int>(x.send)]);
              }
              if (x.recv_from >= 0) {
                static const Combine combines[] = {Combine::store, Combine::store, Combine::left, Combine::right};
                s = sendrecv(s, recv_step(x.recv_from, {0}, combines[static_cast<int>(x.combine)]));
              }
              if (x.send_to >= 0 || x.recv_from >= 0) steps.push_back(s);
            }
            return steps;
          }};
}

// Two checkers, one verdict: the plan checker passes the registry's scans
// with scan_check's ⊕ counts (⊕ into W and into send values), its critical
// path as deep as scan_check's rounds with messages.
TEST(PlanVerify, AgreesWithScanCheckOnTheDoublingScans) {
  for (int i = 0; i < kScanAlgorithmCount; ++i) {
    const ScanAlgorithm& a = kScanAlgorithms[i];
    for (int64_t p = a.inclusive ? 1 : 2; p <= 70; ++p) {
      const ScanSweep scan = sweep_scan(plan_of(a), p, p);
      ASSERT_FALSE(scan.failure);
      const PlanReport rep = check_plan(scan_plan(a, p));
      ASSERT_FALSE(rep.failure) << a.name << " p=" << p << ": " << describe(*rep.failure);
      EXPECT_EQ(rep.max_ops, scan.total_ops[0]) << a.name << " p=" << p;
      EXPECT_EQ(rep.critical_path, scan.rounds[0]) << a.name << " p=" << p;
    }
  }
}

// --- mutations: one broken rule each ---

TEST(PlanVerify, DroppedSendLeavesReceiveUnmatched) {
  Steps s = binomial_bcast_p4();
  s[0].pop_back();  // the root's send to 1
  fails(make_plan(header(Collective::bcast, 4, 1), s), "unmatched-recv", 1, 0, 0);
}

TEST(PlanVerify, ExtraSendIsUnmatched) {
  Steps s = binomial_bcast_p4();
  s[1].push_back(send_step(3, {0}));
  fails(make_plan(header(Collective::bcast, 4, 1), s), "unmatched-send", 1, 1, 0);
}

TEST(PlanVerify, ReceiveFromWrongPeerIsPeerMismatch) {
  Steps s = binomial_bcast_p4();
  s[3][0].recv_from = 1;
  fails(make_plan(header(Collective::bcast, 4, 1), s), "peer-mismatch", 3, 0, 0);
}

TEST(PlanVerify, WrongBlockIsBlockMismatch) {
  Steps s = chain_bcast_p4();
  s[0][0].send_blocks = {1};
  fails(make_plan(header(Collective::bcast, 4, 2), s), "block-mismatch", 0, 0, 1);
}

TEST(PlanVerify, SwappedStepsDeadlock) {
  Steps s = chain_reduce_p4();
  std::swap(s[0][0], s[0][1]);  // the root waits for the total before starting the chain
  fails(make_plan(header(Collective::reduce, 4, 1), s), "deadlock", 0, 0, -1);
}

TEST(PlanVerify, SendBeforeReceiveIsNotHeld) {
  Steps s = binomial_bcast_p4();
  std::swap(s[2][0], s[2][1]);  // 2 forwards to 3 before it has the data
  fails(make_plan(header(Collective::bcast, 4, 1), s), "not-held", 2, 0, 0);
}

TEST(PlanVerify, BlockCombinedTwiceIsDoubleContribution) {
  Steps s = chain_reduce_p4();
  s[0].insert(s[0].begin(), send_step(1, {0}));
  s[1].insert(s[1].begin(), recv_step(0, {0}, Combine::left));  // [0] ⊕ [0, 1]
  fails(make_plan(header(Collective::reduce, 4, 1), s), "double-contribution", 1, 1, 0);
}

TEST(PlanVerify, SwappedOperandsBreakOrder) {
  // Rank 2 computes [2] ⊕ [0, 1]: fine only for commutative ⊕.
  Steps s = chain_reduce_p4();
  s[2][0].combine = Combine::right;
  fails(make_plan(header(Collective::reduce, 4, 1), s), "order", 2, 0, 0);
}

TEST(PlanVerify, GapIsNonAdjacentJoin) {
  // Rank 2 receives [0] and joins it with [2].
  Steps s = chain_reduce_p4();
  s[0][0].send_to = 2;
  s[1] = {send_step(3, {0})};
  s[2][0].recv_from = 0;
  fails(make_plan(header(Collective::reduce, 4, 1), s), "non-adjacent-join", 2, 0, 0);
}

// The second accumulator (plan.hpp's aux), on the two-tree scan of three
// ranks, tree 1 over 0 and 2 (algorithms/common/two_tree_plans.cpp): 0 and 2 send
// acc ⊕ aux up (aux empty: their inputs); 1 takes [0] on the left and [2]
// into aux, then sends [0, 1] to 2, which takes it into aux and joins:
// [0, 1] ⊕ [2].
Steps two_tree_scan_p3() {
  Step join_step = plan::fold_step({0});
  join_step.join = true;
  return {{send_step(1, {0}, Value::acc_op_aux)},
          {recv_step(0, {0}, Combine::left), recv_step(2, {0}, Combine::aux), send_step(2, {0})},
          {send_step(1, {0}, Value::acc_op_aux), recv_step(1, {0}, Combine::aux), join_step}};
}

TEST(PlanVerify, SecondAccumulatorPassesAndEveryMisuseFails) {
  const Header h = header(Collective::scan, 3, 1);
  passes(make_plan(h, two_tree_scan_p3()));
  Steps s = two_tree_scan_p3();
  s[0][0].send_value = Value::aux;  // aux is empty at rank 0
  fails(make_plan(h, s), "not-held", 0, 0, 0);
  s = two_tree_scan_p3();
  s[1][1].combine = Combine::left;  // [2] ⊕ [0, 1]
  fails(make_plan(h, s), "order", 1, 1, 0);
  s = two_tree_scan_p3();
  s[1][2].send_value = Value::aux;  // sends [2] back to 2, which joins [2] ⊕ [2]
  fails(make_plan(h, s), "double-contribution", 2, 2, 0);
  s = two_tree_scan_p3();
  s[2].pop_back();  // no join: 2 ends with [2]
  fails(make_plan(h, s), "wrong-result", 2, -1, 0);
  s = two_tree_scan_p3();
  s[2][2].join = false;  // a fold instead: acc = [2] ⊕ [2]
  fails(make_plan(h, s), "double-contribution", 2, 2, 0);
  Steps b = binomial_bcast_p4();
  Step join_step = plan::fold_step({0});
  join_step.join = true;
  b[0].push_back(join_step);
  fails(make_plan(header(Collective::bcast, 4, 1), b), "no-reduction", 0, 2, -1);
}

TEST(PlanVerify, CommutativeAllowsReorderedJoin) {
  Steps s = chain_reduce_p4();
  s[2][0].combine = Combine::right;
  Header h = header(Collective::reduce, 4, 1);
  h.commutative = true;
  passes(make_plan(h, s));
}

// The root first holds {0, 2} (two runs), then joins 1 and 3 in.
TEST(PlanVerify, CommutativeSetsOfSeveralRuns) {
  Header h = header(Collective::allreduce, 4, 1);
  h.commutative = true;
  Steps s = {{recv_step(2, {0}, Combine::right), recv_step(1, {0}, Combine::left), recv_step(3, {0}, Combine::right)},
             {send_step(0, {0})},
             {send_step(0, {0})},
             {send_step(0, {0})}};
  for (int64_t r = 1; r < 4; ++r) {
    s[0].push_back(send_step(r, {0}));
    s[r].push_back(recv_step(0, {0}));
  }
  const PlanReport rep = passes(make_plan(h, s));
  EXPECT_EQ(rep.ranks[0].ops, 3);
  s[0][2].recv_from = 2;  // {0, 1, 2} ⊕ {2}
  s[2].insert(s[2].begin() + 1, send_step(0, {0}));
  fails(make_plan(h, s), "double-contribution", 0, 2, 0);
}

// A commutative reduce to 0 over p = 130 ranks: the root takes the even
// ranks first, so it holds {0, 2, 4, ..} (a set of 65 runs across three
// 64-bit words), then the odd ones. One more receive from rank 128 counts
// 128 twice, and the failure names both sets.
TEST(PlanVerify, CommutativeSetsAcrossWords) {
  const int64_t p = 130;
  Header h = header(Collective::reduce, p, 1);
  h.commutative = true;
  Steps s(static_cast<size_t>(p));
  for (int64_t parity : {0, 1})
    for (int64_t r = 2 - parity; r < p; r += 2) {
      s[0].push_back(recv_step(r, {0}, Combine::right));
      s[r].push_back(send_step(0, {0}));
    }
  const PlanReport rep = passes(make_plan(h, s));
  EXPECT_EQ(rep.ranks[0].ops, p - 1);
  s[0].insert(s[0].begin() + 64, recv_step(128, {0}, Combine::right));  // after all even ranks
  s[128].push_back(send_step(0, {0}));
  const PlanReport twice = check_plan(make_plan(h, s));
  ASSERT_TRUE(twice.failure);
  EXPECT_EQ(twice.failure->condition, "double-contribution");
  EXPECT_EQ(twice.failure->k, 64);
  EXPECT_NE(twice.failure->detail.find("{[0, 0] [2, 2]"), std::string::npos) << twice.failure->detail;
  EXPECT_NE(twice.failure->detail.find("[128, 128]} and [128, 128]"), std::string::npos) << twice.failure->detail;
}

// A fold needs acc = [a, r - 1]: one counting r already, one with a gap
// before r and one holding higher ranks each break their rule, named with
// the fold in the detail.
TEST(PlanVerify, FoldMustJoinJustBelowTheRank) {
  const Header scan = header(Collective::scan, 3, 1);
  Steps s = scan_p3();
  s[2].push_back(fold_step({0}));  // [0, 2] ⊕ [2]
  fails(make_plan(scan, s), "double-contribution", 2, 2, 0);
  EXPECT_EQ(check_plan(make_plan(scan, s)).failure->detail.rfind("fold acc ⊕ input", 0), 0u);
  s = scan_p3();
  s[0].push_back(fold_step({0}));  // rank 0's acc is its input: [0] ⊕ [0]
  fails(make_plan(scan, s), "double-contribution", 0, 1, 0);
  s = scan_p3();
  s[1][1].send_value = Value::acc;  // rank 2 stores [0]: [0] ⊕ [2]
  fails(make_plan(scan, s), "non-adjacent-join", 2, 1, 0);
  s = scan_p3();
  s[0].push_back(recv_step(1, {0}));  // rank 0 stores [1]: [1] ⊕ [0]
  s[0].push_back(fold_step({0}));
  s[1].insert(s[1].begin() + 1, send_step(0, {0}, Value::input));
  fails(make_plan(scan, s), "order", 0, 2, 0);
  s = scan_p3();
  s[2].pop_back();  // the fold forgotten: [0, 1]
  fails(make_plan(scan, s), "wrong-result", 2, -1, 0);
}

TEST(PlanVerify, MissingMessageIsWrongResult) {
  Steps s = binomial_bcast_p4();
  s[2].pop_back();
  s[3].clear();
  fails(make_plan(header(Collective::bcast, 4, 1), s), "wrong-result", 3, -1, 0);
}

TEST(PlanVerify, ExscanRankZeroMustEndEmpty) {
  Steps s = exscan_p3();
  s[0].push_back(recv_step(1, {0}));
  s[1].push_back(send_step(0, {0}));
  fails(make_plan(header(Collective::exscan, 3, 1), s), "wrong-result", 0, -1, 0);
}

// Builders are checked like files: ranges, lists, ⊕ where there is none.
TEST(PlanVerify, BadStepsAndHeaders) {
  const Header bcast = header(Collective::bcast, 4, 1);
  Steps s = binomial_bcast_p4();
  s[3][0].recv_from = 7;
  fails(make_plan(bcast, s), "peer-range", 3, 0, -1);
  s = binomial_bcast_p4();
  s[2][1].send_to = 2;
  fails(make_plan(bcast, s), "peer-range", 2, 1, -1);
  s = binomial_bcast_p4();
  s[2][1].send_blocks = {5};
  fails(make_plan(bcast, s), "block-range", 2, 1, 5);
  s = binomial_bcast_p4();
  s[2][1].send_blocks = {};
  fails(make_plan(bcast, s), "block-list", 2, 1, -1);
  s = binomial_bcast_p4();
  s[3][0].combine = Combine::left;
  fails(make_plan(bcast, s), "no-reduction", 3, 0, -1);
  s = binomial_bcast_p4();
  s[1].push_back(Step{});
  fails(make_plan(bcast, s), "empty-step", 1, 1, -1);
  s = binomial_bcast_p4();
  s[1].push_back(fold_step({0}));
  fails(make_plan(bcast, s), "no-reduction", 1, 1, -1);
  const Header scan = header(Collective::scan, 3, 1);
  s = scan_p3();
  s[2].back().fold_blocks = {1};
  fails(make_plan(scan, s), "block-range", 2, 1, 1);
  s = scan_p3();
  s[2].back().fold_blocks = {0, 0};
  fails(make_plan(scan, s), "block-list", 2, 1, 0);
  s = scan_p3();
  s[2].back().send_to = 0;
  s[2].back().send_blocks = {0};
  fails(make_plan(scan, s), "fold-with-message", 2, 1, -1);
  fails(make_plan(header(Collective::allgatherv, 3, 4), allgatherv_ring_p3()), "header", -1, -1, -1);
  fails(make_plan(header(Collective::bcast, 4, 1, 4), binomial_bcast_p4()), "header", -1, -1, -1);
}

// Refused from the header alone: no steps are asked for.
TEST(PlanVerify, TooLargePlansAreRefused) {
  auto no_steps = [](int64_t) -> std::vector<Step> { throw std::logic_error("steps asked for"); };
  EXPECT_THROW(check_plan({header(Collective::bcast, int64_t{1} << 20, 1 << 10), no_steps}), std::length_error);
  EXPECT_THROW(check_plan({header(Collective::bcast, kMaxPlanRanks + 1, 1), no_steps}), std::length_error);
}

// --- the text format ---

TEST(PlanVerify, TextFormatRoundTrips) {
  Header h = header(Collective::reduce_scatter, 2, 4);
  h.commutative = true;
  Steps s = {{sendrecv(send_step(1, {2, 3, 0}, Value::acc_op_input), recv_step(1, {0, 1}, Combine::right))},
             {send_step(0, {0}, Value::input), recv_step(0, {2, 3}, Combine::left), fold_step({3, 1, 2})}};
  std::ostringstream text;
  plan::write_plan(text, make_plan(h, s));
  std::istringstream in(text.str());
  const Plan back = plan::read_plan(in);
  EXPECT_EQ(back.header.collective, h.collective);
  EXPECT_EQ(back.header.p, h.p);
  EXPECT_EQ(back.header.blocks, h.blocks);
  EXPECT_EQ(back.header.commutative, h.commutative);
  std::ostringstream again;
  plan::write_plan(again, back);
  EXPECT_EQ(again.str(), text.str());
  const std::vector<Step> rank0 = back.steps(0);
  ASSERT_EQ(rank0.size(), 1u);
  EXPECT_EQ(rank0[0].send_blocks, (plan::BlockList{2, 3, 0}));
  EXPECT_EQ(rank0[0].send_value, Value::acc_op_input);
  EXPECT_EQ(rank0[0].combine, Combine::right);
  EXPECT_NE(text.str().find("step fold 3,1-2\n"), std::string::npos) << text.str();
  EXPECT_EQ(back.steps(1).at(2).fold_blocks, (plan::BlockList{3, 1, 2}));
}

// The scan builders with a fold (the inclusive doubling scans) pass for
// every p up to 300 and blocks 1, 2, 7, with the exclusive plan's rounds
// as their critical path.
TEST(PlanVerify, InclusiveDoublingScanBuildersPass) {
  for (const char* name : {"two-op-doubling", "1-doubling", "123-doubling"}) {
    const ScanAlgorithm& a = *find_scan_algorithm(name);
    for (int64_t p = 1; p <= 300; ++p)
      for (int64_t blocks : {1, 2, 7}) {
        const PlanReport rep = check_plan(plan::build_plan(Collective::scan, name, p, 0, blocks));
        ASSERT_FALSE(rep.failure) << name << " p=" << p << " blocks=" << blocks << ": " << describe(*rep.failure);
        EXPECT_EQ(rep.critical_path, scan_rounds(a, p)) << name << " p=" << p;
      }
  }
}

// binary-blocks (seed 004 §2.6), reduce at roots 0, p/2, p − 1 (a root in
// the largest block and one outside it) and allreduce, pass for every p up
// to 200; at a power of two, 2 lg p message rounds on the critical path
// (halving-doubling's).
TEST(PlanVerify, BinaryBlocksBuildersPass) {
  for (Collective c : {Collective::reduce, Collective::allreduce})
    for (int64_t p = 1; p <= 200; ++p) {
      const int64_t blocks = plan::cut_blocks(plan::Cut::pow2, p);
      const std::set<int64_t> roots =
          c == Collective::reduce ? std::set<int64_t>{0, p / 2, p - 1} : std::set<int64_t>{0};
      for (int64_t root : roots) {
        const PlanReport rep = check_plan(plan::build_plan(c, "binary-blocks", p, root, blocks));
        ASSERT_FALSE(rep.failure) << collective_name(c) << " p=" << p << " root=" << root << ": "
                                  << describe(*rep.failure);
        if (c == Collective::allreduce && p == blocks) {
          EXPECT_EQ(rep.critical_path, 2 * __builtin_ctzll(static_cast<uint64_t>(p))) << "p=" << p;
        }
      }
    }
}

// --- `collsim verify plan` ---

std::string plan_text(const Header& h, const Steps& s) {
  std::ostringstream text;
  plan::write_plan(text, make_plan(h, s));
  return text.str();
}

TEST(PlanVerifyCli, CorrectPlanExits0) {
  const std::string path = test::write_temp("chain.plan", plan_text(header(Collective::bcast, 4, 2), chain_bcast_p4()));
  const test::CliResult r = test::run_collsim("verify plan --file " + path, true);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("max 3 steps, max 0 ⊕ per rank, critical path 4 steps"), std::string::npos) << r.out;
  const test::CliResult quiet =
      test::run_argv({COLLSIM_BIN, "verify", "plan", "--quiet", "--file", "/dev/stdin"}, true, path);
  EXPECT_EQ(quiet.status, 0);
  EXPECT_EQ(quiet.out, "");
}

TEST(PlanVerifyCli, BrokenPlanExits1WithOneLine) {
  Steps s = binomial_bcast_p4();
  s[3][0].recv_from = 1;
  const std::string path = test::write_temp("mismatch.plan", plan_text(header(Collective::bcast, 4, 1), s));
  const test::CliResult r = test::run_collsim("verify plan --file " + path, true);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_EQ(r.out.rfind("FAIL p=4 rank=3 k=0 block=0: peer-mismatch:", 0), 0u) << r.out;
}

TEST(PlanVerifyCli, MalformedPlansExit2WithOneLine) {
  const std::string head = "collsim-plan 1\ncollective bcast\np 2\nblocks 1\n";
  const std::pair<const char*, std::string> cases[] = {
      {"unknown word 'bogus'", head + "bogus 3\nrank 0\nstep send 1 blocks 0\n"},
      {"unexpected word 'sned' in a step", head + "rank 0\nstep sned 1 blocks 0\n"},
      {"the header lacks 'blocks'", "collsim-plan 1\ncollective bcast\np 2\nrank 0\n"},
      {"peer 2 is out of range", head + "rank 0\nstep send 2 blocks 0\n"},
      {"a step before any 'rank' line", head + "step send 1 blocks 0\n"},
      {"block 'x' is not an integer", head + "rank 0\nstep send 1 blocks 0,x\n"},
  };
  for (const auto& [why, text] : cases) {
    const std::string path = test::write_temp("malformed.plan", text);
    const test::CliResult r = test::run_collsim("verify plan --file " + path, true);
    EXPECT_EQ(r.status, 2) << text;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
    EXPECT_NE(r.out.find(why), std::string::npos) << r.out;
  }
  EXPECT_EQ(test::run_collsim("verify plan --file /nonexistent/x.plan").status, 2);
}

}  // namespace
}  // namespace collsim
