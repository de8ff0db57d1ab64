// circulant allgatherv: all-broadcast by p simultaneous n-block circulant
// broadcasts, every rank the root of its own segment (seed 003, Observation 1
// item 2, Algorithm 7; circulant_all.hpp).
//
// Cost: n − 1 + q rounds, q = ⌈log2 p⌉; per round one message of at most one
// block per other root. Even counts (m/p bytes each):
//   T = Σ_i (α + β c_i ⌈m/(pn)⌉),  c_i ≤ p − 1 (c_i = p − 1 except in the
// first and last ≈ q rounds), so T ≈ (n − 1 + q)α + βm(p−1)/p·(n−1+q)/n.
// Irregular counts change only the block sizes: the rounds are the same, so
// the time hardly depends on the layout (the paper's Figure 2, degenerate
// case included).
// Limits: any p, any counts (0, all on one rank), n ≥ 1; no ⊕.
// Memory: p plans, message buffers of at most one block per root.
#include "circulant_all.hpp"
#include "circulant_plans.hpp"
#ifdef COLLSIM_RANK
#include "collective.hpp"
#include "window.hpp"
#endif  // COLLSIM_RANK

namespace collsim::sim {

#ifdef COLLSIM_RANK
void allgatherv_circulant(const CollArgs& a) {
  int p = 0, rank = 0, unit = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &rank);
  MPI_Type_size(a.type, &unit);
  const Segments seg{a.counts, a.displs, 0, p, unit};
  copy_real(at(a.buf, a.displs[rank] * int64_t{unit}), a.sendbuf, a.counts[rank] * int64_t{unit});
  circulant_allgather(a, static_cast<char*>(a.buf), seg);
}
#endif  // COLLSIM_RANK

double model_allgatherv_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  return circulant_all_model(net, p, bytes, blocks, false);
}

}  // namespace collsim::sim

namespace collsim::plan {

// allgatherv circulant (Algorithm 7, circulant_allgather): in round i rank r
// sends to r + skip[k] one message, the blocks it moves for every root in
// root order, and receives one from r − skip[k]. B = p·n.
//   p = 4, n = 1 (rank j's block is j): round 0, skip 1: r → r + 1 block r;
//   round 1, skip 2: r → r + 2 blocks r − 1, r (root r − 1 as virtual 1,
//   root r as virtual 0), e.g. rank 0: send 1 b0, recv 3 b3; then send 2
//   b0,3, recv 2 b1,2.
Plan allgatherv_circulant(int64_t p, int64_t, int64_t blocks) {
  return all_rounds_plan(Collective::allgatherv, p, blocks, false, true);
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_allgatherv_circulant{
    kSegments | kExactModel,
    "p circulant broadcasts at once (Alg. 7), any counts: ~(n-1+q)a+bm",
    model_allgatherv_circulant, plan::allgatherv_circulant};

}  // namespace collsim::sim
