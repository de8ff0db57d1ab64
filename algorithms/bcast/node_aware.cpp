// bcast node-aware: the circulant broadcast between one leader per node,
// then the circulant broadcast within every node from its leader
// (algorithms/common/node_plans.cpp has the steps and a picture).
//
// Cost, N = ⌈p/c⌉ nodes of c ranks (c = the node size, block placement):
//   (n − 1 + ⌈log2 N⌉)(α + β⌈m/n⌉) + (n − 1 + ⌈log2 c⌉)(α_i + β_i⌈m/n⌉)
// with α, β between nodes and α_i, β_i within one. The phases do not
// overlap at the node whose leader finishes last, so the sum is the time
// where the last leader's node is a full one. Only leaders use a node's
// link, one message each way at a time: no sharing between a node's ranks
// (flat algorithms put up to c flows on it). c = 1: circulant over p.
// Limits: any p, any root, any n ≥ 1, any node size; no ⊕.
// Memory: a rank's O(n + log p) steps, one block each way (the executor).
// Runs as its plan through the plan executor; this file holds its model.
#include "algorithm.hpp"
#include "node_plans.hpp"

namespace collsim::sim {

double model_bcast_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks);

double model_bcast_node_aware(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  const int64_t node = net.node_ranks(p), nodes = net.node_count(p);
  return model_bcast_circulant(net.between_nodes(), nodes, bytes, blocks) + model_bcast_circulant(net.intra(), node, bytes, blocks);
}

}  // namespace collsim::sim

namespace collsim::plan {

// bcast node-aware: circulant between the leaders, then circulant within
// each node (the phases do not overlap). Steps: (n − 1 + ⌈log2 N⌉) +
// (n − 1 + ⌈log2 c⌉) at most.
Plan bcast_node_aware(int64_t p, int64_t root, int64_t blocks, int64_t node_size) {
  return leaders_and_nodes(Collective::bcast, p, root, blocks, node_size, bcast_circulant);
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_bcast_node_aware{
    kExactModel,
    "circulant between node leaders, then circulant within each node: (n-1+lg N)(a+bm/n)+(n-1+lg c)(ai+bi*m/n)",
    model_bcast_node_aware, plan::bcast_node_aware};

}  // namespace collsim::sim
