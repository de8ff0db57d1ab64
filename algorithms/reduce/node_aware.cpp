// reduce node-aware: pipelined binary-tree reduce within every node to its
// leader (the rank with the root's local index), then between the leaders
// to the root (algorithms/common/node_plans.cpp).
//
// Cost, N = ⌈p/c⌉ nodes of c ranks (block placement), the phases one
// after the other, each as the binary-tree-pipeline model says (its plan
// at root 0 under the α-β rules):
//   T_btp(c) on α_i, β_i + T_btp(N) on α, β,  T_btp(q) ≈ 2(n − 1 + ⌈log2 q⌉)(α + (β + γ)⌈m/n⌉).
// Exact at root 0 (tested at 96 and 100 ranks in nodes of 32). At another
// root both trees have another shape: from the middle of 3 nodes the
// leaders' tree has a root with two children instead of a chain, 29 % more
// at 1 MiB. Only leaders use a node's link. c = 1: binary-tree-pipeline over p.
// Limits: any p, any root, any n ≥ 1, any node size; any associative ⊕
// (in-order trees: rank order kept at any root).
// Memory: a rank's steps, one block each way (the executor).
// Runs as its plan through the plan executor; this file holds its model.
#include "algorithm.hpp"
#include "node_plans.hpp"

namespace collsim::sim {

double model_reduce_binary_tree_pipeline(const Net& net, int64_t p, int64_t bytes, int64_t blocks);

double model_reduce_node_aware(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  const int64_t node = net.node_ranks(p), nodes = net.node_count(p);
  return model_reduce_binary_tree_pipeline(net.intra(), node, bytes, blocks) +
         model_reduce_binary_tree_pipeline(net.between_nodes(), nodes, bytes, blocks);
}

}  // namespace collsim::sim

namespace collsim::plan {

// reduce node-aware: the broadcast's phases reversed, each a pipelined
// binary-tree reduce (reduction_plans.cpp: an in-order tree, so rank order is
// kept at any root): within every node to its leader, then between the
// leaders to the root. Any associative ⊕.
Plan reduce_node_aware(int64_t p, int64_t root, int64_t blocks, int64_t node_size) {
  return leaders_and_nodes(Collective::reduce, p, root, blocks, node_size, reduce_binary_tree_pipeline);
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_reduce_node_aware{
    kNone,
    "pipelined binary-tree reduce in each node, then between node leaders; order kept: ~2(n-1+lg c)(ai..)+2(n-1+lg N)(a..)",
    model_reduce_node_aware, plan::reduce_node_aware};

}  // namespace collsim::sim
