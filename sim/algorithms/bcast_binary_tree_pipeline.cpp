// binary-tree-pipeline: the n blocks flow down the heap-ordered binary tree on
// ranks relative to the root (children 2v+1, then 2v+2; tree_pipeline.hpp).
//
// Cost: 2(n − 1)T + max_v path(v)·T with T = α + β⌈m/n⌉, a left edge costing
// T and a right edge 2T (the parent sends to its left child first); about
// 2(n − 1 + ⌊log2 p⌋)T. For p = 2 the root has one child: nT.
// Limits: any p, any root, any n ≥ 1; no ⊕. Memory: the rank's steps and one
// message buffer each way (the executor).
// Runs as its plan (schedules/plans_bcast.cpp) through the plan executor
// (sim/rank/plan_executor.hpp); this file holds its cost model.
#include "circulant.hpp"
#include "tree_pipeline.hpp"

#include <algorithm>
#include <vector>

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
