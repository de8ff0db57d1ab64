// smpi:<name>: SimGrid's own MPI calls, whichever algorithm the run selected
// with --cfg=smpi/<collective>:<name>. The baselines run in the same harness
// as ours, with the same operators (which charge γ in the op itself).
// Cost, limits and memory: SimGrid's (src/smpi/colls/); no model here.
#include "collective.hpp"

namespace collsim::sim {

namespace {
int count_of(const CollArgs& a) { return static_cast<int>(a.count); }
}  // namespace

void bcast_smpi(const CollArgs& a) { MPI_Bcast(a.buf, static_cast<int>(a.bytes), MPI_BYTE, a.root, a.comm); }

void reduce_smpi(const CollArgs& a) { MPI_Reduce(a.sendbuf, a.buf, count_of(a), a.type, a.op, a.root, a.comm); }

void allreduce_smpi(const CollArgs& a) { MPI_Allreduce(a.sendbuf, a.buf, count_of(a), a.type, a.op, a.comm); }

void reduce_scatter_smpi(const CollArgs& a) { MPI_Reduce_scatter(a.sendbuf, a.buf, a.counts, a.type, a.op, a.comm); }

void allgatherv_smpi(const CollArgs& a) {
  int rank = 0;
  MPI_Comm_rank(a.comm, &rank);
  MPI_Allgatherv(a.sendbuf, a.counts[rank], a.type, a.buf, a.counts, a.displs, a.type, a.comm);
}

void scan_smpi(const CollArgs& a) { MPI_Scan(a.sendbuf, a.buf, count_of(a), a.type, a.op, a.comm); }

void exscan_smpi(const CollArgs& a) { MPI_Exscan(a.sendbuf, a.buf, count_of(a), a.type, a.op, a.comm); }

}  // namespace collsim::sim
