#include "plan_graph_check.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "plan_values.hpp"

namespace collsim {

namespace {

using namespace plan_detail;

// Which of one rank's steps each requires, directly or through others: a
// row of bits per step (bits below its own index).
class Reach {
 public:
  Reach(const StepTable& table, int64_t r) : n_(table.count(r)), words_((n_ + 63) / 64) {
    if (n_ * words_ * 8 > kMaxPlanSetBytes)
      throw std::length_error("plan too large to check: rank " + str(r) + " has " + str(n_) +
                              " steps, whose requirements as bits need more than " +
                              str(kMaxPlanSetBytes >> 20) + " MiB");
    bits_.assign(static_cast<size_t>(n_ * words_), 0);
    for (int64_t k = 0; k < n_; ++k)
      for (int64_t i : table.after(r, k)) {
        uint64_t* row = &bits_[k * words_];
        const uint64_t* below = &bits_[i * words_];
        for (int64_t w = 0; w <= i / 64; ++w) row[w] |= below[w];
        row[i / 64] |= uint64_t{1} << (i % 64);
      }
  }

  // Does step `later` require step `earlier` (earlier < later)?
  bool requires(int64_t later, int64_t earlier) const {
    return (bits_[later * words_ + earlier / 64] >> (earlier % 64)) & 1;
  }

 private:
  int64_t n_, words_;
  std::vector<uint64_t> bits_;
};

// How a step touches one block of acc or aux.
enum class Access : uint8_t { read, write, combine };  // combine: a receive's ⊕ into acc

const char* verb(Access a) { return a == Access::read ? "reads" : a == Access::write ? "writes" : "combines into"; }

// One rank's accesses to each block of acc and aux, in plan order: every
// pair of steps where one writes a block must be ordered by requirements.
// Per block only the last write (or the commuting combines since the last
// other access) and the reads since are kept: when those are ordered with
// each new access, so, transitively, are all earlier ones.
class Races {
 public:
  Races(const Header& h, const StepTable& table, const Reach& reach, int64_t r)
      : h_(h), table_(table), reach_(reach), r_(r) {}

  void check() {
    std::vector<std::pair<int64_t, Access>> touched;
    for (int64_t k = 0; k < table_.count(r_); ++k) {
      touched.clear();
      visit(table_.step(r_, k), [&](int64_t key, Access a) { touched.emplace_back(key, a); });
      std::sort(touched.begin(), touched.end());
      for (size_t i = 0; i < touched.size(); ++i) {
        Access a = touched[i].second;
        // A step that touches a block twice (sends it and receives it) writes it.
        for (; i + 1 < touched.size() && touched[i + 1].first == touched[i].first; ++i) a = Access::write;
        add(touched[i].first, k, a);
      }
    }
  }

 private:
  struct Use {
    std::vector<std::pair<int64_t, Access>> writers;  // one, or commuting combines
    std::vector<int64_t> readers;                      // since the writers
  };

  static int64_t acc(int64_t b) { return 2 * b; }
  static int64_t aux(int64_t b) { return 2 * b + 1; }

  // f(key, access) for every block of acc or aux step s touches.
  template <class F>
  void visit(const FlatStep& s, F f) const {
    if (s.send_to >= 0) {
      const bool reads_acc = s.value != Value::aux && (s.value != Value::input || !reduces(h_.collective));
      for (int64_t b : table_.sent(s)) {
        if (reads_acc) f(acc(b), Access::read);
        if (plan::reads_aux(s.value)) f(aux(b), Access::read);
      }
    }
    if (s.recv_from >= 0) {
      const Access a = plan::combines(s.combine) ? Access::combine : Access::write;
      for (int64_t b : table_.received(s)) f(s.combine == Combine::aux ? aux(b) : acc(b), a);
    }
    for (int64_t b : table_.folded(s)) {
      if (s.join) f(aux(b), Access::read);
      f(acc(b), Access::write);
    }
  }

  void add(int64_t key, int64_t k, Access a) {
    Use& u = use_[key];
    for (const auto& [w, wa] : u.writers)
      if (!(commute(a, wa) && u.readers.empty())) ordered(key, w, wa, k, a);
    if (a == Access::read) {
      u.readers.push_back(k);
      return;
    }
    for (int64_t reader : u.readers) ordered(key, reader, Access::read, k, a);
    const bool joins = u.readers.empty() && !u.writers.empty() && commute(a, u.writers.front().second);
    if (!joins) u.writers.clear();
    u.writers.emplace_back(k, a);
    u.readers.clear();
  }

