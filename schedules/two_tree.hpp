// Two inorder binary trees for full-bandwidth broadcast, reduction and scan
// (Sanders, Speck, Traff, seed 002, §2 steps 1-5), per rank in O(log p).
//
// The paper puts the broadcast root at p-1 and builds both trees over the
// n = p-1 other processors 0..n-1 ("virtual" ranks); any other root r is
// renumbered: virtual = (rank - (r+1)) mod p (§2.1).
//   T1: inorder tree with 1-based labels j = v+1 in 1..n; leaves are the
//       even virtual ranks (odd labels).
//   T2: the same tree shifted one to the left: labels j = v+2 in 2..n+1,
//       label 1 (the leftmost leaf -1 of step 4) removed; leaves are odd.
// Eliminating the labels above the last one (steps 2 and 5) never has to be
// done node by node: a label's parent is its nearest remaining ancestor,
//   h = ctz(j); parent(j) = j - 2^h  if bit h+1 of j is set (j is a right
//                                    child) or j + 2^h > last (the ancestors
//                                    above j to the right are all gone),
//                           j + 2^h  otherwise;
// parent 0 means "tree root" (j is the largest power of two <= last). This
// matches the literal elimination: the removed node u is always the highest
// label, its right subtree is gone, so its only child is its original left
// child, which inherits u's parent. The tree size P of steps 1 and 3 never
// appears; any complete tree large enough gives the same result (the paper's
// P = 2^h - 1 with 2^h >= p-1 is too small for p = 8 and p = 9, NOTES.md).
//
// Worked example, p = 10, root 9 (the paper's Fig. 1), virtual = real here:
//
//   T1 (top-down)             broadcast root 9              T2 (bottom-up)
//                                /         \ .
//               7               /           \                 6
//            /     \                                       /     \ .
//          3         8                                   2         8
//        /   \                                         /   \      /
//       1     5                                       0     4    7
//      / \   / \                                       \   / \ .
//     0   2 4   6                                       1 3   5
//
// Leaves of T1 (0 2 4 6 8) are interior in T2 and vice versa; p = 2 is the
// only size with a node (0) that is a leaf in both trees.
//
// Cost: parent O(1), children O(log p) (descending a removed right spine),
// no allocation; all label arithmetic in 64 bits (j + 2^h reaches 2^32 for
// p = 2^31 - 1).
#pragma once

#include <cstdint>

namespace collsim {

// Inorder trees on 1-based labels; pure functions, exposed for the tests.
namespace inorder {
// Parent label of j in the tree of labels first..last after removing every
// label above last (and, for T2, label 1 = first - 1); 0 for the tree root.
// Inline: a sweep calls it for every rank of every p.
inline int64_t parent(int64_t j, int64_t last) {
  const int h = __builtin_ctzll(static_cast<uint64_t>(j));
  const int64_t step = int64_t{1} << h;
  if ((j >> (h + 1) & 1) || j + step > last) return j - step;
  return j + step;
}
// Children of j, left before right, into out[0..2); returns their number.
// Left child j - 2^(h-1) exists unless it is below `first` (T2's label 1).
// The right child is the root of what is left of the right subtree
// j+1 .. j+2^h-1: start at j + 2^(h-1) and go left while above `last`.
// Example, labels 1..9: children(8) = {4, 9} (12 > 9, 10 > 9, then 9).
inline int children(int64_t j, int64_t first, int64_t last, int64_t out[2]) {
  const int h = __builtin_ctzll(static_cast<uint64_t>(j));
  if (h == 0) return 0;
  int count = 0;
  const int64_t half = int64_t{1} << (h - 1);
  if (j - half >= first) out[count++] = j - half;
  if (j + 1 <= last) {
    int64_t c = j + half;  // c > j + 1 while above last, so ctz(c) >= 1
    while (c > last) c -= int64_t{1} << (__builtin_ctzll(static_cast<uint64_t>(c)) - 1);
    out[count++] = c;
  }
  return count;
}
}  // namespace inorder

class TwoTree {
 public:
  // Throws std::invalid_argument unless 2 <= p <= 2^31 - 1 and 0 <= root < p.
  TwoTree(int64_t p, int64_t root);

  int64_t p() const { return p_; }
  int64_t root() const { return root_; }

  // Parent of `rank` in tree 1 or 2: the broadcast root for the tree's own
  // root, -1 for the broadcast root itself.
  int64_t parent(int tree, int64_t rank) const {
    if (rank == root_) return -1;
    const int64_t up = inorder::parent(to_virtual(rank) + tree, last_label(tree));
    return up == 0 ? root_ : to_real(up - tree);
  }
  // Children of `rank` in tree 1 or 2, in inorder (left before right), into
  // out[0..2); the broadcast root has one child per tree, the tree's root.
  int children(int tree, int64_t rank, int64_t out[2]) const;
  // The root of tree 1 or 2 (a child of the broadcast root).
  int64_t tree_root(int tree) const;

  // The per-rank colouring (after the appendix's inEdgeColor, see
  // two_tree.cpp): colour of the edge parent -> rank in `tree`. Satisfies
  // Lemma 1 for every p (checked for all p <= 10^5 by `verify two-tree`).
  // O(1) per call; the constructor's block table costs O(log^3 p) once.
  int log_color(int tree, int64_t rank) const {
    const int64_t label = to_virtual(rank) + 1;
    const int c1 = (parity(label) ^ (flip_[label & 1] >> block_of(label))) & 1;
    return tree == 1 ? c1 : 1 - c1;
  }

  // Renumbering without division: both sums stay in (-p, 2p).
  int64_t to_virtual(int64_t rank) const {
    const int64_t v = rank - root_ - 1;
    return v < 0 ? v + p_ : v;
  }
  int64_t to_real(int64_t v) const {
    const int64_t r = v + root_ + 1;
    return r >= p_ ? r - p_ : r;
  }

 private:
  // Tree t's labels are virtual + t, from t to n + t - 1 (n = p - 1).
  int64_t last_label(int tree) const { return p_ - 2 + tree; }
  // Dyadic blocks of [0, p) by p's binary digits, highest first: block i is
  // [block_start_[i], block_start_[i+1]). p = 13 = 1101b: [0,8) [8,12) [12,13).
  // Label L in [0, p) lies in the block of p's highest bit where L and p
  // differ (there p has a one and L a zero): block_at_bit_ numbers those bits.
  // p = 13 = 1101b, L = 9 = 1001b: they differ first at bit 2, block 1.
  int block_of(int64_t label) const {
    return block_at_bit_[63 - __builtin_clzll(static_cast<uint64_t>(label ^ p_))];
  }
  void solve_block_flips();
  // popcount(label) mod 2, the uncorrected colour; inline code even without
  // the popcnt instruction.
  static int parity(int64_t label) { return __builtin_parityll(static_cast<uint64_t>(label)); }

  int64_t p_, root_;
  int blocks_ = 0;
  int64_t block_start_[33] = {};
  int8_t block_at_bit_[64] = {};  // block_of(L) for L whose highest bit differing from p is this one
  uint32_t flip_[2] = {0, 0};  // bit i of flip_[L & 1]: block i's correction
};

}  // namespace collsim
