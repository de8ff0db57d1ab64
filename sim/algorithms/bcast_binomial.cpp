// binomial: the binomial-tree broadcast (MPICH's MPIR_Bcast_binomial shape) on
// ranks relative to the root. A rank receives the whole message from
// r − lowbit(r), then sends it to r + 2^j for 2^j < lowbit(r), largest first.
//
// Cost: ⌈log2 p⌉(α + βm): the root's q sends are sequential and each subtree
// starts as soon as its root has the data.
// Limits: any p, any root; no ⊕; one message of m bytes (m ≤ INT_MAX).
// Memory: none beyond the buffer.
#include "circulant.hpp"
#include "collective.hpp"

namespace collsim::sim {

void bcast_binomial(const CollArgs& a) {
  int p = 0, rank = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &rank);
  if (a.bytes == 0) return;
  const int64_t r = virtual_rank(rank, a.root, p);
  const int count = static_cast<int>(a.bytes);
  int64_t mask = 1;
  for (; mask < p; mask <<= 1) {
    if (r & mask) {
      MPI_Recv(a.buf, count, MPI_BYTE, static_cast<int>(real_rank(r - mask, a.root, p)), 0, a.comm,
               MPI_STATUS_IGNORE);
      break;
    }
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (r + mask < p) MPI_Send(a.buf, count, MPI_BYTE, static_cast<int>(real_rank(r + mask, a.root, p)), 0, a.comm);
}

double model_bcast_binomial(const Net& net, int64_t p, int64_t bytes, int64_t) {
  return bytes == 0 ? 0 : ceil_log2(p) * net.message(bytes);
}

}  // namespace collsim::sim