  // May two accesses happen in either order?
  bool commute(Access a, Access b) const { return h_.commutative && a == Access::combine && b == Access::combine; }

  // Step k's access after step i's: a race unless k requires i.
  void ordered(int64_t key, int64_t i, Access ia, int64_t k, Access ka) const {
    if (i == k || reach_.requires(k, i)) return;
    const bool combines = ia == Access::combine && ka == Access::combine;
    const std::string buffer = key % 2 ? "aux" : "acc";
    broken(h_, r_, k, key / 2, combines ? "unordered-combine" : "race",
           "step " + str(k) + " " + verb(ka) + " " + buffer + " block " + str(key / 2) + " and step " + str(i) + " " +
               verb(ia) + " it, but neither requires the other" +
               (combines ? " (⊕ is not commutative: the order of arrival decides the result)" : ""));
  }

  const Header& h_;
  const StepTable& table_;
  const Reach& reach_;
  int64_t r_;
  std::unordered_map<int64_t, Use> use_;
};

// Rank r's sends to one peer must be ordered, each requiring the one
// before (MPI then matches them in that order).
void check_overtaking(const Header& h, const StepTable& table, const Reach& reach, int64_t r) {
  std::unordered_map<int64_t, int64_t> last;  // peer -> the last step sending to it
  for (int64_t k = 0; k < table.count(r); ++k) {
    const int64_t peer = table.step(r, k).send_to;
    if (peer < 0) continue;
    const auto before = last.find(peer);
    if (before != last.end() && !reach.requires(k, before->second))
      broken(h, r, k, -1, "overtaking",
             "steps " + str(before->second) + " and " + str(k) + " both send to " + str(peer) +
                 " but neither requires the other: either message may meet the first receive");
    last[peer] = k;
  }
}

// Which send each receive meets, by channel order (global step ids).
class Matching {
 public:
  Matching(const Header& h, const StepTable& table)
      : h_(h), table_(table), send_of_(table.total(), -1), recv_of_(table.total(), -1) {}

  void run() {
    for (int64_t i = 0; i < table_.total(); ++i) {
      const FlatStep& s = table_.at(i);
      const int64_t r = table_.rank_of(i);
      if (s.send_to >= 0) sends_[channel(r, s.send_to)].push_back(i);
      if (s.recv_from >= 0) ++receives_[channel(s.recv_from, r)];
    }
    for (const auto& [c, sends] : sends_)
      if (static_cast<int64_t>(sends.size()) > receives_[c] && unanswered(c % h_.p) > c / h_.p)
        unanswered_[c % h_.p] = c / h_.p;
    std::unordered_map<int64_t, int64_t> met;  // channel -> receives matched so far
    for (int64_t i = 0; i < table_.total(); ++i)
      if (table_.at(i).recv_from >= 0) match(i, met);
    for (int64_t i = 0; i < table_.total(); ++i)
      if (table_.at(i).send_to >= 0 && recv_of_[i] < 0) unmatched_send(i);
  }

  // The send step i meets (-1: i receives nothing), the receive send i meets.
  int64_t send_of(int64_t i) const { return send_of_[i]; }
  int64_t recv_of(int64_t i) const { return recv_of_[i]; }

 private:
  int64_t channel(int64_t from, int64_t to) const { return from * h_.p + to; }
  // The lowest rank with a send to `to` left unmatched, or p.
  int64_t unanswered(int64_t to) const {
    const auto at = unanswered_.find(to);
    return at == unanswered_.end() ? h_.p : at->second;
  }

  void match(int64_t i, std::unordered_map<int64_t, int64_t>& met) {
    const FlatStep& s = table_.at(i);
    const int64_t r = table_.rank_of(i), k = table_.index_of(i);
    const int64_t c = channel(s.recv_from, r), nth = met[c]++;
    const std::vector<int64_t>& sends = sends_[c];
    const int64_t block = *table_.received(s).begin();
    if (nth >= static_cast<int64_t>(sends.size())) {
      const int64_t other = unanswered(r);
      const std::string why = "receives from " + str(s.recv_from) + ", which sends nothing more here";
      if (other == h_.p) broken(h_, r, k, block, "unmatched-recv", why);
      broken(h_, r, k, block, "peer-mismatch", why + ", while " + str(other) + " sends here unanswered");
    }
    const int64_t j = sends[nth];
    const BlockList sent = table_.sent(table_.at(j)), expected = table_.received(s);
    const auto [mine, theirs] = std::mismatch(sent.begin(), sent.end(), expected.begin(), expected.end());
    if (mine != sent.end() || theirs != expected.end())
      broken(h_, s.recv_from, table_.index_of(j), mine != sent.end() ? *mine : *theirs, "block-mismatch",
             "sends blocks " + str(sent) + " to " + str(r) + ", whose step " + str(k) + " receives " + str(expected));
    send_of_[i] = j;
    recv_of_[j] = i;
  }

