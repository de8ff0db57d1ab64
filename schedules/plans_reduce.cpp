// Reduction and scan plans: the messages of sim/algorithms/binary_tree.cpp,
// recursive_doubling.cpp, scan_doubling.cpp, ring.cpp and
// halving_doubling.cpp, rank by rank. The first three send the whole vector
// in every message: all B blocks (B = 1 unless asked); ring and
// halving-doubling move base segments (reduction_phases.hpp), one plan block
// each: B = p (ring) or p' (halving-doubling), block_span's cut on whole
// elements being the base segments' cut. A received block is folded in
// keeping rank order (Combine left: it holds lower ranks; right: higher
// ones), as the MPI code does.
//
// Left out, because a plan cannot say what their MPI code does:
//   ring for a non-commutative ⊕: see ring_reduce_scatter_step.
//   reduce/allreduce binary-blocks: see sim/algorithms/binary_blocks.cpp.
//   scan/exscan two-tree: a rank keeps several values per block (A = L ⊕ V,
//       S = A ⊕ R sent up, the parent's P passed on, P ⊕ A; one acc cannot
//       hold them) and takes its blocks from three peers as they arrive
//       (MPI_Waitany), in no fixed step order; see
//       sim/algorithms/scan_two_tree.cpp.
// The circulant and two-tree reductions are in plans_circulant.cpp and
// plans_two_tree.cpp.
#include <algorithm>

#include "binomial_tree.hpp"
#include "plan_families.hpp"
#include "scan_plans.hpp"

