// scatter-allgather: van de Geijn's broadcast for long messages (MPICH's
// scatter + ring allgather). Rank v (relative to the root) owns piece v of
// c = ⌈m/p⌉ bytes (the last pieces shorter or empty). A binomial scatter hands
// every rank its piece, then p − 1 ring steps pass pieces to the right.
//
// Cost (textbook, seed 004 style): scatter q·α + β(p − 1)c along the root's
// sends, then (p − 1)(α + βc) for the ring: ≈ (q + p − 1)α + 2βm. The model
// sums the root's actual scatter messages and the ring steps (with SMPI's
// envelope); it ignores the overlap of ring steps with late scatter leaves.
// Limits: any p, any root; no ⊕. Memory: none beyond the buffer.
#include <algorithm>

#include "blocks.hpp"
#include "catalog.hpp"
#include "circulant.hpp"
#ifdef COLLSIM_RANK
#include "collective.hpp"
#endif  // COLLSIM_RANK

namespace collsim::sim {

namespace {

// Bytes [first·c, (first + count)·c) ∩ [0, m): pieces first .. first+count−1.
Span pieces(int64_t bytes, int64_t p, int64_t first, int64_t count) {
  const int64_t c = (bytes + p - 1) / p;
  return {std::min(first * c, bytes), std::min((first + count) * c, bytes)};
}

}  // namespace

#ifdef COLLSIM_RANK
void bcast_scatter_allgather(const CollArgs& a) {
  int p = 0, rank = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &rank);
  if (a.bytes == 0 || p == 1) return;
  const int64_t r = virtual_rank(rank, a.root, p);
  auto real = [&](int64_t v) { return static_cast<int>(real_rank((v + p) % p, a.root, p)); };
  // Scatter: r's subtree is [r, r + lowbit(r)) ∩ [0, p).
  int64_t mask = 1;
  for (; mask < p; mask <<= 1) {
    if (r & mask) {
      const Span s = pieces(a.bytes, p, r, std::min(mask, p - r));
      MPI_Recv(at(a.buf, s.begin), s.count(), MPI_BYTE, real(r - mask), 0, a.comm, MPI_STATUS_IGNORE);
      break;
    }
  }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    if (r + mask >= p) continue;
    const Span s = pieces(a.bytes, p, r + mask, std::min(mask, p - r - mask));
    MPI_Send(at(a.buf, s.begin), s.count(), MPI_BYTE, real(r + mask), 0, a.comm);
  }
  // Ring allgather: in step i, pass piece r − i on and take piece r − i − 1.
  for (int64_t i = 0; i < p - 1; ++i) {
    const Span out = pieces(a.bytes, p, (r - i + p) % p, 1), in = pieces(a.bytes, p, (r - i - 1 + p) % p, 1);
    MPI_Sendrecv(at(a.buf, out.begin), out.count(), MPI_BYTE, real(r + 1), 1, at(a.buf, in.begin), in.count(),
                 MPI_BYTE, real(r - 1), 1, a.comm, MPI_STATUS_IGNORE);
  }
}
#endif  // COLLSIM_RANK

double model_bcast_scatter_allgather(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0 || p == 1) return 0;
  double t = 0;
  for (int64_t mask = int64_t{1} << (ceil_log2(p) - 1); mask > 0; mask >>= 1)  // the root's scatter sends
    if (mask < p) t += net.message(pieces(bytes, p, mask, std::min(mask, p - mask)).count());
  return t + static_cast<double>(p - 1) * net.message((bytes + p - 1) / p);
}

}  // namespace collsim::sim
