// The LogP-optimal broadcast tree; the rules and a worked example are in
// logp_tree.hpp.
#include "logp_tree.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "circulant.hpp"  // kMaxProcs, ceil_log2

namespace collsim {

namespace {
constexpr int64_t kMaxTable = int64_t{1} << 24;
}  // namespace

struct LogPTree::Walk {
  int64_t start, n;  // the interval [start, start + n) reached from start
  int64_t i, j;      // start's budget: T − i − j·lag
  int64_t parent;
};

LogPTree::LogPTree(int64_t p, double lag) : p_(p), lag_(lag) {
  if (p < 1 || p > kMaxProcs) throw std::invalid_argument("p = " + std::to_string(p) + " is out of range [1, 2^31 - 1]");
  if (!(lag >= 1 && lag <= kMaxLag))
    throw std::invalid_argument("LogP tree lag " + std::to_string(lag) + " is out of range [1, 65536]");
  // The binomial schedule in rounds of `lag` reaches p by ⌈log2 p⌉·lag, the
  // flat one by p − 2 + lag: T is at most the smaller, and the table for it
  // the largest one built.
  const int64_t q = ceil_log2(p);
  const double most = std::min(static_cast<double>(q) * lag, p < 2 ? 0.0 : static_cast<double>(p - 2) + lag);
  if ((std::floor(most) + 2) * (std::floor(most / lag) + 2) > static_cast<double>(kMaxTable))
    throw std::invalid_argument("LogP tree at p = " + std::to_string(p) + " with lag " + std::to_string(lag) +
                                ": its table of budgets would pass 2^24 entries");
  // The least T = a + b·lag with C(T) >= p: for each b the least a (C grows
  // with a), then the least of those.
  int64_t best_a = -1, best_b = -1;
  for (int64_t b = 0; static_cast<double>(b) * lag <= most; ++b) {
    int64_t lo = 0, hi = static_cast<int64_t>(std::floor(most - static_cast<double>(b) * lag)) + 1;
    if (!fill(hi, b)) continue;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (fill(mid, b))
        hi = mid;
      else
        lo = mid + 1;
    }
    if (best_a < 0 || static_cast<double>(lo) + static_cast<double>(b) * lag <
                          static_cast<double>(best_a) + static_cast<double>(best_b) * lag)
      best_a = lo, best_b = b;
  }
  if (best_a < 0 || !fill(best_a, best_b)) throw std::logic_error("LogPTree: no budget reaches p");
  a0_ = best_a, b0_ = best_b;
}

bool LogPTree::fill(int64_t a, int64_t b) {
  const double t_max = static_cast<double>(a) + static_cast<double>(b) * lag_;
  rows_ = static_cast<int64_t>(std::floor(t_max)) + 2;
  cols_ = static_cast<int64_t>(std::floor(t_max / lag_)) + 2;
  table_.assign(static_cast<size_t>(rows_ * cols_), 1);
  for (int64_t i = rows_ - 1; i >= 0; --i)
    for (int64_t j = cols_ - 1; j >= 0; --j) {
      // t − lag = (a − i) + (b − j − 1)·lag: below 0, no child is ready in time.
      if (static_cast<double>(a - i) + static_cast<double>(b - j - 1) * lag_ < 0) continue;
      table_[static_cast<size_t>(i * cols_ + j)] = std::min(p_, reach(i + 1, j) + reach(i, j + 1));
    }
  return reach(0, 0) >= p_;
}

LogPTree::Walk LogPTree::walk_to(int64_t v) const {
  Walk w{0, p_, 0, 0, -1};
  while (w.start != v) {  // n >= 2 here, so start has time for a child
    const int64_t c = std::min(reach(w.i, w.j + 1), w.n - 1);
    const int64_t child = w.start + w.n - c;
    if (v >= child) {
      w = Walk{child, c, w.i, w.j + 1, w.start};
    } else {
      w.n -= c;
      ++w.i;
    }
  }
  return w;
}

int64_t LogPTree::parent(int64_t v) const { return walk_to(v).parent; }

LogPTree::Links LogPTree::links(int64_t v) const {
  Walk w = walk_to(v);
  Links l{w.parent, {}};
  while (w.n > 1) {
    const int64_t c = std::min(reach(w.i, w.j + 1), w.n - 1);
    l.children.push_back(w.start + w.n - c);
    w.n -= c;
    ++w.i;
  }
  return l;
}

}  // namespace collsim
