// logp-tree-pipeline: the LogP tree's pipelined variant for long messages
// (issue 34): the message cut into n blocks, each broadcast down one
// LogP-optimal tree with at most d children a rank (schedules/logp_tree.hpp,
// "Degree bound" and "Pipeline"), built for the lag of one block
// (Net::tree_lag of ⌈m/n⌉ bytes). A rank receives block j from its parent
// and sends it to its children in order, largest subtree first, as
// linear-pipeline and binary-tree-pipeline do down their trees
// (common/tree_plans.cpp's tree_pipeline_source: the receive of block
// j + 1 goes with the last send of block j).
//
// Why a bound: the whole-message tree (logp-tree) lets the root send to
// every child it has time for, which is best for one block; a pipeline
// leaves the root every d gaps, so n blocks favour few children. d is the
// bound with the least pipelined time (pipeline_degree): the unbounded
// tree's degree for n = 1, 2 (a binary tree, shaped by the lag) for large
// n. The chain (d = 1) is linear-pipeline.
//
// Cost: the tree's pipeline_time(n) in gaps times the gap (Net::tree_gap of
// one block): max over ranks v of ready(v) + (n − 1)·P(v), P(v) the most
// children of a rank above v. On α-β platforms (rendezvous: lag 1, the gap
// a whole message α + β⌈m/n⌉) this is the round count of the lock-step
// plan, exact like binary-tree-pipeline's. With LogGP's eager rules the
// count leaves out the o a forwarding rank spends receiving each block:
// exact where the NIC sets the gap (d·o + o <= d·wire time), below by up
// to a receive overhead a block where the CPU does.
// Limits: any p, any root, any n >= 1; no ⊕; the lag at most 2^16.
// Memory: the tree's table of budgets, O(T²·d/lag) (below 2^24 entries),
// and the executor's one block buffer each way.
// Runs as its plan through the plan executor (sim/rank/plan_executor.hpp).
#include <memory>

#include "algorithm.hpp"
#include "logp_tree.hpp"
#include "plan_families.hpp"
#include "tree_pipeline.hpp"

namespace collsim::sim {

double model_bcast_logp_tree_pipeline(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  return logp_tree_pipeline_model(net, p, bytes, blocks, false);
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan bcast_logp_tree_pipeline(int64_t p, int64_t root, int64_t blocks, double lag) {
  const Rooted ranks{p, root};
  const auto tree = std::make_shared<const LogPTree>(p, lag, pipeline_degree(p, lag, blocks).degree);
  return streamed(bcast_header(p, root, blocks), [=](int64_t rank) {
    LogPTree::Links links = tree->links(ranks.virt(rank));
    return tree_pipeline_source(ranks, TreeNode{links.parent, std::move(links.children)}, blocks);
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_bcast_logp_tree_pipeline{
    kExactModel, "n blocks down a LogP tree of bounded degree, the bound picked for n: its pipelined time in gaps",
    model_bcast_logp_tree_pipeline, plan::bcast_logp_tree_pipeline};

}  // namespace collsim::sim
