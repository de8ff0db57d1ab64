// circulant allreduce: circulant reduce_scatter of p even segments followed
// by circulant allgather of the reduced segments, both with n blocks per
// segment (seed 003, Observation 1 items 4 and 2: the paper names the two
// building blocks; reduce-scatter + allgather is seed 004's Rabenseifner
// pattern, here with circulant rounds for any p instead of halving).
//
// Needs a COMMUTATIVE ⊕ (kCommutative), as reduce_scatter circulant.
// Cost: the sum of the two: 2 Σ_i (α + β c_i ⌈m/(pn)⌉) + γ Σ_i c_i ⌈m/(pn)⌉,
// ≈ 2(n − 1 + q)α + 2βm(p−1)/p + γm(p−1)/p for n = 1 (and c_i ≤ p − 1).
// Limits: any p, any count (count < p leaves segments empty), n ≥ 1.
// Memory: that of reduce_scatter circulant (the accumulator is buf).
#include "circulant_all.hpp"
#include "circulant_plans.hpp"
#ifdef COLLSIM_RANK
#include "collective.hpp"
#include "window.hpp"
#endif  // COLLSIM_RANK

namespace collsim::sim {

#ifdef COLLSIM_RANK
void allreduce_circulant(const CollArgs& a) {
  int p = 0, esize = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Type_size(a.type, &esize);
  copy_real(a.buf, a.sendbuf, a.bytes);
  const Segments seg{nullptr, nullptr, a.count, p, esize};
  circulant_reduce_scatter(a, static_cast<char*>(a.buf), seg);
  circulant_allgather(a, static_cast<char*>(a.buf), seg);
}
#endif  // COLLSIM_RANK

double model_allreduce_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  return circulant_all_model(net, p, bytes, blocks, true) + circulant_all_model(net, p, bytes, blocks, false);
}

}  // namespace collsim::sim

namespace collsim::plan {

// allreduce circulant (the rank code above): the reduce-scatter of p even
// segments, then the allgather of the reduced segments, both with n blocks
// per segment: `segments p`, B = p·n. 2(n − 1 + q) steps at most.
Plan allreduce_circulant(int64_t p, int64_t, int64_t blocks) {
  return all_rounds_plan(Collective::allreduce, p, blocks, true, true);
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_allreduce_circulant{
    kSegments | kCommutative,
    "circulant reduce_scatter + circulant allgather (Obs. 1.4 + 1.2), commutative: ~2(n-1+q)a+2bm+gm",
    model_allreduce_circulant, plan::allreduce_circulant};

}  // namespace collsim::sim
