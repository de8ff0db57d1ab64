// reduce binary-tree-pipeline: n blocks flow up an in-order binary tree
// rooted at the root (the ranks below and above it each a balanced
// in-order tree), each rank folding its left child's range in on the left
// and its right child's on the right (schedules/plans_reduce.cpp has the
// steps and a picture).
//
// Cost: a rank with two children takes two steps per block (one receive
// from each), so the pipeline runs at one block every 2T,
// T = α + β⌈m/n⌉ + γ⌈m/n⌉, after filling the tree: about
// 2(n − 1 + ⌈log2 p⌉)T; a chain (p = 3 at root 0) takes one step per block.
// No closed form follows the fill of the uneven in-order subtrees, so the
// model is the plan itself (root 0) under the α-β rules of the plan engine
// (engine/loggp.hpp), which are SMPI's on a full-duplex α-β platform: exact
// at root 0; another root changes the tree's shape by a few %.
// Limits: any p, any root, any n ≥ 1; any ⊕ (rank order kept).
// Memory: the rank's steps, one block each way (the executor).
// Runs as its plan through the plan executor; this file holds its model.
#include "catalog.hpp"
#include "loggp.hpp"
#include "plan_builders.hpp"

namespace collsim::sim {

double model_reduce_binary_tree_pipeline(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  if (p < 2 || bytes == 0) return 0;
  const plan::Plan pl = plan::build_plan(Collective::reduce, "binary-tree-pipeline", p, 0, blocks);
  const engine::Network rules{net.alpha, net.beta, net.gamma, net.envelope};
  return engine::evaluate(pl, engine::even_blocks(pl.header, bytes, net.element), rules).time;
}

}  // namespace collsim::sim
