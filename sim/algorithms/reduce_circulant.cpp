// circulant reduce: the n-block circulant broadcast of bcast_circulant run
// backwards (seed 003, Observation 1, item 3): rounds from the last down to
// x, every transfer reversed, and each received partial block combined into
// the rank's own partial result for that block.
//
// Needs a COMMUTATIVE ⊕ (kCommutative): the real transfers of a block form a
// spanning tree of the circulant graph whose shape follows the skips, not the
// ranks: e.g. p = 4 (skips 1, 2), root 0: rank 1 gets block 0 from 0 in round
// 0 and passes it to 3 in round 1, so backwards 1 combines m3 into m1 and
// 0 gets m1 ⊕ m3 — not a contiguous range of ranks. An order-keeping ⊕ would
// need each partial to cover a range.
//
// Cost: the broadcast's n − 1 + q rounds, each with at most one send and one
// receive of a block of ⌈m/n⌉ bytes and at most one ⊕ of a received block
// (every rank's work per round, so also the critical path):
//   T = (n − 1 + q)(α + β⌈m/n⌉ + γ⌈m/n⌉),  q = ⌈log2 p⌉,
// round-optimal like the broadcast. Blocks are cut on element boundaries
// (⌈count/n⌉ elements), so ⌈m/n⌉ is rounded up to whole elements.
// Limits: any p, any root, n ≥ 1, any count (0 and count < n give empty
// blocks). Memory: one accumulator of m bytes (non-roots) and one block.
// Runs as its plan (schedules/plans_circulant.cpp) through the plan
// executor (sim/rank/plan_executor.hpp); this file holds its cost model.
#include <algorithm>

#include "catalog.hpp"
#include "circulant_all.hpp"
#include "circulant_plan.hpp"
namespace collsim::sim {

double model_reduce_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  const int q = ceil_log2(p);
  if (q == 0 || bytes == 0) return 0;
  const int64_t b = (bytes + blocks - 1) / blocks;
  if (net.node_size > 1) return circulant_rounds_on_nodes(net, p, blocks, b, true);
  return static_cast<double>(blocks - 1 + q) * (net.message(b) + net.gamma * static_cast<double>(b));
}

}  // namespace collsim::sim
