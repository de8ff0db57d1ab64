// allreduce multi-lane: circulant reduce_scatter within every node, c
// concurrent circulant allreduces between the nodes (lane j: the j-th rank
// of every node, segment j), circulant allgather within every node
// (algorithms/common/node_plans.cpp has the steps, a picture, and why the
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
#include "algorithm.hpp"
#include "node_plans.hpp"

namespace collsim::sim {

double model_bcast_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks);
double model_reduce_scatter_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks);
double model_allgatherv_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks);
double model_allreduce_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks);
double model_allreduce_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks);

double model_allreduce_multi_lane(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  const int64_t lanes = net.node_size(), segment = (bytes / net.element + lanes - 1) / lanes * net.element;
  const Net intra = net.intra();
  if (p < lanes)  // one short node: allreduce within it, then a broadcast per segment
    return model_allreduce_two_tree(intra, p, bytes, lanes) +
           static_cast<double>(lanes) * model_bcast_circulant(intra, p, segment, 1);
  Net lane = net.between_nodes();
  lane.beta = net.beta * static_cast<double>(lanes);
  const int64_t nodes = net.node_count(p);
  return model_reduce_scatter_circulant(intra, lanes, bytes, 1) + model_allreduce_circulant(lane, nodes, segment, blocks) +
         model_allgatherv_circulant(intra, lanes, bytes, 1);
}

}  // namespace collsim::sim

namespace collsim::plan {

// allreduce multi-lane (Träff and Hunold's multi-lane decomposition; seed
// 001's Multilane): every core of a node drives its share of the
// inter-node traffic. The vector is cut into c segments (`segments c`),
// segment j into N·n blocks (N nodes, B = c·N·n); lane j is the j-th rank
// of every node.
//   1. within each node, circulant reduce_scatter with the c segments as
//      its blocks: local j gets segment j reduced over its node;
//   2. lane j, one rank per node, circulant allreduce of segment j (its
//      reduce_scatter over N sub-segments of n blocks, then its
//      allgather): the c lanes run at once, sharing each node's link;
//   3. within each node, circulant allgather of the c segments.
//
//   p = 8, c = 4:   node 0: 0 1 2 3     node 1: 4 5 6 7
//   1. RS in {0..3}, {4..7}     2. lanes {0,4} {1,5} {2,6} {3,7}     3. AG
//
// Why circulant lanes: each lane moves 2(N − 1)/N of its segment in
// 2(n − 1 + ⌈log2 N⌉) rounds, so a node's link carries 2(N − 1)/N·m and
// few latencies. Two-tree lanes (this row's first version) took 625.8 µs
// at 36 × 32, 1 MiB on omnipath36x32, slower than flat binary-blocks
// (542.5 µs), whose halving already sends 1/c of the vector per core
// across nodes.
//
// A last node of s < c ranks cannot split c segments as a reduce_scatter
// of s ranks: its ranks allreduce the whole vector among themselves
// (two-tree, the c segments as its blocks), rank i then serves lanes i,
// i + s, .. one after the other, and broadcasts each of its segments to
// the node (circulant). Commutative ⊕ only (the circulant reduce_scatter's
// ranges wrap around).
Plan allreduce_multi_lane(int64_t p, int64_t, int64_t blocks, int64_t node_size) {
  const Nodes nodes{p, node_size};
  const int64_t lanes = node_size, segment_blocks = nodes.count() * blocks;
  Header h{Collective::allreduce, p, 0, lanes * segment_blocks, true, lanes, true};
  const Plan lane = allreduce_circulant(nodes.count(), 0, blocks);  // checks N·n
  if (segment_blocks > kMaxBlocks / lanes)
    throw std::invalid_argument("c·N·n = " + std::to_string(lanes) + "·" + std::to_string(segment_blocks) +
                                " blocks exceed 2^40");
  const auto segment = [segment_blocks](int64_t j) { return affine(j * segment_blocks, segment_blocks); };
  return streamed(h, [=](int64_t rank) {
    const int64_t k = nodes.of(rank), first = nodes.first(k), s = nodes.members(k), local = rank - first;
    const auto in_node = [first](int64_t i) { return first + i; };
    std::vector<StepSource> parts;
    if (s == lanes) {
      parts.push_back(mapped(reduce_scatter_circulant(s, 0, 1).source(local), in_node, segment(0)));
    } else {
      parts.push_back(mapped(allreduce_two_tree(s, 0, lanes).source(local), in_node, segment(0)));
    }
    for (int64_t j = local; j < lanes; j += s) {
      parts.push_back(mapped(lane.source(k), lane_member(nodes, j), affine(j * segment_blocks, 1)));
    }
    if (s == lanes) {
      parts.push_back(mapped(allgatherv_circulant(s, 0, 1).source(local), in_node, segment(0)));
    } else {
      for (int64_t j = 0; j < lanes; ++j)
        parts.push_back(mapped(bcast_circulant(s, j % s, 1).source(local), in_node, segment(j)));
    }
    return chained(std::move(parts));
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_allreduce_multi_lane{
    kCommutative,
    "multi-lane: circulant RS in each node, c circulant allreduce lanes between nodes, circulant AG in each node",
    model_allreduce_multi_lane, plan::allreduce_multi_lane};

}  // namespace collsim::sim
