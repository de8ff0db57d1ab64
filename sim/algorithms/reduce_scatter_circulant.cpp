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
#include "circulant_all.hpp"

namespace collsim::sim {

double model_reduce_scatter_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  return circulant_all_model(net, p, bytes, blocks, true);
}

}  // namespace collsim::sim
