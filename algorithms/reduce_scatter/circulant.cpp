// circulant reduce_scatter (MPI_Reduce_scatter, and _block for equal counts):
// p simultaneous circulant reductions, each the reversed n-block broadcast of
// reduce_circulant with rank j the root of segment j (seed 003, Observation 1
// item 4; circulant_all.hpp).
//
// Needs a COMMUTATIVE ⊕ (kCommutative), for the reason given in
// reduce_circulant.cpp: partial results follow the circulant tree, not rank
// order.
// Cost: as circulant allgatherv plus γ for every received byte (each is
// combined on arrival): T = Σ_i (α + (β + γ) c_i ⌈m/(pn)⌉) for even counts;
// each rank sends and receives every partial block once, volume
// (m − m_r) each way — no doubling for any p, the point of item 4.
// Limits: any p, any counts (0, all on one rank), n ≥ 1.
// Memory: one accumulator of m bytes, p plans, message buffers.
#include <vector>

#include "circulant_all.hpp"
#include "circulant_plans.hpp"
#ifdef COLLSIM_RANK
#include "collective.hpp"
#include "window.hpp"
#endif  // COLLSIM_RANK

namespace collsim::sim {

#ifdef COLLSIM_RANK
void reduce_scatter_circulant(const CollArgs& a) {
  int p = 0, rank = 0, esize = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &rank);
  MPI_Type_size(a.type, &esize);
  // The offsets: the harness's displacements, else (MPI_Reduce_scatter has
  // none) the counts' prefix sums.
  std::vector<int> displs;
  if (a.displs == nullptr) {
    displs.assign(static_cast<size_t>(p), 0);
    for (int j = 1; j < p; ++j) displs[j] = displs[j - 1] + a.counts[j - 1];
  }
  const Segments seg{a.counts, a.displs != nullptr ? a.displs : displs.data(), 0, p, esize};
  Scratch acc(a, Scratch::Kind::vector, a.bytes);
  copy_real(acc.data(), a.sendbuf, a.bytes);
  circulant_reduce_scatter(a, acc.data(), seg);
  copy_real(a.buf, acc.data() + seg(rank).begin * esize, a.counts[rank] * int64_t{esize});
}
#endif  // COLLSIM_RANK

double model_reduce_scatter_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  return circulant_all_model(net, p, bytes, blocks, true);
}

}  // namespace collsim::sim

namespace collsim::plan {

// reduce_scatter circulant (circulant_reduce_scatter): the allgather's
// rounds backwards, p reductions at once, rank j the root of segment j.
//   p = 4, n = 1, rank 0: send 2 b1,2, recv 2 b0,3 left; send 3 b3, recv 1
//   b0 left.
Plan reduce_scatter_circulant(int64_t p, int64_t, int64_t blocks) {
  return all_rounds_plan(Collective::reduce_scatter, p, blocks, true, false);
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_reduce_scatter_circulant{
    kSegments | kCommutative,
    "p reversed circulant broadcasts at once (Obs. 1.4), commutative: ~(n-1+q)a+(b+g)m",
    model_reduce_scatter_circulant, plan::reduce_scatter_circulant};

}  // namespace collsim::sim
