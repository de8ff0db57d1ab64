// The GOAL schedule check; the rules and an example are in goal_check.hpp.
#include "goal_check.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

namespace collsim {

namespace {

using goal::kAny;
using goal::Op;
using goal::OpKind;

// A channel: sender, receiver, tag; its sends and receives in file order.
using ChannelKey = std::tuple<uint32_t, uint32_t, uint32_t>;
struct Channel {
  std::vector<int64_t> sends, recvs;
};

class Checker {
 public:
  explicit Checker(const goal::Schedule& s) : s_(s), seen_(s.ops.size(), 0) {}

  GoalReport run() {
    GoalReport report;
    report.operations = static_cast<int64_t>(s_.ops.size());
    for (const Channel* c : channels()) report.messages += static_cast<int64_t>(c->sends.size());
    if (!report.failure) report.failure = wildcard();
    if (!report.failure) report.failure = unmatched();
    if (!report.failure) report.failure = overtaking();
    if (!report.failure) report.failure = truncation();
    if (!report.failure) report.failure = deadlock();
    return report;
  }

 private:
  int64_t rank_of(int64_t op) const {
    return std::upper_bound(s_.first_op.begin(), s_.first_op.end(), op) - s_.first_op.begin() - 1;
  }

  std::string what(int64_t op) const {
    const Op& o = s_.ops[size_t(op)];
    const auto num = [](uint32_t v) { return v == kAny ? std::string("-1") : std::to_string(v); };
    if (o.kind == OpKind::calc) return "calc " + std::to_string(o.size);
    return std::string(o.kind == OpKind::send ? "send " : "recv ") + std::to_string(o.size) + "b " +
           (o.kind == OpKind::send ? "to " : "from ") + num(o.peer) + " tag " + num(o.tag);
  }

  // "rank R operation K (send 8b to 1 tag 0)".
  std::string named(int64_t op) const {
    const int64_t r = rank_of(op);
    return "rank " + std::to_string(r) + " operation " + std::to_string(op - s_.first_op[size_t(r)] + 1) + " (" +
           what(op) + ")";
  }

  GoalFailure failure(int64_t op, const char* rule, std::string detail) const {
    const int64_t r = rank_of(op);
    return {r, op - s_.first_op[size_t(r)] + 1, rule, std::move(detail)};
  }

  std::vector<const Channel*> channels() {
    if (channels_.empty()) {
      for (int64_t r = 0; r < s_.ranks; ++r)
        for (int64_t i = s_.first_op[size_t(r)]; i < s_.first_op[size_t(r) + 1]; ++i) {
          const Op& o = s_.ops[size_t(i)];
          if (o.kind == OpKind::send) channels_[{uint32_t(r), o.peer, o.tag}].sends.push_back(i);
          if (o.kind == OpKind::recv) channels_[{o.peer, uint32_t(r), o.tag}].recvs.push_back(i);
        }
    }
    std::vector<const Channel*> all;
    for (const auto& kv : channels_) all.push_back(&kv.second);
    return all;
  }

  std::optional<GoalFailure> wildcard() const {
    for (size_t i = 0; i < s_.ops.size(); ++i) {
      const Op& o = s_.ops[i];
      if (o.kind == OpKind::recv && (o.peer == kAny || o.tag == kAny))
        return failure(int64_t(i), "wildcard",
                       "a receive from any source or tag matches whichever send comes first; name both to verify");
    }
    return std::nullopt;
  }

  std::optional<GoalFailure> unmatched() const {
    for (const auto& [key, c] : channels_) {
      if (c.sends.size() == c.recvs.size()) continue;
      const bool more_sends = c.sends.size() > c.recvs.size();
      const int64_t op = more_sends ? c.sends[c.recvs.size()] : c.recvs[c.sends.size()];
      return failure(op, "unmatched",
                     std::to_string(c.sends.size()) + " sends from rank " + std::to_string(std::get<0>(key)) +
                         " to rank " + std::to_string(std::get<1>(key)) + " with tag " +
                         std::to_string(std::get<2>(key)) + " against " + std::to_string(c.recvs.size()) +
                         " receives: this " + (more_sends ? "send" : "receive") + " has no partner");
    }
    return std::nullopt;
  }

  // Does `to` start only after `from` has started, by the rank's own
  // dependencies? A search over what waits for `from`.
  bool ordered(int64_t from, int64_t to) {
    if (++stamp_ == 0) std::fill(seen_.begin(), seen_.end(), 0), stamp_ = 1;
    std::vector<int64_t> todo{from};
    seen_[size_t(from)] = stamp_;
    while (!todo.empty()) {
      const int64_t op = todo.back();
      todo.pop_back();
      for (const goal::Dependents* d : {&s_.after_done, &s_.after_start})
        for (const int64_t* x = d->first(op); x != d->last(op); ++x) {
          if (*x == to) return true;
          if (seen_[size_t(*x)] != stamp_) seen_[size_t(*x)] = stamp_, todo.push_back(*x);
        }
    }
    return false;
  }

