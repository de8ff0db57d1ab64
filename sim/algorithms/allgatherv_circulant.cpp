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

namespace collsim::sim {

double model_allgatherv_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  return circulant_all_model(net, p, bytes, blocks, false);
}

}  // namespace collsim::sim
