// Symbolic execution of any plan (schedules/plan.hpp): scan_check's
// intervals generalised from the doubling scans to every collective, any
// number of blocks and any order of steps. This page is about lock-step
// plans; a graph plan (header.graph) is checked as plan_graph_check.hpp
// says, on the same values and with the same rules, plus
// requirement-range, overtaking, unordered-combine and race.
//
// Execution. A step is a blocking MPI_Sendrecv without buffering: its send
// to s is delivered when s's current step receives from this rank, its
// receive from t when t's current step sends to this rank; a delivered half
// stays delivered and the step completes when both halves are. So rank r's
// k-th send to s meets s's k-th receive from r, and a plan whose ranks wait
// on each other in a cycle deadlocks. A send carries the value its blocks
// had before the step (both halves happen at once); received blocks take
// effect when the step completes. A fold step (no message) completes as
// soon as the rank reaches it: acc = acc ⊕ input; a join step likewise:
// acc = aux ⊕ acc. aux values (plan.hpp) are kept alike, where a step uses
// them. A worklist holds the ranks whose current
// step is complete; a rank entering a step looks once at its partners'
// current steps, so the run costs O(p + steps + listed blocks), plus
// O(p / 64) per ⊕ of sets that are not intervals (commutative plans).
//
// Values. Every (rank, block) holds the set of ranks whose inputs it
// combines: bcast and allgatherv blocks hold {origin} or nothing. Without
// commutativity a value is one interval [lo, hi] and ⊕ may only join
// [i, j] ⊕ [j + 1, k]; with it (header.commutative) a value is any set of
// ranks (a bitset of p bits where it is not one interval) and ⊕ joins any
// two disjoint sets. An empty operand is the
// identity: no ⊕ is applied. A store replaces acc, a partial result too (a
// contribution lost so shows as a wrong result). Input of rank r is [r, r] (bcast/allgatherv:
// the block's origin's data, only at the origin). At the end every rank
// must hold exactly its result (plan.hpp): all p contributions, each once.
//
// Rules (Counterexample::condition):
//   header            p, root or blocks do not fit the collective
//   empty-step        a step that neither sends, receives nor folds
//   fold-with-message a fold step that also sends or receives
//   peer-range        a peer outside 0..p-1 or the rank itself
//   block-range       a block outside 0..B-1
//   block-list        a half without blocks, blocks without a peer, a block
//                     twice in one list
//   no-reduction      ⊕ (combine left/right, value acc+input, acc+aux or
//                     acc+input+aux, fold, join) in bcast or allgatherv
//   block-mismatch    a send and the receive it meets list different blocks
//   not-held          a send of a block whose value is empty (aux included)
//   double-contribution  ⊕ of two values sharing a rank's input (a fold
//                     where acc already holds rank r's input)
//   order             non-commutative ⊕ with the operands swapped
//                     ([j + 1, k] ⊕ [i, j]; a fold where acc is above r)
//   non-adjacent-join non-commutative ⊕ of values with a gap between them
//                     (a fold where acc does not end at r − 1); the detail
//                     of a fold's failure starts "fold acc ⊕ input"
//   unmatched-recv    a receive whose peer has no send left for it
//   peer-mismatch     such a receive while some other rank's send to this
//                     rank is left unmatched (the receive names the wrong peer)
//   unmatched-send    a send whose peer has no receive left for it
//   deadlock          every message has its partner, but the ranks wait on
//                     each other in a cycle (the detail lists it)
//   wrong-result      a rank ends without exactly its result
// A failure names the rank, the step index k (-1 for wrong-result) and the
// block where one applies.
//
// Counted per rank: steps; ⊕ on blocks (each block combined into acc with a
// non-empty acc, each block sent as acc ⊕ input or folded with a non-empty
// acc); and the depth of its last step, where a step's depth is 1 + the
// largest depth of the step before it on its rank and of the steps before
// its partners' matched steps (matched steps happen together); a fold step,
// which has no message, keeps the depth of the step before it. The critical
// path is the largest depth: rounds of messages.
//
// Memory: 16 bytes per (rank, block) value, about 60 per rank, 48 per step
// and 8 per listed block; p / 8 bytes more per value that is a set but not
// an interval. Plans with p·B > kMaxPlanValues, p > kMaxPlanRanks or more
// than kMaxPlanStepEntries steps plus listed blocks are refused with
// std::length_error (the last while the steps are read), as are those whose
// sets outgrow kMaxPlanSetBytes while they run, so a check stays below
// about 7 GiB.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "circulant_check.hpp"  // Counterexample
#include "plan.hpp"

namespace collsim {

inline constexpr int64_t kMaxPlanValues = int64_t{1} << 26;
inline constexpr int64_t kMaxPlanRanks = int64_t{1} << 24;
inline constexpr int64_t kMaxPlanStepEntries = int64_t{1} << 26;
inline constexpr int64_t kMaxPlanSetBytes = int64_t{2} << 30;

struct PlanRankStats {
  int64_t steps = 0;
  int64_t ops = 0;    // ⊕ on blocks
  int64_t depth = 0;  // of the rank's last step
};

struct PlanReport {
  std::optional<Counterexample> failure;  // the first broken rule
  // Filled when no rule is broken.
  std::vector<PlanRankStats> ranks;
  int64_t max_steps = 0, max_ops = 0, critical_path = 0;
};

// Executes the plan symbolically and checks every rule above (a graph
// plan: check_graph_plan's). Throws std::length_error for plans over the
// memory bounds.
PlanReport check_plan(const plan::Plan& plan);

}  // namespace collsim
