// allgatherv multi-lane: c concurrent circulant allgathervs between the
// nodes (lane j: the j-th rank of every node, its ranks' own segments),
// then a circulant allgatherv within every node of what each rank's lane
// gathered (schedules/plans_node_aware.cpp has the steps and a picture).
//
// Cost, N = ⌈p/c⌉ full nodes of c ranks, even counts m/p, n blocks a
// segment:
//   T_allgatherv,circulant(N, N·m/p, n) with β·c   (the c lanes share a node's link)
//   + T_allgatherv,circulant(c, m, n) on α_i, β_i
// ≈ (n − 1 + ⌈log2 N⌉)α + cβ(m/c)(N−1)/N + (n − 1 + ⌈log2 c⌉)α_i + β_i m(c−1)/c:
// a node's link carries the other nodes' data once, m(N−1)/N, against c
// times that for a flat allgatherv whose every rank crosses nodes. The
// lanes' even share of the link is the model's simplification, as for
// allreduce multi-lane. A short last node (s < c ranks) serves its lanes
// in turn: the model takes the full nodes' path. Irregular counts: the
// block policy adds the circulant warm-up excess of the actual counts
// (block_policy.cpp), as for the flat circulant allgatherv.
// Limits: any p, n ≥ 1, any node size, any counts, p·n ≤ 2^40 blocks.
// Memory: a rank's steps; each step lists the blocks of up to N·n·⌈c/s⌉
// segments (the executor packs them).
// Runs as its plan through the plan executor; this file holds its model.
#include "catalog.hpp"

namespace collsim::sim {

double model_allgatherv_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks);

double model_allgatherv_multi_lane(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  const int64_t lanes = net.node_ranks(p), nodes = net.nodes(p), per_rank = bytes / p;
  Net lane = net.between_nodes();
  lane.beta = net.beta * static_cast<double>(lanes);
  return model_allgatherv_circulant(lane, nodes, nodes * per_rank, blocks) +
         model_allgatherv_circulant(net.intra(), lanes, lanes * nodes * per_rank, blocks);
}

}  // namespace collsim::sim
