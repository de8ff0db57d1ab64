// reduce binary-tree-pipeline: n blocks flow up an in-order binary tree
// rooted at the root (the ranks below and above it each a balanced
// in-order tree), each rank folding its left child's range in on the left
// and its right child's on the right (algorithms/common/reduction_plans.cpp has the
// steps and a picture).
//
// Cost: a rank with two children takes two steps per block (one receive
// from each), so the pipeline runs at one block every 2T,
// T = α + β⌈m/n⌉ + γ⌈m/n⌉, after filling the tree: about
// 2(n − 1 + ⌈log2 p⌉)T; a chain (p = 3 at root 0) takes one step per block.
// No closed form follows the fill of the uneven in-order subtrees, so the
// model is the plan itself (root 0) on the plan engine (engine/loggp.hpp:
// SMPI's rules on the machine, one rank a node), exact at root 0 on a
// full-duplex flat platform; another root changes the tree's shape by a
// few %.
// Limits: any p, any root, any n ≥ 1; any ⊕ (rank order kept).
// Memory: the rank's steps, one block each way (the executor).
// Runs as its plan through the plan executor; this file holds its model.
#include "algorithm.hpp"
#include "loggp.hpp"
#include "plan_builders.hpp"
#include "plan_families.hpp"

namespace collsim::sim {

double model_reduce_binary_tree_pipeline(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  if (p < 2 || bytes == 0) return 0;
  const plan::Plan pl = plan::build_plan(Collective::reduce, "binary-tree-pipeline", p, 0, blocks);
  return engine::evaluate(pl, engine::even_blocks(pl.header, bytes, net.element), net.between_nodes())
      .time;
}

}  // namespace collsim::sim

namespace collsim::plan {

// reduce binary-tree-pipeline (seed 002's pipelined binary tree, order
// kept): n blocks flow up an in-order binary tree rooted at the root, the
// ranks below it and above it each a balanced in-order tree under their
// middle rank, so every subtree is a range of consecutive ranks and a rank
// folds its left child's range in on the left, its right child's on the
// right. The steps are the pipeline up a fixed tree
// (tree_reduce_pipeline_source, plan_families.hpp) on this tree:
//   p = 7, root 0:   0          rank 3, n = 2: recv b0 from 1 left |
//                    |                         recv b0 from 5 right |
//                    3                         send b0 to 0 + recv b1 from 1 left |
//                  /   \                       recv b1 from 5 right | send b1 to 0
//                 1     5
//                 |    / \   .
//                 2   4   6      (1's only child 2 is its right one)
// Depth at most ⌈log2 p⌉ + 1; about 2(n − 1 + depth) steps.
namespace {

// The in-order tree's edges at `rank`.
struct InorderNode {
  int64_t parent = -1, left = -1, right = -1;
};

InorderNode inorder_node(int64_t p, int64_t root, int64_t rank) {
  const auto mid = [](int64_t lo, int64_t hi) { return lo <= hi ? lo + (hi - lo) / 2 : int64_t{-1}; };
  int64_t lo = 0, hi = p - 1, top = root, parent = -1;
  for (;;) {
    if (rank == top) return {parent, mid(lo, top - 1), mid(top + 1, hi)};
    parent = top;
    if (rank < top) hi = top - 1;
    else lo = top + 1;
    top = mid(lo, hi);
  }
}

}  // namespace

Plan reduce_binary_tree_pipeline(int64_t p, int64_t root, int64_t blocks) {
  return streamed(header(Collective::reduce, p, root, blocks), [=](int64_t rank) {
    const InorderNode node = inorder_node(p, root, rank);
    TreeNode tree{node.parent, {}};
    for (int64_t child : {node.left, node.right})
      if (child >= 0) tree.children.push_back(child);
    return tree_reduce_pipeline_source(rank, tree, blocks);
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_reduce_binary_tree_pipeline{
    kExactModel,
    "n blocks up an in-order binary tree under the root, rank order kept (seed 002): ~2(n-1+lg p)(a+(b+g)m/n)",
    model_reduce_binary_tree_pipeline, plan::reduce_binary_tree_pipeline};

}  // namespace collsim::sim