  [[noreturn]] void unmatched_send(int64_t i) const {
    const FlatStep& s = table_.at(i);
    broken(h_, table_.rank_of(i), table_.index_of(i), *table_.sent(s).begin(), "unmatched-send",
           "sends to " + str(s.send_to) + ", which receives nothing more from here");
  }

  const Header& h_;
  const StepTable& table_;
  std::unordered_map<int64_t, std::vector<int64_t>> sends_;  // channel -> its sends in plan order
  std::unordered_map<int64_t, int64_t> receives_;             // channel -> its receives
  std::unordered_map<int64_t, int64_t> unanswered_;           // see unanswered()
  std::vector<int64_t> send_of_, recv_of_;
};

// The wait graph: event 2i is ready(i), 2i + 1 complete(i), for global step i.
class Waits {
 public:
  Waits(const Header& h, const StepTable& table, const Matching& matching)
      : h_(h), table_(table), matching_(matching), dependents_first_(table.total() + 1, 0) {
    for (int64_t r = 0; r < h.p; ++r)
      for (int64_t k = 0; k < table.count(r); ++k)
        for (int64_t i : table.after(r, k)) ++dependents_first_[table.first(r) + i + 1];
    for (int64_t i = 0; i < table.total(); ++i) dependents_first_[i + 1] += dependents_first_[i];
    dependents_.resize(dependents_first_.back());
    std::vector<int64_t> filled(dependents_first_.begin(), dependents_first_.end() - 1);
    for (int64_t r = 0; r < h.p; ++r)
      for (int64_t k = 0; k < table.count(r); ++k)
        for (int64_t i : table.after(r, k)) dependents_[filled[table.first(r) + i]++] = table.first(r) + k;
  }

  // The events in an order the waits allow; deadlock where some are in a cycle.
  std::vector<int64_t> order() const {
    const int64_t n = table_.total();
    std::vector<int64_t> waiting(2 * n), done, ready;
    for (int64_t i = 0; i < n; ++i) {
      waiting[2 * i] = table_.after(i).size();
      waiting[2 * i + 1] = 1 + (matching_.send_of(i) >= 0);
      if (waiting[2 * i] == 0) ready.push_back(2 * i);
    }
    done.reserve(2 * n);
    while (!ready.empty()) {
      const int64_t v = ready.back();
      ready.pop_back();
      done.push_back(v);
      each_successor(v, [&](int64_t w) {
        if (--waiting[w] == 0) ready.push_back(w);
      });
    }
    if (static_cast<int64_t>(done.size()) < 2 * n) report_cycle(waiting);
    return done;
  }

 private:
  template <class F>
  void each_successor(int64_t v, F f) const {
    const int64_t i = v / 2;
    if (v % 2) {
      for (int64_t d = dependents_first_[i]; d < dependents_first_[i + 1]; ++d) f(2 * dependents_[d]);
      return;
    }
    f(2 * i + 1);
    if (matching_.recv_of(i) >= 0) f(2 * matching_.recv_of(i) + 1);
  }

  // An event not yet passed that v waits on (v itself not passed).
  int64_t blocker(int64_t v, const std::vector<int64_t>& waiting) const {
    const int64_t i = v / 2;
    if (v % 2) return waiting[2 * i] > 0 ? 2 * i : 2 * matching_.send_of(i);
    const int64_t first = table_.first(table_.rank_of(i));
    for (int64_t d : table_.after(i))
      if (waiting[2 * (first + d) + 1] > 0) return 2 * (first + d) + 1;
    return -1;  // unreachable: an unpassed ready waits on some step
  }

