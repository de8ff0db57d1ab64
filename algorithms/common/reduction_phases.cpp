#include "reduction_phases.hpp"

#include <algorithm>

#include "blocks.hpp"

namespace collsim::sim::phases {

#ifdef COLLSIM_RANK
Red::Red(const CollArgs& args, int64_t segments) : a(args), nseg(segments) {
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &rank);
  int size = 1;
  MPI_Type_size(a.type, &size);
  esize = size;
}

bool Red::commutative() const {
  int c = 0;
  MPI_Op_commutative(a.op, &c);
  return c != 0;
}

Span Red::bytes(int64_t lo, int64_t hi) const {
  const Span first = block_span(a.count, nseg, lo), last = block_span(a.count, nseg, hi - 1);
  return {first.begin * esize, last.end * esize};
}

void Red::append(char* acc, char* x, Span s) const {
  MPI_Reduce_local(acc + s.begin, x + s.begin, static_cast<int>(s.count() / esize), a.type, a.op);
  copy_real(acc + s.begin, x + s.begin, s.count());
}

void Red::prepend(char* acc, const char* x, Span s) const {
  MPI_Reduce_local(const_cast<char*>(x) + s.begin, acc + s.begin, static_cast<int>(s.count() / esize), a.type, a.op);
}

void Red::send(const char* buf, Span s, int to) const {
  MPI_Send(buf + s.begin, s.count(), MPI_BYTE, to, 0, a.comm);
}

void Red::recv(char* buf, Span s, int from) const {
  MPI_Recv(buf + s.begin, s.count(), MPI_BYTE, from, 0, a.comm, MPI_STATUS_IGNORE);
}

void Red::sendrecv(const char* src, Span out, int to, char* dst, Span in, int from) const {
  MPI_Sendrecv(src + out.begin, out.count(), MPI_BYTE, to, 0, dst + in.begin, in.count(), MPI_BYTE, from, 0, a.comm,
               MPI_STATUS_IGNORE);
}

char* working_copy(const Red& red, void* buf, Scratch& scratch) {
  char* acc = static_cast<char*>(buf);
  if (acc == nullptr) {
    scratch = Scratch(red.a, Scratch::Kind::vector, red.a.bytes);
    acc = scratch.data();
  }
  copy_real(acc, red.a.sendbuf, red.a.bytes);
  return acc;
}
#endif  // COLLSIM_RANK

Fold::Fold(int64_t p_, int root_) : p(p_), pow2(int64_t{1} << floor_log2(p_)), r(p_ - pow2), root(root_) {}

#ifdef COLLSIM_RANK
void ring_reduce_scatter(const Red& red, const char* in, char* acc) {
  const int64_t p = red.p, r = red.rank;
  const Span own = red.bytes(r, r + 1);
  // Scratch vectors of full length, used only at own's offsets.
  // A commutative ⊕ needs no second accumulator (and no extra ⊕ at the end).
  const bool split = !red.commutative() && r < p - 1;
  Scratch tmp(red.a, Scratch::Kind::vector, red.a.bytes), high(red.a, Scratch::Kind::vector, split ? red.a.bytes : 0);
  for (int64_t i = 1; i < p; ++i) {
    const int64_t to = (r + i) % p, from = (r - i + p) % p;
    // from = p − 1 (i = r + 1) starts the accumulator of ranks above r.
    char* into = split && from == p - 1 ? high.data() : tmp.data();
    red.sendrecv(in, red.bytes(to, to + 1), static_cast<int>(to), into, own, static_cast<int>(from));
    if (from < r || !split)
      red.prepend(acc, tmp.data(), own);
    else if (from < p - 1)
      red.prepend(high.data(), tmp.data(), own);
  }
  if (split) red.append(acc, high.data(), own);
}

void ring_allgather(const Red& red, char* acc) {
  const int64_t p = red.p, r = red.rank;
  for (int64_t i = 0; i < p - 1; ++i) {
    const int64_t out = (r - i + p) % p, in = (r - i - 1 + p) % p;
    red.sendrecv(acc, red.bytes(out, out + 1), static_cast<int>((r + 1) % p), acc, red.bytes(in, in + 1),
                 static_cast<int>((r - 1 + p) % p));
  }
}
#endif  // COLLSIM_RANK

double oneway(const Net& net, double b) { return net.per_message() + (b + static_cast<double>(net.envelope)) * net.beta; }

double exchange(const Net& net, double b) { return pair(net, b, b); }

double pair(const Net& net, double out, double in) {
  const double env = static_cast<double>(net.envelope);
  return net.per_message() + (net.full_duplex ? std::max(out, in) + env : out + in + 2 * env) * net.beta;
}

double SegmentBytes::of(int64_t lo, int64_t hi) const {
  return static_cast<double>(block_span(bytes, net.element, segments, hi - 1).end -
                             block_span(bytes, net.element, segments, lo).begin);
}

int floor_log2(int64_t p) {
  int e = 0;
  while ((int64_t{2} << e) <= p) ++e;
  return e;
}

// The models' shared pieces (reduce/ and allreduce/ recursive_doubling.cpp,
// halving_doubling.cpp).

double doubling_model(const Net& net, int64_t p, int64_t bytes) {
  const Fold f(p, -1);
  const double m = static_cast<double>(bytes);
  double t = f.r > 0 ? oneway(net, m) + net.gamma * m : 0;
  for (int64_t d = 1; d < f.pow2; d <<= 1) t += exchange(net, m) + net.gamma * m;
  return t;
}

// The models follow the plan's cut (SegmentBytes): with fewer elements than
// p' the lowest ranges carry all of m through the first halving steps (at
// p = 2^20, 1 MiB of doubles: 1 MiB in each of the first three). Where the
// cut is even they are seed 004's.
//
// The reduce-scatter: the pre-step (the lower half out of the odd rank,
// the upper half back), then the halving steps. In step j every range's
// lower half is the largest message and virtual rank 0 receives it each
// time, so the step maxima add up along one rank's path.
double scatter_model(const Net& net, const Fold& f, const SegmentBytes& cut) {
  double t = 0;
  if (f.r > 0) {
    const double lower = cut.of(0, f.pow2 / 2), upper = static_cast<double>(cut.bytes) - lower;
    t += exchange(net, lower) + net.gamma * lower + oneway(net, upper);
  }
  for (int64_t half = f.pow2 / 2; half >= 1; half /= 2) {
    const double lower = cut.of(0, half);
    t += exchange(net, lower) + net.gamma * lower;
  }
  return t;
}

}  // namespace collsim::sim::phases
