// The colour-based step schedule of the pipelined two-tree collectives
// (seed 002 §2, §2.1, §2.2), shared by two-tree broadcast, reduce and
// allreduce: which block a rank sends to and receives from whom in step s.
//
// Broadcast (the derivation is in bcast_two_tree.cpp's header comment):
// block b leaves the root in step b; an edge of colour c moves blocks only
// in steps of parity c; a rank at step lag L in its tree gets block b in
// step b + L. An edge parent → child therefore moves block s − lag(child) in
// step s, and per step parity a rank has at most one in-edge and at most
// one out-edge (Lemma 1).
//
// Reduction: the broadcast run backwards in time, on the same trees and
// colours (§2.2 "reversing the flow of data"). Broadcast step s becomes
// reduction step M − s and broadcast block b becomes reduction block
// n − 1 − b, M = K + n − 1 with K ≥ every lag, so an edge child → parent moves
// block t − (K − lag(child)) in step t: the children's partial results of a
// block arrive before the rank sends that block up (the child's lag is
// larger), and Lemma 1 mirrored keeps a rank at one receive and one send per
// step. K is a bound (2⌈log2 p⌉), not the broadcast's exact step count: a
// constant shift of all steps changes nothing when idle steps cost nothing
// (no message is sent in them), and the bound is O(1) per rank where the
// exact count costs O(p log p).
//
// Cost: O(log² p) per rank for a plan (a lag walks up a tree), no
// allocation; two_tree_step_count visits all p ranks, O(p log p), once per p
// (per thread): it keeps the last p's lags.
#pragma once

#include <cstdint>

#include "two_tree.hpp"

namespace collsim::sim {

// One edge of a rank, used in the steps of one parity: block s − lag moves
// in step s.
struct StepEdge {
  int64_t peer = -1;  // real rank; -1: no edge of this colour
  int64_t lag = 0;
  // The block moving in step s, or -1 (callers use the edge only in steps
  // of its parity).
  int64_t block(int64_t s, int64_t n) const {
    const int64_t b = s - lag;
    return peer >= 0 && b >= 0 && b < n ? b : -1;
  }
};

// A rank's receive and send edge per step parity.
struct StepPlan {
  StepEdge in[2], out[2];
  // One past the rank's last busy step.
  int64_t end(int64_t n) const;
};

// Broadcast from tt.root() in n blocks: in = from the parent, out = to a child.
StepPlan two_tree_bcast_plan(const TwoTree& tt, int64_t rank, int64_t n);

// Reduction to tt.root() in n blocks: in = from a child, out = to the parent.
StepPlan two_tree_reduce_plan(const TwoTree& tt, int64_t rank, int64_t n);

// S: the broadcast's step count for p ranks and n blocks (the slowest
// block's arrival step + 1); the reduction, its mirror, takes as many.
int64_t two_tree_step_count(int64_t p, int64_t n);

// One busy step: the block sent (or -1) to `to.peer` and the block
// received (or -1) from `from.peer`.
struct Step {
  int64_t s;
  const StepEdge& to;
  int64_t send_block;
  const StepEdge& from;
  int64_t recv_block;
};

// Calls f(Step) for every step in which the rank sends or receives, in
// step order; idle steps are skipped (no message, no waiting).
template <class F>
void for_each_busy_step(const StepPlan& plan, int64_t n, F&& f) {
  const int64_t end = plan.end(n);
  for (int64_t s = 0; s < end; ++s) {
    const StepEdge &to = plan.out[s & 1], &from = plan.in[s & 1];
    const Step step{s, to, to.block(s, n), from, from.block(s, n)};
    if (step.send_block >= 0 || step.recv_block >= 0) f(step);
  }
}

}  // namespace collsim::sim