  // Every event not passed waits on another such, so following the waits
  // from one closes a cycle; it is named by its steps from the lowest.
  [[noreturn]] void report_cycle(const std::vector<int64_t>& waiting) const {
    int64_t v = 0;
    while (waiting[v] == 0) ++v;
    std::unordered_map<int64_t, int64_t> seen;  // event -> its place on the walk
    std::vector<int64_t> walk;
    for (; !seen.count(v); v = blocker(v, waiting)) {
      seen[v] = static_cast<int64_t>(walk.size());
      walk.push_back(v / 2);
    }
    std::vector<int64_t> steps;
    for (size_t at = seen[v]; at < walk.size(); ++at)
      if (steps.empty() || steps.back() != walk[at]) steps.push_back(walk[at]);
    if (steps.size() > 1 && steps.front() == steps.back()) steps.pop_back();
    std::rotate(steps.begin(), std::min_element(steps.begin(), steps.end()), steps.end());
    std::string cycle;
    for (size_t at = 0; at < steps.size() && at < 8; ++at)
      cycle += (at ? ", " : "") + name(steps[at]) + " waits on " + name(steps[(at + 1) % steps.size()]);
    broken(h_, table_.rank_of(steps.front()), table_.index_of(steps.front()), -1, "deadlock",
           "a cycle of " + str(static_cast<int64_t>(steps.size())) + " waiting steps: " + cycle +
               (steps.size() > 8 ? ", ..." : ""));
  }

  // "rank (step k)".
  std::string name(int64_t i) const {
    return str(table_.rank_of(i)) + " (step " + str(table_.index_of(i)) + ")";
  }

  const Header& h_;
  const StepTable& table_;
  const Matching& matching_;
  std::vector<int64_t> dependents_first_, dependents_;  // the steps requiring step i: dependents_[first[i] ..)
};

// Runs the events in `order` on the values and counts each rank's steps,
// ⊕ and depth.
class Replay {
 public:
  Replay(const Header& h, const StepTable& table, const Matching& matching)
      : h_(h), table_(table), matching_(matching), values_(h, table), start_(table.total()),
        depth_(table.total()), inbox_(table.total()) {}

  PlanReport run(const std::vector<int64_t>& order) {
    for (int64_t v : order) v % 2 ? complete(v / 2) : ready(v / 2);
    values_.check_results();
    std::vector<PlanRankStats> stats(h_.p);
    for (int64_t r = 0; r < h_.p; ++r) {
      stats[r].steps = table_.count(r);
      stats[r].ops = values_.ops(r);
      for (int64_t i = table_.first(r); i < table_.first(r) + table_.count(r); ++i)
        stats[r].depth = std::max(stats[r].depth, depth_[i]);
    }
    return summarize(std::move(stats));
  }

 private:
  // Step i starts: its send reads its values, a fold or join is applied.
  void ready(int64_t i) {
    const FlatStep& s = table_.at(i);
    const int64_t r = table_.rank_of(i), k = table_.index_of(i);
    for (int64_t d : table_.after(i)) start_[i] = std::max(start_[i], depth_[table_.first(r) + d]);
    if (s.send_to >= 0)
      for (int64_t b : table_.sent(s)) inbox_[i].push_back(values_.sent_value(r, k, s, b));
    if (s.fold()) values_.fold(r, k, s);
  }

  // Step i completes: its message takes effect. Its send is done one
  // message after it started, its receive one after its sender started.
  void complete(int64_t i) {
    const FlatStep& s = table_.at(i);
    const int64_t r = table_.rank_of(i), send = matching_.send_of(i);
    if (send >= 0) values_.receive(r, table_.index_of(i), s, inbox_[send]);
    depth_[i] = std::max(start_[i] + (s.send_to >= 0 ? 1 : 0), send >= 0 ? start_[send] + 1 : 0);
  }

  const Header& h_;
  const StepTable& table_;
  const Matching& matching_;
  Values values_;
  std::vector<int64_t> start_, depth_;        // per step: the largest depth it requires; its own
  std::vector<std::vector<Interval>> inbox_;  // per send step: its values until its receive takes them
};

}  // namespace

PlanReport check_graph_plan(const plan::Plan& plan) {
  return first_failure([&plan] {
    const Header& h = plan.header;
    check_header(h);
    const StepTable table(plan);
    for (int64_t r = 0; r < h.p; ++r) {
      const Reach reach(table, r);
      check_overtaking(h, table, reach, r);
      Races(h, table, reach, r).check();
    }
    Matching matching(h, table);
    matching.run();
    const std::vector<int64_t> order = Waits(h, table, matching).order();
    return Replay(h, table, matching).run(order);
  });
}

}  // namespace collsim
