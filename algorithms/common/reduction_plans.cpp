// Reduction and scan plans: the messages of algorithms/binary_tree.cpp,
// recursive_doubling.cpp, scan_doubling.cpp, ring.cpp, halving_doubling.cpp
// and binary_blocks.cpp, rank by rank. The first three send the whole vector
// in every message: all B blocks (B = 1 unless asked); ring,
// halving-doubling and binary-blocks move base segments
// (reduction_phases.hpp), one plan block each: B = p (ring) or p' (the
// other two), block_span's cut on whole elements being the base segments'
// cut. A received block is folded in
// keeping rank order (Combine left: it holds lower ranks; right: higher
// ones), as the MPI code does.
//
// Left out, because a plan cannot say what their MPI code does:
//   ring for a non-commutative ⊕: see ring_reduce_scatter_step.
//   scan/exscan two-tree: a rank keeps several values per block (A = L ⊕ V,
//       S = A ⊕ R sent up, the parent's P passed on, P ⊕ A; one acc cannot
//       hold them) and takes its blocks from three peers as they arrive
//       (MPI_Waitany), in no fixed step order; see
//       algorithms/scan_two_tree.cpp.
// The circulant and two-tree reductions are in circulant_plans.cpp and
// two_tree_plans.cpp.
#include <algorithm>
#include <array>

#include "binomial_tree.hpp"
#include "halving_ranges.hpp"
#include "plan_families.hpp"
#include "scan_plans.hpp"

