// linear-pipeline: the n blocks flow along the chain root → root+1 → ... →
// root+p−1 (tree_pipeline.hpp on a path).
//
// Cost: (p − 2 + n)(α + β⌈m/n⌉) for p ≥ 2: p − 1 hops for the first block,
// then one block per step. Bandwidth-optimal for large m, linear latency in p.
// Limits: any p, any root, any n ≥ 1; no ⊕. Memory: the rank's steps and one
// message buffer each way (the executor).
// Runs as its plan (algorithms/bcast/) through the plan executor
// (sim/rank/plan_executor.hpp); this file holds its cost model.
#include "circulant.hpp"
#include "tree_pipeline.hpp"
#include "plan_families.hpp"

namespace collsim::sim {

double model_bcast_linear_pipeline(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  return tree_pipeline_model(net, bytes, blocks, p > 1 ? 1 : 0, p - 1);
}

}  // namespace collsim::sim

namespace collsim::plan {

// linear-pipeline (bcast_linear_pipeline.cpp): the chain root → root + 1 →
// ... → root + p − 1. (p − 2 + n) rounds for p >= 2.
Plan bcast_linear_pipeline(int64_t p, int64_t root, int64_t blocks) {
  const Rooted ranks{p, root};
  return streamed(bcast_header(p, root, blocks), [=](int64_t rank) {
    const int64_t v = ranks.virt(rank);
    TreeNode node{v - 1, {}};
    if (v + 1 < p) node.children.push_back(v + 1);
    return tree_pipeline_source(ranks, node, blocks);
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_bcast_linear_pipeline{
    kExactModel,
    "n blocks along a chain: (p-2+n)(a+b*m/n)",
    model_bcast_linear_pipeline, plan::bcast_linear_pipeline};

}  // namespace collsim::sim
