// allgatherv multi-lane: c concurrent circulant allgathervs between the
// nodes (lane j: the j-th rank of every node, its ranks' own segments),
// then a circulant allgatherv within every node of what each rank's lane
// gathered (algorithms/common/node_plans.cpp has the steps and a picture).
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
#include <algorithm>
#include <utility>
#include <vector>

#include "algorithm.hpp"
#include "node_plans.hpp"

namespace collsim::sim {

double model_allgatherv_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks);

double model_allgatherv_multi_lane(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  const int64_t lanes = net.node_ranks(p), nodes = net.node_count(p), per_rank = bytes / p;
  Net lane = net.between_nodes();
  lane.beta = net.beta * static_cast<double>(lanes);
  return model_allgatherv_circulant(lane, nodes, nodes * per_rank, blocks) +
         model_allgatherv_circulant(net.intra(), lanes, lanes * nodes * per_rank, blocks);
}

}  // namespace collsim::sim

namespace collsim::plan {

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
namespace {

// The node phase's block i·n + u, on a node of s ranks: block u of every
// segment that local rank i's lanes brought, i.e. of every node's rank j
// for j = i, i + s, .. < c (where that rank exists). A list of them is,
// node after node, the same offsets j·n + u within the node's c·n blocks,
// so it is built from the offsets, sorted and joined into ranges once:
// either node-major (each range on every node: nodes·ranges runs, in
// increasing order) or offset-major (each offset on every full node as
// one run of stride c·n, then the short last node's ranges: offsets +
// ranges runs), whichever has fewer runs. At p = 2^20 as 8,192 nodes of
// 128 ranks a round's list has up to 64 offsets in 1 or 2 ranges:
// offset-major keeps it at 64 runs, not 16,384. The executor packs a
// message's blocks in increasing vector order whatever order its list
// has (plan_executor.cpp), so both orders send the same bytes.
//   p = 12, c = 4, n = 2, list {1, 4, 5}: offsets {1, 4, 5}, ranges [1, 2)
//   and [4, 6); node-major: 1, 4-5 | 9, 12-13 | 17, 20-21 (6 runs);
//   offset-major: 1,9,17 | 4,12,20 | 5,13,21 (3 runs)
ListRename brought(const Nodes& nodes, int64_t n, int64_t s) {
  return [nodes, n, s](const BlockList& list, BlockList& out) {
    std::vector<int64_t> offsets;
    for (const int64_t b : list)
      for (int64_t j = b / n; j < nodes.size; j += s) offsets.push_back(j * n + b % n);
    std::sort(offsets.begin(), offsets.end());
    std::vector<std::pair<int64_t, int64_t>> ranges;  // [first, end) offsets
    for (const int64_t o : offsets)
      if (!ranges.empty() && ranges.back().second == o)
        ++ranges.back().second;
      else
        ranges.push_back({o, o + 1});
    out.clear();
    const int64_t full = nodes.p / nodes.size, node_blocks = nodes.size * n;  // full nodes, a node's blocks
    // The ranges on nodes [from, count()), each node's cut to its ranks.
    const auto node_major = [&](int64_t from) {
      for (int64_t node = from, count = nodes.count(); node < count; ++node) {
        const int64_t base = nodes.first(node) * n, present = nodes.members(node) * n;  // offsets that exist
        for (const auto& [first, end] : ranges)
          if (first < present) out.push_run(base + first, std::min(end, present) - first);
      }
    };
    const int64_t ranges_count = static_cast<int64_t>(ranges.size()),
                  offsets_count = static_cast<int64_t>(offsets.size());
    if (full < 2 || offsets_count + ranges_count >= nodes.count() * ranges_count) return node_major(0);
    for (const int64_t o : offsets) out.push_strided(o, full, node_blocks);
    node_major(full);
  };
}

// Lane j's block k·n + u: block u of node k's rank j, (k·c + j)·n + u,
// where that rank exists (a short last node may lack it). Renamed run by
// run, in the list's order: a run of block u of every d-th node (stride
// d·n; with n = 1 any run) is one run of stride d·c·n; a run of
// consecutive blocks, one run a node it touches; any other, block by
// block. A lane's round lists up to N/2 nodes' blocks in a few runs (at
// p = 2^20, N = 8,192), which renamed one by one and sorted cost O(N) a
// message.
//   c = 4, n = 1, j = 1, list {0-2}: blocks 1, 5, 9 (one run of stride 4)
ListRename lane_renamed(const Nodes& nodes, int64_t n, int64_t j) {
  return [nodes, n, j](const BlockList& list, BlockList& out) {
    out.clear();
    const int64_t node_blocks = nodes.size * n;
    const auto exists = [&](int64_t k) { return nodes.first(k) + j < nodes.p; };
    const auto renamed = [&](int64_t b) { return b / n * node_blocks + j * n + b % n; };
    for (const BlockList::Run& run : list.runs()) {
      if (run.stride % n == 0) {  // only its last node can be the short one
        const int64_t d = run.stride / n, last_k = run.last() / n;
        out.push_strided(renamed(run.first), run.count - (exists(last_k) ? 0 : 1), d * node_blocks);
      } else if (run.stride == 1) {
        for (int64_t b = run.first; b <= run.last();) {
          const int64_t end = std::min(run.last() + 1, (b / n + 1) * n);  // to the end of b's node
          if (exists(b / n)) out.push_run(renamed(b), end - b);
          b = end;
        }
      } else {
        for (int64_t b = run.first; b <= run.last(); b += run.stride)
          if (exists(b / n)) out.push_back(renamed(b));
      }
    }
  };
}

}  // namespace

Plan allgatherv_multi_lane(int64_t p, int64_t, int64_t blocks, int64_t node_size) {
  const Nodes nodes{p, node_size};
  const int64_t lanes = node_size, n = blocks, count = nodes.count();
  check_segment_blocks(p, n);
  const Plan lane = allgatherv_circulant(count, 0, n);
  Header h{Collective::allgatherv, p, 0, p * n, false, 1, true};
  return streamed(h, [=](int64_t rank) {
    const int64_t k = nodes.of(rank), first = nodes.first(k), s = nodes.members(k), local = rank - first;
    std::vector<StepSource> parts;
    for (int64_t j = local; j < lanes; j += s) {
      parts.push_back(mapped(lane.source(k), lane_member(nodes, j), lane_renamed(nodes, n, j)));
    }
    parts.push_back(mapped(allgatherv_circulant(s, 0, n).source(local), [first](int64_t i) { return first + i; },
                           brought(nodes, n, s)));
    return chained(std::move(parts));
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_allgatherv_multi_lane{
    kSegments,
    "multi-lane: c circulant allgatherv lanes between nodes, then circulant allgatherv in each node, any counts",
    model_allgatherv_multi_lane, plan::allgatherv_multi_lane};

}  // namespace collsim::sim
