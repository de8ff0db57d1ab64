#include "plan_check.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "interval.hpp"

namespace collsim {

using plan::Combine;
using plan::Header;
using plan::Plan;
using plan::Step;
using plan::Value;

namespace {

std::string str(int64_t v) { return std::to_string(v); }

// A broken rule, thrown from inside the execution to check_plan.
struct Broken {
  Counterexample at;
};

[[noreturn]] void broken(const Header& h, int64_t rank, int64_t step, int64_t block, const char* rule,
                         std::string detail) {
  throw Broken{Counterexample{h.p, rank, static_cast<int>(step), rule, std::move(detail), block}};
}

// The set of ranks whose inputs a value combines. Without commutativity it
// is always one interval. A commutative plan's partial results follow its
// tree, not rank order, so their sets can be any: a set that is not one
// interval is a bitset of p bits in RankSets' pool, named by an Interval
// with lo = kPooled and hi = its slot. A value has one owner (an acc entry
// or an inbox); slots are reused, so the pool grows only with the number
// of sets alive at once, and a ⊕ costs O(p / 64) whatever the sets' shape.
constexpr int64_t kPooled = -1;
bool pooled(Interval v) { return v.lo == kPooled; }

class RankSets {
 public:
  explicit RankSets(int64_t p) : words_((p + 63) / 64), x_(words_), y_(words_) {}

  // A copy the caller owns (an interval is its own copy).
  Interval copy(Interval v) {
    if (!pooled(v)) return v;
    load(v, x_);
    return store(x_);
  }
  void release(Interval v) {
    if (pooled(v)) free_.push_back(v.hi);
  }

  // Do two non-empty sets share a rank?
  bool overlap(Interval a, Interval b) {
    if (!pooled(a) && !pooled(b)) return a.lo <= b.hi && b.lo <= a.hi;
    load(a, x_);
    load(b, y_);
    for (size_t w = 0; w < x_.size(); ++w)
      if (x_[w] & y_[w]) return true;
    return false;
  }

  // The union of two disjoint non-empty sets, owned by the caller.
  Interval unite(Interval a, Interval b) {
    if (!pooled(a) && !pooled(b) && (a.hi + 1 == b.lo || b.hi + 1 == a.lo))
      return Interval{std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
    load(a, x_);
    load(b, y_);
    for (size_t w = 0; w < x_.size(); ++w) x_[w] |= y_[w];
    return normalized(x_);
  }

  // "[lo, hi]", or "{[a, b] [c, d] ...}" for a pooled set.
  std::string str(Interval v) {
    if (!pooled(v)) return collsim::str(v);
    load(v, x_);
    std::string text;
    for (int64_t r = 0; r < words_ * 64;) {
      if (!bit(x_, r)) {
        ++r;
        continue;
      }
      const int64_t lo = r;
      while (r < words_ * 64 && bit(x_, r)) ++r;
      text += (text.empty() ? "" : " ") + collsim::str(Interval{lo, r - 1});
    }
    return "{" + text + "}";
  }

 private:
  using Bits = std::vector<uint64_t>;
  static bool bit(const Bits& set, int64_t r) { return (set[r / 64] >> (r % 64)) & 1; }

  void load(Interval v, Bits& out) const {
    if (pooled(v)) {
      std::copy_n(&pool_[v.hi * words_], words_, out.begin());
      return;
    }
    std::fill(out.begin(), out.end(), 0);
    for (int64_t w = v.lo / 64; !v.empty() && w <= v.hi / 64; ++w) {
      uint64_t mask = ~uint64_t{0};
      if (w == v.lo / 64) mask &= ~uint64_t{0} << (v.lo % 64);
      if (w == v.hi / 64) mask &= ~uint64_t{0} >> (63 - v.hi % 64);
      out[w] |= mask;
    }
  }

  // The set as an interval where its ranks are consecutive, else pooled.
  Interval normalized(const Bits& set) {
    int64_t first = -1, last = -1, count = 0;
    for (int64_t w = 0; w < words_; ++w) {
      if (set[w] == 0) continue;
      if (first < 0) first = w * 64 + __builtin_ctzll(set[w]);
      last = w * 64 + 63 - __builtin_clzll(set[w]);
      count += __builtin_popcountll(set[w]);
    }
    return count == last - first + 1 ? Interval{first, last} : store(set);
  }

  Interval store(const Bits& set) {
    int64_t slot = 0;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
    } else {
      slot = slots_++;
      if (slots_ * words_ * 8 > kMaxPlanSetBytes)
        throw std::length_error("plan too large to check: its partial sets of ranks need more than " +
                                std::to_string(kMaxPlanSetBytes >> 20) + " MiB");
      pool_.resize(static_cast<size_t>(slots_ * words_));
    }
    std::copy(set.begin(), set.end(), &pool_[slot * words_]);
    return Interval{kPooled, slot};
  }

