// The LogP-optimal broadcast tree; the rules and a worked example are in
// logp_tree.hpp.
#include "logp_tree.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

#include "circulant.hpp"  // kMaxProcs, ceil_log2

namespace collsim {

namespace {
constexpr int64_t kMaxTable = int64_t{1} << 24;
// known_budget forgets every budget once it holds this many (a sweep over
// p), so that what it keeps stays small.
constexpr size_t kMostBudgetsKept = 4096;
}  // namespace

// The walk needs no count of sends left: n <= C(budget, sends left) holds
// down the walk, so a rank with n >= 2 has one left, and a child's share
// reads the full layer.
struct LogPTree::Walk {
  int64_t start, n;  // the interval [start, start + n) reached from start
  int64_t i, j;      // start's budget: T − i − j·lag
  int64_t parent;
  // start's next child and its share of the interval: the C(t − lag) ranks
  // at its top, as many as remain.
  int64_t next_share(const LogPTree& t) const { return std::min(t.reach(i, j + 1, t.full()), n - 1); }
};

namespace {

// An upper bound on T: the binomial schedule in rounds of `lag` reaches p
// by ⌈log2 p⌉·lag, the flat one by p − 2 + lag; with at most d children a
// rank, a complete d-ary tree whose level takes d − 1 + lag reaches p by
// ⌈log_d p⌉·(d − 1 + lag) (and the binomial one, where d >= ⌈log2 p⌉).
double time_bound(int64_t p, double lag, int64_t d) {
  const double q = ceil_log2(p);
  if (d == kAnyDegree) return std::min(q * lag, p < 2 ? 0.0 : static_cast<double>(p - 2) + lag);
  int64_t levels = 0;
  for (double reached = 1; reached < static_cast<double>(p); reached *= static_cast<double>(d)) ++levels;
  const double d_ary = static_cast<double>(levels) * (static_cast<double>(d) - 1 + lag);
  return static_cast<double>(d) >= q ? std::min(d_ary, q * lag) : d_ary;
}

// Entries of the largest table built for a bound `most` on T.
double table_entries(double most, double lag, int64_t d) {
  return (std::floor(most) + 2) * (std::floor(most / lag) + 2) * static_cast<double>(d == kAnyDegree ? 1 : d + 1);
}

}  // namespace

bool LogPTree::buildable(int64_t p, double lag, int64_t max_children) {
  return table_entries(time_bound(p, lag, max_children), lag, max_children) <= static_cast<double>(kMaxTable);
}

LogPTree::LogPTree(int64_t p, double lag, int64_t max_children)
    : p_(p), lag_(lag), d_(max_children), layers_(max_children == kAnyDegree ? 1 : max_children + 1) {
  if (p < 1 || p > kMaxProcs) throw std::invalid_argument("p = " + std::to_string(p) + " is out of range [1, 2^31 - 1]");
  if (!(lag >= 1 && lag <= kMaxLag))
    throw std::invalid_argument("LogP tree lag " + std::to_string(lag) + " is out of range [1, 65536]");
  if (max_children != kAnyDegree && (max_children < 2 || max_children > kMaxProcs))
    throw std::invalid_argument("LogP tree degree bound " + std::to_string(max_children) +
                                " is out of range [2, 2^31 - 1]");
  // T is at most time_bound, and the table for it the largest one built.
  const double most = time_bound(p, lag, max_children);
  if (table_entries(most, lag, max_children) > static_cast<double>(kMaxTable))
    throw std::invalid_argument("LogP tree at p = " + std::to_string(p) + " with lag " + std::to_string(lag) +
                                ": its table of budgets would pass 2^24 entries");
  const Budget t = known_budget(p, lag, max_children, [this, most] { return least_budget(most); });
  if (t.a < 0 || !fill(t.a, t.b)) throw std::logic_error("LogPTree: no budget reaches p");
  a0_ = t.a, b0_ = t.b;
}

LogPTree::Budget LogPTree::known_budget(int64_t p, double lag, int64_t d, const std::function<Budget()>& search) {
  static std::mutex lock;
  static std::map<std::tuple<int64_t, double, int64_t>, Budget> found;
  const std::tuple<int64_t, double, int64_t> key{p, lag, d};
  {
    const std::lock_guard<std::mutex> hold(lock);
    if (const auto it = found.find(key); it != found.end()) return it->second;
  }
  const Budget t = search();
  const std::lock_guard<std::mutex> hold(lock);
  if (found.size() >= kMostBudgetsKept) found.clear();
  found.emplace(key, t);
  return t;
}

LogPTree::Budget LogPTree::least_budget(double most) {
  const auto value = [this](int64_t a, int64_t b) { return static_cast<double>(a) + static_cast<double>(b) * lag_; };
  Budget best{-1, -1};
  for (int64_t b = 0; static_cast<double>(b) * lag_ <= most; ++b) {
    int64_t lo = 0, hi = static_cast<int64_t>(std::floor(most - static_cast<double>(b) * lag_)) + 1;
    if (best.a >= 0) {  // only a budget below the best can replace it
      const double bound = value(best.a, best.b);
      int64_t below = static_cast<int64_t>(std::ceil(bound - static_cast<double>(b) * lag_)) - 1;
      while (below >= 0 && value(below, b) >= bound) --below;
      while (value(below + 1, b) < bound) ++below;
      hi = std::min(hi, below);
    }
    if (hi < 0 || !fill(hi, b)) continue;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (fill(mid, b))
        hi = mid;
      else
        lo = mid + 1;
    }
    best = {lo, b};
  }
  return best;
}

