// binomial: the binomial-tree broadcast (MPICH's MPIR_Bcast_binomial shape) on
// ranks relative to the root. A rank receives the whole message from
// r − lowbit(r), then sends it to r + 2^j for 2^j < lowbit(r), largest first.
//
// Cost: ⌈log2 p⌉(α + βm): the root's q sends are sequential and each subtree
// starts as soon as its root has the data.
// Limits: any p, any root; no ⊕; one message of m bytes (m ≤ INT_MAX).
// Memory: none beyond the buffer.
#include "catalog.hpp"
#include "binomial_tree.hpp"
#include "circulant.hpp"
#ifdef COLLSIM_RANK
#include "collective.hpp"
#endif  // COLLSIM_RANK

namespace collsim::sim {

#ifdef COLLSIM_RANK
void bcast_binomial(const CollArgs& a) {
  int p = 0, rank = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &rank);
  if (a.bytes == 0) return;
  const int64_t r = virtual_rank(rank, a.root, p);
  const int count = static_cast<int>(a.bytes);
  if (r != 0)
    MPI_Recv(a.buf, count, MPI_BYTE, static_cast<int>(real_rank(binomial_parent(r), a.root, p)), 0, a.comm,
             MPI_STATUS_IGNORE);
  for (int64_t d = binomial_child_span(r, p) >> 1; d > 0; d >>= 1)  // largest subtree first
    if (r + d < p) MPI_Send(a.buf, count, MPI_BYTE, static_cast<int>(real_rank(r + d, a.root, p)), 0, a.comm);
}
#endif  // COLLSIM_RANK

double model_bcast_binomial(const Net& net, int64_t p, int64_t bytes, int64_t) {
  return bytes == 0 ? 0 : ceil_log2(p) * net.message(bytes);
}

}  // namespace collsim::sim
