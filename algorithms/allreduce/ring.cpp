// allreduce ring: reduce/ring.cpp's pairwise-exchange reduce-scatter, then
// the ring allgather (stride 1, p − 1 steps). The family (cost, order,
// limits, memory, and why only the commutative path is a plan): there.
#include "reduction_phases.hpp"
#include "reduction_plans.hpp"
#ifdef COLLSIM_RANK
#include "plan_executor.hpp"
#endif  // COLLSIM_RANK

namespace collsim::sim {

using namespace phases;

#ifdef COLLSIM_RANK
void allreduce_ring(const CollArgs& a) {
  int p = 0;
  MPI_Comm_size(a.comm, &p);
  const Red red(a, p);
  if (red.commutative()) return run_catalog_plan(Collective::allreduce, "ring", a);
  if (a.count == 0) return;
  Scratch unused;
  char* acc = working_copy(red, a.buf, unused);
  ring_reduce_scatter(red, acc, acc);
  ring_allgather(red, acc);
}
#endif  // COLLSIM_RANK

double model_allreduce_ring(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0 || p == 1) return 0;
  const double c = chunk(p, bytes);
  return static_cast<double>(p - 1) * (2 * exchange(net, c) + net.gamma * c);
}

}  // namespace collsim::sim

namespace collsim::plan {

// allreduce ring: the reduce-scatter, then the ring allgather: 2(p − 1)
// MPI_Sendrecv steps of m/p, commutative ⊕ only.
Plan allreduce_ring(int64_t p, int64_t, int64_t) {
  return streamed(commutative_header(Collective::allreduce, p, 0, p), [=](int64_t rank) {
    return rounds(1, 2 * p - 1, [=](int64_t i, Step& s) {
      s = i < p ? ring_reduce_scatter_step(p, rank, i) : ring_allgather_step(p, rank, i - p);
    });
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_allreduce_ring{
    kExactModel,
    "pairwise reduce-scatter + ring allgather / direct gather: ~2(p-1)a + 2bm + gm",
    model_allreduce_ring, plan::allreduce_ring};

}  // namespace collsim::sim
