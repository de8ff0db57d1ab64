// circulant: the round-optimal n-block broadcast of Träff 2024 (seed 003,
// Algorithm 1) on the circulant graph with skips skip[0..q).
//
// Cost: (n − 1 + q) rounds of one simultaneous send and receive of a block of
// ⌈m/n⌉ bytes: (n − 1 + q)(α + β⌈m/n⌉), q = ⌈log2 p⌉ — optimal in rounds for
// any p and n. Needs full duplex to reach it (a rank sends and receives in the
// same round).
// Limits: any p, any root, any n ≥ 1; no ⊕. Memory: O(q) schedule per rank
// and one scratch block for the repeated last block (see below).
//
// Per round i (from the first real round x = (q − (n−1) mod q) mod q on):
// k = i mod q, partner t = r + skip[k] and f = r − skip[k]; the schedule value
// v stands for block v − x + q⌊i/q⌋; negative blocks are not moved, blocks
// beyond n − 1 move block n − 1 instead, and nothing is sent to the root.
// These rules are the ones verify/'s data-flow simulation proves for every p.
#include <algorithm>

#include "catalog.hpp"
#include "circulant.hpp"
#ifdef COLLSIM_RANK
#include "collective.hpp"
#include "window.hpp"
#endif  // COLLSIM_RANK

namespace collsim::sim {

#ifdef COLLSIM_RANK
void bcast_circulant(const CollArgs& a) {
  int p = 0, rank = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &rank);
  const CirculantSchedule s(p);
  const int q = s.q();
  if (q == 0 || a.bytes == 0) return;
  const int64_t r = virtual_rank(rank, a.root, p), n = a.blocks;
  int recvblock[kMaxRounds], sendblock[kMaxRounds];
  s.recv(r, recvblock);
  s.send(r, sendblock);
  const int64_t x = algorithm1_first_round(q, n);
  // Block n − 1 stands in for every block beyond it, so a rank may be sent it
  // again after it has it (and may be sending it in that very round): such a
  // copy goes to scratch, never over the buffer being sent from.
  bool have_last = r == 0;
  Scratch scratch;
  for (int64_t i = x; i < x + n - 1 + q; ++i) {
    const int k = static_cast<int>(i % q);
    const int64_t shift = q * (i / q) - x;
    const int64_t to = s.to(r, k), from = s.from(r, k);
    const int64_t sb = std::min<int64_t>(sendblock[k] + shift, n - 1);
    const int64_t rb = r == 0 ? -1 : std::min<int64_t>(recvblock[k] + shift, n - 1);
    const bool sending = to != 0 && sendblock[k] + shift >= 0;
    const bool receiving = rb >= 0;
    const Span out = block_span(a.bytes, n, std::max<int64_t>(sb, 0));
    const Span in = block_span(a.bytes, n, std::max<int64_t>(rb, 0));
    char* into = at(a.buf, in.begin);
    if (receiving && rb == n - 1) {
      if (have_last) {
        if (scratch.data() == nullptr) scratch = Scratch(a, Scratch::Kind::block, in.count());
        into = scratch.at(in.begin);
      }
      have_last = true;
    }
    MPI_Sendrecv(at(a.buf, out.begin), sending ? out.count() : 0, MPI_BYTE,
                 sending ? static_cast<int>(real_rank(to, a.root, p)) : MPI_PROC_NULL, 0, into,
                 receiving ? in.count() : 0, MPI_BYTE,
                 receiving ? static_cast<int>(real_rank(from, a.root, p)) : MPI_PROC_NULL, 0, a.comm,
                 MPI_STATUS_IGNORE);
  }
}
#endif  // COLLSIM_RANK

double model_bcast_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  const int q = ceil_log2(p);
  if (q == 0 || bytes == 0) return 0;
  return static_cast<double>(blocks - 1 + q) * net.message((bytes + blocks - 1) / blocks);
}

}  // namespace collsim::sim