namespace collsim::plan {

namespace {

// recursive_doubling.cpp with reduction_phases.hpp's Fold (§2.5), restated
// here because schedules/ cannot use sim/: p = p' + r, p' = 2^⌊log2 p⌋;
// pair (2i, 2i + 1), i < r, folds into its survivor (2i, or 2i + 1 where
// that is the reduce root); survivors take virtual ranks 0 .. p' − 1.
struct Fold {
  int64_t p, pow2, r, root;  // root −1: allreduce
  Fold(int64_t p_, int64_t root_) : p(p_), pow2(1), r(0), root(root_) {
    while (pow2 * 2 <= p) pow2 *= 2;
    r = p - pow2;
  }
  int64_t survivor(int64_t pair) const { return 2 * pair + (root == 2 * pair + 1 ? 1 : 0); }
  bool paired(int64_t rank) const { return rank < 2 * r; }
  bool survives(int64_t rank) const { return !paired(rank) || survivor(rank / 2) == rank; }
  int64_t virt(int64_t rank) const { return paired(rank) ? rank / 2 : rank - r; }
  int64_t real(int64_t v) const { return v < r ? survivor(v) : v + r; }
};

// The partner's vector folds in on the right if it comes from higher ranks.
Combine fold_side(int64_t partner, int64_t rank) { return partner > rank ? Combine::right : Combine::left; }

// lg p' for p' = f.pow2.
int lg(const Fold& f) { return __builtin_ctzll(static_cast<uint64_t>(f.pow2)); }

// Pre-step (round 0), then lg p' exchanges (MPI_Sendrecv) with v ^ 2^(i−1)
// in rounds i = 1 .. lg p'; allreduce (unfold) ends with the survivor
// sending the result back to its partner (round lg p' + 1).
//   p = 6 (r = 2): 1 → 0, 3 → 2; exchanges among {0, 2, 4, 5} at
//   distance 1, 2; allreduce: 0 → 1, 2 → 3.
void recursive_doubling_round(const Fold& f, int64_t blocks, int64_t rank, int64_t i, Step& s) {
  const bool allreduce = f.root < 0, last = i == lg(f) + 1;
  const int64_t partner = rank ^ 1;
  if (f.paired(rank) && !f.survives(rank)) {
    if (i == 0) set_send(s, partner, all_blocks(blocks));
    if (last && allreduce) set_recv(s, partner, all_blocks(blocks));
  } else if (i == 0) {
    if (f.paired(rank)) set_recv(s, partner, all_blocks(blocks), fold_side(partner, rank));
  } else if (!last) {
    const int64_t peer = f.real(f.virt(rank) ^ (int64_t{1} << (i - 1)));
    set_send(s, peer, all_blocks(blocks));
    set_recv(s, peer, all_blocks(blocks), fold_side(peer, rank));
  } else if (allreduce && f.paired(rank)) {
    set_send(s, partner, all_blocks(blocks));
  }
}

}  // namespace

Plan recursive_doubling(Collective c, int64_t p, int64_t root, int64_t blocks) {
  const Fold f(p, c == Collective::allreduce ? -1 : root);
  return streamed(header(c, p, root, blocks), [=](int64_t rank) {
    return rounds(0, lg(f) + 2, [=](int64_t i, Step& s) { recursive_doubling_round(f, blocks, rank, i, s); });
  });
}

// ring.cpp's reduce-scatter (reduction_phases.cpp's ring_reduce_scatter),
// B = p, block k being chunk k: in step i = 1 .. p − 1 rank r sends block
// r + i to r + i and receives block r from r − i (one MPI_Sendrecv), which
// is prepended (left) to its own: arrival order r − 1, .., 0, p − 1, .., r + 1.
// That is the MPI code's path for a commutative ⊕ (one accumulator), so the
// plan is commutative. For a non-commutative ⊕ the MPI code keeps the
// contributions of p − 1 .. r + 1 in a second accumulator (the one from
// p − 1 stored, no ⊕) and joins the two with one ⊕ after the last step; a
// plan has one acc per block, and its one local step (fold) joins only the
// input, so it cannot say that.
// Rings are streamed (2(p − 1) steps per rank): step i = 1 .. p − 1.
Step ring_reduce_scatter_step(int64_t p, int64_t r, int64_t i) {
  const int64_t to = (r + i) % p, from = (r - i + p) % p;
  return with_recv(send_step(to, {to}), from, {r}, Combine::left);
}

// ring_allgather: step i = 0 .. p − 2 passes block r − i to r + 1 and takes
// block r − i − 1 from r − 1.
Step ring_allgather_step(int64_t p, int64_t r, int64_t i) {
  return with_recv(send_step((r + 1) % p, {(r - i + p) % p}), (r - 1 + p) % p, {(r - i - 1 + p) % p});
}

Header commutative_header(Collective c, int64_t p, int64_t root, int64_t blocks) {
  Header h = header(c, p, root, blocks);
  h.commutative = true;
  return h;
}

namespace {

BlockList segment_run(SegmentRange r) { return block_run(r.lo, r.size()); }

// Halving step j of member v of a power-of-two group (its members are
// ranks real(u)) over nseg base segments (halved_range): keep one half of
// the range, exchange the other with v ^ 2^j, fold the partner's half in
// on its side (the lower member's data is on the left).
template <class Real>
void halving_step(int64_t v, int64_t j, int64_t nseg, const Real& real, Step& s) {
  const int64_t d = int64_t{1} << j, peer = real(v ^ d);
  const SegmentRange mine = halved_range(v, j, nseg);
  const bool lower = (v & d) == 0;
  const SegmentRange low{mine.lo, mine.mid()}, high{mine.mid(), mine.hi};
  set_send(s, peer, segment_run(lower ? high : low));
  set_recv(s, peer, segment_run(lower ? low : high), lower ? Combine::right : Combine::left);
}

// Doubling step j of member v of a group of `size` members after its
// halving: v holds the aligned range of (nseg/size)·2^j segments around
// the one the halving left it, and its partner v ^ d, d = size/2^(j+1),
// the sibling range. root_v < 0: the two exchange (doubling allgather);
// else binomial gather towards root_v: the member whose bit d differs from
// the root's sends its range and stops, the other receives.
//   size = nseg = 4, v = 1 (segment 2): j = 0: [2, 3) ↔ [3, 4) with v ^ 2;
//   j = 1: [2, 4) ↔ [0, 2) with v ^ 1.
template <class Real>
void doubling_step(int64_t v, int64_t j, int64_t size, int64_t nseg, int64_t root_v, const Real& real, Step& s) {
  const int64_t d = size >> (j + 1), width = (nseg / size) << j, peer = real(v ^ d);
  const int64_t lo = halved_range(v, __builtin_ctzll(static_cast<uint64_t>(size)), nseg).lo & ~(width - 1);
  const SegmentRange mine{lo, lo + width}, other{lo ^ width, (lo ^ width) + width};
  if (root_v < 0) {
    set_send(s, peer, segment_run(mine));
    set_recv(s, peer, segment_run(other));
    return;
  }
  const int64_t differs = v ^ root_v;
  if (differs >= 2 * d) return;  // it sent its range at a larger d and stopped
  if (differs & d)
    set_send(s, peer, segment_run(mine));
  else
    set_recv(s, peer, segment_run(other));
}

// halving_doubling.cpp for one rank (B = p'), by rounds:
//   0, 1       fold_halves on a paired rank: the even one keeps the first
//              half [0, p'/2) and folds the odd one's in on the right, the
//              odd one the second half, on the left (one MPI_Sendrecv);
//              then the removed rank sends its half to the survivor;
//   2 + j      halving_step over the survivors (virtual rank v), j < lg p';
//   2 + lg p' + j   the way back: doubling_step, allgather (allreduce) or
//              binomial gather towards the root;
//   3 + 2 lg p'     allreduce: the survivor sends the result to its partner.
// Each round's range is worked out afresh from v: O(log p') a round.
class HalvingDoubling {
 public:
  HalvingDoubling(const Fold& f, int64_t rank) : f_(f), rank_(rank), v_(f.virt(rank)), lg_(lg(f)) {}
  int64_t rounds() const { return 3 + 2 * lg_; }

