#include "two_tree.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "circulant.hpp"  // kMaxProcs

namespace collsim {

TwoTree::TwoTree(int64_t p, int64_t root) : p_(p), root_(root) {
  if (p < 2 || p > kMaxProcs)
    throw std::invalid_argument("two-tree: p = " + std::to_string(p) + " is out of range [2, 2^31-1]");
  if (root < 0 || root >= p)
    throw std::invalid_argument("two-tree: root " + std::to_string(root) + " is out of range [0, p)");
  solve_block_flips();
}

int64_t TwoTree::tree_root(int tree) const {
  // The largest power of two <= last label; its virtual rank is label - tree.
  const int64_t last = last_label(tree);
  return to_real((int64_t{1} << (63 - __builtin_clzll(static_cast<uint64_t>(last)))) - tree);
}

int TwoTree::children(int tree, int64_t rank, int64_t out[2]) const {
  if (rank == root_) {
    out[0] = tree_root(tree);
    return 1;
  }
  const int count = inorder::children(to_virtual(rank) + tree, tree, last_label(tree), out);
  for (int i = 0; i < count; ++i) out[i] = to_real(out[i] - tree);
  return count;
}

// The appendix's inEdgeColor walks up T1:
//   color(root of T1) = 1, color(i) = color(parent) xor (p/2 mod 2) xor [parent > i].
// On the §2 trees (T2 = T1 shifted, not mirrored) the constant must be 1, not
// p/2 mod 2 (deviation from the printed formula): then a left child keeps its
// parent's colour and a right child flips it, so the T1 in-edge colour of
// label L = v + 1 is c(L) = popcount(L) mod 2 (left child L - 2^(h-1) of L has
// as many ones, right child L + 2^(h-1) one more; a child reattached by
// elimination is a right child L of L - 2^h, again one more). The T2 in-edge
// takes the complement (Lemma 1, part 1).
//
// c alone satisfies every T1 sibling pair and, as popcount(L+1) has the
// parity of popcount(L) + 1 + ctz(L+1), every T2 sibling pair of equal
// height. It breaks Lemma 1 where T2's elimination makes siblings of unequal
// height and at the broadcast root; it holds exactly when p's highest set bit
// is at an odd position and consecutive set bits of p are an odd distance
// apart (2.6% of p <= 10^5; tests/test_two_tree.cpp checks this).
//
// The correction (found with the verifier, checked for every p <= 10^5): cut
// the labels [0, p) into the dyadic blocks given by p's binary digits; then
// c(L) xor f(block(L), L mod 2) is a valid colouring for a suitable 0/1 table
// f. Inside a block every sibling pair is an "infinite tree" pair, which c,
// c xor (L mod 2) and their complements all satisfy; only pairs that cross
// blocks, pairs of unequal height and the two tree roots constrain f. Those
// pairs have one end at offset 0, 2^m - 1, size - 2^m or size - 1 of a block,
// so solve_block_flips() inspects the siblings of just those labels and
// solves the resulting parity equations over the <= 62 unknowns.
// Example p = 10 = 1010b, root 9 (Fig. 1): popcount parity gives T1 colours
// 1 1 0 1 0 0 1 1 0 to labels 1..9 (ranks 0..8); in T2, rank 6 (label 8)
// gets rank 8 (label 10, reattached from the removed label 12) as right child
// beside rank 2 (label 4): heights 1 and 2, T1 colours 0 and 0, so both
// T2 edges 6 -> 2 and 6 -> 8 get colour 1. Blocks [0,8) and [8,10); the
// equations give f(block 0, odd label) = 1 and f(block 1, even label) = 1,
// the other two 0: T1 colours 0 1 1 1 1 0 0 0 0, a valid colouring.
// TwoTree::log_color (inline in two_tree.hpp, O(1)) evaluates c(L) xor f;
// solve_block_flips() below finds f.
namespace {

// Parity equations x[a] xor x[b] = d over at most 62 unknowns (2 per block);
// at most 4 (b+1) per block of size 2^b plus one, so < 2000 for any p.
struct ParityEquation {
  int a, b, d;
};

// Unknowns not forced by any equation get 0; propagates until nothing
// changes. Throws std::logic_error if the equations contradict each other:
// then no colouring of this form exists, and none is emitted.
uint64_t solve_parity(const std::vector<ParityEquation>& eqs, int unknowns) {
  uint64_t value = 0, known = 0;
  for (int start = 0; start < unknowns; ++start) {
    if (known >> start & 1) continue;
    known |= uint64_t{1} << start;
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [a, b, d] : eqs) {
        const bool ka = known >> a & 1, kb = known >> b & 1;
        if (ka && kb && ((value >> a ^ value >> b) & 1) != uint64_t(d))
          throw std::logic_error("two-tree: no block-corrected colouring (block equations contradict)");
        if (ka == kb) continue;
        const int from = ka ? a : b, to = ka ? b : a;
        value |= ((value >> from & 1) ^ uint64_t(d)) << to;
        known |= uint64_t{1} << to;
        changed = true;
      }
    }
  }
  return value;
}

}  // namespace

void TwoTree::solve_block_flips() {
  for (int bit = 62; bit >= 0; --bit) {
    block_at_bit_[bit] = static_cast<int8_t>(blocks_);
    if (p_ >> bit & 1) block_start_[blocks_ + 1] = block_start_[blocks_] + (int64_t{1} << bit), ++blocks_;
  }
  auto unknown = [&](int64_t label) { return 2 * block_of(label) + static_cast<int>(label & 1); };
  auto c = &TwoTree::parity;
  std::vector<ParityEquation> eqs;
  // Sibling u of label L (T1 labels; tree t's label is L - 1 + t) must differ
  // in colour: c(L) ^ f(L) != c(u) ^ f(u).
  auto add_sibling = [&](int tree, int64_t label) {
    if (label < 1 || label > p_ - 1) return;
    const int64_t j = label - 1 + tree, up = inorder::parent(j, last_label(tree));
    if (up == 0) return;
    int64_t kids[2];
    if (inorder::children(up, tree, last_label(tree), kids) < 2) return;
    const int64_t other = (kids[0] == j ? kids[1] : kids[0]) + 1 - tree;
    const int a = unknown(label), b = unknown(other);
    if (a != b) eqs.push_back({a, b, 1 ^ c(label) ^ c(other)});
  };
  for (int i = 0; i < blocks_; ++i) {
    const int64_t start = block_start_[i], size = block_start_[i + 1] - start;
    for (int64_t m = 1; m <= size; m <<= 1)
      for (int64_t label : {start + m - 1, start + size - m})
        for (int tree = 1; tree <= 2; ++tree) add_sibling(tree, label);
  }
  // Broadcast root: T1's root (label 2^a) and T2's root must have equal
  // T1-colour, as T2's in-edge colour is the complement.
  const int64_t r1 = (tree_root(1) - root_ - 1 + p_) % p_ + 1, r2 = (tree_root(2) - root_ - 1 + p_) % p_ + 1;
  if (unknown(r1) != unknown(r2)) eqs.push_back({unknown(r1), unknown(r2), c(r1) ^ c(r2)});
  const uint64_t f = solve_parity(eqs, 2 * blocks_);
  for (int i = 0; i < blocks_; ++i) {
    flip_[0] |= static_cast<uint32_t>(f >> (2 * i) & 1) << i;
    flip_[1] |= static_cast<uint32_t>(f >> (2 * i + 1) & 1) << i;
  }
}

}  // namespace collsim
