// two-tree: the pipelined two-tree broadcast of Sanders, Speck, Träff (seed
// 002, §2 and §2.1) on the trees T1, T2 of schedules/two_tree.hpp and their
// per-rank colouring TwoTree::log_color (Lemma 1).
//
// Schedule. The message is cut into n blocks. Block b leaves the broadcast
// root in step b, down the tree whose root edge has colour b mod 2 (the
// root's two out-edges differ in colour), so the trees carry alternate
// blocks, about m/2 bytes each. An edge of colour c is used only in steps of
// parity c, and a rank passes each block on at the first step of its child
// edge's colour after it got it: with lag(tree root) = 0 and
//   lag(child) = lag(rank) + 1 if the two in-edges' colours differ, + 2 if equal,
// a rank gets block b of a tree in step b + lag and its child gets it in
// step b + lag(child). Lemma 1 makes this one-ported: a rank's in-edges (one
// per tree) differ in colour, and so do its out-edges in both trees together
// (at most two), so per step it receives at most one block and sends at most
// one; full duplex lets it do both at once.
//
// Which tree gets the last block. The other tree's last block leaves the
// root a step earlier, so block n − 1 should go down the tree with the
// smaller maximum lag. Complementing every colour (still a Lemma 1
// colouring) swaps the parities of the two trees, so the schedule can pick
// that tree for either parity of n. Which tree it is depends on p only: the
// one whose root edge has log colour 0, except for p a power of two, where
// it is the one with colour 1 (found and checked for every p ≤ 100,000 by
// computing both maximum lags; a wrong pick would cost a step, and the model
// below, which computes the lags, would still match the schedule).
// Against plain alternation from the colour-0 tree this saves a step for
// even n at 3,165 of the p ≤ 5,000 and for odd n at powers of two, and it
// makes the step count below exact under SMPI, which runs the steps as data
// flow without a clock: with plain alternation at p = 2^k − 2 and even n,
// the last block crosses a two-step lag in which both ends are idle, one
// step early.
//
// Cost: S steps of one block, S (α + β(⌈m/n⌉ + 16)) with
//   S = max(n − 1 + Λ_L, n − 2 + Λ_E) + 1   (S = 1 + Λ_L for n = 1),
// Λ_L, Λ_E the maximum lags of the tree carrying block n − 1 and the other.
// S − n ≤ 2⌈log2 p⌉ − 2 (checked for p ≤ 3,000; S = n for p = 2):
// the paper's time (n + 2h − 2)(α + βm/n), see below. Exact on a full-duplex
// α-β network when all blocks have ⌈m/n⌉ bytes: for every p ≤ 3,000 and n in
// {1, 2, 3, 4, 7, 8, 9, 33, 64} against a data-flow simulation of this
// schedule, and under SMPI for p in {2..7, 9, 10, 14, 17, 30, 33, 62, 100,
// 126}, n in {1, 2, 3, 8, 9}, all but one case: p = 3, n = 1 takes 2 steps,
// not 3 (the tree root waits a step for its one child edge's colour while
// nothing else moves). Shorter last blocks make the time slightly smaller.
// Code: the per-rank plan (lags, edges per parity) and S live in
// two_tree_steps.{hpp,cpp}, shared with two-tree reduce and allreduce.
// Limits: any p, any root, any n ≥ 1; no ⊕; needs full duplex to reach the
// cost. Memory: O(n) steps per rank, one block each way for the
// messages; O(log² p) setup per rank (a rank's
// lag walks up its two trees); the model visits all p ranks, O(p log p).
//
// Reading the paper (§2, the paragraph after step 5 of the construction):
// - The printed time "2[2(h−1)α + 4√((h−1)α)√(βm/2) + 2βm/2] =
//   4(h−1)α + 4√((h−1)α)√(βm/2) + βm" is no identity (the left side expands
//   to 4(h−1)α + 8√(…) + 2βm). Read as intended: each tree runs the
//   section's pipelined binary tree, 2(h + N − 1) steps for N blocks, on
//   N = n/2 blocks of m/n bytes, both trees at once: (n + 2h − 2) steps of
//   α + βm/n, whose minimum over n is 2(h − 1)α + 4√((h − 1)α)√(βm/2) + βm,
//   the printed right side with 2(h − 1)α, not 4(h − 1)α. A level costs 1
//   or 2 steps here (edge colours), never more, so the latency is that of
//   one pipelined binary tree, not twice it.
// - h is ⌈log2 p⌉, not the printed smallest h with 2^h ≥ p − 1: T2 has
//   labels up to p, one more than T1 (as for the tree size P, README.md);
//   p = 17 needs S − n = 7 > 2·4 − 2.
// - The model uses the exact maximum lags, not the bound 2h − 2: p = 17
//   has S − n = 7 < 2·5 − 2.
//
// Example, p = 5, root 4, n = 4: T1 is 4 → 3 → 1 → {0, 2}, T2 is
// 4 → 2 → {0 → 1, 3}; T2 carries blocks 0 and 2, T1 blocks 1 and 3.
// "u→v b" is block b sent from u to v; 7 = n + 3 steps.
//   step 0: 4→2 b0
//   step 1: 4→3 b1   2→0 b0
//   step 2: 4→2 b2   2→3 b0   3→1 b1
//   step 3: 4→3 b3   2→0 b2   0→1 b0   1→2 b1
//   step 4:          2→3 b2   3→1 b3   1→0 b1
//   step 5:                   0→1 b2   1→2 b3
//   step 6:                            1→0 b3
// Runs as its plan (algorithms/bcast/) through the plan executor
// (sim/rank/plan_executor.hpp); this file holds its cost model.
#include <algorithm>

#include "algorithm.hpp"
#include "two_tree_steps.hpp"
#include "plan_families.hpp"

namespace collsim::sim {

double model_bcast_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  if (p < 2 || bytes == 0) return 0;
  return static_cast<double>(two_tree_step_count(p, blocks)) * net.message((bytes + blocks - 1) / blocks);
}

}  // namespace collsim::sim

namespace collsim::plan {

// two-tree (bcast_two_tree.cpp): the busy steps of two_tree_steps.hpp's
// per-rank plan, one MPI_Sendrecv each (idle steps send nothing and are no
// step). At most two_tree_step_count(p, n) rounds.
Plan bcast_two_tree(int64_t p, int64_t root, int64_t blocks) {
  if (p == 1) return no_steps(bcast_header(p, root, blocks));
  const TwoTree tt(p, root);
  return streamed(bcast_header(p, root, blocks), [=](int64_t rank) {
    const sim::StepPlan plan = sim::two_tree_bcast_plan(tt, rank, blocks);
    return rounds(0, plan.end(blocks),
                  [plan, blocks, rank](int64_t i, Step& step) { two_tree_step(plan, blocks, rank, false, i, step); });
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_bcast_two_tree{
    kExactModel,
    "alternate blocks down two coloured binary trees (Sanders, Speck, Traeff): <=(n+2q-2)(a+b*m/n)",
    model_bcast_two_tree, plan::bcast_two_tree};

}  // namespace collsim::sim
