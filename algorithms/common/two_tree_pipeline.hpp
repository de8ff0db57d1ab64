// The pipelined two-tree reduction of seed 002 §2.2 that two-tree reduce
// and allreduce share: the two-tree broadcast's step schedule run backwards
// (two_tree_steps.hpp), on the same trees T1, T2 and colours. Blocks are cut
// on element boundaries (⌈count/n⌉ elements); the trees carry alternate
// blocks.
//
// Per busy step a rank makes one MPI_Sendrecv: it sends a finished block to
// its parent and receives a child's partial result of another block, which
// it combines into its accumulator right away (one ⊕ per received block).
// The children of a block arrive in earlier steps than the rank sends it up,
// because a child's broadcast lag is larger than its parent's.
//
// Order: a rank's partial result for a block is the ⊕ of a contiguous range
// of ranks when the trees' root is 0 or p − 1 (seed 002 §2.2): virtual ranks
// are then the real ones shifted by a constant (p − 1: none; 0: by one, the
// root itself at virtual p − 1 and real 0), inorder subtrees are contiguous,
// and a rank computes left child ⊕ own ⊕ right child, "left" meaning the
// lower real rank, whichever child arrives first (associativity). At the
// root the one child per tree is above root 0 and below root p − 1, so the
// same rule puts the root's own input first or last. For another root the
// ranges wrap around, which only a commutative ⊕ tolerates (Theorem 1's "any
// root if commutative"); two_tree_root picks p − 1 otherwise.
//
// Memory: one block of scratch per rank besides the accumulator.
#pragma once

#include <cstdint>

#include "algorithm.hpp"

#ifdef COLLSIM_RANK
#include "collective.hpp"
#endif

namespace collsim::sim {

// The reduction's time for the schedule's S steps of ⌈m/n⌉-byte blocks with
// ⊕ at γ per byte (derivation in reduce_two_tree.cpp); 0 for p = 1 or m = 0.
double two_tree_reduce_model(const Net& net, int64_t p, int64_t bytes, int64_t blocks);

#ifdef COLLSIM_RANK
// Reduces every rank's `acc` (count elements of a.type, a.blocks blocks) up
// the trees rooted at `tree_root`; on return tree_root's acc holds the
// result (the other ranks' acc is scratch). If a.root ≠ tree_root, tree_root
// also sends each finished block to a.root, which receives it into `out`.
void two_tree_reduce(const CollArgs& a, int tree_root, char* acc, char* out);

// The root the trees must use so that a.op's result comes out in rank order.
int two_tree_root(const CollArgs& a);
#endif  // COLLSIM_RANK

}  // namespace collsim::sim
