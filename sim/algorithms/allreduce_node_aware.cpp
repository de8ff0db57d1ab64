// allreduce node-aware: two-tree reduce within every node to its first
// rank, two-tree allreduce between those leaders, circulant bcast within
// every node (schedules/plans_node_aware.cpp).
//
// Cost, N = ⌈p/c⌉ nodes of c ranks (block placement), the three phases
// one after the other (each as its flat model says, within a node on
// α_i, β_i):
//   T_reduce,two-tree(c) + T_allreduce,two-tree(N) + T_bcast,circulant(c)
// ≈ (n + 2⌈log2 c⌉)(α_i + (β_i + γ)m/n) + S(2α + (2β + γ)m/n)
//   + (n − 1 + ⌈log2 c⌉)(α_i + β_i m/n).
// Only leaders use a node's link. c = 1: two-tree allreduce over p.
// Limits: any p, any n ≥ 1, any node size; any associative ⊕ (every phase
// keeps rank order: a leader holds its node's interval).
// Memory: a rank's steps, one block each way (the executor).
// Runs as its plan through the plan executor; this file holds its model.
#include "catalog.hpp"

namespace collsim::sim {

double model_bcast_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks);
double model_reduce_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks);
double model_allreduce_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks);

double model_allreduce_node_aware(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  const int64_t node = net.node_ranks(p), nodes = net.nodes(p);
  const Net intra = net.intra();
  return model_reduce_two_tree(intra, node, bytes, blocks) + model_allreduce_two_tree(net.between_nodes(), nodes, bytes, blocks) +
         model_bcast_circulant(intra, node, bytes, blocks);
}

}  // namespace collsim::sim
