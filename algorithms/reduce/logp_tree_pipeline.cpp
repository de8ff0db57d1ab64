// reduce logp-tree-pipeline: the LogP tree's reduction pipelined for long
// vectors (issue 34): the vector cut into n blocks, each reduced up one
// LogP-optimal tree with at most d children a rank (schedules/logp_tree.hpp,
// "Degree bound" and "Pipeline"), built for the lag of one block with its ⊕
// (Net::tree_lag of ⌈m/n⌉ bytes, combines). It is bcast
// logp-tree-pipeline run backwards, as reduce logp-tree is bcast
// logp-tree's: a rank takes block j from each child, the broadcast's last
// child first, folds each in, and sends its block j up with the first
// receive of block j + 1 (common/tree_plans.cpp's
// tree_reduce_pipeline_source).
//
// Order. The tree is rooted at rank 0 on the ranks themselves, so a rank's
// subtree is the interval [v, v + s) and its children's intervals, taken
// in reverse send order, follow each other upwards from v + 1: each block
// folds [v, v + i) with the next interval on the right, right for a
// non-commutative ⊕. Another root receives the result from rank 0, whole,
// once both are through (one more message, which the model leaves out, as
// reduce logp-tree's does). Streaming the blocks on from rank 0 as they
// complete deadlocks the lock-step plan: rank 0's step that sends block j
// to the root waits for the root, whose own sends up wait, through the
// tree, for rank 0's next receive.
//
// Cost: the lock-step plan is the broadcast pipeline's plan with its
// dependencies reversed (step for step: a send becomes a receive, blocks
// and children in reverse order), so it takes the same time in gaps, the
// tree's pipeline_time(n), at the gap of a block with its ⊕
// (Net::tree_gap with combines): exact on α-β platforms (rendezvous, lag 1,
// gap α + β⌈m/n⌉ + γ⌈m/n⌉), where a leaf's sends, which fold nothing, wait
// for their receivers anyway. With LogGP's eager rules the count leaves out
// the max(o, g) a forwarding rank spends sending each block up.
// Limits: any p, any root, any n >= 1; any ⊕ (rank order kept); the lag at
// most 2^16.
// Memory: the tree's table of budgets, O(T²·d/lag) (below 2^24 entries),
// and the executor's vector and one block buffer.
// Runs as its plan through the plan executor (sim/rank/plan_executor.hpp).
#include <algorithm>
#include <memory>

#include "algorithm.hpp"
#include "logp_tree.hpp"
#include "node_plans.hpp"
#include "plan_families.hpp"
#include "tree_pipeline.hpp"

namespace collsim::sim {

double model_reduce_logp_tree_pipeline(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  return logp_tree_pipeline_model(net, p, bytes, blocks, true);
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan reduce_logp_tree_pipeline(int64_t p, int64_t root, int64_t blocks, double lag) {
  const auto tree = std::make_shared<const LogPTree>(p, lag, pipeline_degree(p, lag, blocks).degree);
  return streamed(header(Collective::reduce, p, root, blocks), [=](int64_t rank) {
    LogPTree::Links links = tree->links(rank);
    TreeNode node{links.parent, std::move(links.children)};
    std::reverse(node.children.begin(), node.children.end());  // the adjacent interval first
    StepSource own = tree_reduce_pipeline_source(rank, node, blocks);
    if (root == 0 || (rank != 0 && rank != root)) return own;
    // The result from rank 0 to the root, whole, once both are through.
    return chained({std::move(own), rounds(0, 1, [=](int64_t, Step& s) { result_to_root(rank, root, blocks, s); })});
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_reduce_logp_tree_pipeline{
    kExactModel, "n blocks up a LogP tree of bounded degree, rank order kept: its pipelined time in gaps (with the fold)",
    model_reduce_logp_tree_pipeline, plan::reduce_logp_tree_pipeline};

}  // namespace collsim::sim
