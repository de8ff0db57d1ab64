// Symbolic execution of a graph plan (schedules/plan.hpp, "Order":
// Header::graph, each step's Step::after), as the plan executor runs one
// (sim/rank/plan_executor.cpp, run_graph): every receive is posted at the
// start in plan order; a step starts when the steps it requires have
// completed; at its start its send reads its value and is posted (a send
// does not wait for its receiver, whose receive is already posted) and a
// fold or join is applied; its received message takes effect once the
// step has started and the message has arrived; the step completes when
// both halves are done. The k-th send from s to d meets d's k-th receive
// from s: MPI's non-overtaking rule, where s's sends to d are ordered.
//
// Rules (Counterexample::condition), in the order they are checked; the
// first broken one is the answer:
//   header, empty-step, fold-with-message, peer-range, block-range,
//   block-list, no-reduction   as for lock-step plans (plan_check.hpp)
//   requirement-range  an `after` entry that is not an earlier step of the
//                      rank (< 0 or >= the step's own index)
// then per rank, in rank order:
//   overtaking         two sends to one peer that neither requires
//                      (transitively) the other: which receive each meets
//                      is a race; the detail names both steps
//   unordered-combine  two receives that combine (left, right) into one
//                      acc block, neither requiring the other, in a plan
//                      whose ⊕ is not commutative: the result depends on
//                      which arrives first
//   race               two steps, neither requiring the other, that touch
//                      one block of acc or of aux where one writes it (a
//                      receive writes where it stores or combines, a fold
//                      or join writes acc; a send reads what it sends,
//                      acc for every value but input and aux where there
//                      is no ⊕; a join reads aux). Two combines into acc
//                      commute in a commutative plan. The detail names both.
// then across ranks:
//   block-mismatch, unmatched-recv, peer-mismatch, unmatched-send
//                      as for lock-step plans, the k-th send of a channel
//                      meeting its k-th receive
//   deadlock           a cycle among the events ready(S) (after every step
//                      S requires has completed) and complete(S) (after
//                      ready(S) and, where S receives, ready of the send it
//                      meets); the detail lists the steps. A receive whose
//                      only send requires the receive is one.
//   not-held, double-contribution, order, non-adjacent-join, wrong-result
//                      as for lock-step plans, on the events run in one
//                      order the wait graph allows. Without races and with
//                      ordered channels every allowed order gives each
//                      step the same values (what a step reads is written
//                      only by steps it requires or that require it, and
//                      each receive meets a fixed send), so one suffices.
//
// Stats: steps and ⊕ per rank as for lock-step plans; a rank's depth is the
// largest of its steps', the round a step completes in when every message
// takes one round and nothing else takes any: a step starts at the largest
// depth of the steps it requires, its send is done one round later, its
// receive one round after its send's step started; a fold or join adds
// nothing. The critical path, the largest depth, is the longest chain of
// messages; a send and a receive that only local order puts one after the
// other (a send of acc, then a combine into it) overlap, as the halves of
// a lock-step sendrecv do, so no plan made by overlapped() is deeper than
// its lock-step plan.
//
// Cost: the lock-step check's memory, plus per rank while it is checked
// its steps' transitive requirements as bits (n²/8 bytes for n steps;
// refused with std::length_error past kMaxPlanSetBytes) and a list per
// touched block of its last writes and reads since (each access is checked
// against those only, not against every earlier one); and about 130 bytes
// per step for the matching and the wait graph.
#pragma once

#include "plan.hpp"
#include "plan_check.hpp"

namespace collsim {

// check_plan of a graph plan (check_plan dispatches to it).
PlanReport check_graph_plan(const plan::Plan& plan);

}  // namespace collsim
