// Node-aware plans (issue 18): a flat plan's phases run by groups of ranks,
// one group per node or one rank per node, so that the inter-node fabric
// carries each byte once per node, not once per core.
//
// Placement: ranks block-wise, `node_size` to a node (the last node may
// hold fewer); node k holds ranks k·c .. min(p, (k + 1)·c) − 1. A node's
// leader talks to the other nodes; its other ranks only to their own node.
//
//   p = 10, c = 4, bcast from root 5:      node 0      node 1      node 2
//                                          0 1 2 3     4 5 6 7     8 9
//   leaders (local index of the root,       . 1 . .    . 5 . .     . 9
//   or the last rank of a shorter node):    inter-node circulant 1 - 5 - 9
//   then each node's circulant bcast from its leader over its own ranks.
//
// A phase is a flat plan over its group (ranks 0 .. g − 1) whose peers are
// mapped to the group's ranks; a rank's steps are its phases' steps one
// after the other. Every phase cuts the vector into the same B = n blocks,
// so blocks mean the same in all of them. Groups are in rank order (a
// node's ranks, the leaders by node), so a sub-plan's left and right are
// the global ones: a leader's acc holds its node's interval, and the
// order-keeping sub-plans keep the global order (the verifier checks it).
#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "plan_families.hpp"

