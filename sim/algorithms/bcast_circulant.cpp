// circulant: the round-optimal n-block broadcast of Träff 2024 (seed 003,
// Algorithm 1) on the circulant graph with skips skip[0..q).
//
// Cost: (n − 1 + q) rounds of one simultaneous send and receive of a block of
// ⌈m/n⌉ bytes: (n − 1 + q)(α + β⌈m/n⌉), q = ⌈log2 p⌉ — optimal in rounds for
// any p and n. Needs full duplex to reach it (a rank sends and receives in the
// same round).
// On nodes of c ranks (block placement) a round's ranks whose partner is on
// another node share the node's link (Net::shift_round): the model sums
// its rounds' skips one by one.
// Limits: any p, any root, any n ≥ 1; no ⊕. Memory: O(n + q) steps per
// rank, one block each way for the messages.
//
// Per round i (from the first real round x = (q − (n−1) mod q) mod q on):
// k = i mod q, partner t = r + skip[k] and f = r − skip[k]; the schedule value
// v stands for block v − x + q⌊i/q⌋; negative blocks are not moved, blocks
// beyond n − 1 move block n − 1 instead, and nothing is sent to the root.
// These rules are the ones verify/'s data-flow simulation proves for every p.
// Runs as its plan (schedules/plans_bcast.cpp) through the plan executor
// (sim/rank/plan_executor.hpp); this file holds its cost model.
#include <algorithm>

#include "catalog.hpp"
#include "circulant.hpp"
#include "circulant_all.hpp"
namespace collsim::sim {

double model_bcast_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  const int q = ceil_log2(p);
  if (q == 0 || bytes == 0) return 0;
  const int64_t b = (bytes + blocks - 1) / blocks;
  if (net.node_size > 1) return circulant_rounds_on_nodes(net, p, blocks, b, false);
  return static_cast<double>(blocks - 1 + q) * net.message(b);
}

}  // namespace collsim::sim
