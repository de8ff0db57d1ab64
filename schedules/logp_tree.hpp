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
// Degree bound d (the pipelined tree, LogPTree(p, lag, d)): a rank sends to
// at most d children. The count gains the sends left, k: C(t, k) = 1 for
// t < lag or k = 0; else C(t − lag, d) + C(t − 1, k − 1), and the shape
// splits the same intervals, the kept part with one send fewer. Sending at
// once stays optimal (C grows with t), so T is still the least budget with
// C(T, d) >= p.
//
// Pipeline (pipeline_time). n blocks go down the tree one after another: a
// rank sends block j to its children in order, as soon as it holds block j
// and has sent block j − 1 to all of them. A rank gets block j at
// ready + j·P, P the most children of any rank above it (the root's blocks
// are all there at 0): where a rank has more children than its period, it
// sends every d_v gaps instead. So n blocks take max over v of
// ready(v) + (n − 1)·P(v) gaps. (The largest subtree first need not leave
// the root the most children: p = 5, lag 1, d 2 sends [1, 5) to 1 and 1
// has two children, the root one.) A receiver's o is in the lag, not in
// the period: where the CPU, not the NIC, sets the gap, a forwarding rank
// also spends o a block receiving, which this count leaves out.
//
//   lag 2, p 8, d 2: C(t, 2) = 1, 1, 2, 3, 4, 6, 8 at t = 0 .. 6, T = 6
//   (one gap more than unbounded). 0 sends to 4 ([4, 8), budget 4), then 1
//   ([1, 4), budget 3); 4 to 6, 5; 1 to 3, 2; 6 to 7. Ready: 4: 2, 1: 3,
//   6: 4, 5: 5, 3: 5, 2: 6, 7: 6.
//
// Cost: O(T²/lag) to build (a table of budgets; times d + 1 with a bound)
// once T is known; finding T, once a process per (p, lag, d), fills up to
// T/lag + log2 T such tables. O(T) per rank after.
// Limits: 1 <= p <= 2^31 − 1, 1 <= lag <= 2^16, d >= 2 (d = 1, a chain, is
// linear-pipeline's) and a table of at most 2^24 entries (checked before
// allocating; std::invalid_argument past them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace collsim {

// The largest lag a LogP tree takes.
inline constexpr double kMaxLag = 65536;
// No degree bound: the tree of Karp et al.
inline constexpr int64_t kAnyDegree = 0;

class LogPTree {
 public:
  // Throws std::invalid_argument past the limits above.
  LogPTree(int64_t p, double lag, int64_t max_children = kAnyDegree);
  // Whether LogPTree(p, lag, max_children) is within the table limit
  // (kAnyDegree: always); nothing is built.
  static bool buildable(int64_t p, double lag, int64_t max_children);

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
  // n blocks pipelined down the tree (above), in gaps; time() for n = 1.
  double pipeline_time(int64_t blocks) const;

 private:
  struct Walk;
  // The ranks reached from a rank with budget T − i − j·lag and k sends
  // left (layer 0 without a bound), capped at p.
  int64_t reach(int64_t i, int64_t j, int64_t k) const {
    return table_[static_cast<size_t>((k * rows_ + i) * cols_ + j)];
  }
  int64_t full() const { return layers_ - 1; }           // a rank's sends before its first
  int64_t fewer(int64_t k) const { return d_ > 0 ? k - 1 : k; }  // after one send
  bool fill(int64_t a, int64_t b);  // the table for T = a + b·lag; C(T) >= p?
  // T as a + b·lag (a, b >= 0); a = -1 where no budget within `most` reaches p.
  struct Budget {
    int64_t a, b;
  };
  // The least T = a + b·lag with C(T) >= p, T <= most: per b the least a
  // (C grows with a) by bisection, the least T kept (ties: the least b). A
  // b is bisected only where its largest a below the best T so far reaches
  // p, so it costs one fill otherwise (with an integer lag, every b after
  // the first). Leaves the table filled for some budget.
  Budget least_budget(double most);
  // search()'s budget, kept per (p, lag, d) for the process: an SMPI run
  // builds one plan per rank, all ranks in one process, and the pipeline's
  // degree search builds a tree for every bound it tries (at p = 4,096 on
  // alphabeta each rank's searches took 20 ms, most of a 172 s run).
  static Budget known_budget(int64_t p, double lag, int64_t d, const std::function<Budget()>& search);
  Walk walk_to(int64_t v) const;
  std::vector<Walk> children_of(Walk w) const;  // w's children in send order, each at its start

  int64_t p_;
  double lag_;
  int64_t d_;  // the degree bound; kAnyDegree: none
  int64_t layers_;  // d + 1 with a bound, else 1
  int64_t a0_ = 0, b0_ = 0, rows_ = 0, cols_ = 0;
  std::vector<int64_t> table_;
};

// The degree bound of the tree that pipelines n blocks at this lag:
// among bounds 2, 3, ..., the one with the least pipeline_time, searched up
// to the bound whose T is the unbounded tree's (a larger one cannot
// shorten the fill, only lengthen the period) and at most 64, skipping
// bounds whose table passes the limit. The builder and the model both ask
// here, so they agree; `time` is that tree's pipeline_time(n). Throws
// std::invalid_argument where no bound's table is within the limit.
struct PipelineChoice {
  int64_t degree;
  double time;
};
PipelineChoice pipeline_degree(int64_t p, double lag, int64_t blocks);

}  // namespace collsim