namespace collsim::plan {

namespace {

Header header(Collective c, int64_t p, int64_t root, int64_t blocks) { return {c, p, root, blocks, false}; }

// binary_tree.cpp's tree_reduce on ranks 0 .. p − 1 (top 0): in step
// d = 1, 2, 4, .. receive v + d's partial result and fold it in on the
// right, smallest subtree first; then send to the parent v − lowbit(v).
//   p = 4:   1 → 0,  3 → 2,  2 → 0      ⌈log2 p⌉ rounds
std::vector<Step> tree_reduce_steps(int64_t p, int64_t blocks, int64_t v) {
  std::vector<Step> steps;
  for (int64_t d = 1; d < binomial_child_span(v, p); d <<= 1)
    if (v + d < p) steps.push_back(recv_step(v + d, all_blocks(blocks), Combine::right));
  if (v != 0) steps.push_back(send_step(binomial_parent(v), all_blocks(blocks)));
  return steps;
}

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

// Pre-step, then lg p' exchanges (MPI_Sendrecv) with v ^ d; allreduce
// (unfold) ends with the survivor sending the result back to its partner.
//   p = 6 (r = 2): 1 → 0, 3 → 2; exchanges among {0, 2, 4, 5} at
//   distance 1, 2; allreduce: 0 → 1, 2 → 3.
std::vector<Step> recursive_doubling_steps(const Fold& f, int64_t blocks, int64_t rank) {
  std::vector<Step> steps;
  const bool allreduce = f.root < 0;
  const int64_t partner = rank ^ 1;
  if (f.paired(rank) && !f.survives(rank)) {
    steps.push_back(send_step(partner, all_blocks(blocks)));
    if (allreduce) steps.push_back(recv_step(partner, all_blocks(blocks)));
    return steps;
  }
  if (f.paired(rank)) steps.push_back(recv_step(partner, all_blocks(blocks), fold_side(partner, rank)));
  const int64_t v = f.virt(rank);
  for (int64_t d = 1; d < f.pow2; d <<= 1) {
    const int64_t peer = f.real(v ^ d);
    steps.push_back(with_recv(send_step(peer, all_blocks(blocks)), peer, all_blocks(blocks), fold_side(peer, rank)));
  }
  if (allreduce && f.paired(rank)) steps.push_back(send_step(partner, all_blocks(blocks)));
  return steps;
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

// Base segments [lo, hi) of halving-doubling (reduction_phases.hpp's Range).
struct Range {
  int64_t lo, hi;
  BlockList blocks() const { return block_run(lo, hi - lo); }
};

// halving_doubling.cpp's fold_halves on a paired rank (B = p'): the even one
// keeps the first half [0, p'/2) and folds the odd one's in on the right,
// the odd one the second half, on the left (one MPI_Sendrecv); then the
// removed rank sends its half to the survivor.
void fold_halves_steps(const Fold& f, int64_t rank, std::vector<Step>& steps) {
  const bool even = rank % 2 == 0;
  const int64_t partner = rank ^ 1, half = f.pow2 / 2;
  const Range keep = even ? Range{0, half} : Range{half, f.pow2}, give = even ? Range{half, f.pow2} : Range{0, half};
  steps.push_back(with_recv(send_step(partner, give.blocks()), partner, keep.blocks(), fold_side(partner, rank)));
  steps.push_back(f.survives(rank) ? recv_step(partner, give.blocks()) : send_step(partner, keep.blocks()));
}

// halving_reduce_scatter over the survivors (virtual rank v): in step
// d = 1, 2, .., p'/2 keep the lower half of the range where bit d of v is
// clear, exchange the other half with v ^ d and fold it in.
Range halving_steps(const Fold& f, int64_t v, std::vector<Step>& steps) {
  Range mine{0, f.pow2};
  for (int64_t d = 1; d < f.pow2; d <<= 1) {
    const int64_t mid = (mine.lo + mine.hi) / 2, peer = f.real(v ^ d);
    const bool lower = (v & d) == 0;
    const Range keep = lower ? Range{mine.lo, mid} : Range{mid, mine.hi};
    const Range give = lower ? Range{mid, mine.hi} : Range{mine.lo, mid};
    steps.push_back(with_recv(send_step(peer, give.blocks()), peer, keep.blocks(), lower ? Combine::right : Combine::left));
    mine = keep;
  }
  return mine;
}

// The sibling range of `mine` (aligned at twice its size) and their union.
Range sibling(Range mine) {
  const int64_t s = mine.hi - mine.lo, other = mine.lo ^ s;
  return {other, other + s};
}
Range joined(Range a, Range b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }

// doubling_allgather (root_v < 0): in step d = p'/2, .., 1 exchange ranges
// with v ^ d; binomial_gather towards root_v: the member whose bit d differs
// from root_v's sends its range and stops, the other receives.
void doubling_steps(const Fold& f, int64_t v, int64_t root_v, Range mine, std::vector<Step>& steps) {
  for (int64_t d = f.pow2 / 2; d >= 1; d >>= 1) {
    const int64_t peer = f.real(v ^ d);
    const Range other = sibling(mine);
    if (root_v >= 0 && ((v ^ root_v) & d)) return steps.push_back(send_step(peer, mine.blocks()));
    steps.push_back(root_v >= 0 ? recv_step(peer, other.blocks())
                                : with_recv(send_step(peer, mine.blocks()), peer, other.blocks()));
    mine = joined(mine, other);
  }
}

// halving_doubling.cpp for one rank: pre-step, reduce-scatter, then the
// allgather and unfold (allreduce, f.root < 0) or the gather to the root.
std::vector<Step> halving_doubling_steps(const Fold& f, int64_t rank) {
  std::vector<Step> steps;
  if (f.paired(rank)) fold_halves_steps(f, rank, steps);
  const bool allreduce = f.root < 0;
  if (f.survives(rank)) {
    const int64_t v = f.virt(rank);
    const Range mine = halving_steps(f, v, steps);
    doubling_steps(f, v, allreduce ? -1 : f.virt(f.root), mine, steps);
  }
  if (allreduce && f.paired(rank)) {
    const int64_t partner = rank ^ 1;
    steps.push_back(f.survives(rank) ? send_step(partner, all_blocks(f.pow2)) : recv_step(partner, all_blocks(f.pow2)));
  }
  return steps;
}

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
// step. O(log p) per rank. For exscan acc starts empty; for scan it starts
// as the input, which is hillis-steele's W, and which an exclusive plan run
// under scan (inclusive_doubling_scan) overwrites with its first receive:
// every exclusive plan begins with the shift round, r − 1 → r, store.
Plan doubling_scan(Collective c, const char* name, int64_t p, int64_t blocks) {
  const ScanAlgorithm& a = *find_scan_algorithm(name);
  return {header(c, p, 0, blocks), [=, &a](int64_t rank) {
            std::vector<Step> steps;
            const int rounds = scan_rounds(a, p);
            for (int k = 0; k < rounds; ++k) {
              const ScanRound rd = scan_round(a, p, rank, k);
              Step step;
              if (rd.send_to >= 0) step = send_step(rd.send_to, all_blocks(blocks), value_of(rd.send));
              if (rd.recv_from >= 0)
                step = with_recv(std::move(step), rd.recv_from, all_blocks(blocks), combine_of(rd.combine));
              if (step.send_to >= 0 || step.recv_from >= 0) steps.push_back(std::move(step));
            }
            return steps;
          }};
}

// An exclusive plan, then W = W ⊕ V (fold) on ranks r > 0: [0, r − 1]
// becomes [0, r], as scan_doubling.cpp ends MPI_Scan. Rank 0 neither
// receives nor sends W in an exclusive plan, so its acc is still its input
// [0, 0], its result (the MPI code copies V there): no fold.
//   two-op-doubling, p = 4:  round 0: r → r + 1 V, stored: W_r = [r − 1];
//   round 1: 0 → 2 V, 1 → 3 W ⊕ V = [0, 1], left: W_2 = [0, 1],
//   W_3 = [0, 2]; then folds: W_1 = [0, 1], W_2 = [0, 2], W_3 = [0, 3].
Plan inclusive_doubling_scan(const char* name, int64_t p, int64_t blocks) {
  const Plan exclusive = doubling_scan(Collective::scan, name, p, blocks);
  return {exclusive.header, [=](int64_t rank) {
            std::vector<Step> steps = exclusive.steps(rank);
            if (rank > 0) steps.push_back(fold_step(all_blocks(blocks)));
            return steps;
          }};
}

}  // namespace

// reduce binary-tree: the tree reduces to rank 0, which sends the result to
// another root. This is what the MPI code runs for a non-commutative ⊕ (and
// for any ⊕ at root 0); for a commutative ⊕ at another root it runs the tree
// on ranks rotated to the root instead, one message fewer. The plan is the
// order-keeping variant, right for every ⊕.
Plan reduce_binary_tree(int64_t p, int64_t root, int64_t blocks) {
  return {header(Collective::reduce, p, root, blocks), [=](int64_t rank) {
            std::vector<Step> steps = tree_reduce_steps(p, blocks, rank);
            if (root != 0 && rank == 0) steps.push_back(send_step(root, all_blocks(blocks)));
            if (root != 0 && rank == root) steps.push_back(recv_step(0, all_blocks(blocks)));
            return steps;
          }};
}

// allreduce binary-tree: the tree reduction to 0, then the binomial
// broadcast from 0: 2⌈log2 p⌉ rounds.
Plan allreduce_binary_tree(int64_t p, int64_t, int64_t blocks) {
  return {header(Collective::allreduce, p, 0, blocks), [=](int64_t rank) {
            std::vector<Step> steps = tree_reduce_steps(p, blocks, rank);
            for (Step& s : binomial_bcast_steps({p, 0}, blocks, rank)) steps.push_back(std::move(s));
            return steps;
          }};
}

Plan reduce_recursive_doubling(int64_t p, int64_t root, int64_t blocks) {
  const Fold f(p, root);
  return {header(Collective::reduce, p, root, blocks),
          [=](int64_t rank) { return recursive_doubling_steps(f, blocks, rank); }};
}

Plan allreduce_recursive_doubling(int64_t p, int64_t, int64_t blocks) {
  const Fold f(p, -1);
  return {header(Collective::allreduce, p, 0, blocks),
          [=](int64_t rank) { return recursive_doubling_steps(f, blocks, rank); }};
}

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

// allreduce ring: the reduce-scatter, then the ring allgather: 2(p − 1)
// MPI_Sendrecv steps of m/p, commutative ⊕ only.
Plan allreduce_ring(int64_t p, int64_t, int64_t) {
  return streamed(commutative_header(Collective::allreduce, p, 0, p), [=](int64_t rank) {
    return rounds(1, 2 * p - 1, [=](int64_t i, Step& s) {
      s = i < p ? ring_reduce_scatter_step(p, rank, i) : ring_allgather_step(p, rank, i - p);
    });
  });
}

// halving-doubling (halving_doubling.cpp), B = p' base segments, any ⊕:
// the pair pre-step for p = p' + r (2 steps of m/2), lg p' exchanges of
// m/2, m/4, .., then lg p' steps back up (allreduce: exchanges, and the
// result sent to the r removed ranks; reduce: a binomial gather to the
// root, which the Fold keeps a survivor).
Plan reduce_halving_doubling(int64_t p, int64_t root, int64_t blocks) {
  const Fold f(p, root);
  return {header(Collective::reduce, p, root, blocks), [=](int64_t rank) { return halving_doubling_steps(f, rank); }};
}

Plan allreduce_halving_doubling(int64_t p, int64_t, int64_t blocks) {
  const Fold f(p, -1);
  return {header(Collective::allreduce, p, 0, blocks),
          [=](int64_t rank) { return halving_doubling_steps(f, rank); }};
}

Plan scan_hillis_steele(int64_t p, int64_t, int64_t blocks) {
  return doubling_scan(Collective::scan, "hillis-steele", p, blocks);
}
Plan scan_two_op_doubling(int64_t p, int64_t, int64_t blocks) {
  return inclusive_doubling_scan("two-op-doubling", p, blocks);
}
Plan scan_1_doubling(int64_t p, int64_t, int64_t blocks) { return inclusive_doubling_scan("1-doubling", p, blocks); }
Plan scan_123_doubling(int64_t p, int64_t, int64_t blocks) {
  return inclusive_doubling_scan("123-doubling", p, blocks);
}
Plan exscan_two_op_doubling(int64_t p, int64_t, int64_t blocks) {
  return doubling_scan(Collective::exscan, "two-op-doubling", p, blocks);
}
Plan exscan_1_doubling(int64_t p, int64_t, int64_t blocks) {
  return doubling_scan(Collective::exscan, "1-doubling", p, blocks);
}
Plan exscan_123_doubling(int64_t p, int64_t, int64_t blocks) {
  return doubling_scan(Collective::exscan, "123-doubling", p, blocks);
}

}  // namespace collsim::plan
