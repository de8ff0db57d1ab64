#include "two_tree.hpp"

#include <stdexcept>
#include <string>

#include "circulant.hpp"  // kMaxProcs

namespace collsim {

namespace {
int ctz(int64_t j) { return __builtin_ctzll(static_cast<uint64_t>(j)); }
}  // namespace

namespace inorder {

int64_t parent(int64_t j, int64_t last) {
  const int h = ctz(j);
  const int64_t step = int64_t{1} << h;
  if ((j >> (h + 1) & 1) || j + step > last) return j - step;
  return j + step;
}

// Left child j - 2^(h-1) exists unless it is below `first` (T2's label 1).
// The right child is the root of what is left of the right subtree
// j+1 .. j+2^h-1: start at j + 2^(h-1) and go left while above `last`.
// Example, labels 1..9: children(8) = {4, 9} (12 > 9, 10 > 9, then 9).
int children(int64_t j, int64_t first, int64_t last, int64_t out[2]) {
  const int h = ctz(j);
  if (h == 0) return 0;
  int count = 0;
  const int64_t half = int64_t{1} << (h - 1);
  if (j - half >= first) out[count++] = j - half;
  if (j + 1 <= last) {
    int64_t c = j + half;
    while (c > last) c -= int64_t{1} << (ctz(c) - 1);  // c > j + 1 here, so ctz(c) >= 1
    out[count++] = c;
  }
  return count;
}

}  // namespace inorder

TwoTree::TwoTree(int64_t p, int64_t root) : p_(p), root_(root) {
  if (p < 2 || p > kMaxProcs)
    throw std::invalid_argument("two-tree: p = " + std::to_string(p) + " is out of range [2, 2^31-1]");
  if (root < 0 || root >= p)
    throw std::invalid_argument("two-tree: root " + std::to_string(root) + " is out of range [0, p)");
}

int64_t TwoTree::tree_root(int tree) const {
  // The largest power of two <= last label; its virtual rank is label - tree.
  const int64_t last = last_label(tree);
  return to_real((int64_t{1} << (63 - __builtin_clzll(static_cast<uint64_t>(last)))) - tree);
}

int64_t TwoTree::parent(int tree, int64_t rank) const {
  if (rank == root_) return -1;
  const int64_t j = to_virtual(rank) + tree;
  const int64_t up = inorder::parent(j, last_label(tree));
  return up == 0 ? root_ : to_real(up - tree);
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
// On the §2 trees (T2 = T1 shifted, not mirrored) the constant must be 1 for
// every p, not p/2 mod 2 (deviation from the printed formula): then a left
// child keeps its parent's colour and a right child flips it, so the colour
// of label j is the parity of popcount(j) (left child j - 2^(h-1) of j has
// the same number of ones, right child j + 2^(h-1) one more; a child
// reattached by elimination is a right child j of j - 2^h, again one more).
// The T2 in-edge takes the complement (Lemma 1, part 1).
//
// This satisfies every T1 sibling pair and, because popcount(j+1) has the
// parity of popcount(j) + 1 + ctz(j+1), every T2 sibling pair of equal
// height. It fails where T2's elimination makes siblings of unequal height
// h < k-1 with k-1-h odd, and at the broadcast root when root2's label
// 2^b - 1 has even popcount b. Both read off the binary digits of p (= last
// T2 label): valid exactly when the highest set bit of p is at an odd
// position and consecutive set bits of p are an odd distance apart. Checked
// against the full Lemma 1 test for every p <= 10^5 (`verify two-tree`).
// Examples: valid for p = 2, 3, 8, 9, 12, 14, 15; not for p = 4 (root) or
// p = 10 (bits 3 and 1).
int TwoTree::log_color(int tree, int64_t rank) const {
  const int c1 = __builtin_popcountll(static_cast<uint64_t>(to_virtual(rank) + 1)) & 1;
  return tree == 1 ? c1 : 1 - c1;
}

bool TwoTree::log_coloring_valid(int64_t p) {
  int previous = -1;
  for (int bit = 0; bit < 63; ++bit) {
    if (!(p >> bit & 1)) continue;
    if (previous >= 0 && (bit - previous) % 2 == 0) return false;
    previous = bit;
  }
  return previous % 2 == 1;
}

}  // namespace collsim
