#include "two_tree_steps.hpp"

#include <algorithm>
#include <stdexcept>

#include "circulant.hpp"

namespace collsim::sim {

namespace {

// Log colour of the root edge of the tree that carries block n − 1 of the
// broadcast: the tree with the smaller maximum lag (bcast_two_tree.cpp).
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

// K of the header comment: a lag grows by at most 2 per level and a tree of
// labels ≤ p has at most ⌊log2 p⌋ levels below its root.
int64_t lag_bound(int64_t p) { return 2 * static_cast<int64_t>(ceil_log2(p)); }

// The broadcast edge mirrored into a reduction edge (header comment).
StepEdge mirrored(const StepEdge& e, int64_t k) {
  if (e.peer < 0) return {};
  if (e.lag > k) throw std::logic_error("two-tree: lag above its bound");
  return {e.peer, k - e.lag};
}

}  // namespace

int64_t StepPlan::end(int64_t n) const {
  return n + std::max({in[0].lag, in[1].lag, out[0].lag, out[1].lag});
}

StepPlan two_tree_bcast_plan(const TwoTree& tt, int64_t rank, int64_t n) {
  const int flipped = flip(tt.p(), n);
  StepPlan plan;
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

StepPlan two_tree_reduce_plan(const TwoTree& tt, int64_t rank, int64_t n) {
  const StepPlan bcast = two_tree_bcast_plan(tt, rank, n);
  const int64_t k = lag_bound(tt.p());
  const int64_t parity = (k + n - 1) & 1;  // M's: step s ↦ M − s flips parities iff M is odd
  StepPlan plan;
  for (int q = 0; q < 2; ++q) {
    plan.in[q] = mirrored(bcast.out[q ^ parity], k);
    plan.out[q] = mirrored(bcast.in[q ^ parity], k);
  }
  return plan;
}

namespace {

// Per tree, its root's in-edge colour and the largest lag of its ranks,
// which do not depend on n. They cost O(p), and the block policy asks for
// the step count at some 70 values of n for one p (1.5 s at p = 2^20), so
// the last p's are kept (per thread: SMPI ranks may be threads).
struct TreeLags {
  int64_t p = 0;
  int root_color[2] = {};
  int64_t most[2] = {};
};

const TreeLags& tree_lags(int64_t p) {
  thread_local TreeLags last;
  if (last.p == p) return last;
  const TwoTree tt(p, p - 1);
  for (int tree = 1; tree <= 2; ++tree) {
    const int64_t root = tt.tree_root(tree);
    last.root_color[tree - 1] = tt.log_color(tree, root);
    last.most[tree - 1] = max_lag(tt, tree, root, last.root_color[tree - 1], 0);
  }
  last.p = p;
  return last;
}

}  // namespace

int64_t two_tree_step_count(int64_t p, int64_t n) {
  const TreeLags& lags = tree_lags(p);
  int64_t last = 0;
  for (int t = 0; t < 2; ++t) {
    const int64_t final_block = lags.root_color[t] == last_tree_color(p) ? n - 1 : n - 2;
    if (final_block >= 0) last = std::max(last, final_block + lags.most[t]);
  }
  return last + 1;
}

}  // namespace collsim::sim
