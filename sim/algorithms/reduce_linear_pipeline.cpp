// reduce linear-pipeline: n blocks flow along the chains 0 → … → root and
// p − 1 → … → root, each rank folding its own block in, in rank order
// (schedules/plans_reduce.cpp has the steps and a picture).
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
#include "catalog.hpp"

namespace collsim::sim {

double model_reduce_linear_pipeline(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  if (p < 2 || bytes == 0) return 0;
  const int64_t units = bytes / net.element, block = (units + blocks - 1) / blocks * net.element;
  return static_cast<double>(p - 2 + blocks) * (net.message(block) + net.gamma * static_cast<double>(block));
}

}  // namespace collsim::sim
