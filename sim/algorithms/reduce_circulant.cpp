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
#include <algorithm>

#include "catalog.hpp"
#include "circulant_plan.hpp"
#ifdef COLLSIM_RANK
#include "collective.hpp"
#include "window.hpp"
#endif  // COLLSIM_RANK

namespace collsim::sim {

#ifdef COLLSIM_RANK
void reduce_circulant(const CollArgs& a) {
  int p = 0, rank = 0, esize = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &rank);
  MPI_Type_size(a.type, &esize);
  Scratch own;
  char* acc = static_cast<char*>(a.buf);
  if (rank != a.root) {
    own = Scratch(a, Scratch::Kind::vector, a.bytes);
    acc = own.data();
  }
  copy_real(acc, a.sendbuf, a.bytes);
  const CirculantSchedule s(p);
  if (s.q() == 0 || a.count == 0) return;
  const int64_t v = virtual_rank(rank, a.root, p), n = a.blocks;
  const CirculantPlan plan(s, v, n);
  Scratch in(a, Scratch::Kind::block, (a.count + n - 1) / n * esize);
  for (int64_t i = plan.end() - 1; i >= plan.first(); --i) {
    const int k = static_cast<int>(i % s.q());
    const int64_t out_block = plan.recv_block(i), in_block = plan.send_block(i);
    const Span out = block_span(a.count, n, std::max<int64_t>(out_block, 0));
    const Span got = block_span(a.count, n, std::max<int64_t>(in_block, 0));
    const int to = out_block >= 0 ? static_cast<int>(real_rank(s.from(v, k), a.root, p)) : MPI_PROC_NULL;
    const int from = in_block >= 0 ? static_cast<int>(real_rank(s.to(v, k), a.root, p)) : MPI_PROC_NULL;
    // out_block ≠ in_block: a rank forwards a block only after it had it
    // (Condition 4), so the send buffer is never the one being combined into.
    char* into = in.at(got.begin * esize);
    MPI_Sendrecv(acc + out.begin * esize, out.count(), a.type, to, 0, into, got.count(), a.type, from, 0, a.comm,
                 MPI_STATUS_IGNORE);
    if (in_block >= 0 && got.count() > 0) MPI_Reduce_local(into, acc + got.begin * esize, got.count(), a.type, a.op);
  }
}
#endif  // COLLSIM_RANK

double model_reduce_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  const int q = ceil_log2(p);
  if (q == 0 || bytes == 0) return 0;
  const int64_t b = (bytes + blocks - 1) / blocks;
  return static_cast<double>(blocks - 1 + q) * (net.message(b) + net.gamma * static_cast<double>(b));
}

}  // namespace collsim::sim
