// linear-pipeline: the n blocks flow along the chain root → root+1 → ... →
// root+p−1 (tree_pipeline.hpp on a path).
//
// Cost: (p − 2 + n)(α + β⌈m/n⌉) for p ≥ 2: p − 1 hops for the first block,
// then one block per step. Bandwidth-optimal for large m, linear latency in p.
// Limits: any p, any root, any n ≥ 1; no ⊕. Memory: none beyond the buffer.
#include "circulant.hpp"
#include "tree_pipeline.hpp"

namespace collsim::sim {

#ifdef COLLSIM_RANK
void bcast_linear_pipeline(const CollArgs& a) {
  int p = 0, rank = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &rank);
  const int64_t r = virtual_rank(rank, a.root, p), next = r + 1;
  tree_pipeline(a, p, r - 1, &next, next < p ? 1 : 0);
}
#endif  // COLLSIM_RANK

double model_bcast_linear_pipeline(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  return tree_pipeline_model(net, bytes, blocks, p > 1 ? 1 : 0, p - 1);
}

}  // namespace collsim::sim
