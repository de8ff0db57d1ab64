// Two-tree construction (seed 002 §2): hand-computed trees, renumbering,
// 64-bit sizes, and the O(1) colouring against the appendix's recursion.
#include <gtest/gtest.h>

#include "two_tree.hpp"
#include "two_tree_check.hpp"
#include "two_tree_coloring.hpp"

namespace collsim {
namespace {

// p = 10, root 9 (the paper's Fig. 1), worked by hand from steps 1-5:
// T1 labels 1..9, T2 labels 2..10 (label 1 dropped), rank = label - tree.
TEST(TwoTree, Figure1ByHand) {
  const TwoTree tt(10, 9);
  const int64_t t1[9] = {1, 3, 1, 7, 5, 3, 5, 9, 7};
  const int64_t t2[9] = {2, 0, 6, 4, 2, 4, 9, 8, 6};
  for (int64_t r = 0; r < 9; ++r) {
    EXPECT_EQ(tt.parent(1, r), t1[r]) << "rank " << r;
    EXPECT_EQ(tt.parent(2, r), t2[r]) << "rank " << r;
  }
  EXPECT_EQ(tt.parent(1, 9), -1);
  EXPECT_EQ(tt.tree_root(1), 7);
  EXPECT_EQ(tt.tree_root(2), 6);
  int64_t out[2];
  ASSERT_EQ(tt.children(1, 7, out), 2);
  EXPECT_EQ(out[0], 3);
  EXPECT_EQ(out[1], 8);  // reattached: labels 12 and 10 are gone
  ASSERT_EQ(tt.children(2, 0, out), 1);
  EXPECT_EQ(out[0], 1);  // its left child, label 1, was removed in step 4
  ASSERT_EQ(tt.children(2, 8, out), 1);
  EXPECT_EQ(out[0], 7);
  ASSERT_EQ(tt.children(1, 9, out), 1);
  EXPECT_EQ(out[0], 7);
}

// NOTES.md: P = 2^h - 1 with 2^h >= p - 1 is too small for p = 8 and 9.
// p = 9, root 8, by hand: T1 on labels 1..8 has root 8 (rank 7) with only a
// left child 4 (rank 3); T2 on labels 2..9 has root 8 (rank 6), right child 9.
TEST(TwoTree, NeedsTheLargerTreeForP9) {
  const TwoTree tt(9, 8);
  EXPECT_EQ(tt.tree_root(1), 7);
  EXPECT_EQ(tt.parent(1, 3), 7);
  EXPECT_EQ(tt.tree_root(2), 6);
  EXPECT_EQ(tt.parent(2, 7), 6);
}

TEST(TwoTree, PEquals2) {
  const TwoTree tt(2, 1);
  EXPECT_EQ(tt.parent(1, 0), 1);
  EXPECT_EQ(tt.parent(2, 0), 1);
  int64_t out[2];
  EXPECT_EQ(tt.children(1, 0, out), 0);
  EXPECT_EQ(tt.children(2, 0, out), 0);
}

TEST(TwoTree, RootRenumbering) {
  for (int64_t p : {7, 10, 33}) {
    const TwoTree base(p, p - 1);
    for (int64_t root = 0; root < p; ++root) {
      const TwoTree tt(p, root);
      for (int64_t r = 0; r < p; ++r)
        for (int tree = 1; tree <= 2; ++tree) {
          // rank r plays base rank (r - root - 1) mod p
          const int64_t v = (r - root - 1 + p) % p;
          const int64_t expect = base.parent(tree, v);
          EXPECT_EQ(tt.parent(tree, r), expect < 0 ? -1 : (expect + root + 1) % p);
        }
    }
  }
}

// p = 2^31 - 1, root p - 1, by hand: T1 root label 2^30 (rank 2^30 - 1),
// T2 root label 2^30 (rank 2^30 - 2); T1 label 2^31 - 2 = 0b11..10 (rank
// p - 2) is a right child of label 2^31 - 4 (rank p - 4); T2 label 2^31 - 1
// (rank p - 2) is the right child of label 2^31 - 2 (rank p - 3).
TEST(TwoTree, LargestP) {
  const int64_t p = (int64_t{1} << 31) - 1;
  const TwoTree tt(p, p - 1);
  EXPECT_EQ(tt.tree_root(1), (int64_t{1} << 30) - 1);
  EXPECT_EQ(tt.tree_root(2), (int64_t{1} << 30) - 2);
  EXPECT_EQ(tt.parent(1, p - 2), p - 4);
  EXPECT_EQ(tt.parent(2, p - 2), p - 3);
  int64_t out[2];
  ASSERT_EQ(tt.children(2, p - 3, out), 2);
  EXPECT_EQ(out[1], p - 2);
  EXPECT_THROW(TwoTree(p + 1, 0), std::invalid_argument);
  EXPECT_THROW(TwoTree(1, 0), std::invalid_argument);
  EXPECT_THROW(TwoTree(5, 5), std::invalid_argument);
}

// The appendix's inEdgeColor taken literally as a walk up T1 (colour 1 at
// T1's root, xor 1 per step, xor [parent > child]), T2 in-edge the
// complement. Documented in two_tree.cpp: it satisfies Lemma 1 exactly when
// p's highest set bit is at an odd position and consecutive set bits of p are
// an odd distance apart (p = 2, 3, 8, 9, 12, 14, 15, ...).
bool odd_bit_pattern(int64_t p) {
  int previous = -1;
  for (int bit = 0; bit < 63; ++bit)
    if (p >> bit & 1) {
      if (previous >= 0 && (bit - previous) % 2 == 0) return false;
      previous = bit;
    }
  return previous % 2 == 1;
}

TEST(TwoTree, AppendixRecursionHoldsOnlyForOddBitPatterns) {
  for (int64_t p = 2; p <= 2048; ++p) {
    const TwoTree tt(p, p - 1);
    TwoTreeTable t = two_tree_parents(tt);
    for (int64_t r = 0; r + 1 < p; ++r) {
      int c = 1;
      for (int64_t u = r; tt.parent(1, u) != p - 1; u = tt.parent(1, u)) c ^= 1 ^ (tt.parent(1, u) > u);
      t.color[0][r] = static_cast<int8_t>(c);
      t.color[1][r] = static_cast<int8_t>(1 - c);
    }
    EXPECT_EQ(!check_lemma1(t), odd_bit_pattern(p)) << "p=" << p;
  }
}

// Lemma 1 at the largest p, checked locally for sampled ranks: the two
// in-edges of each rank differ, and each rank's out-edges in both trees have
// distinct colours (the broadcast root's two included).
TEST(TwoTree, LogColoringAtLargestP) {
  const int64_t p = (int64_t{1} << 31) - 1;
  for (int64_t root : {int64_t{0}, p - 1, int64_t{123456789}}) {
    const TwoTree tt(p, root);
    auto check_sender = [&](int64_t s) {
      int seen = 0;
      for (int tree = 1; tree <= 2; ++tree) {
        int64_t out[2];
        for (int i = 0, n = tt.children(tree, s, out); i < n; ++i) {
          const int bit = 1 << tt.log_color(tree, out[i]);
          EXPECT_FALSE(seen & bit) << "sender " << s << " child " << out[i];
          seen |= bit;
        }
      }
      if (s != root) {
        EXPECT_NE(tt.log_color(1, s), tt.log_color(2, s));
      }
    };
    for (int64_t i = 0; i < 5000; ++i) {
      check_sender(i);
      check_sender(p - 1 - i);
      check_sender((i * 2654435761) % p);
    }
    check_sender(root);
  }
}

}  // namespace
}  // namespace collsim
