// The pipelined reduction and broadcast along the two inorder binary trees
// T1, T2 of seed 002 (schedules/two_tree.hpp) that two-tree reduce and
// allreduce share. Blocks are cut on element boundaries (⌈count/n⌉ elements);
// block j travels in tree 1 + (j mod 2), so each tree carries half the data
// and every rank is interior (two children) in at most one of them.
//
// Order: a rank's partial result for a block is the ⊕ of a contiguous range
// of ranks when the trees' root is 0 or p − 1 (seed 002 §2.2): virtual ranks
// are then the real ones shifted by a constant, inorder subtrees are
// contiguous, and a rank combines left child ⊕ own ⊕ right child, "left"
// meaning the lower real rank. For another root the ranges wrap around, which
// only a commutative ⊕ tolerates (Theorem 1's "any root if commutative").
//
// Schedule: data-driven instead of the paper's even/odd steps from the 0/1
// edge colouring (Lemma 1). Every receive is posted up front and a rank has
// at most one send in flight per tree, so it sends and receives at once; the colouring
// only keeps a rank from being fed by both trees in the same step, which here
// costs a shared link for that step instead of a deadlock or a wrong result.
#pragma once

#include <cstdint>

#include "collective.hpp"

namespace collsim::sim {

// Reduces every rank's `acc` (count elements of a.type, a.blocks blocks) up
// the trees rooted at `tree_root`; on return tree_root's acc holds the
// result (the other ranks' acc is scratch). If a.root ≠ tree_root, tree_root
// also sends each finished block to a.root, which receives it into `out`.
void two_tree_reduce(const CollArgs& a, int tree_root, char* acc, char* out);

// Broadcasts `buf` (count elements of a.type, a.blocks blocks) from
// tree_root down the same trees.
void two_tree_bcast(const CollArgs& a, int tree_root, char* buf);

// The root the trees must use so that a.op's result comes out in rank order.
int two_tree_root(const CollArgs& a);

// (n + 4(h − 1))(α + (β + γ)⌈m/n⌉) with 2^h ≥ p − 1 > 2^(h−1) (seed 002,
// Theorem 1 at a given n; see reduce_two_tree.cpp); 0 for p = 1 or m = 0.
double two_tree_model(const Net& net, int64_t p, int64_t bytes, int64_t blocks, double gamma);

}  // namespace collsim::sim