  // Two operations of one channel, consecutive in file order, unordered and
  // of different sizes: either may be posted, and so matched, first.
  std::optional<GoalFailure> unordered_pair(const std::vector<int64_t>& ops, const char* kind) {
    for (size_t k = 1; k < ops.size(); ++k) {
      const int64_t a = ops[k - 1], b = ops[k];
      if (s_.ops[size_t(a)].size == s_.ops[size_t(b)].size || ordered(a, b)) continue;
      return failure(b, "overtaking",
                     std::string("nothing orders it after ") + named(a) + ", a " + kind +
                         " of the same channel and another size: MPI matches in posting order, which either may win");
    }
    return std::nullopt;
  }

  std::optional<GoalFailure> overtaking() {
    for (const auto& kv : channels_) {
      if (auto f = unordered_pair(kv.second.sends, "send")) return f;
      if (auto f = unordered_pair(kv.second.recvs, "receive")) return f;
    }
    return std::nullopt;
  }

  std::optional<GoalFailure> truncation() const {
    for (const auto& kv : channels_)
      for (size_t k = 0; k < kv.second.sends.size(); ++k) {
        const int64_t send = kv.second.sends[k], recv = kv.second.recvs[k];
        if (s_.ops[size_t(send)].size > s_.ops[size_t(recv)].size)
          return failure(recv, "truncation", "it matches " + named(send) + ", a larger message");
      }
    return std::nullopt;
  }

  // The wait graph on 2 nodes an operation (start 2i, end 2i + 1), as
  // predecessor lists: node v waits for every node of pred[v].
  std::vector<std::vector<int64_t>> waits() const {
    const size_t n = s_.ops.size();
    std::vector<std::vector<int64_t>> pred(2 * n);
    for (size_t i = 0; i < n; ++i) {
      pred[2 * i + 1].push_back(int64_t(2 * i));
      for (const int64_t* x = s_.after_done.first(int64_t(i)); x != s_.after_done.last(int64_t(i)); ++x)
        pred[size_t(2 * *x)].push_back(int64_t(2 * i + 1));
      for (const int64_t* x = s_.after_start.first(int64_t(i)); x != s_.after_start.last(int64_t(i)); ++x)
        pred[size_t(2 * *x)].push_back(int64_t(2 * i));
    }
    for (const auto& kv : channels_)
      for (size_t k = 0; k < kv.second.sends.size(); ++k) {
        const size_t send = size_t(kv.second.sends[k]), recv = size_t(kv.second.recvs[k]);
        pred[2 * recv + 1].push_back(int64_t(2 * send));  // a receive ends after its send starts
        pred[2 * send + 1].push_back(int64_t(2 * recv));  // a send may wait for its receive
      }
    return pred;
  }

  std::optional<GoalFailure> deadlock() const {
    const std::vector<std::vector<int64_t>> pred = waits();
    const size_t nodes = pred.size();
    std::vector<std::vector<int64_t>> succ(nodes);
    std::vector<int64_t> waiting(nodes);
    for (size_t v = 0; v < nodes; ++v) {
      waiting[v] = int64_t(pred[v].size());
      for (int64_t u : pred[v]) succ[size_t(u)].push_back(int64_t(v));
    }
    std::vector<int64_t> free;
    for (size_t v = 0; v < nodes; ++v)
      if (waiting[v] == 0) free.push_back(int64_t(v));
    while (!free.empty()) {
      const int64_t u = free.back();
      free.pop_back();
      for (int64_t v : succ[size_t(u)])
        if (--waiting[size_t(v)] == 0) free.push_back(v);
    }
    const auto stuck = std::find_if(waiting.begin(), waiting.end(), [](int64_t w) { return w > 0; });
    if (stuck == waiting.end()) return std::nullopt;
    return cycle_through(pred, waiting, stuck - waiting.begin());
  }

  // A stuck node waits for a stuck node: walking back from one must come
  // round; the operations of that cycle, in wait order.
  GoalFailure cycle_through(const std::vector<std::vector<int64_t>>& pred, const std::vector<int64_t>& waiting,
                            int64_t v) const {
    std::vector<int64_t> path;
    std::vector<size_t> at(pred.size(), SIZE_MAX);
    while (at[size_t(v)] == SIZE_MAX) {
      at[size_t(v)] = path.size();
      path.push_back(v);
      v = *std::find_if(pred[size_t(v)].begin(), pred[size_t(v)].end(),
                        [&](int64_t u) { return waiting[size_t(u)] > 0; });
    }
    std::vector<int64_t> ops;
    for (size_t k = at[size_t(v)]; k < path.size(); ++k)
      if (ops.empty() || ops.back() != path[k] / 2) ops.push_back(path[k] / 2);
    if (ops.size() > 1 && ops.back() == ops.front()) ops.pop_back();
    std::string chain = named(ops.front());
    for (size_t k = 1; k < ops.size() && k < 8; ++k) chain += " waits for " + named(ops[k]);
    chain += ops.size() > 8 ? " ... and back" : " waits for " + named(ops.front());
    return failure(ops.front(), "deadlock", "a cycle of waits: " + chain);
  }

  const goal::Schedule& s_;
  std::map<ChannelKey, Channel> channels_;
  std::vector<uint32_t> seen_;
  uint32_t stamp_ = 0;
};

}  // namespace

GoalReport check_goal(const goal::Schedule& schedule) { return Checker(schedule).run(); }

std::string describe(const GoalFailure& f) {
  return "rank " + std::to_string(f.rank) + " operation " + std::to_string(f.op) + ": " + f.rule + ": " + f.detail;
}

}  // namespace collsim
