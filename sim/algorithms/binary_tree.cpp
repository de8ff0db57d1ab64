// binary-tree: seed 004 §2.3, the classical reduction tree with recursive
// distance doubling: in step d = 1, 2, 4, .. a rank with bit d set sends its
// whole intermediate vector to v − d and stops; v + d's vector is folded in on
// the right. Allreduce follows with the binomial broadcast (bcast_binomial.cpp)
// of the result from rank 0.
//
// Cost (seed 004): reduce ⌈lg p⌉(α_uni + mβ_uni + mγ), allreduce
// ⌈lg p⌉(2α_uni + 2mβ_uni + mγ); one-way messages only, so duplex does not
// matter. The models add SMPI's envelope. Short vectors: fewest messages
// on the critical path but the whole vector in each and lg p ⊕ of m.
// Limits: any p, any root. Order: the tree on ranks 0 .. p − 1 combines
// adjacent rank ranges, lower on the left, so it is right for non-commutative
// ⊕ when rooted at rank 0. For another root a commutative ⊕ runs the tree on
// ranks rotated to the root; a non-commutative one reduces to rank 0, which
// sends the result to the root (one more α + mβ; not in the model, which is
// the commutative or root-0 case). Any count. Memory: two vectors of m.
#include "binomial_tree.hpp"
#include "circulant.hpp"
#include "reduction_phases.hpp"

namespace collsim::sim {

#ifdef COLLSIM_RANK
void bcast_binomial(const CollArgs&);
#endif  // COLLSIM_RANK

using namespace phases;

#ifdef COLLSIM_RANK
namespace {

// Reduces every input into acc at (real) rank `top`, rotating ranks by `top`;
// top is 0 unless ⊕ commutes.
void tree_reduce(const Red& red, int top, char* acc) {
  const int64_t p = red.p, v = virtual_rank(red.rank, top, p);
  const Span all{0, red.a.bytes};
  Scratch tmp(red.a, Scratch::Kind::vector, red.a.bytes);
  for (int64_t d = 1; d < binomial_child_span(v, p); d <<= 1) {  // smallest subtree first
    if (v + d < p) {
      red.recv(tmp.data(), all, static_cast<int>(real_rank(v + d, top, p)));
      red.append(acc, tmp.data(), all);
    }
  }
  if (v != 0) red.send(acc, all, static_cast<int>(real_rank(binomial_parent(v), top, p)));
}

}  // namespace

void reduce_binary_tree(const CollArgs& a) {
  const Red red(a);
  if (a.count == 0) return;
  const int top = red.commutative() ? a.root : 0;
  Scratch scratch;
  char* acc = working_copy(red, red.rank == a.root ? a.buf : nullptr, scratch);
  tree_reduce(red, top, acc);
  if (top == a.root) return;
  const Span all{0, a.bytes};
  if (red.rank == top) red.send(acc, all, a.root);
  if (red.rank == a.root) red.recv(acc, all, top);
}

void allreduce_binary_tree(const CollArgs& a) {
  const Red red(a);
  if (a.count == 0) return;
  Scratch unused;
  tree_reduce(red, 0, working_copy(red, a.buf, unused));
  CollArgs bcast{a.buf, a.bytes, 0, a.comm, 1};
  bcast.scale = a.scale;
  bcast_binomial(bcast);
}
#endif  // COLLSIM_RANK

double model_reduce_binary_tree(const Net& net, int64_t p, int64_t bytes, int64_t) {
  const double m = static_cast<double>(bytes);
  return bytes == 0 ? 0 : ceil_log2(p) * (oneway(net, m) + net.gamma * m);
}

double model_allreduce_binary_tree(const Net& net, int64_t p, int64_t bytes, int64_t) {
  return bytes == 0 ? 0 : model_reduce_binary_tree(net, p, bytes, 1) + ceil_log2(p) * oneway(net, static_cast<double>(bytes));
}

}  // namespace collsim::sim
