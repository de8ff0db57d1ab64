#include "plan_check.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "plan_graph_check.hpp"
#include "plan_values.hpp"

namespace collsim {

namespace {

using namespace plan_detail;

// The progress loop over a validated StepTable, and the values it moves.
class Execution {
 public:
  Execution(const Header& h, const StepTable& table)
      : h_(h), table_(table), values_(h, table), stats_(h.p), start_(h.p), halves_(h.p), inbox_(h.p) {}

  void run() {
    for (int64_t r = 0; r < h_.p; ++r) enter(r);
    for (int64_t r = 0; r < h_.p; ++r) try_match(r);
    while (!worklist_.empty()) {
      const int64_t r = worklist_.back();
      worklist_.pop_back();
      complete(r);
    }
    for (int64_t r = 0; r < h_.p; ++r)
      if (!done(r)) diagnose_stall();
  }

  void check_results() { values_.check_results(); }

  PlanReport report() && {
    for (int64_t r = 0; r < h_.p; ++r) stats_[r].ops = values_.ops(r);
    return summarize(std::move(stats_));
  }

 private:
  // Which halves of a rank's current step have been delivered.
  enum : uint8_t { kSent = 1, kReceived = 2, kBoth = 3 };

  // stats_[r].steps counts completed steps: it is the rank's program counter.
  int64_t pc(int64_t r) const { return stats_[r].steps; }
  bool done(int64_t r) const { return pc(r) == table_.count(r); }
  const FlatStep& current(int64_t r) const { return table_.step(r, pc(r)); }

  // Sets up rank r's current step: the halves it lacks count as delivered,
  // so a fold step is complete at once.
  void enter(int64_t r) {
    if (done(r)) return;
    const FlatStep& s = current(r);
    halves_[r] = 0;
    start_[r] = stats_[r].depth;
    if (s.send_to < 0) mark(r, kSent);
    if (s.recv_from < 0) mark(r, kReceived);
  }

  // Delivers whatever of r's current step meets its partners' current steps.
  void try_match(int64_t r) {
    if (done(r)) return;
    const FlatStep& s = current(r);
    if (!(halves_[r] & kSent) && waits_for(s.send_to, r, &FlatStep::recv_from, kReceived)) deliver(r, s.send_to);
    if (!(halves_[r] & kReceived) && waits_for(s.recv_from, r, &FlatStep::send_to, kSent)) deliver(s.recv_from, r);
  }

  // Does `peer`'s current step have an undelivered `half` with `r`?
  bool waits_for(int64_t peer, int64_t r, int64_t FlatStep::*partner, uint8_t half) const {
    return !done(peer) && current(peer).*partner == r && !(halves_[peer] & half);
  }

  // Rank `from`'s current send meets rank `to`'s current receive.
  void deliver(int64_t from, int64_t to) {
    const FlatStep& s = current(from);
    const BlockList sent = table_.sent(s), expected = table_.received(current(to));
    const auto [mine, theirs] = std::mismatch(sent.begin(), sent.end(), expected.begin(), expected.end());
    if (mine != sent.end() || theirs != expected.end())
      broken(h_, from, pc(from), mine != sent.end() ? *mine : *theirs, "block-mismatch",
             "sends blocks " + str(sent) + " to " + str(to) + ", whose step " + str(pc(to)) + " receives " +
                 str(expected));
    std::vector<Interval>& box = inbox_[to];
    box.clear();
    for (int64_t b : sent) box.push_back(values_.sent_value(from, pc(from), s, b));
    start_[from] = std::max(start_[from], stats_[to].depth);
    start_[to] = std::max(start_[to], stats_[from].depth);
    mark(from, kSent);
    mark(to, kReceived);
  }

  void mark(int64_t r, uint8_t half) {
    halves_[r] |= half;
    if (halves_[r] == kBoth) worklist_.push_back(r);
  }

  // Applies rank r's completed step: received or folded blocks, counters,
  // next step. A fold has no message: it adds no depth.
  void complete(int64_t r) {
    const FlatStep& s = current(r);
    if (s.recv_from >= 0) values_.receive(r, pc(r), s, inbox_[r]);
    if (s.fold()) values_.fold(r, pc(r), s);
    stats_[r].depth = start_[r] + (s.fold() ? 0 : 1);
    ++stats_[r].steps;
    enter(r);
    try_match(r);
  }