  int64_t words_;
  Bits x_, y_;  // scratch operands
  Bits pool_;   // slots of words_ words
  std::vector<int64_t> free_;
  int64_t slots_ = 0;
};

// A block list inside StepTable.
struct BlockList {
  const int64_t *first, *last;
  const int64_t* begin() const { return first; }
  const int64_t* end() const { return last; }
  int64_t size() const { return last - first; }
};

// "0,1,2" (the first 8, then "...").
std::string str(BlockList list) {
  std::string text;
  for (int64_t i = 0; i < std::min<int64_t>(list.size(), 8); ++i) text += (i ? "," : "") + str(list.begin()[i]);
  return list.size() > 8 ? text + ",..." : text;
}

// One step, its block lists as ranges of StepTable's pool: sent, received,
// folded, one after the other.
struct FlatStep {
  int64_t send_to, recv_from;
  int64_t send_begin, recv_begin, fold_begin, fold_end;
  Value value;
  Combine combine;
  bool join;  // a local step that is a join (acc = aux ⊕ acc), not a fold
  bool fold() const { return fold_end > fold_begin; }
};

// All ranks' steps, validated, in flat arrays: rank r's steps are
// steps_[first_[r] .. first_[r + 1]).
class StepTable {
 public:
  explicit StepTable(const Plan& plan) : h_(plan.header) {
    first_.reserve(h_.p + 1);
    for (int64_t r = 0; r < h_.p; ++r) {
      first_.push_back(static_cast<int64_t>(steps_.size()));
      const std::vector<Step> steps = plan.steps(r);
      for (size_t k = 0; k < steps.size(); ++k) add(r, static_cast<int64_t>(k), steps[k]);
    }
    first_.push_back(static_cast<int64_t>(steps_.size()));
  }

  int64_t count(int64_t r) const { return first_[r + 1] - first_[r]; }
  const FlatStep& step(int64_t r, int64_t k) const { return steps_[first_[r] + k]; }
  BlockList sent(const FlatStep& s) const { return {&blocks_[s.send_begin], &blocks_[s.recv_begin]}; }
  BlockList received(const FlatStep& s) const { return {&blocks_[s.recv_begin], &blocks_[s.fold_begin]}; }
  BlockList folded(const FlatStep& s) const { return {&blocks_[s.fold_begin], &blocks_[s.fold_end]}; }
  // Does any step use aux? Only then are aux values kept.
  bool uses_aux() const { return uses_aux_; }

 private:
  void add(int64_t r, int64_t k, const Step& s) {
    const bool message = s.send_to != -1 || s.recv_from != -1, fold = !s.fold_blocks.empty();
    if (!message && !fold) broken(h_, r, k, -1, "empty-step", "the step neither sends, receives nor folds");
    if (message && fold)
      broken(h_, r, k, -1, "fold-with-message",
             std::string("a ") + (s.join ? "join" : "fold") + " step also sends or receives");
    FlatStep flat{s.send_to, s.recv_from, 0, 0, 0, 0, s.send_value, s.combine, s.join};
    flat.send_begin = append(r, k, s.send_to, s.send_blocks, "send");
    flat.recv_begin = append(r, k, s.recv_from, s.recv_blocks, "receive");
    flat.fold_begin = append_blocks(r, k, s.fold_blocks, s.join ? "join" : "fold");
    flat.fold_end = static_cast<int64_t>(blocks_.size());
    const bool reduce_send = s.send_to >= 0 && plan::send_ops(s.send_value) > 0;
    const bool reduce_recv = s.recv_from >= 0 && plan::combines(s.combine);
    if (!reduces(h_.collective) && (reduce_send || reduce_recv || fold))
      broken(h_, r, k, -1, "no-reduction",
             std::string(collective_name(h_.collective)) + " has no ⊕, but the step " +
                 (fold          ? std::string(s.join ? "joins" : "folds")
                  : reduce_send ? std::string("sends ") + plan::value_name(s.send_value)
                                : std::string("combines ") + plan::combine_name(s.combine)));
    uses_aux_ = uses_aux_ || s.join || (s.recv_from >= 0 && s.combine == Combine::aux) ||
                (s.send_to >= 0 && plan::reads_aux(s.send_value));
    steps_.push_back(flat);
    if (static_cast<int64_t>(steps_.size() + blocks_.size()) > kMaxPlanStepEntries)
      throw std::length_error("plan too large to check: more than " + str(kMaxPlanStepEntries) +
                              " steps and listed blocks");
  }

