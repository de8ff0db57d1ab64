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
// Plan (algorithms/common/reduction_plans.cpp): a commutative ⊕ runs the plan of the
// commutative path, which keeps one accumulator, through the plan executor;
// the order-keeping path below needs a second accumulator and a ⊕ after the
// last step, which have no plan form (one acc per block).
#include "reduction_phases.hpp"
#include "reduction_plans.hpp"
#ifdef COLLSIM_RANK
#include "plan_executor.hpp"
#endif  // COLLSIM_RANK

namespace collsim::sim {

using namespace phases;

#ifdef COLLSIM_RANK
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

double model_reduce_ring(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0 || p == 1) return 0;
  const double c = chunk(p, bytes);
  return static_cast<double>(p - 1) * (exchange(net, c) + net.gamma * c + oneway(net, c));
}

}  // namespace collsim::sim

namespace collsim::plan {

// ring (ring.cpp), commutative ⊕ only (see ring_reduce_scatter_step):
// the reduce-scatter on B = p chunks, then every rank but the root sends
// its chunk to the root, which receives them in rank order. 2(p − 1) steps
// at the root, p at the others; chunks of m/p.
Plan reduce_ring(int64_t p, int64_t root, int64_t) {
  return streamed(commutative_header(Collective::reduce, p, root, p), [=](int64_t rank) {
    const int64_t gather = p == 1 ? 0 : rank == root ? p : 1;
    return rounds(1, p + gather, [=](int64_t i, Step& s) {
      if (i < p) s = ring_reduce_scatter_step(p, rank, i);
      else if (rank != root) s = send_step(root, {rank});
      else if (i - p != root) s = recv_step(i - p, {i - p});
    });
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_reduce_ring{
    kExactModel,
    "pairwise reduce-scatter + ring allgather / direct gather: ~2(p-1)a + 2bm + gm",
    model_reduce_ring, plan::reduce_ring};

}  // namespace collsim::sim
