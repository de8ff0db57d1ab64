// Checks of two-tree broadcast schedules (seed 002 §2, Lemma 1), independent
// of how the trees were computed: they read a TwoTreeTable only, so the same
// code checks our computation and a CSV file from elsewhere.
#pragma once

#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "circulant_check.hpp"  // Counterexample, describe
#include "two_tree_coloring.hpp"

namespace collsim {

// CSV as `collsim schedule two-tree --format csv` writes it: header
// `tree,rank,parent,color`, one row per tree (1, 2) and non-root rank.
// p = 1 + the largest rank or parent; the broadcast root is the one rank
// without rows. Throws MalformedInput (schedule_csv.hpp) for anything that is
// not such a file: bad header or fields, tree not 1/2, colour not 0/1, ranks
// out of range, duplicate rows, a row count other than 2(p-1), a rank with
// a row in one tree only.
TwoTreeTable read_two_tree_csv(std::istream& in, const std::string& source_name);

// Everything about one table, in this order; the first violation is returned
// (k = -1 always; the condition names the tree):
//   one broadcast root (parent -1 in both trees);
//   per tree: the broadcast root has exactly one child (the tree root), every
//   other rank at most 2; parents lead from every rank to the broadcast root
//   (spanning, no cycle); depth <= ceil(log2 p) + 1; in-order numbering in
//   the root-renumbered order v = (rank - root - 1) mod p (every subtree is
//   a contiguous range of v, its left part below the node, its right part
//   above);
//   leaves of T1 are interior in T2 and vice versa (only exception: p = 2,
//   where rank != root is a leaf in both);
//   Lemma 1: colours 0/1, a rank's two in-edges differ, a rank's out-edges in
//   both trees together differ.
// O(p) time and memory.
std::optional<Counterexample> check_two_tree(const TwoTreeTable& t);

// Lemma 1 alone, for a table whose structure was already checked.
std::optional<Counterexample> check_lemma1(const TwoTreeTable& t);

// The checks above with their working arrays kept between calls, and the
// sweep's per-p work on top: one per thread of `verify two-tree --p`.
class TwoTreeChecker {
 public:
  // check_two_tree without Lemma 1.
  std::optional<Counterexample> check_structure(const TwoTreeTable& t);
  std::optional<Counterexample> check_lemma1(const TwoTreeTable& t);
  // What `verify two-tree --p` checks for one p with broadcast root `root`:
  // the structure of the trees from the per-rank functions, that
  // TwoTree::children agrees with the parents (inorder: left child first),
  // then Lemma 1 for each colouring in turn (the condition names it).
  std::optional<Counterexample> verify_p(int64_t p, int64_t root, const std::vector<Coloring>& colorings);
  // TwoTree::children against the parents of `t` (inorder: left child
  // first), once check_structure(t) has passed.
  std::optional<Counterexample> check_children(const TwoTree& tt, const TwoTreeTable& t) const;

 private:
  // Per tree: children (up to 2 recorded, more counted).
  struct Shape {
    std::vector<int32_t> child;  // 2 per rank, the first min(count, 2) used
    std::vector<int32_t> count;
  };
  Shape shape_[2];
  std::vector<int32_t> order_;   // breadth-first from the broadcast root
  std::vector<int32_t> lo_, hi_;  // a subtree's range of virtual ranks
  std::vector<uint8_t> out_colors_;
  TwoTreeTable table_;
  LinearColoring linear_;

  std::optional<Counterexample> check_tree(const TwoTreeTable& t, int tree, int64_t root);
  std::optional<Counterexample> check_in_order(const TwoTreeTable& t, int tree, int64_t root);
};

// TwoTreeChecker().verify_p(p, root, {coloring}).
std::optional<Counterexample> verify_two_tree_p(int64_t p, int64_t root, Coloring coloring);

}  // namespace collsim
