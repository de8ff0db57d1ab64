// The node-aware plans' shared pieces (node_plans.cpp): phases of flat
// plans run by a node's ranks or by one rank per node, chained per rank.
// bcast/, reduce/, allreduce/node_aware.cpp and allreduce/,
// allgatherv/multi_lane.cpp build their plans from them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "plan_families.hpp"

namespace collsim::plan {

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
// A whole list renamed at once: `rename(in, out)` sets `out` to the blocks
// that the sub-plan's list `in` stands for, in an order of its own
// (each_block's is increasing; allgatherv multi-lane's node phase lists
// fewer runs offset-major), for a rename that builds its list directly
// instead of block by block.
using ListRename = std::function<void(const BlockList& in, BlockList& out)>;

// A list renamed block by block, then put in increasing order.
ListRename each_block(BlockRename rename);
// Sub-plan block b as the `scale` blocks offset + b·scale .. (node_plans.cpp).
ListRename affine(int64_t offset, int64_t scale);
// A sub-plan's steps with its ranks mapped by to_rank and its blocks by
// `blocks` (none: unchanged).
StepSource mapped(StepSource inner, std::function<int64_t(int64_t)> to_rank, ListRename blocks = nullptr);
// The parts' steps one after the other.
StepSource chained(std::vector<StepSource> parts);
// Rank `rank`'s part in a phase of its node's ranks: `flat` for the node's
// size, rooted at local index local_root.
StepSource node_phase(const Nodes& nodes, int64_t rank, int64_t local_root, int64_t blocks,
                      Plan (*flat)(int64_t, int64_t, int64_t));
// A leader's part in a phase of one rank per node (node j's: leader(j)).
StepSource leader_phase(const Plan& inter, int64_t node, std::function<int64_t(int64_t)> leader);
// Lane j's member on each node; the leaders of a rooted collective.
std::function<int64_t(int64_t)> lane_member(const Nodes& nodes, int64_t j);
std::function<int64_t(int64_t)> root_leaders(const Nodes& nodes, int64_t root);
// A rooted collective in two phases of one flat algorithm, between the
// leaders and within every node.
Plan leaders_and_nodes(Collective c, int64_t p, int64_t root, int64_t blocks, int64_t node_size,
                       Plan (*flat)(int64_t, int64_t, int64_t));

}  // namespace collsim::plan
