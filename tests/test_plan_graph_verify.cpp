// The plan verifier on graph plans (verify/plan_graph_check.hpp): every
// catalog plan made a graph by plan::overlapped() passes with the lock-step
// plan's ⊕; hand-written graph plans pass; each graph rule rejects a small
// plan under its name, rank and step (the mutation rows of
// tests/mutations/list.tsv show the checks fail when broken); `collsim
// verify plan` reads graph plan files.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "plan.hpp"
#include "plan_builders.hpp"
#include "plan_check.hpp"
#include "plan_families.hpp"
#include "run_cli.hpp"

namespace collsim {
namespace {

using plan::Combine;
using plan::Plan;
using plan::Step;

// A graph plan file's text: the header lines, then `ranks` (rank lines and
// steps).
std::string graph_text(const std::string& head, const std::string& ranks) {
  return "collsim-plan 2\n" + head + "commutative 0\norder graph\n" + ranks;
}

Plan read(const std::string& text) {
  std::istringstream in(text);
  return plan::read_plan(in);
}

// Two blocks along 0 -> 1 -> 2, rank 1 forwarding block 0 while block 1
// arrives.
const std::string kChainHead = "collective bcast\np 3\nroot 0\nblocks 2\n";
const std::string kChain =
    "rank 0\nstep send 1 blocks 0\nstep send 1 blocks 1 after 0\n"
    "rank 1\nstep recv 0 blocks 0\nstep send 2 blocks 0 after 0\nstep recv 0 blocks 1\n"
    "step send 2 blocks 1 after 1,2\n"
    "rank 2\nstep recv 1 blocks 0\nstep recv 1 blocks 1\n";

// Reduce to root 0 of p = 3: the root combines [1] then [2] on the right
// of its input; `order` is the second receive's `after` ("" for none).
std::string reduce_p3(const std::string& order, bool commutative) {
  std::string text = graph_text("collective reduce\np 3\nroot 0\nblocks 1\n",
                                "rank 0\nstep recv 1 blocks 0 combine right\nstep recv 2 blocks 0 combine right" +
                                    order + "\nrank 1\nstep send 0 blocks 0\nrank 2\nstep send 0 blocks 0\n");
  if (commutative) text.replace(text.find("commutative 0"), 13, "commutative 1");
  return text;
}

PlanReport passes(const Plan& plan) {
  PlanReport rep = check_plan(plan);
  EXPECT_FALSE(rep.failure) << describe(*rep.failure);
  return rep;
}

// Checks the plan fails with `rule` at (rank, step).
void fails(const Plan& plan, const char* rule, int64_t rank, int step) {
  const PlanReport rep = check_plan(plan);
  ASSERT_TRUE(rep.failure) << "expected " << rule;
  EXPECT_EQ(rep.failure->condition, rule) << describe(*rep.failure);
  EXPECT_EQ(rep.failure->rank, rank) << describe(*rep.failure);
  EXPECT_EQ(rep.failure->k, step) << describe(*rep.failure);
}

// The block counts tried for an algorithm: two where it takes any.
std::vector<int64_t> block_counts(const plan::PlanAlgorithm& a, int64_t p) {
  if (a.cut == plan::Cut::pipelined || a.cut == plan::Cut::whole) return {1, 3};
  return {plan::cut_blocks(a.cut, p)};
}

std::set<int64_t> roots(Collective c, int64_t p) {
  if (!rooted(c)) return {0};
  return {0, p / 2, p - 1};
}

// Every catalog plan, overlapped, passes wherever its lock-step plan does,
// with the same ⊕ on every rank and no longer a critical path.
TEST(PlanGraphVerify, EveryOverlappedCatalogPlanPasses) {
  int64_t plans = 0;
  for (Collective c : {Collective::bcast, Collective::reduce, Collective::allreduce, Collective::scan,
                       Collective::exscan, Collective::allgatherv, Collective::reduce_scatter})
    for (const std::string& name : plan::plan_algorithms(c)) {
      const plan::PlanAlgorithm& a = plan::find_plan_algorithm(c, name);
      for (int64_t p = 1; p <= 40; ++p)
        for (int64_t root : roots(c, p))
          for (int64_t blocks : block_counts(a, p)) {
            const Plan lock_step = plan::build_plan(c, name, p, root, blocks, {3, 3.736});
            const PlanReport want = check_plan(lock_step);
            const Plan graph = plan::overlapped(lock_step);
            ASSERT_TRUE(graph.header.graph);
            const PlanReport got = check_plan(graph);
            ++plans;
            const std::string where = std::string(collective_name(c)) + " " + name + " p=" + std::to_string(p) +
                                      " root=" + std::to_string(root) + " blocks=" + std::to_string(blocks);
            ASSERT_FALSE(want.failure) << where << ": " << describe(*want.failure);
            ASSERT_FALSE(got.failure) << where << ": " << describe(*got.failure);
            for (int64_t r = 0; r < p; ++r) EXPECT_EQ(got.ranks[r].ops, want.ranks[r].ops) << where << " rank " << r;
            EXPECT_LE(got.critical_path, want.critical_path) << where;
          }
    }
  EXPECT_GT(plans, 3000);  // every collective's algorithms were there
}

TEST(PlanGraphVerify, HandWrittenGraphPlansPass) {
  const PlanReport chain = passes(read(graph_text(kChainHead, kChain)));
  EXPECT_EQ(chain.max_steps, 4);
  // Rank 0's second send follows its first, and block 1 takes two hops more.
  EXPECT_EQ(chain.critical_path, 3);
  EXPECT_EQ(chain.ranks[1].depth, 3);
  const PlanReport ordered = passes(read(reduce_p3(" after 0", false)));
  EXPECT_EQ(ordered.max_ops, 2);
  EXPECT_EQ(ordered.critical_path, 1);  // both messages travel at once
  // Unordered combines commute where the plan says ⊕ does.
  EXPECT_EQ(passes(read(reduce_p3("", true))).ranks[0].ops, 2);
}

TEST(PlanGraphVerify, CycleAcrossTwoRanksIsADeadlock) {
  // Each rank forwards what it receives from the other: each receive's
  // only send requires that receive.
  fails(read(graph_text("collective bcast\np 2\nroot 0\nblocks 1\n",
                        "rank 0\nstep recv 1 blocks 0\nstep send 1 blocks 0 after 0\n"
                        "rank 1\nstep recv 0 blocks 0\nstep send 0 blocks 0 after 0\n")),
        "deadlock", 0, 0);
}

TEST(PlanGraphVerify, UnorderedSendsToOnePeerOvertake) {
  std::string text = graph_text(kChainHead, kChain);
  text.replace(text.find("step send 1 blocks 1 after 0"), 28, "step send 1 blocks 1");
  fails(read(text), "overtaking", 0, 1);
}

TEST(PlanGraphVerify, UnorderedCombinesOfANonCommutativePlan) {
  fails(read(reduce_p3("", false)), "unordered-combine", 0, 1);
}

TEST(PlanGraphVerify, SendUnorderedWithTheReceiveOfItsBlockRaces) {
  std::string text = graph_text(kChainHead, kChain);
  text.replace(text.find("step send 2 blocks 0 after 0"), 28, "step send 2 blocks 0");
  fails(read(text), "race", 1, 1);
  // A store into a block while a send of it may still be reading it.
  fails(read(graph_text("collective bcast\np 3\nroot 0\nblocks 1\n",
                        "rank 0\nstep send 1 blocks 0\nstep send 1 blocks 0 after 0\n"
                        "rank 1\nstep recv 0 blocks 0\nstep send 2 blocks 0 after 0\nstep recv 0 blocks 0 after 0\n"
                        "rank 2\nstep recv 1 blocks 0\n")),
        "race", 1, 2);
  // A store into aux unordered with a send of aux: the same rule.
  Plan aux = read(graph_text("collective allreduce\np 2\nroot 0\nblocks 1\n",
                             "rank 0\nstep recv 1 blocks 0 combine aux\nstep send 1 blocks 0 value acc+aux\n"
                             "rank 1\nstep send 0 blocks 0\nstep recv 0 blocks 0\n"));
  fails(aux, "race", 0, 1);
}

TEST(PlanGraphVerify, RequirementOutOfRange) {
  Plan chain = read(graph_text(kChainHead, kChain));
  for (int64_t bad : {1, -1, 5}) {
    Plan broken{chain.header, [chain, bad](int64_t r) {
                  std::vector<Step> steps = chain.steps(r);
                  if (r == 1) steps[1].after = {bad};
                  return steps;
                }};
    fails(broken, "requirement-range", 1, 1);
  }
}

TEST(PlanGraphVerify, ValueAndMatchingRulesAsInLockStep) {
  // Rank 1 sends block 1, which it never receives.
  fails(read(graph_text(kChainHead,
                        "rank 0\nstep send 1 blocks 0\nrank 1\nstep recv 0 blocks 0\nstep send 2 blocks 1 after 0\n"
                        "rank 2\nstep recv 1 blocks 1\n")),
        "not-held", 1, 1);
  fails(read(graph_text(kChainHead, "rank 0\nstep send 1 blocks 0\nrank 1\nstep recv 0 blocks 0\nstep recv 0 blocks 1\n")),
        "unmatched-recv", 1, 1);
  fails(read(graph_text(kChainHead, "rank 0\nstep send 1 blocks 0\nrank 1\nstep recv 0 blocks 1\n")),
        "block-mismatch", 0, 0);
}

// A rank's requirements as bits cost n²/8 bytes: past kMaxPlanSetBytes the
// plan is refused, not checked.
TEST(PlanGraphVerify, RanksWithTooManyStepsAreRefused) {
  plan::Header h;
  h.p = 2;
  h.graph = true;
  const int64_t n = 140000;  // n² / 8 > 2 GiB
  const Plan chain{h, [n](int64_t r) {
                     std::vector<Step> steps;
                     for (int64_t k = 0; k < n; ++k) {
                       steps.push_back(r == 0 ? plan::send_step(1, {0}) : plan::recv_step(0, {0}));
                       if (k > 0) steps.back().after = {k - 1};
                     }
                     return steps;
                   }};
  EXPECT_THROW(check_plan(chain), std::length_error);
}

// --- `collsim verify plan` on graph plan files ---

TEST(PlanGraphVerifyCli, GraphPlanFilesAreChecked) {
  const std::string good = test::write_temp("chain-graph.plan", graph_text(kChainHead, kChain));
  const test::CliResult ok = test::run_collsim("verify plan --file " + good, true);
  EXPECT_EQ(ok.status, 0) << ok.out;
  EXPECT_NE(ok.out.find("(graph): every rank ends with its result; max 4 steps, max 0 ⊕ per rank, critical path 3"),
            std::string::npos)
      << ok.out;
  const std::string bad = test::write_temp("combine-graph.plan", reduce_p3("", false));
  const test::CliResult fail = test::run_collsim("verify plan --file " + bad, true);
  EXPECT_EQ(fail.status, 1) << fail.out;
  EXPECT_EQ(std::count(fail.out.begin(), fail.out.end(), '\n'), 1) << fail.out;
  EXPECT_EQ(fail.out.rfind("FAIL p=3 rank=0 k=1 block=0: unordered-combine:", 0), 0u) << fail.out;
}

}  // namespace
}  // namespace collsim
