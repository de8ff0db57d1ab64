// The machinery both plan checkers share (verify/plan_check.cpp runs
// lock-step plans, plan_graph_check.cpp graph plans): the failures, the
// values (sets of ranks, RankSets), every rank's steps validated into flat
// arrays (StepTable), and what those steps do to acc and aux (Values: the
// value rules of plan_check.hpp). Internal to verify/.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "interval.hpp"
#include "plan_check.hpp"

namespace collsim::plan_detail {

using plan::Combine;
using plan::Header;
using plan::Plan;
using plan::Step;
using plan::Value;

inline std::string str(int64_t v) { return std::to_string(v); }

// A broken rule, thrown from inside a check to check_plan.
struct Broken {
  Counterexample at;
};

[[noreturn]] void broken(const Header& h, int64_t rank, int64_t step, int64_t block, const char* rule,
                         std::string detail);


// The set of ranks whose inputs a value combines. Without commutativity it
// is always one interval. A commutative plan's partial results follow its
// tree, not rank order, so their sets can be any: a set that is not one
// interval is a bitset of p bits in RankSets' pool, named by an Interval
// with lo = kPooled and hi = its slot. A value has one owner (an acc entry
// or an inbox); slots are reused, so the pool grows only with the number
// of sets alive at once, and a ⊕ costs O(p / 64) whatever the sets' shape.
inline constexpr int64_t kPooled = -1;
inline bool pooled(Interval v) { return v.lo == kPooled; }

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
std::string str(BlockList list);

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

// All ranks' steps, validated, in flat arrays: rank r's steps are
// steps_[first_[r] .. first_[r + 1]); a graph plan's requirements too.
class StepTable {
 public:
  explicit StepTable(const Plan& plan);

  int64_t count(int64_t r) const { return first_[r + 1] - first_[r]; }
  // Step k of rank r is step first(r) + k of all ranks'.
  int64_t first(int64_t r) const { return first_[r]; }
  const FlatStep& step(int64_t r, int64_t k) const { return steps_[first_[r] + k]; }
  // All ranks' steps, step i of them, and the rank it belongs to.
  int64_t total() const { return first_.back(); }
  const FlatStep& at(int64_t i) const { return steps_[i]; }
  int64_t rank_of(int64_t i) const {
    return std::upper_bound(first_.begin(), first_.end(), i) - first_.begin() - 1;
  }
  // Step i's index within its rank.
  int64_t index_of(int64_t i) const { return i - first_[rank_of(i)]; }
  BlockList sent(const FlatStep& s) const { return {&blocks_[s.send_begin], &blocks_[s.recv_begin]}; }
  BlockList received(const FlatStep& s) const { return {&blocks_[s.recv_begin], &blocks_[s.fold_begin]}; }
  BlockList folded(const FlatStep& s) const { return {&blocks_[s.fold_begin], &blocks_[s.fold_end]}; }
  // The steps (of its rank) step k of rank r requires: none in a lock-step plan.
  BlockList after(int64_t r, int64_t k) const { return after(first_[r] + k); }
  BlockList after(int64_t i) const { return {after_.data() + after_first_[i], after_.data() + after_first_[i + 1]}; }
  // Does any step use aux? Only then are aux values kept.
  bool uses_aux() const { return uses_aux_; }

 private:
  void add(int64_t r, int64_t k, const Step& s);
  void add_after(int64_t r, int64_t k, const Step& s);
  int64_t append(int64_t r, int64_t k, int64_t peer, const plan::BlockList& blocks, const char* half);
  int64_t append_blocks(int64_t r, int64_t k, const plan::BlockList& blocks, const char* half);
  void count_entries() const;

  const Header& h_;
  std::vector<int64_t> first_;
  std::vector<FlatStep> steps_;
  std::vector<int64_t> blocks_;
  std::vector<int64_t> after_first_{0};  // graph plans: step i's requirements are after_[after_first_[i] ..)
  std::vector<int64_t> after_;
  bool uses_aux_ = false;
};

// Throws `header` where p, root, blocks or segments do not fit, and
// std::length_error past the memory bounds.
void check_header(const Header& h);

// Every rank's acc and aux per block and what steps do to them: the value
// rules (not-held, double-contribution, order, non-adjacent-join,
// wrong-result). A failure names rank r's step k, which the caller passes.
class Values {
 public:
  Values(const Header& h, const StepTable& table);

  // The value rank r's step s (its step k) sends of block b, owned by the
  // caller (a receiver's inbox): not-held where it is empty.
  Interval sent_value(int64_t r, int64_t k, const FlatStep& s, int64_t b);
  // Applies the delivered values `box` (s's received blocks in order) to
  // acc or aux, then frees them.
  void receive(int64_t r, int64_t k, const FlatStep& s, std::vector<Interval>& box);
  // A fold or join step's blocks.
  void fold(int64_t r, int64_t k, const FlatStep& s);
  // wrong-result where a rank does not end with exactly its result.
  void check_results();
  // ⊕ on blocks so far, rank r's.
  int64_t ops(int64_t r) const { return ops_[r]; }

 private:
  int64_t entry(int64_t r, int64_t b) const { return r * h_.blocks + b; }
  Interval input(int64_t r, int64_t b) const;
  Interval initial(int64_t r, int64_t b) const;
  std::optional<Interval> result(int64_t r, int64_t b) const;
  Interval join(Interval left, Interval right, int64_t r, int64_t k, int64_t b, const char* what, int64_t peer);

  const Header& h_;
  const StepTable& table_;
  RankSets sets_;
  std::vector<Interval> acc_;  // every rank's value per block: acc_[entry(r, b)]
  std::vector<Interval> aux_;  // the same for aux, where some step uses it (empty at first)
  std::vector<int64_t> ops_;
};

// The report of a plan that broke no rule: the maxima over `ranks`.
PlanReport summarize(std::vector<PlanRankStats> ranks);

// check() (which returns the report), or the first rule it broke.
template <class Check>
PlanReport first_failure(Check check) {
  try {
    return check();
  } catch (const Broken& b) {
    PlanReport rep;
    rep.failure = b.at;
    return rep;
  }
}

}  // namespace collsim::plan_detail