  // Checks one half (peer and blocks) and appends its blocks; their start.
  int64_t append(int64_t r, int64_t k, int64_t peer, const plan::BlockList& blocks, const char* half) {
    if (peer < -1 || peer >= h_.p || peer == r)
      broken(h_, r, k, -1, "peer-range", std::string(half) + " peer " + str(peer) + " is not another rank of p = " + str(h_.p));
    if ((peer == -1) != blocks.empty())
      broken(h_, r, k, -1, "block-list", std::string(half) + (peer == -1 ? " blocks without a peer" : " without blocks"));
    return append_blocks(r, k, blocks, half);
  }

  // Checks a block list (in range, each block once) and appends it; its start.
  int64_t append_blocks(int64_t r, int64_t k, const plan::BlockList& blocks, const char* half) {
    const int64_t begin = static_cast<int64_t>(blocks_.size());
    for (int64_t b : blocks) {
      if (b < 0 || b >= h_.blocks)
        broken(h_, r, k, b, "block-range", std::string(half) + " block " + str(b) + " is not in 0.." + str(h_.blocks - 1));
      blocks_.push_back(b);
    }
    std::vector<int64_t> sorted(blocks.begin(), blocks.end());
    std::sort(sorted.begin(), sorted.end());
    const auto twice = std::adjacent_find(sorted.begin(), sorted.end());
    if (twice != sorted.end()) broken(h_, r, k, *twice, "block-list", std::string(half) + " lists the block twice");
    return begin;
  }

  const Header& h_;
  std::vector<int64_t> first_;
  std::vector<FlatStep> steps_;
  std::vector<int64_t> blocks_;
  bool uses_aux_ = false;
};

void check_header(const Header& h) {
  auto bad = [&h](const std::string& why) { broken(h, -1, -1, -1, "header", why); };
  if (h.p < 1) bad("p = " + str(h.p) + " < 1");
  if (h.blocks < 1) bad("blocks = " + str(h.blocks) + " < 1");
  const bool has_root = rooted(h.collective);
  if (h.root < 0 || h.root >= h.p || (!has_root && h.root != 0))
    bad("root " + str(h.root) + (has_root ? " is not a rank" : " must be 0: the collective has no root"));
  if (plan::per_segment(h.collective) && h.blocks % h.p != 0)
    bad("blocks = " + str(h.blocks) + " is not a multiple of p");
  if (h.segments < 1 || h.segments > h.blocks || h.blocks % h.segments != 0 ||
      (plan::per_segment(h.collective) && h.segments != 1))
    bad("segments = " + str(h.segments) + " does not cut blocks = " + str(h.blocks));
  if (h.p > kMaxPlanRanks || h.blocks > kMaxPlanValues / h.p)
    throw std::length_error("plan too large to check: p = " + str(h.p) + ", blocks = " + str(h.blocks) +
                            " (at most p <= " + str(kMaxPlanRanks) + " and p·blocks <= " + str(kMaxPlanValues) + ")");
}

// The progress loop over a validated StepTable, and the values it moves.
class Execution {
 public:
  Execution(const Header& h, const StepTable& table)
      : h_(h),
        table_(table),
        sets_(h.p),
        acc_(h.p * h.blocks),
        aux_(table.uses_aux() ? h.p * h.blocks : 0),
        stats_(h.p),
        start_(h.p),
        halves_(h.p),
        inbox_(h.p) {
    for (int64_t r = 0; r < h.p; ++r)
      for (int64_t b = 0; b < h.blocks; ++b) acc_[entry(r, b)] = initial(r, b);
  }

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

