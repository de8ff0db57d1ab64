// allreduce multi-lane: circulant reduce_scatter within every node, c
// concurrent circulant allreduces between the nodes (lane j: the j-th rank
// of every node, segment j), circulant allgather within every node
// (schedules/plans_node_aware.cpp has the steps, a picture, and why the
// lanes are circulant).
//
// Cost, N = ⌈p/c⌉ full nodes of c ranks, vector m cut into c segments, each
// into N sub-segments of n blocks:
//   T_rs,circulant(c, m, 1 block per segment) on α_i, β_i
//   + T_allreduce,circulant(N, m/c, n) with β·c   (the c lanes share a node's link)
//   + T_allgather,circulant(c, m, 1 block per segment) on α_i, β_i
// ≈ 2⌈log2 c⌉α_i + (2β_i + γ)m(c−1)/c + 2(n − 1 + ⌈log2 N⌉)α + (2cβ + γ)(m/c)(N−1)/N:
// each node's link carries 2m(N−1)/N bytes once, not c times. The
// lanes' share of the link is the model's simplification (SimGrid shares
// it among the flows active at each instant). A short last node (s < c
// ranks) allreduces the whole vector within itself and its ranks serve
// ⌈c/s⌉ lanes one after the other: the model takes the full nodes' path
// (and, for p < c, the short node's).
// Limits: any p, any n ≥ 1, any node size, c·N·n ≤ 2^40 blocks;
// commutative ⊕ only (the circulant reduce_scatters' ranges wrap around).
// Memory: a rank's steps, one block each way (the executor).
// Runs as its plan through the plan executor; this file holds its model.
#include "catalog.hpp"

namespace collsim::sim {

double model_bcast_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks);
double model_reduce_scatter_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks);
double model_allgatherv_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks);
double model_allreduce_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks);
double model_allreduce_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks);

double model_allreduce_multi_lane(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  const int64_t lanes = net.node_size, segment = (bytes / net.element + lanes - 1) / lanes * net.element;
  const Net intra = net.intra();
  if (p < lanes)  // one short node: allreduce within it, then a broadcast per segment
    return model_allreduce_two_tree(intra, p, bytes, lanes) +
           static_cast<double>(lanes) * model_bcast_circulant(intra, p, segment, 1);
  Net lane = net.between_nodes();
  lane.beta = net.beta * static_cast<double>(lanes);
  const int64_t nodes = net.nodes(p);
  return model_reduce_scatter_circulant(intra, lanes, bytes, 1) + model_allreduce_circulant(lane, nodes, segment, blocks) +
         model_allgatherv_circulant(intra, lanes, bytes, 1);
}

}  // namespace collsim::sim