namespace collsim::plan {

namespace {

// Ranks placed block-wise, `size` to a node.
struct Nodes {
  int64_t p, size;
  int64_t count() const { return (p - 1) / size + 1; }
  int64_t of(int64_t rank) const { return rank / size; }
  int64_t first(int64_t node) const { return node * size; }
  int64_t members(int64_t node) const { return std::min(size, p - node * size); }
};

// Where a sub-plan's block lies in the plan: `rename(b, out)` appends the
// blocks that the sub-plan's block b stands for, none where b names data
// that does not exist (a short last node's missing ranks).
using BlockRename = std::function<void(int64_t block, BlockList& out)>;

// Sub-plan block b is the `scale` blocks offset + b·scale .. offset +
// b·scale + scale − 1: a lane's sub-plan runs on its segment (offset), a
// node's phase moves whole segments as its blocks (scale).
//   offset 10, scale 3: {1, 2}  ->  blocks 13 .. 18
BlockRename affine(int64_t offset, int64_t scale) {
  return [offset, scale](int64_t b, BlockList& out) { out.push_run(offset + b * scale, scale); };
}

// In increasing order: the executor packs a message's blocks in the order
// listed, and in scale mode keeps its real window only where that is the
// vector's order (plan_executor.cpp), while a circulant round lists its
// segments in root order, which wraps (multi-lane allgatherv's node phase:
// {0, 4, 3, 7}).
BlockList renamed(const BlockList& list, const BlockRename& rename) {
  BlockList out;
  for (int64_t b : list) rename(b, out);
  if (std::is_sorted(out.begin(), out.end())) return out;
  std::vector<int64_t> blocks(out.begin(), out.end());
  std::sort(blocks.begin(), blocks.end());
  return BlockList(blocks);
}

// `inner` with its group's ranks i renamed to_rank(i) and its blocks
// renamed by `blocks` (none: kept). A half left without blocks is dropped,
// at both ends alike (they rename the same blocks); a step left with
// nothing, too.
StepSource mapped(StepSource inner, std::function<int64_t(int64_t)> to_rank, BlockRename blocks = nullptr) {
  return [inner = std::move(inner), to_rank = std::move(to_rank), blocks = std::move(blocks)](Step& s) mutable {
    while (inner(s)) {
      if (s.send_to >= 0) s.send_to = to_rank(s.send_to);
      if (s.recv_from >= 0) s.recv_from = to_rank(s.recv_from);
      if (!blocks) return true;
      s.send_blocks = renamed(s.send_blocks, blocks);
      s.recv_blocks = renamed(s.recv_blocks, blocks);
      s.fold_blocks = renamed(s.fold_blocks, blocks);
      if (s.send_blocks.empty()) s.send_to = -1;
      if (s.recv_blocks.empty()) s.recv_from = -1;
      if (s.send_to >= 0 || s.recv_from >= 0 || !s.fold_blocks.empty()) return true;
    }
    return false;
  };
}

// The steps of `parts`, one source after the other.
StepSource chained(std::vector<StepSource> parts) {
  return [parts = std::move(parts), i = size_t{0}](Step& s) mutable {
    for (; i < parts.size(); ++i)
      if (parts[i](s)) return true;
    return false;
  };
}

// Rank `rank`'s part in a phase run by its node's ranks: `flat` built for
// the node's size, rooted at local index `local_root`.
StepSource node_phase(const Nodes& nodes, int64_t rank, int64_t local_root, int64_t blocks,
                      Plan (*flat)(int64_t, int64_t, int64_t)) {
  const int64_t k = nodes.of(rank), first = nodes.first(k);
  return mapped(flat(nodes.members(k), local_root, blocks).source(rank - first),
                [first](int64_t i) { return first + i; });
}

// A leader's part in a phase run by one rank per node: `inter` built for
// the node count, node j's rank being leader(j).
StepSource leader_phase(const Plan& inter, int64_t node, std::function<int64_t(int64_t)> leader) {
  return mapped(inter.source(node), std::move(leader));
}

// Lane j of a multi-lane plan: node k's member is its rank j, or on a
// shorter node its rank j mod members (which serves several lanes).
std::function<int64_t(int64_t)> lane_member(const Nodes& nodes, int64_t j) {
  return [nodes, j](int64_t node) { return nodes.first(node) + j % nodes.members(node); };
}

// The leaders of a rooted collective: on node k the rank with the root's
// local index (the root leads its own node; a shorter last node, its last
// rank), so that the root needs no extra hop.
std::function<int64_t(int64_t)> root_leaders(const Nodes& nodes, int64_t root) {
  const int64_t home = root % nodes.size;
  return [nodes, home](int64_t k) { return nodes.first(k) + std::min(home, nodes.members(k) - 1); };
}

// A rooted collective in two phases of one flat algorithm, between the
// leaders and within every node: the leaders' phase first where the data
// flows out of the root (bcast), last where it flows in (reduce).
Plan leaders_and_nodes(Collective c, int64_t p, int64_t root, int64_t blocks, int64_t node_size,
                       Plan (*flat)(int64_t, int64_t, int64_t)) {
  const Nodes nodes{p, node_size};
  const auto leader = root_leaders(nodes, root);
  const Plan inter = flat(nodes.count(), nodes.of(root), blocks);
  const bool leaders_first = c == Collective::bcast;
  return streamed({c, p, root, blocks, false}, [=](int64_t rank) {
    const int64_t k = nodes.of(rank);
    StepSource within = node_phase(nodes, rank, leader(k) - nodes.first(k), blocks, flat);
    if (rank != leader(k)) return within;
    StepSource between = leader_phase(inter, k, leader);
    return leaders_first ? chained({between, within}) : chained({within, between});
  });
}

}  // namespace

// bcast node-aware: circulant between the leaders, then circulant within
// each node (the phases do not overlap). Steps: (n − 1 + ⌈log2 N⌉) +
// (n − 1 + ⌈log2 c⌉) at most.
Plan bcast_node_aware(int64_t p, int64_t root, int64_t blocks, int64_t node_size) {
  return leaders_and_nodes(Collective::bcast, p, root, blocks, node_size, bcast_circulant);
}

// reduce node-aware: the broadcast's phases reversed, each a pipelined
// binary-tree reduce (plans_reduce.cpp: an in-order tree, so rank order is
// kept at any root): within every node to its leader, then between the
// leaders to the root. Any associative ⊕.
Plan reduce_node_aware(int64_t p, int64_t root, int64_t blocks, int64_t node_size) {
  return leaders_and_nodes(Collective::reduce, p, root, blocks, node_size, reduce_binary_tree_pipeline);
}

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

// allgatherv multi-lane (Träff's multi-lane decomposition for allgather):
// every core of a node drives its share of the inter-node traffic, and
// each byte crosses a node's link once.
//   1. lane j, local rank j of every node, circulant allgatherv of its
//      ranks' own segments between the nodes: the c lanes run at once,
//      sharing each node's link;
//   2. within each node, circulant allgatherv of what each rank's lanes
//      gathered (local rank j's segment: the segments of every node's
//      rank j).
//
//   p = 8, c = 4:   node 0: 0 1 2 3     node 1: 4 5 6 7
//   1. lanes {0,4} {1,5} {2,6} {3,7}: rank 0 gets 4's data, 4 gets 0's
//   2. AG in {0..3}, {4..7}: rank 0 brings segments 0 and 4, rank 1 1 and 5 ..
//
// Blocks: B = p·n, rank r's segment r·n .. r·n + n − 1 (the allgatherv
// cut). Lane j's sub-plan (N ranks, n blocks each) names node k's rank j's
// blocks; the node phase's (c ranks, n blocks each) block u of local j
// stands for block u of every segment local j brought, so both phases take
// n − 1 + ⌈log2⌉ rounds, not more.
//
// A last node of s < c ranks: its rank i serves lanes i, i + s, .. one
// after the other (with no segment of its own in lanes s .. c − 1) and
// brings all of them to its node's phase; a lane's sub-plan blocks of
// missing ranks name nothing (mapped drops them). Correct, slower: the
// lanes of that node's ranks run in turn. Any counts, no ⊕.
Plan allgatherv_multi_lane(int64_t p, int64_t, int64_t blocks, int64_t node_size) {
  const Nodes nodes{p, node_size};
  const int64_t lanes = node_size, n = blocks, count = nodes.count();
  check_segment_blocks(p, n);
  const Plan lane = allgatherv_circulant(count, 0, n);
  // Block u of rank `rank`'s segment, if that rank exists.
  const auto segment_block = [p, n](int64_t rank, int64_t u, BlockList& out) {
    if (rank < p) out.push_back(rank * n + u);
  };
  // Lane j's block k·n + u: block u of node k's rank j.
  const auto lane_blocks = [=](int64_t j) -> BlockRename {
    return [=](int64_t b, BlockList& out) { segment_block(nodes.first(b / n) + j, b % n, out); };
  };
  Header h{Collective::allgatherv, p, 0, p * n, false, 1, true};
  return streamed(h, [=](int64_t rank) {
    const int64_t k = nodes.of(rank), first = nodes.first(k), s = nodes.members(k), local = rank - first;
    std::vector<StepSource> parts;
    for (int64_t j = local; j < lanes; j += s) {
      parts.push_back(mapped(lane.source(k), lane_member(nodes, j), lane_blocks(j)));
    }
    // The node phase's block i·n + u: block u of every segment that local
    // rank i's lanes brought.
    const BlockRename brought = [=](int64_t b, BlockList& out) {
      for (int64_t j = b / n; j < lanes; j += s)
        for (int64_t node = 0; node < count; ++node) segment_block(nodes.first(node) + j, b % n, out);
    };
    parts.push_back(mapped(allgatherv_circulant(s, 0, n).source(local), [first](int64_t i) { return first + i; }, brought));
    return chained(std::move(parts));
  });
}

}  // namespace collsim::plan
