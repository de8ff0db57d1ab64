// allreduce node-aware: two-tree reduce within every node to its first
// rank, two-tree allreduce between those leaders, circulant bcast within
// every node (algorithms/common/node_plans.cpp).
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
#include "algorithm.hpp"
#include "node_plans.hpp"

namespace collsim::sim {

double model_bcast_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks);
double model_reduce_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks);
double model_allreduce_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks);

double model_allreduce_node_aware(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  const int64_t node = net.node_ranks(p), nodes = net.node_count(p);
  const Net intra = net.intra();
  return model_reduce_two_tree(intra, node, bytes, blocks) + model_allreduce_two_tree(net.between_nodes(), nodes, bytes, blocks) +
         model_bcast_circulant(intra, node, bytes, blocks);
}

}  // namespace collsim::sim

namespace collsim::plan {

// allreduce node-aware: two-tree reduce to each node's first rank (root 0
// of the node: order kept), two-tree allreduce between those leaders (order
// kept), circulant bcast within each node. Any associative ⊕.
Plan allreduce_node_aware(int64_t p, int64_t, int64_t blocks, int64_t node_size) {
  const Nodes nodes{p, node_size};
  const auto leader = [nodes](int64_t k) { return nodes.first(k); };
  const Plan inter = allreduce_two_tree(nodes.count(), 0, blocks);
  return streamed({Collective::allreduce, p, 0, blocks, false}, [=](int64_t rank) {
    const int64_t k = nodes.of(rank);
    std::vector<StepSource> parts;
    parts.push_back(node_phase(nodes, rank, 0, blocks, reduce_two_tree));
    if (rank == leader(k)) parts.push_back(leader_phase(inter, k, leader));
    parts.push_back(node_phase(nodes, rank, 0, blocks, bcast_circulant));
    return chained(std::move(parts));
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_allreduce_node_aware{
    kExactModel,
    "two-tree reduce in each node, two-tree allreduce between leaders, circulant bcast in each node; order kept",
    model_allreduce_node_aware, plan::allreduce_node_aware};

}  // namespace collsim::sim
