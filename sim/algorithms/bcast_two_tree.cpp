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
// Limits: any p, any root, any n ≥ 1; no ⊕; needs full duplex to reach the
// cost. Memory: none beyond the buffer; O(log² p) setup per rank (a rank's
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
#include <algorithm>

#include "collective.hpp"
#include "two_tree.hpp"

namespace collsim::sim {

namespace {

// Log colour of the root edge of the tree that carries block n − 1: the
// tree with the smaller maximum lag (header comment).
int last_tree_color(int64_t p) { return (p & (p - 1)) == 0 ? 1 : 0; }

// 1 if every colour is complemented, so that block n − 1, sent in step
// n − 1, goes down that tree.
int flip(int64_t p, int64_t n) { return static_cast<int>((n - 1) & 1) ^ last_tree_color(p); }

// A child gets a block one step after its parent if their in-edges differ
// in colour, else two: its edge is idle in the step between.
int64_t child_lag(int64_t lag, int color, int child_color) { return lag + 1 + (color == child_color); }

// Step lag of `rank` in `tree` (its tree root's is 0), walking up.
int64_t lag_of(const TwoTree& tt, int tree, int64_t rank) {
  int64_t lag = 0;
  int color = tt.log_color(tree, rank);
  for (int64_t up = tt.parent(tree, rank); up != tt.root(); up = tt.parent(tree, up)) {
    const int up_color = tt.log_color(tree, up);
    lag = child_lag(lag, up_color, color);
    color = up_color;
  }
  return lag;
}

// A rank's edge used in the steps of one parity: block s − lag moves in step s.
struct Edge {
  int64_t peer = -1;  // real rank; -1: no edge of this colour
  int64_t lag = 0;
  // The block moving in step s, or -1.
  int64_t block(int64_t s, int64_t n) const {
    const int64_t b = s - lag;
    return peer >= 0 && b >= 0 && b < n ? b : -1;
  }
};

// The rank's receive and send edge per step parity (= colour after `flip`).
struct Plan {
  Edge in[2], out[2];
};

Plan plan_of(const TwoTree& tt, int64_t rank, int flipped) {
  Plan plan;
  for (int tree = 1; tree <= 2; ++tree) {
    int color = -1;  // the root: its children are tree roots, lag 0
    int64_t lag = 0;
    if (rank != tt.root()) {
      color = tt.log_color(tree, rank);
      lag = lag_of(tt, tree, rank);
      plan.in[color ^ flipped] = {tt.parent(tree, rank), lag};
    }
    int64_t kids[2];
    const int count = tt.children(tree, rank, kids);
    for (int i = 0; i < count; ++i) {
      const int c = tt.log_color(tree, kids[i]);
      plan.out[c ^ flipped] = {kids[i], color < 0 ? 0 : child_lag(lag, color, c)};
    }
  }
  return plan;
}

// Largest lag in the subtree of `rank` (in-edge colour `color`, lag `lag`).
int64_t max_lag(const TwoTree& tt, int tree, int64_t rank, int color, int64_t lag) {
  int64_t kids[2];
  const int count = tt.children(tree, rank, kids);
  int64_t most = lag;
  for (int i = 0; i < count; ++i) {
    const int c = tt.log_color(tree, kids[i]);
    most = std::max(most, max_lag(tt, tree, kids[i], c, child_lag(lag, color, c)));
  }
  return most;
}

// S of the header comment.
int64_t steps(int64_t p, int64_t n) {
  const TwoTree tt(p, p - 1);
  int64_t last = 0;
  for (int tree = 1; tree <= 2; ++tree) {
    const int64_t root = tt.tree_root(tree);
    const int color = tt.log_color(tree, root);
    const int64_t final_block = color == last_tree_color(p) ? n - 1 : n - 2;
    if (final_block >= 0) last = std::max(last, final_block + max_lag(tt, tree, root, color, 0));
  }
  return last + 1;
}

}  // namespace

void bcast_two_tree(const CollArgs& a) {
  int p = 0, rank = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &rank);
  if (p == 1 || a.bytes == 0) return;
  const int64_t n = a.blocks;
  const TwoTree tt(p, a.root);
  const Plan plan = plan_of(tt, rank, flip(p, n));
  const int64_t end = n + std::max({plan.in[0].lag, plan.in[1].lag, plan.out[0].lag, plan.out[1].lag});
  for (int64_t s = 0; s < end; ++s) {
    const Edge &to = plan.out[s & 1], &from = plan.in[s & 1];
    const int64_t sb = to.block(s, n), rb = from.block(s, n);
    if (sb < 0 && rb < 0) continue;  // idle: no message, no waiting
    const Span out = block_span(a.bytes, n, std::max<int64_t>(sb, 0));
    const Span in = block_span(a.bytes, n, std::max<int64_t>(rb, 0));
    MPI_Sendrecv(at(a.buf, out.begin), sb < 0 ? 0 : out.count(), MPI_BYTE,
                 sb < 0 ? MPI_PROC_NULL : static_cast<int>(to.peer), 0, at(a.buf, in.begin),
                 rb < 0 ? 0 : in.count(), MPI_BYTE, rb < 0 ? MPI_PROC_NULL : static_cast<int>(from.peer), 0,
                 a.comm, MPI_STATUS_IGNORE);
  }
}

double model_bcast_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  if (p < 2 || bytes == 0) return 0;
  return static_cast<double>(steps(p, blocks)) * net.message((bytes + blocks - 1) / blocks);
}

}  // namespace collsim::sim
