// binary-tree-pipeline: the n blocks flow down the heap-ordered binary tree on
// ranks relative to the root (children 2v+1, then 2v+2; tree_pipeline.hpp).
//
// Cost: 2(n − 1)T + max_v path(v)·T with T = α + β⌈m/n⌉, a left edge costing
// T and a right edge 2T (the parent sends to its left child first); about
// 2(n − 1 + ⌊log2 p⌋)T. For p = 2 the root has one child: nT.
// Limits: any p, any root, any n ≥ 1; no ⊕. Memory: the rank's steps and one
// message buffer each way (the executor).
// Runs as its plan (algorithms/bcast/) through the plan executor
// (sim/rank/plan_executor.hpp); this file holds its cost model.
#include "circulant.hpp"
#include "tree_pipeline.hpp"

#include <algorithm>
#include <vector>
#include "plan_families.hpp"

namespace collsim::sim {

double model_bcast_binary_tree_pipeline(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  // path(v) = path(parent) + 1 for a left child (odd v), + 2 for a right child.
  std::vector<int64_t> path(static_cast<size_t>(p), 0);
  int64_t longest = 0;
  for (int64_t v = 1; v < p; ++v) {
    path[v] = path[(v - 1) / 2] + (v % 2 == 1 ? 1 : 2);
    longest = std::max(longest, path[v]);
  }
  return tree_pipeline_model(net, bytes, blocks, static_cast<int>(std::min<int64_t>(p - 1, 2)), longest);
}

}  // namespace collsim::sim

namespace collsim::plan {

// binary-tree-pipeline (bcast_binary_tree_pipeline.cpp): the heap-ordered
// tree, children 2v + 1 then 2v + 2. 2(n − 1) + longest path rounds, a left
// edge counting 1 and a right edge 2 (p = 2: n).
Plan bcast_binary_tree_pipeline(int64_t p, int64_t root, int64_t blocks) {
  const Rooted ranks{p, root};
  return streamed(bcast_header(p, root, blocks), [=](int64_t rank) {
    const int64_t v = ranks.virt(rank);
    TreeNode node{v == 0 ? -1 : (v - 1) / 2, {}};
    for (int64_t child : {2 * v + 1, 2 * v + 2})
      if (child < p) node.children.push_back(child);
    return tree_pipeline_source(ranks, node, blocks);
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_bcast_binary_tree_pipeline{
    kExactModel,
    "n blocks down a heap-ordered binary tree: ~2(n-1+log2 p)(a+b*m/n)",
    model_bcast_binary_tree_pipeline, plan::bcast_binary_tree_pipeline};

}  // namespace collsim::sim