bool LogPTree::fill(int64_t a, int64_t b) {
  const double t_max = static_cast<double>(a) + static_cast<double>(b) * lag_;
  rows_ = static_cast<int64_t>(std::floor(t_max)) + 2;
  cols_ = static_cast<int64_t>(std::floor(t_max / lag_)) + 2;
  table_.assign(static_cast<size_t>(layers_ * rows_ * cols_), 1);
  // Smaller budgets (larger i, j) first; at one budget, fewer sends left
  // first (layer 0 with a bound is k = 0: no sends left, 1).
  for (int64_t i = rows_ - 1; i >= 0; --i)
    for (int64_t j = cols_ - 1; j >= 0; --j) {
      // t − lag = (a − i) + (b − j − 1)·lag: below 0, no child is ready in time.
      if (static_cast<double>(a - i) + static_cast<double>(b - j - 1) * lag_ < 0) continue;
      for (int64_t k = d_ == kAnyDegree ? 0 : 1; k < layers_; ++k)
        table_[static_cast<size_t>((k * rows_ + i) * cols_ + j)] =
            std::min(p_, reach(i + 1, j, fewer(k)) + reach(i, j + 1, full()));
    }
  return reach(0, 0, full()) >= p_;
}

LogPTree::Walk LogPTree::walk_to(int64_t v) const {
  Walk w{0, p_, 0, 0, -1};
  while (w.start != v) {  // n >= 2 here, so start has time and a send left for a child
    const int64_t c = w.next_share(*this);
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

std::vector<LogPTree::Walk> LogPTree::children_of(Walk w) const {
  std::vector<Walk> kids;
  for (; w.n > 1; w.n -= kids.back().n, ++w.i) {
    const int64_t c = w.next_share(*this);
    kids.push_back(Walk{w.start + w.n - c, c, w.i, w.j + 1, w.start});
  }
  return kids;
}

LogPTree::Links LogPTree::links(int64_t v) const {
  const Walk w = walk_to(v);
  Links l{w.parent, {}};
  for (const Walk& kid : children_of(w)) l.children.push_back(kid.start);
  return l;
}

double LogPTree::pipeline_time(int64_t blocks) const {
  const double later_blocks = static_cast<double>(blocks - 1);
  // Over the subtree of the rank w starts at, whose ancestors have at most
  // `period` children: the latest ready(v) + (n − 1)·P(v), from w's ready
  // time. A subtree is its interval's size, its budget and its period
  // (it starts with all its sends), so equal ones are counted once.
  std::map<std::array<int64_t, 4>, double> known;
  std::function<double(const Walk&, int64_t)> latest = [&](const Walk& w, int64_t period) {
    const std::array<int64_t, 4> key{w.n, w.i, w.j, period};
    if (const auto it = known.find(key); it != known.end()) return it->second;
    const std::vector<Walk> kids = children_of(w);
    const int64_t below = std::max(period, static_cast<int64_t>(kids.size()));
    double last = later_blocks * static_cast<double>(period);
    for (size_t q = 0; q < kids.size(); ++q)
      last = std::max(last, static_cast<double>(q) + lag_ + latest(kids[q], below));
    known.emplace(key, last);
    return last;
  };
  return latest(Walk{0, p_, 0, 0, -1}, 0);
}

PipelineChoice pipeline_degree(int64_t p, double lag, int64_t blocks) {
  constexpr int64_t kMostDegree = 64;
  const double fastest_fill = LogPTree(p, lag).time();
  PipelineChoice best{2, -1};
  for (int64_t d = 2; d <= kMostDegree; ++d) {
    if (!LogPTree::buildable(p, lag, d)) continue;
    const LogPTree tree(p, lag, d);
    const double t = tree.pipeline_time(blocks);
    if (best.time < 0 || t < best.time) best = {d, t};
    if (tree.time() <= fastest_fill) break;
  }
  if (best.time < 0)
    throw std::invalid_argument("LogP tree at p = " + std::to_string(p) + " with lag " + std::to_string(lag) +
                                ": no degree bound's table of budgets stays within 2^24 entries");
  return best;
}

}  // namespace collsim
