// scatter-allgather: van de Geijn's broadcast for long messages (MPICH's
// scatter + ring allgather). Rank v (relative to the root) owns piece v of
// c = ⌈m/p⌉ bytes (the last pieces shorter or empty). A binomial scatter hands
// every rank its piece, then p − 1 ring steps pass pieces to the right.
//
// Cost (textbook, seed 004 style): scatter q·α + β(p − 1)c along the root's
// sends, then (p − 1)(α + βc) for the ring: ≈ (q + p − 1)α + 2βm. The model
// sums the root's actual scatter messages and the ring steps (with SMPI's
// envelope); it ignores the overlap of ring steps with late scatter leaves.
// Limits: any p, any root; no ⊕. Memory: the rank's steps and one
// message buffer each way (the executor).
// Runs as its plan (schedules/plans_bcast.cpp) through the plan executor
// (sim/rank/plan_executor.hpp); this file holds its cost model.
#include <algorithm>

#include "blocks.hpp"
#include "catalog.hpp"
#include "circulant.hpp"
namespace collsim::sim {

namespace {

// Bytes [first·c, (first + count)·c) ∩ [0, m): pieces first .. first+count−1.
Span pieces(int64_t bytes, int64_t p, int64_t first, int64_t count) {
  const int64_t c = (bytes + p - 1) / p;
  return {std::min(first * c, bytes), std::min((first + count) * c, bytes)};
}

}  // namespace

double model_bcast_scatter_allgather(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0 || p == 1) return 0;
  double t = 0;
  for (int64_t mask = int64_t{1} << (ceil_log2(p) - 1); mask > 0; mask >>= 1)  // the root's scatter sends
    if (mask < p) t += net.message(pieces(bytes, p, mask, std::min(mask, p - mask)).count());
  return t + static_cast<double>(p - 1) * net.message((bytes + p - 1) / p);
}

}  // namespace collsim::sim
