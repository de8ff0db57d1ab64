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
// Runs as its plan (algorithms/bcast/) through the plan executor
// (sim/rank/plan_executor.hpp); this file holds its cost model.
#include <algorithm>

#include "blocks.hpp"
#include "algorithm.hpp"
#include "circulant.hpp"
#include "plan_families.hpp"
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

namespace collsim::plan {

// scatter-allgather (bcast_scatter_allgather.cpp): B = p blocks, block v
// being virtual rank v's piece (block_span's cut into p blocks is the MPI
// code's pieces of ⌈m/p⌉ bytes). A binomial scatter hands rank v the blocks
// of its subtree [v, v + lowbit(v)) ∩ [0, p); then p − 1 ring steps
// (MPI_Sendrecv) pass block v − i to v + 1 and take block v − i − 1 from
// v − 1.
//   p = 4: scatter 0 → 2: b2,b3   0 → 1: b1   2 → 3: b3;  ring: 3 steps each
Plan bcast_scatter_allgather(int64_t p, int64_t root, int64_t blocks) {
  if (blocks != p)
    throw std::invalid_argument("scatter-allgather cuts the message into p blocks: blocks must be p = " +
                                std::to_string(p));
  const Rooted ranks{p, root};
  return streamed(bcast_header(p, root, blocks), [=](int64_t rank) {
    const int64_t v = ranks.virt(rank);
    std::vector<Step> scatter;  // at most ⌈log2 p⌉ steps
    int64_t mask = 1;
    for (; mask < p; mask <<= 1) {
      if (v & mask) {
        scatter.push_back(recv_step(ranks.real(v - mask), block_run(v, std::min(mask, p - v))));
        break;
      }
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
      if (v + mask < p) scatter.push_back(send_step(ranks.real(v + mask), block_run(v + mask, std::min(mask, p - v - mask))));
    const auto first_ring = static_cast<int64_t>(scatter.size());
    return rounds(0, p == 1 ? 0 : first_ring + p - 1, [=](int64_t i, Step& step) {
      if (i < first_ring) {
        step = scatter[static_cast<size_t>(i)];
        return;
      }
      const auto ring = [p](int64_t u) { return (u % p + p) % p; };
      const int64_t r = i - first_ring;
      step = with_recv(send_step(ranks.real(ring(v + 1)), {ring(v - r)}), ranks.real(ring(v - 1)), {ring(v - r - 1)});
    });
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_bcast_scatter_allgather{
    kExactModel,
    "binomial scatter + ring allgather (van de Geijn): ~(q+p-1)a+2bm",
    model_bcast_scatter_allgather, plan::bcast_scatter_allgather};

}  // namespace collsim::sim