  void operator()(int64_t i, Step& s) const {
    const bool survives = f_.survives(rank_);
    const auto real = [this](int64_t u) { return f_.real(u); };
    if (i < 2) {
      if (f_.paired(rank_)) fold_halves(i, s);
    } else if (i < 2 + lg_) {
      if (survives) halving_step(v_, i - 2, f_.pow2, real, s);
    } else if (i < 2 + 2 * lg_) {
      if (survives) doubling_step(v_, i - 2 - lg_, f_.pow2, f_.pow2, f_.root < 0 ? -1 : f_.virt(f_.root), real, s);
    } else if (f_.root < 0 && f_.paired(rank_)) {
      const int64_t partner = rank_ ^ 1;
      if (survives) set_send(s, partner, all_blocks(f_.pow2));
      else set_recv(s, partner, all_blocks(f_.pow2));
    }
  }

 private:
  void fold_halves(int64_t i, Step& s) const {
    const bool even = rank_ % 2 == 0;
    const int64_t partner = rank_ ^ 1, half = f_.pow2 / 2;
    const SegmentRange first{0, half}, second{half, f_.pow2};
    const SegmentRange keep = even ? first : second, give = even ? second : first;
    if (i == 0) {
      set_send(s, partner, segment_run(give));
      set_recv(s, partner, segment_run(keep), fold_side(partner, rank_));
    } else if (f_.survives(rank_)) {
      set_recv(s, partner, segment_run(give));
    } else {
      set_send(s, partner, segment_run(keep));
    }
  }