  void check_results() {
    for (int64_t r = 0; r < h_.p; ++r)
      for (int64_t b = 0; b < h_.blocks; ++b) {
        const std::optional<Interval> want = result(r, b);
        const Interval got = acc_[entry(r, b)];
        if (want && (pooled(got) || got != *want))
          broken(h_, r, -1, b, "wrong-result", "ends with " + sets_.str(got) + ", not " + str(*want));
      }
  }

  PlanReport report() && {
    PlanReport rep;
    for (const PlanRankStats& s : stats_) {
      rep.max_steps = std::max(rep.max_steps, s.steps);
      rep.max_ops = std::max(rep.max_ops, s.ops);
      rep.critical_path = std::max(rep.critical_path, s.depth);
    }
    rep.ranks = std::move(stats_);
    return rep;
  }

 private:
  // Which halves of a rank's current step have been delivered.
  enum : uint8_t { kSent = 1, kReceived = 2, kBoth = 3 };

  int64_t entry(int64_t r, int64_t b) const { return r * h_.blocks + b; }
  // stats_[r].steps counts completed steps: it is the rank's program counter.
  int64_t pc(int64_t r) const { return stats_[r].steps; }
  bool done(int64_t r) const { return pc(r) == table_.count(r); }
  const FlatStep& current(int64_t r) const { return table_.step(r, pc(r)); }

  Interval input(int64_t r, int64_t b) const {
    if (reduces(h_.collective) || plan::block_owner(h_, b) == r) return Interval{r, r};
    return {};
  }
  Interval initial(int64_t r, int64_t b) const { return h_.collective == Collective::exscan ? Interval{} : input(r, b); }

  // What rank r must end with in block b; none where anything will do.
  std::optional<Interval> result(int64_t r, int64_t b) const {
    const Interval all{0, h_.p - 1};
    switch (h_.collective) {
      case Collective::bcast:
      case Collective::allgatherv: return Interval{plan::block_owner(h_, b), plan::block_owner(h_, b)};
      case Collective::reduce: return r == h_.root ? std::optional<Interval>(all) : std::nullopt;
      case Collective::allreduce: return all;
      case Collective::reduce_scatter: return plan::block_owner(h_, b) == r ? std::optional<Interval>(all) : std::nullopt;
      case Collective::scan: return Interval{0, r};
      case Collective::exscan: return Interval{0, r - 1};
    }
    return std::nullopt;
  }

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
    for (int64_t b : sent) box.push_back(sent_value(from, s, b));
    start_[from] = std::max(start_[from], stats_[to].depth);
    start_[to] = std::max(start_[to], stats_[from].depth);
    mark(from, kSent);
    mark(to, kReceived);
  }

  void mark(int64_t r, uint8_t half) {
    halves_[r] |= half;
    if (halves_[r] == kBoth) worklist_.push_back(r);
  }

  // The value sent, owned by the receiver's inbox.
  Interval sent_value(int64_t r, const FlatStep& s, int64_t b) {
    const Interval acc = acc_[entry(r, b)];
    Interval v;
    switch (s.value) {
      case Value::acc:
        v = sets_.copy(acc);
        break;
      case Value::input:
        v = input(r, b);
        break;
      case Value::acc_op_input:
        v = join(acc, input(r, b), r, b, "acc ⊕ input", -1);
        break;
      case Value::aux:
        v = sets_.copy(aux_[entry(r, b)]);
        break;
      case Value::acc_op_aux:
        v = join(acc, aux_[entry(r, b)], r, b, "acc ⊕ aux", -1);
        break;
      case Value::acc_op_input_op_aux: {
        const Interval low = join(acc, input(r, b), r, b, "acc ⊕ input", -1);
        v = join(low, aux_[entry(r, b)], r, b, "(acc ⊕ input) ⊕ aux", -1);
        sets_.release(low);
      }
    }
    if (v.empty())
      broken(h_, r, pc(r), b, "not-held", "sends " + std::string(plan::value_name(s.value)) + " of block " + str(b) +
                                              " to " + str(s.send_to) + " but holds nothing there");
    return v;
  }

