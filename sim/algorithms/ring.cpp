// ring: seed 004 §2.7. A pairwise-exchange reduce-scatter (step i = 1 .. p − 1:
// send rank r + i the chunk it reduces, receive from r − i the data for one's
// own chunk), then a ring allgather (allreduce, stride 1, p − 1 steps) or
// every rank sending its chunk straight to the root (reduce). Chunks are the
// p base segments of whole elements (block_span on the count).
//
// Cost (seed 004):
//   allreduce  2(p − 1)α + 2mβ + mγ − (2mβ + mγ)/p
//   reduce     (p − 1)(α + α_uni) + m(β + β_uni) + mγ − (m(β + β_uni) + mγ)/p
// The models sum the steps with chunks of m/p and SMPI's envelope; every
// ring step has a rank sending and receiving at once, so on half-duplex
// links it costs α + 2(m/p)β. The root's p − 1 receives are sequential.
// Limits: any p, any root; ⊕ need not be commutative: the paper's order of
// arrival (r − 1, r − 2, .., wrapping to p − 1) is kept in two accumulators
// (see reduction_phases.hpp), at one ⊕ of m/p after the last step (γm/p,
// not in the model). Any count; chunks may be empty.
// Memory: two scratch vectors of m besides the result (only the own chunk's
// bytes of them are used).
// Plan (schedules/plans_reduce.cpp): a commutative ⊕ runs the plan of the
// commutative path, which keeps one accumulator, through the plan executor;
// the order-keeping path below needs a second accumulator and a ⊕ after the
// last step, which have no plan form (one acc per block).
#include "reduction_phases.hpp"
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

void reduce_ring(const CollArgs& a) {
  int p = 0;
  MPI_Comm_size(a.comm, &p);
  const Red red(a, p);
  if (red.commutative()) return run_catalog_plan(Collective::reduce, "ring", a);
  if (a.count == 0) return;
  Scratch scratch;
  char* acc = working_copy(red, red.rank == a.root ? a.buf : nullptr, scratch);
  ring_reduce_scatter(red, acc, acc);
  if (red.rank != a.root) return red.send(acc, red.bytes(red.rank, red.rank + 1), a.root);
  for (int from = 0; from < p; ++from)
    if (from != a.root) red.recv(acc, red.bytes(from, from + 1), from);
}
#endif  // COLLSIM_RANK

namespace {

double chunk(int64_t p, int64_t bytes) { return static_cast<double>(bytes) / static_cast<double>(p); }

}  // namespace

double model_allreduce_ring(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0 || p == 1) return 0;
  const double c = chunk(p, bytes);
  return static_cast<double>(p - 1) * (2 * exchange(net, c) + net.gamma * c);
}

double model_reduce_ring(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0 || p == 1) return 0;
  const double c = chunk(p, bytes);
  return static_cast<double>(p - 1) * (exchange(net, c) + net.gamma * c + oneway(net, c));
}

}  // namespace collsim::sim