  // No rank can move and some are not done: names the first half that can
  // never be delivered, or else the cycle of waiting ranks.
  [[noreturn]] void diagnose_stall() const;
  [[noreturn]] void report_cycle() const;

  const Header& h_;
  const StepTable& table_;
  Values values_;
  std::vector<PlanRankStats> stats_;
  std::vector<int64_t> start_;        // the current step's depth - 1, so far
  std::vector<uint8_t> halves_;       // kSent | kReceived of the current step
  std::vector<std::vector<Interval>> inbox_;  // values delivered to the current step
  std::vector<int64_t> worklist_;     // ranks whose current step is complete
};

void Execution::diagnose_stall() const {
  // Undelivered sends minus undelivered receives per (from, to): where it is
  // not 0, some half has no partner left.
  std::unordered_map<int64_t, int64_t> owed;
  std::unordered_map<int64_t, int64_t> unanswered_sender;  // to -> a from with owed > 0
  auto key = [this](int64_t from, int64_t to) { return from * h_.p + to; };
  auto undelivered = [this](int64_t r, int64_t k, uint8_t half) { return k > pc(r) || !(halves_[r] & half); };
  auto each_open_half = [&](auto&& visit) {
    for (int64_t r = 0; r < h_.p; ++r)
      for (int64_t k = pc(r); k < table_.count(r); ++k) {
        const FlatStep& s = table_.step(r, k);
        if (s.recv_from >= 0 && undelivered(r, k, kReceived)) visit(r, k, s, false);
        if (s.send_to >= 0 && undelivered(r, k, kSent)) visit(r, k, s, true);
      }
  };
  each_open_half([&](int64_t r, int64_t, const FlatStep& s, bool send) {
    owed[send ? key(r, s.send_to) : key(s.recv_from, r)] += send ? 1 : -1;
  });
  for (const auto& [pair, n] : owed)
    if (n > 0) unanswered_sender[pair % h_.p] = pair / h_.p;
  each_open_half([&](int64_t r, int64_t k, const FlatStep& s, bool send) {
    if (send || owed.at(key(s.recv_from, r)) >= 0) return;
    const auto other = unanswered_sender.find(r);
    const int64_t block = *table_.received(s).begin();
    if (other == unanswered_sender.end())
      broken(h_, r, k, block, "unmatched-recv", "receives from " + str(s.recv_from) + ", which sends nothing more here");
    broken(h_, r, k, block, "peer-mismatch", "receives from " + str(s.recv_from) + ", which sends nothing more here, while " +
                                              str(other->second) + " sends here unanswered");
  });
  each_open_half([&](int64_t r, int64_t k, const FlatStep& s, bool send) {
    if (send && owed.at(key(r, s.send_to)) > 0)
      broken(h_, r, k, *table_.sent(s).begin(), "unmatched-send", "sends to " + str(s.send_to) + ", which receives nothing more from here");
  });
  report_cycle();
}

void Execution::report_cycle() const {
  // Every stuck rank waits on a partner that is stuck before the matching
  // step, so following the waits from any stuck rank closes a cycle.
  auto waits_on = [this](int64_t r) {
    const FlatStep& s = current(r);
    return (halves_[r] & kSent) ? s.recv_from : s.send_to;
  };
  int64_t r = 0;
  while (done(r)) ++r;
  std::vector<bool> seen(h_.p);
  for (; !seen[r]; r = waits_on(r)) seen[r] = true;
  std::string cycle;
  int64_t length = 0;
  const int64_t first = r;
  do {
    if (++length <= 8)
      cycle += (cycle.empty() ? "" : ", ") + str(r) + " (step " + str(pc(r)) + ") waits on " + str(waits_on(r));
    r = waits_on(r);
  } while (r != first);
  broken(h_, first, pc(first), -1, "deadlock",
         "a cycle of " + str(length) + " waiting ranks: " + cycle + (length > 8 ? ", ..." : ""));
}

}  // namespace

PlanReport check_plan(const Plan& plan) {
  if (plan.header.graph) return check_graph_plan(plan);
  return first_failure([&plan] {
    check_header(plan.header);
    const StepTable table(plan);
    Execution run(plan.header, table);
    run.run();
    run.check_results();
    return std::move(run).report();
  });
}

}  // namespace collsim