  // left ⊕ right at rank r (`what`, with data from `peer` or -1): every
  // contribution once and, without commutativity, left ending where right
  // begins. Counts the ⊕. The result is a new value (the operands keep
  // their owners).
  Interval join(Interval left, Interval right, int64_t r, int64_t b, const char* what, int64_t peer) {
    if (left.empty()) return sets_.copy(right);
    if (right.empty()) return sets_.copy(left);
    auto fail = [&](const char* rule) {
      broken(h_, r, pc(r), b, rule,
             std::string(what) + (peer >= 0 ? " (from " + str(peer) + ")" : "") + " joins " + sets_.str(left) +
                 " and " + sets_.str(right));
    };
    if (sets_.overlap(left, right)) fail("double-contribution");
    ++stats_[r].ops;
    if (h_.commutative) return sets_.unite(left, right);
    if (right.hi + 1 == left.lo) fail("order");
    if (left.hi + 1 != right.lo) fail("non-adjacent-join");
    return Interval{left.lo, right.hi};
  }

  // Applies rank r's completed step: received or folded blocks, counters,
  // next step. A fold has no message: it adds no depth.
  void complete(int64_t r) {
    const FlatStep& s = current(r);
    if (s.recv_from >= 0) receive(r, s);
    if (s.fold()) fold(r, s);
    stats_[r].depth = start_[r] + (s.fold() ? 0 : 1);
    ++stats_[r].steps;
    enter(r);
    try_match(r);
  }

  // Applies the delivered values to acc, then frees them (only steps in
  // flight keep values in inboxes).
  void receive(int64_t r, const FlatStep& s) {
    const std::vector<Interval> box = std::move(inbox_[r]);
    inbox_[r] = {};
    const BlockList blocks = table_.received(s);
    for (int64_t i = 0; i < blocks.size(); ++i) {
      const Interval got = box[i];
      if (s.combine == Combine::aux) {  // stored in aux
        sets_.release(aux_[entry(r, blocks.begin()[i])]);
        aux_[entry(r, blocks.begin()[i])] = got;
        continue;
      }
      Interval& acc = acc_[entry(r, blocks.begin()[i])];
      Interval now = got;  // a store takes the received value over
      if (s.combine == Combine::left) now = join(got, acc, r, blocks.begin()[i], "received ⊕ acc", s.recv_from);
      if (s.combine == Combine::right) now = join(acc, got, r, blocks.begin()[i], "acc ⊕ received", s.recv_from);
      if (s.combine != Combine::store) sets_.release(got);
      sets_.release(acc);
      acc = now;
    }
  }

  // acc = acc ⊕ input: acc must end at r − 1 ([a, r − 1] becomes [a, r]);
  // an acc that already holds r is a double contribution. A join: acc =
  // aux ⊕ acc, aux ending where acc begins.
  void fold(int64_t r, const FlatStep& s) {
    for (int64_t b : table_.folded(s)) {
      Interval& acc = acc_[entry(r, b)];
      const Interval now = s.join ? join(aux_[entry(r, b)], acc, r, b, "join aux ⊕ acc", -1)
                                  : join(acc, input(r, b), r, b, "fold acc ⊕ input", -1);
      sets_.release(acc);
      acc = now;
    }
  }

  // No rank can move and some are not done: names the first half that can
  // never be delivered, or else the cycle of waiting ranks.
  [[noreturn]] void diagnose_stall() const;
  [[noreturn]] void report_cycle() const;

  const Header& h_;
  const StepTable& table_;
  RankSets sets_;
  std::vector<Interval> acc_;  // every rank's value per block: acc_[entry(r, b)]
  std::vector<Interval> aux_;  // the same for aux, where some step uses it (empty at first)
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
  try {
    check_header(plan.header);
    const StepTable table(plan);
    Execution run(plan.header, table);
    run.run();
    run.check_results();
    return std::move(run).report();
  } catch (const Broken& b) {
    PlanReport rep;
    rep.failure = b.at;
    return rep;
  }
}

}  // namespace collsim
