// halving-doubling: Rabenseifner's recursive halving and doubling (seed 004
// §2.5, Fig. 1) for reduce and allreduce. A reduce-scatter by recursive
// vector halving with distance doubling, then recursive vector doubling with
// distance halving (allreduce) or a binomial gather to the root (reduce).
//
// Non-power-of-two p = p' + r: the first 2r ranks pair up; the even one
// sends the second half of its input to the odd one, the odd one the first
// half to the even one, both reduce their half, and the odd one sends its
// half back; the r survivors and the last p − 2r ranks continue as p' ranks.
// Where the reduce root is an odd paired rank the two swap roles (seed 004:
// "no additional overhead"). Allreduce ends by sending the result to the r
// removed ranks.
//
// Cost (seed 004, full duplex, p a power of two):
//   allreduce  2 lg p α + 2mβ + mγ − (2mβ + mγ)/p
//   reduce     2 lg p α + 2mβ + mγ − (2mβ + mγ)/p   (fα = fβ = 1)
// non-power-of-two adds the pre-step (1 + fα)α + (1 + fβ)/2·mβ + mγ/2 and, for
// allreduce, α + mβ. The models below sum exactly these steps with SMPI's
// 16-byte envelope; on half-duplex links every exchange step costs
// α + 2bβ (see reduction_phases.hpp).
// Limits: any p, any root; ⊕ need not be commutative (every combine is
// (lower ranks) ⊕ (higher ranks), see reduction_phases.hpp); any count,
// including count < p (empty segments) and 0. Memory: two vectors of m.
#include "reduction_phases.hpp"

namespace collsim::sim {

using namespace phases;

namespace {

#ifdef COLLSIM_RANK
// Runs the pre-step on a paired rank: afterwards the survivor's acc holds the
// pair's ⊕ over the whole vector. Halves are base segments [0, p'/2), [p'/2, p').
void fold_halves(const Red& red, const Fold& f, char* acc, char* tmp) {
  const bool even = red.rank % 2 == 0;
  const int partner = red.rank ^ 1;
  const Span first = red.bytes(0, f.pow2 / 2), second = red.bytes(f.pow2 / 2, f.pow2);
  const Span keep = even ? first : second;
  red.sendrecv(acc, even ? second : first, tmp, keep, partner);
  red.combine(acc, tmp, keep, even);
  if (f.survives(red.rank))
    red.recv(acc, even ? second : first, partner);
  else
    red.send(acc, keep, partner);
}

// The reduce-scatter on the p' survivors; returns the range this rank holds.
Range scatter(const Red& red, const Fold& f, char* acc, char* tmp) {
  if (f.paired(red.rank)) fold_halves(red, f, acc, tmp);
  if (!f.survives(red.rank)) return {0, 0};
  return halving_reduce_scatter(red, survivors(f), f.virt(red.rank), acc, tmp);
}
#endif  // COLLSIM_RANK

double scatter_model(const Net& net, int64_t p, int64_t bytes) {
  const Fold f(p, -1);
  const double m = static_cast<double>(bytes);
  double t = f.r > 0 ? exchange(net, m / 2) + net.gamma * m / 2 + oneway(net, m / 2) : 0;
  for (double b = m / 2; b * static_cast<double>(f.pow2) >= m; b /= 2) t += exchange(net, b) + net.gamma * b;
  return t;
}

}  // namespace

#ifdef COLLSIM_RANK
void allreduce_halving_doubling(const CollArgs& a) {
  int p = 0;
  MPI_Comm_size(a.comm, &p);
  const Fold f(p, -1);
  const Red red(a, f.pow2);
  if (a.count == 0) return;
  Scratch unused, tmp(a, Scratch::Kind::vector, a.bytes);
  char* acc = working_copy(red, a.buf, unused);
  const Range mine = scatter(red, f, acc, tmp.data());
  if (f.survives(red.rank)) doubling_allgather(red, survivors(f), f.virt(red.rank), mine, acc);
  unfold(red, f, acc);
}

void reduce_halving_doubling(const CollArgs& a) {
  int p = 0;
  MPI_Comm_size(a.comm, &p);
  const Fold f(p, a.root);
  const Red red(a, f.pow2);
  if (a.count == 0) return;
  Scratch scratch, tmp(a, Scratch::Kind::vector, a.bytes);
  char* acc = working_copy(red, red.rank == a.root ? a.buf : nullptr, scratch);
  const Range mine = scatter(red, f, acc, tmp.data());
  if (f.survives(red.rank))
    binomial_gather(red, survivors(f), f.virt(red.rank), f.virt(a.root), mine, acc);
}
#endif  // COLLSIM_RANK

double model_allreduce_halving_doubling(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0 || p == 1) return 0;
  const Fold f(p, -1);
  const double m = static_cast<double>(bytes);
  double t = scatter_model(net, p, bytes) + (f.r > 0 ? oneway(net, m) : 0);
  for (double b = m / static_cast<double>(f.pow2); b < m; b *= 2) t += exchange(net, b);
  return t;
}

double model_reduce_halving_doubling(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0 || p == 1) return 0;
  const double m = static_cast<double>(bytes);
  double t = scatter_model(net, p, bytes);
  for (double b = m / static_cast<double>(Fold(p, -1).pow2); b < m; b *= 2) t += oneway(net, b);
  return t;
}

}  // namespace collsim::sim