  Fold f_;
  int64_t rank_, v_;
  int lg_;
};

}  // namespace

Plan halving_doubling(Collective c, int64_t p, int64_t root, int64_t blocks) {
  const Fold f(p, c == Collective::allreduce ? -1 : root);
  return streamed(header(c, p, root, blocks), [=](int64_t rank) {
    const HalvingDoubling hd(f, rank);
    return rounds(0, hd.rounds(), hd);
  });
}

namespace {

// binary-blocks (algorithms/binary_blocks.cpp) for one rank, B = 2^e0
// base segments (e0 the largest block's exponent), any ⊕. A rank in block
// b of size s (binary_blocks(p)) at virtual rank v, where block b − 1 (the
// next larger, size L) and block b + 1 (the next smaller, size S) exist:
//   lg s steps    halving_step in its block;
//   1             receive block b + 1's partial result over v's range from
//                 member v mod S there, folded in on the right (higher ranks);
//   L/s           send to the members v + i·s (i = 0 .. L/s − 1) of block
//                 b − 1, one at a time, the piece of v's range each holds;
// and then, allreduce:
//   L/s           receive those pieces back as results, in the same order;
//   1             send v's range to member v mod S of block b + 1;
//   lg s          doubling_step (allgather) in its block;
// reduce: block 0 gathers to the root (doubling_step), a root outside it
// taking rank 0's place after rank 0 sends it its segment.
//   p = 6 = 4 + 2, 4 segments: halving in {0, 1, 2, 3} and in {4, 5};
//   then 4 ([0, 2)) → 0 ([0, 1)), then → 2 ([1, 2)); 5 ([2, 4)) → 1
//   ([2, 3)), then → 3 ([3, 4)).
// Deviation (see binary_blocks.cpp): the paper hands a range to the L/s
// members at once; a plan step has one peer, so they go one after another,
// as a one-ported rank would send them.
class BinaryBlocks {
 public:
  BinaryBlocks(const std::vector<RankBlock>& bs, int64_t root, int64_t rank) : root_(root), rank_(rank) {
    size_t b = 0;
    while (rank >= bs[b].first + bs[b].size) ++b;
    mine_ = bs[b];
    larger_ = b > 0 ? bs[b - 1] : RankBlock{0, 0};
    smaller_ = b + 1 < bs.size() ? bs[b + 1] : RankBlock{0, 0};
    largest_ = bs[0].size;
    lg0_ = bs[0].lg();
    v_ = rank - mine_.first;
  }
  int64_t rounds() const { return up() + tail(); }

  void operator()(int64_t i, Step& s) const {
    const int64_t lg = mine_.lg(), from_smaller = smaller_.size > 0 ? 1 : 0, to_larger = pieces();
    const auto in_block = [this](int64_t u) { return mine_.first + u; };
    if (i < lg) return halving_step(v_, i, largest_, in_block, s);
    if ((i -= lg) < from_smaller) return set_recv(s, partner_below(), own(), Combine::right);
    if ((i -= from_smaller) < to_larger) return set_send(s, piece_owner(i), piece(i));
    i -= to_larger;
    if (root_ >= 0) return gather(i, s);
    if (i < to_larger) return set_recv(s, piece_owner(i), piece(i));
    if ((i -= to_larger) < from_smaller) return set_send(s, partner_below(), own());
    doubling_step(v_, i - from_smaller, mine_.size, largest_, -1, in_block, s);
  }

 private:
  // Steps of the reduce-scatter and the hand-over up the chain.
  int64_t up() const { return mine_.lg() + (smaller_.size > 0 ? 1 : 0) + pieces(); }
  int64_t tail() const {
    if (root_ < 0) return up();
    if (rank_ == root_ && root_ >= largest_) return 1 + lg0_;
    return larger_.size == 0 ? (root_ >= largest_ && rank_ == 0 ? 1 : lg0_) : 0;
  }
  int64_t pieces() const { return larger_.size / mine_.size; }
  int64_t piece_owner(int64_t i) const { return larger_.first + v_ + i * mine_.size; }
  BlockList piece(int64_t i) const { return segment_run(halved_range(v_ + i * mine_.size, larger_.lg(), largest_)); }
  int64_t partner_below() const { return smaller_.first + v_ % smaller_.size; }
  BlockList own() const { return segment_run(halved_range(v_, mine_.lg(), largest_)); }

  // Reduce's gather in block 0 (ranks 0 .. largest_ − 1); a root outside
  // it first takes rank 0's segment and then plays rank 0.
  void gather(int64_t i, Step& s) const {
    const bool outside = root_ >= largest_;
    const BlockList segment0 = segment_run(halved_range(0, lg0_, largest_));
    if (outside && rank_ == 0) return set_send(s, root_, segment0);
    int64_t v = v_;
    if (outside && rank_ == root_) {
      if (i-- == 0) return set_recv(s, 0, segment0);
      v = 0;
    }
    const auto in_block0 = [this, outside](int64_t u) { return outside && u == 0 ? root_ : u; };
    doubling_step(v, i, largest_, largest_, outside ? 0 : root_, in_block0, s);
  }

