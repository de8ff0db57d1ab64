// The phases Rabenseifner's reductions (seed 004 §2.3–2.7) are built from,
// shared by the MPI code of ring and the cost models of binary-tree,
// recursive-doubling, halving-doubling and binary-blocks (each in its own
// file, reduce and allreduce side by side; all but ring run as plans:
// algorithms/common/reduction_plans.cpp, whose halving phases are
// schedules/halving_ranges.hpp):
//
//   Red                 one rank's view: p, rank, element size, ⊕ in rank order
//   Fold                §2.5's pre-step renumbering for p = p' + r
//   ring_reduce_scatter / ring_allgather
//                       §2.7's pairwise-exchange reduce-scatter and ring
//   exchange / oneway / pair / SegmentBytes
//                       the cost-model pieces for half and full duplex
//
// Order: every combine keeps rank order, inout = (lower ranks) ⊕ (higher
// ranks), so the phases are correct for non-commutative ⊕ (validated with
// the harness's 2 × 2 matrix product).
//
// Vectors are cut into n "base segments" of whole elements with block_span on
// the element count (⌈count/n⌉ elements each, the last ones shorter or empty);
// a Range [lo, hi) of base segments is a contiguous byte range.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithm.hpp"

#ifdef COLLSIM_RANK
#include "collective.hpp"
#include "window.hpp"
#endif

namespace collsim::sim::phases {

// §2.5: p = p' + r with p' = 2^⌊lg p⌋. Pairs (2i, 2i + 1), i < r, fold into
// one survivor each, 2i, or 2i + 1 where that is the reduce root (the paper's
// role swap); the other ranks move down by r. Virtual ranks 0 .. p' − 1 keep
// rank order, so ⊕ in virtual-rank order is ⊕ in rank order.
struct Fold {
  int64_t p, pow2, r;
  int root;  // -1: no root (allreduce)
  Fold(int64_t p_, int root_);
  int64_t survivor(int64_t pair) const { return 2 * pair + (root == 2 * pair + 1 ? 1 : 0); }
  bool paired(int64_t rank) const { return rank < 2 * r; }
  bool survives(int64_t rank) const { return !paired(rank) || survivor(rank / 2) == rank; }
  int64_t virt(int64_t rank) const { return paired(rank) ? rank / 2 : rank - r; }
  int real(int64_t v) const { return static_cast<int>(v < r ? survivor(v) : v + r); }
};

// Model pieces: a message of b bytes alone on its links, and one of b bytes
// each way at once (or any step where a rank sends and receives b bytes):
// SimGrid's SHARED (half-duplex) links split the bandwidth between the two
// flows, so it costs α + 2(b + envelope)β there — seed 004's bi-directional
// step with fβ = βuni/β = 1/2; its fα is 1 on our platforms (latency is not
// shared).
double oneway(const Net& net, double b);
double exchange(const Net& net, double b);
// One step sending `out` bytes to a peer and receiving `in` from it: on
// full-duplex links the longer message; on half-duplex ones both share the
// link (exchange(b) is pair(b, b)).
double pair(const Net& net, double out, double in);
// The ring's chunk: m/p bytes.
inline double chunk(int64_t p, int64_t bytes) { return static_cast<double>(bytes) / static_cast<double>(p); }

// The bytes of base segments [lo, hi) in a plan's cut of `bytes` into
// `segments` blocks of whole elements (schedules/blocks.hpp): ⌈count/B⌉
// elements each, so the first blocks are the largest and, with fewer
// elements than blocks, only the first ones hold data.
struct SegmentBytes;

// recursive-doubling's steps but the send-back (reduction_phases.cpp); the
// reduce-scatter of halving-doubling, its step maxima along one rank's
// path, cut as the plan cuts (SegmentBytes).
double doubling_model(const Net& net, int64_t p, int64_t bytes);
double scatter_model(const Net& net, const Fold& f, const SegmentBytes& cut);

struct SegmentBytes {
  const Net& net;
  int64_t bytes, segments;
  double of(int64_t lo, int64_t hi) const;
};
int floor_log2(int64_t p);

#ifdef COLLSIM_RANK
// One rank's view of a reduction over a.comm.
struct Red {
  const CollArgs& a;
  int p = 0, rank = 0;
  int64_t esize = 1;  // bytes per element
  int64_t nseg = 1;   // base segments the vector is cut into
  explicit Red(const CollArgs& args, int64_t segments = 1);

  bool commutative() const;
  // Bytes [begin, end) of base segments [lo, hi).
  Span bytes(int64_t lo, int64_t hi) const;
  // acc = acc ⊕ x over bytes s, x holding higher ranks' data (x is clobbered).
  void append(char* acc, char* x, Span s) const;
  // acc = x ⊕ acc over bytes s, x holding lower ranks' data.
  void prepend(char* acc, const char* x, Span s) const;
  void send(const char* buf, Span s, int to) const;
  void recv(char* buf, Span s, int from) const;
  // Sends `out`'s bytes of `src` to `to` and receives `in`'s bytes of `dst`
  // from `from`.
  void sendrecv(const char* src, Span out, int to, char* dst, Span in, int from) const;
  void sendrecv(const char* src, Span out, char* dst, Span in, int partner) const {
    sendrecv(src, out, partner, dst, in, partner);
  }
};

// The input vector copied into a full-length working vector: buf where the
// rank has one (allreduce, the reduce root), else `scratch`.
char* working_copy(const Red& red, void* buf, Scratch& scratch);

// §2.7 pairwise exchange on nseg = p chunks: in step i rank r sends chunk
// r + i of `in` to r + i and receives chunk r of rank r − i's input. Rank r's
// chunk of `acc` (acc may be `in`) ends with the ⊕ of all inputs in rank
// order: contributions from r − 1 .. 0 are prepended to r's own, those from
// p − 1 .. r + 1 to a second accumulator, joined by one final ⊕. That is
// still p − 1 ⊕ per chunk, but the last one comes after the last step: a
// non-commutative ⊕ costs γm/p more than the model; a commutative one uses
// one accumulator.
void ring_reduce_scatter(const Red& red, const char* in, char* acc);
// Ring allgather (stride 1, p − 1 steps) of the chunks of acc.
void ring_allgather(const Red& red, char* acc);
#endif  // COLLSIM_RANK

}  // namespace collsim::sim::phases

namespace collsim::sim {

// reduce binary-tree's model (reduce/binary_tree.cpp): the first half of
// allreduce binary-tree's.
double model_reduce_binary_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks);

}  // namespace collsim::sim
