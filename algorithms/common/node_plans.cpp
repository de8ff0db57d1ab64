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

#include "node_plans.hpp"

namespace collsim::plan {

// Sub-plan block b is the `scale` blocks offset + b·scale .. offset +
// b·scale + scale − 1: a lane's sub-plan runs on its segment (offset), a
// node's phase moves whole segments as its blocks (scale).
//   offset 10, scale 3: {1, 2}  ->  blocks 13 .. 18
ListRename affine(int64_t offset, int64_t scale) {
  return each_block([offset, scale](int64_t b, BlockList& out) { out.push_run(offset + b * scale, scale); });
}

// In increasing order, which joins a renamed list's blocks into runs where
// it can: a circulant round lists its segments in root order, which wraps
// (multi-lane allgatherv's lanes: {0, 4, 3, 7}).
ListRename each_block(BlockRename rename) {
  return [rename = std::move(rename)](const BlockList& list, BlockList& out) {
    out.clear();
    for (int64_t b : list) rename(b, out);
    sort_blocks(out);
  };
}

namespace {

// An empty list (a half the step lacks) stays empty without asking the
// rename, which may cost O(nodes) (multi-lane's node phase).
BlockList renamed(const BlockList& list, const ListRename& rename) {
  BlockList out;
  if (!list.empty()) rename(list, out);
  return out;
}

}  // namespace

// `inner` with its group's ranks i renamed to_rank(i) and its blocks
// renamed by `blocks` (none: kept). A half left without blocks is dropped,
// at both ends alike (they rename the same blocks); a step left with
// nothing, too.
StepSource mapped(StepSource inner, std::function<int64_t(int64_t)> to_rank, ListRename blocks) {
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

}  // namespace collsim::plan