  int64_t root_, rank_;  // root −1: allreduce
  RankBlock mine_{}, larger_{}, smaller_{};
  int64_t largest_ = 1, lg0_ = 0, v_ = 0;
};

}  // namespace

Plan binary_blocks_plan(Collective c, int64_t p, int64_t root, int64_t blocks) {
  const std::vector<RankBlock> bs = binary_blocks(p);
  const int64_t reduce_root = c == Collective::allreduce ? -1 : root;
  return streamed(header(c, p, root, blocks), [bs, reduce_root](int64_t rank) {
    const BinaryBlocks bb(bs, reduce_root, rank);
    return rounds(0, bb.rounds(), bb);
  });
}

namespace {

Value value_of(ScanValue v) {
  switch (v) {
    case ScanValue::V: return Value::input;
    case ScanValue::W: return Value::acc;
    case ScanValue::W_op_V: return Value::acc_op_input;
  }
  return Value::acc;
}

Combine combine_of(ScanCombine c) {
  switch (c) {
    case ScanCombine::left: return Combine::left;
    case ScanCombine::right: return Combine::right;
    default: return Combine::store;
  }
}

// The doubling scans of scan_doubling.cpp: one MPI_Sendrecv per round of
// the scan_plans.hpp plan, W being acc and V the input. Idle rounds are no
// step. O(log p) per rank, streamed. For exscan acc starts empty; for scan
// it starts as the input, which is hillis-steele's W, and which an
// exclusive plan run under scan (inclusive_doubling_scan) overwrites with
// its first receive: every exclusive plan begins with the shift round,
// r − 1 → r, store.
void scan_step(const ScanAlgorithm& a, int64_t p, int64_t blocks, int64_t rank, int k, Step& step) {
  const ScanRound rd = scan_round(a, p, rank, k);
  if (rd.send_to >= 0) set_send(step, rd.send_to, all_blocks(blocks), value_of(rd.send));
  if (rd.recv_from >= 0) set_recv(step, rd.recv_from, all_blocks(blocks), combine_of(rd.combine));
}

}  // namespace

Plan doubling_scan(Collective c, const char* name, int64_t p, int64_t blocks) {
  const ScanAlgorithm& a = *find_scan_algorithm(name);
  return streamed(header(c, p, 0, blocks), [=, &a](int64_t rank) {
    return rounds(0, scan_rounds(a, p),
                  [=, &a](int64_t k, Step& step) { scan_step(a, p, blocks, rank, static_cast<int>(k), step); });
  });
}

// An exclusive plan, then W = W ⊕ V (fold) on ranks r > 0: [0, r − 1]
// becomes [0, r], as scan_doubling.cpp ends MPI_Scan. Rank 0 neither
// receives nor sends W in an exclusive plan, so its acc is still its input
// [0, 0], its result (the MPI code copies V there): no fold.
//   two-op-doubling, p = 4:  round 0: r → r + 1 V, stored: W_r = [r − 1];
//   round 1: 0 → 2 V, 1 → 3 W ⊕ V = [0, 1], left: W_2 = [0, 1],
//   W_3 = [0, 2]; then folds: W_1 = [0, 1], W_2 = [0, 2], W_3 = [0, 3].
Plan inclusive_doubling_scan(const char* name, int64_t p, int64_t blocks) {
  const ScanAlgorithm& a = *find_scan_algorithm(name);
  const int exclusive_rounds = scan_rounds(a, p);
  return streamed(header(Collective::scan, p, 0, blocks), [=, &a](int64_t rank) {
    return rounds(0, exclusive_rounds + 1, [=, &a](int64_t k, Step& step) {
      if (k < exclusive_rounds) scan_step(a, p, blocks, rank, static_cast<int>(k), step);
      else if (rank > 0) step.fold_blocks = all_blocks(blocks);
    });
  });
}

}  // namespace collsim::plan
