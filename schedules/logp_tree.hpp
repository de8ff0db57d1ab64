// The LogP-optimal broadcast tree (Karp, Sahay, Santos and Schauser,
// "Optimal broadcast and summation in the LogP model", SPAA 1993) on
// virtual ranks 0 .. p − 1 (root 0; a real rank is virtual_rank(rank, root,
// p)).
//
// Model. Time counts in units of a sender's gap: a rank sends at most once
// a unit (max(o, g), or the NIC's m·G where that is longer). A send started
// at t lets its receiver start sending at t + lag, lag >= 1 (o + L + m·G + o
// over the gap; sim::Net::tree_lag). Every rank that holds the data sends
// to a new rank as often as it can, the largest subtree first: the greedy
// schedule, which Karp et al. prove optimal (their "universal" tree).
//
// Count. C(t), the ranks that a rank ready at 0 reaches by t, itself
// included: 1 for t < lag; else C(t − lag) + C(t − 1), its first child
// (ready at lag) reaching C(t − lag) and itself, free again at 1, C(t − 1).
// T, the broadcast's time, is the least t = a + b·lag (a, b >= 0 integers)
// with C(T) >= p. lag = 1 gives C(t) = 2^t: the binomial tree's ⌈log2 p⌉.
//
// Shape. The ranks of an interval [s, s + n) with budget t are reached from
// s: s sends to s + n − c, c = min(C(t − lag), n − 1), which takes
// [s + n − c, s + n) with budget t − lag, and keeps [s, s + n − c) with
// budget t − 1; n <= C(t) keeps both parts within their counts. Budgets are
// T − i − j·lag (i gaps and j lags spent), so C lives on a table of (i, j).
//
//   lag = 2, p = 8: C = 1, 1, 2, 3, 5, 8 at t = 0 .. 5, so T = 5.
//   0 sends to 5 (gets [5, 8)), 3 ([3, 5)), 2, 1 at t = 0, 1, 2, 3;
//   5 (ready at 2) to 7, 6 at 2, 3; 3 (ready at 3) to 4. Ready times:
//   5: 2, 3: 3, 2: 4, 1: 5, 7: 4, 6: 5, 4: 5; the last at T = 5.
//
// Cost: O(T²/lag) to build (a table of budgets), O(T) per rank after.
// Limits: 1 <= p <= 2^31 − 1, 1 <= lag <= 2^16 and a table of at most
// 2^24 budgets (checked before allocating; std::invalid_argument past them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace collsim {

// The largest lag a LogP tree takes.
inline constexpr double kMaxLag = 65536;

class LogPTree {
 public:
  LogPTree(int64_t p, double lag);

  // T, in gaps: the time at which the last rank is ready.
  double time() const { return static_cast<double>(a0_) + static_cast<double>(b0_) * lag_; }
  // v's parent (-1 at the root) and its children in send order (largest
  // subtree first); the child sent to k-th (from 0) is ready at v's ready
  // time + k + lag. One walk from the root finds both.
  struct Links {
    int64_t parent;
    std::vector<int64_t> children;
  };
  Links links(int64_t v) const;
  int64_t parent(int64_t v) const;
  std::vector<int64_t> children(int64_t v) const { return links(v).children; }

  int64_t p() const { return p_; }
  double lag() const { return lag_; }

 private:
  struct Walk;
  // The ranks reached from a rank with budget T − i − j·lag, capped at p.
  int64_t reach(int64_t i, int64_t j) const { return table_[static_cast<size_t>(i * cols_ + j)]; }
  bool fill(int64_t a, int64_t b);  // the table for T = a + b·lag; C(T) >= p?
  Walk walk_to(int64_t v) const;

  int64_t p_;
  double lag_;
  int64_t a0_ = 0, b0_ = 0, rows_ = 0, cols_ = 0;
  std::vector<int64_t> table_;
};

}  // namespace collsim
