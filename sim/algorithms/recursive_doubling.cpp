// recursive-doubling: seed 004 §2.4. In step d = 1, 2, .., p'/2 the partners
// v and v ^ d exchange their whole intermediate vectors and both compute the
// same ⊕ (the lower one's data on the left), so after lg p' steps every rank
// has the result: the fewest rounds, the whole vector in every one — the
// short-vector algorithm.
//
// Non-power-of-two p = p' + r: before the doubling, each odd rank 2i + 1
// (i < r) sends its input to 2i, which folds it in on the right; afterwards
// 2i sends the result back (allreduce). Reduce runs the same exchanges and
// drops the send-back; its result is kept by the root only (a paired root
// survives in place of its partner, as in halving-doubling).
//
// Cost (seed 004): allreduce ⌈lg p⌉(α + mβ + mγ) + (p not a power of two:
// α_uni + mβ_uni). Here the pre-step is a one-way message, which the paper
// counts among the ⌈lg p⌉ exchange steps; the model sums the actual steps
// (with SMPI's envelope; on half-duplex links every exchange costs α + 2mβ).
// Reduce is the same without the send-back.
// Limits: any p, any root; ⊕ need not be commutative; any count.
// Memory: two vectors of m.
#include "reduction_phases.hpp"

namespace collsim::sim {

using namespace phases;

namespace {

#ifdef COLLSIM_RANK
// Leaves the ⊕ of all inputs in acc on every survivor of f.
void fold_and_double(const Red& red, const Fold& f, char* acc, char* tmp) {
  const Span all{0, red.a.bytes};
  if (f.paired(red.rank)) {
    const int partner = red.rank ^ 1;
    if (!f.survives(red.rank)) return red.send(acc, all, partner);
    red.recv(tmp, all, partner);
    red.combine(acc, tmp, all, partner > red.rank);
  }
  const Group g = survivors(f);
  const int64_t v = f.virt(red.rank);
  for (int64_t d = 1; d < g.size; d <<= 1) {
    red.sendrecv(acc, all, tmp, all, g.real(v ^ d));
    red.combine(acc, tmp, all, (v & d) == 0);
  }
}
#endif  // COLLSIM_RANK

double doubling_model(const Net& net, int64_t p, int64_t bytes) {
  const Fold f(p, -1);
  const double m = static_cast<double>(bytes);
  double t = f.r > 0 ? oneway(net, m) + net.gamma * m : 0;
  for (int64_t d = 1; d < f.pow2; d <<= 1) t += exchange(net, m) + net.gamma * m;
  return t;
}

}  // namespace

#ifdef COLLSIM_RANK
void allreduce_recursive_doubling(const CollArgs& a) {
  int p = 0;
  MPI_Comm_size(a.comm, &p);
  const Fold f(p, -1);
  const Red red(a);
  if (a.count == 0) return;
  Scratch unused, tmp(a, Scratch::Kind::vector, a.bytes);
  char* acc = working_copy(red, a.buf, unused);
  fold_and_double(red, f, acc, tmp.data());
  unfold(red, f, acc);
}

void reduce_recursive_doubling(const CollArgs& a) {
  int p = 0;
  MPI_Comm_size(a.comm, &p);
  const Fold f(p, a.root);
  const Red red(a);
  if (a.count == 0) return;
  Scratch scratch, tmp(a, Scratch::Kind::vector, a.bytes);
  fold_and_double(red, f, working_copy(red, red.rank == a.root ? a.buf : nullptr, scratch), tmp.data());
}
#endif  // COLLSIM_RANK

double model_allreduce_recursive_doubling(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0 || p == 1) return 0;
  return doubling_model(net, p, bytes) + (Fold(p, -1).r > 0 ? oneway(net, static_cast<double>(bytes)) : 0);
}

double model_reduce_recursive_doubling(const Net& net, int64_t p, int64_t bytes, int64_t) {
  return bytes == 0 || p == 1 ? 0 : doubling_model(net, p, bytes);
}

}  // namespace collsim::sim
