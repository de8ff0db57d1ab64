// reduce linear-pipeline: n blocks flow along the chains 0 → … → root and
// p − 1 → … → root, each rank folding its own block in, in rank order
// (algorithms/common/reduction_plans.cpp has the steps and a picture).
//
// Cost (root 0, one chain): (p − 2 + n)(α + β⌈m/n⌉ + γ⌈m/n⌉) for p ≥ 2:
// p − 1 hops for the first block, then one block per step, each step a
// sendrecv followed by the ⊕ of the block received. A root inside the
// range receives each block twice (left, then right): about
// (max(root, p − 1 − root) − 1 + 2n) steps. Bandwidth-optimal for large m
// (each rank sends m and combines m), latency linear in p.
// Limits: any p, any root, any n ≥ 1; any ⊕ (rank order kept).
// Memory: the rank's steps and one block buffer each way (the executor).
// Runs as its plan through the plan executor; this file holds its model.
#include "algorithm.hpp"
#include "plan_families.hpp"

namespace collsim::sim {

double model_reduce_linear_pipeline(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  if (p < 2 || bytes == 0) return 0;
  const int64_t units = bytes / net.element, block = (units + blocks - 1) / blocks * net.element;
  return static_cast<double>(p - 2 + blocks) * (net.message(block) + net.gamma * static_cast<double>(block));
}

}  // namespace collsim::sim

namespace collsim::plan {

// reduce linear-pipeline (seed 002's pipeline, reversed): n blocks flow
// along two chains into the root, in rank order, so any ⊕ stays in order:
// 0 → 1 → … → root − 1 → root (each rank folds what it receives in on the
// left) and p − 1 → … → root + 1 → root (on the right). A chain rank
// receives block j from upstream, folds it into its own, and sends it on
// while receiving block j + 1 (one sendrecv), as the broadcast pipeline
// does the other way; the root takes block j from the left, then from the
// right:
//   p = 4, root 0, n = 2:  rank 3: send b0, send b1
//     rank 2: recv b0 | send b0 + recv b1 | send b1     (1 likewise)
//     rank 0: recv b0 | recv b1
// At root 0 (or p − 1) the one chain takes p − 2 + n steps; at a root in
// between the root's two receives per block pace both chains.
namespace {

// Step i of a chain rank: receive block i from upstream (none: −1), send
// block i − 1 on (an end of a chain sends block i).
Step chain_step(int64_t upstream, int64_t downstream, Combine side, int64_t blocks, int64_t i) {
  Step s;
  if (upstream >= 0 && i < blocks) set_recv(s, upstream, {i}, side);
  if (i > 0 || upstream < 0) {
    const int64_t sent = upstream >= 0 ? i - 1 : i;
    if (sent < blocks) set_send(s, downstream, {sent});
  }
  return s;
}

}  // namespace

Plan reduce_linear_pipeline(int64_t p, int64_t root, int64_t blocks) {
  return streamed(header(Collective::reduce, p, root, blocks), [=](int64_t rank) {
    if (rank == root) {
      const bool left = root > 0, right = root + 1 < p;
      const int64_t per_block = (left ? 1 : 0) + (right ? 1 : 0);
      return rounds(0, per_block * blocks, [=](int64_t i, Step& s) {
        const int64_t j = i / per_block;
        if (left && i % per_block == 0)
          set_recv(s, root - 1, {j}, Combine::left);
        else
          set_recv(s, root + 1, {j}, Combine::right);
      });
    }
    const bool below = rank < root;
    const int64_t downstream = below ? rank + 1 : rank - 1;
    const int64_t upstream = below ? (rank > 0 ? rank - 1 : -1) : (rank + 1 < p ? rank + 1 : -1);
    const Combine side = below ? Combine::left : Combine::right;
    return rounds(0, upstream >= 0 ? blocks + 1 : blocks,
                  [=](int64_t i, Step& s) { s = chain_step(upstream, downstream, side, blocks, i); });
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_reduce_linear_pipeline{
    kExactModel,
    "n blocks along the chains 0..root and p-1..root, rank order kept (seed 002): (p-2+n)(a+(b+g)m/n)",
    model_reduce_linear_pipeline, plan::reduce_linear_pipeline};

}  // namespace collsim::sim
