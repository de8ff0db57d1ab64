// Plan builders (algorithms/plan_builders.hpp), the GOAL writer and
// `collsim plan`. Every built plan is run by a small data-flow simulation
// here (not verify/'s checker): blocking MPI_Sendrecv steps, unit-time
// messages, rendezvous (a message moves in the first round in which both
// ends are at the steps naming it), fold steps in no time, interval
// bookkeeping for ⊕.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include "binomial_tree.hpp"
#include "circulant.hpp"
#include "plan_builders.hpp"
#include "plan_families.hpp"
#include "goal_read.hpp"
#include "plan_goal.hpp"
#include "run_cli.hpp"
#include "scan_plans.hpp"
#include "two_tree_steps.hpp"

namespace collsim {
namespace {

using plan::Combine;
using plan::Plan;
using plan::Step;
using plan::Value;

// ⊕ of the inputs of ranks lo .. hi; lo > hi: nothing.
struct Interval {
  int64_t lo = 0, hi = -1;
  bool empty() const { return lo > hi; }
  bool operator==(const Interval& o) const { return (empty() && o.empty()) || (lo == o.lo && hi == o.hi); }
};

std::string text(const Interval& i) {
  return i.empty() ? "[]" : "[" + std::to_string(i.lo) + "," + std::to_string(i.hi) + "]";
}

// a ⊕ b with a from the lower ranks: only adjacent ranges join.
Interval join(const Interval& a, const Interval& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  if (a.hi + 1 != b.lo) throw std::runtime_error("joins " + text(a) + " and " + text(b));
  return {a.lo, b.hi};
}

// A value in the data flow: disjoint runs of ranks, sorted, adjacent runs
// merged. Only a commutative plan (ring) has values with gaps; the others
// hold one run, joined by join above.
using Runs = std::vector<Interval>;

Runs runs_of(const Interval& i) { return i.empty() ? Runs{} : Runs{i}; }

std::string text(const Runs& r) {
  std::string t;
  for (const Interval& i : r) t += text(i);
  return t.empty() ? "[]" : t;
}

// a ⊕ b, a from the lower ranks unless ⊕ is commutative: then any two
// values without a common rank join.
Runs join(const Runs& a, const Runs& b, bool commutative) {
  if (!commutative) {
    if (a.size() > 1 || b.size() > 1) throw std::runtime_error("a value with gaps in a non-commutative plan");
    return runs_of(join(a.empty() ? Interval{} : a[0], b.empty() ? Interval{} : b[0]));
  }
  Runs all = a, out;
  all.insert(all.end(), b.begin(), b.end());
  std::sort(all.begin(), all.end(), [](const Interval& x, const Interval& y) { return x.lo < y.lo; });
  for (const Interval& x : all) {
    if (!out.empty() && out.back().hi >= x.lo) throw std::runtime_error("joins " + text(a) + " and " + text(b) + " twice");
    if (!out.empty() && out.back().hi + 1 == x.lo)
      out.back().hi = x.hi;
    else
      out.push_back(x);
  }
  return out;
}

Interval initial_acc(const plan::Header& h, int64_t rank, int64_t block) {
  switch (h.collective) {
    case Collective::bcast: return rank == h.root ? Interval{h.root, h.root} : Interval{};
    case Collective::allgatherv: return plan::block_owner(h, block) == rank ? Interval{rank, rank} : Interval{};
    case Collective::exscan: return {};
    default: return {rank, rank};
  }
}

// The data-flow simulation. run() returns the number of rounds; it throws
// std::runtime_error on a deadlock, mismatched blocks or a bad ⊕.
class DataFlow {
 public:
  explicit DataFlow(const Plan& plan) : h_(plan.header), ranks_(static_cast<size_t>(h_.p)) {
    for (int64_t r = 0; r < h_.p; ++r) {
      Rank& x = ranks_[r];
      x.steps = plan.steps(r);
      for (int64_t b = 0; b < h_.blocks; ++b) x.acc.push_back(runs_of(initial_acc(h_, r, b)));
      x.aux.assign(static_cast<size_t>(h_.blocks), Runs{});
      run_folds(r);
    }
  }

  int64_t run() {
    int64_t rounds = 0;
    while (!all_done()) {
      if (!match_messages()) throw std::runtime_error("deadlock after " + std::to_string(rounds) + " rounds");
      complete_steps();
      ++rounds;
    }
    return rounds;
  }

  const std::vector<Runs>& acc(int64_t rank) const { return ranks_[rank].acc; }

 private:
  struct Rank {
    std::vector<Step> steps;
    size_t next = 0;
    bool sent = false, received = false;
    std::vector<Runs> incoming, acc, aux;
    const Step* current() const { return next < steps.size() ? &steps[next] : nullptr; }
  };

  bool all_done() const {
    return std::all_of(ranks_.begin(), ranks_.end(), [](const Rank& x) { return !x.current(); });
  }

  Runs value(int64_t r, int64_t b, Value v) const {
    const Runs acc = ranks_[r].acc[b], aux = ranks_[r].aux[b], input{{r, r}};
    const bool c = h_.commutative;
    Runs out;
    switch (v) {
      case Value::input:
        return input;
      case Value::acc_op_input:
        return join(acc, input, c);
      case Value::acc_op_input_op_aux:
        return join(join(acc, input, c), aux, c);
      case Value::acc_op_aux:
        out = join(acc, aux, c);
        break;
      case Value::aux:
        out = aux;
        break;
      case Value::acc:
        out = acc;
        break;
    }
    if (out.empty())
      throw std::runtime_error("rank " + std::to_string(r) + " sends block " + std::to_string(b) + " it lacks");
    return out;
  }

  // Every send whose receiver is at the matching receive moves, with the
  // values the sender had when its step began.
  bool match_messages() {
    bool moved = false;
    for (int64_t r = 0; r < h_.p; ++r) {
      Rank& from = ranks_[r];
      const Step* s = from.current();
      if (!s || s->send_to < 0 || from.sent) continue;
      Rank& to = ranks_[s->send_to];
      const Step* t = to.current();
      if (!t || t->recv_from != r || to.received) continue;
      if (t->recv_blocks != s->send_blocks)
        throw std::runtime_error("rank " + std::to_string(r) + " sends other blocks than " +
                                 std::to_string(s->send_to) + " receives");
      to.incoming.clear();
      for (int64_t b : s->send_blocks) to.incoming.push_back(value(r, b, s->send_value));
      from.sent = to.received = moved = true;
    }
    return moved;
  }

  // Fold steps (acc = acc ⊕ input) and joins (acc = aux ⊕ acc) send
  // nothing: they take no round.
  void run_folds(int64_t r) {
    Rank& x = ranks_[r];
    for (const Step* s; (s = x.current()) && !s->fold_blocks.empty(); ++x.next)
      for (int64_t b : s->fold_blocks)
        x.acc[b] = s->join ? join(x.aux[b], x.acc[b], h_.commutative) : join(x.acc[b], Runs{{r, r}}, h_.commutative);
  }

  void complete_steps() {
    for (int64_t r = 0; r < h_.p; ++r) {
      Rank& x = ranks_[r];
      const Step* s = x.current();
      if (!s || (s->send_to >= 0 && !x.sent) || (s->recv_from >= 0 && !x.received)) continue;
      if (s->send_to < 0 && s->recv_from < 0) throw std::runtime_error("an empty step");
      size_t i = 0;
      for (const int64_t b : s->recv_blocks) {
        Runs& acc = x.acc[b];
        const Runs& in = x.incoming[i++];
        const bool c = h_.commutative;
        if (s->combine == Combine::aux)
          x.aux[b] = in;
        else
          acc = s->combine == Combine::store ? in : s->combine == Combine::left ? join(in, acc, c) : join(acc, in, c);
      }
      x.sent = x.received = false;
      ++x.next;
      run_folds(r);
    }
  }

  plan::Header h_;
  std::vector<Rank> ranks_;
};

// What rank r must end with in block b (plan.hpp's table).
std::optional<Interval> expected_acc(const plan::Header& h, int64_t r, int64_t b) {
  const Interval all{0, h.p - 1};
  switch (h.collective) {
    case Collective::bcast: return Interval{h.root, h.root};
    case Collective::reduce: return r == h.root ? std::optional<Interval>(all) : std::nullopt;
    case Collective::allreduce: return all;
    case Collective::scan: return Interval{0, r};
    case Collective::exscan: return Interval{0, r - 1};
    case Collective::allgatherv: return Interval{plan::block_owner(h, b), plan::block_owner(h, b)};
    case Collective::reduce_scatter:
      return plan::block_owner(h, b) == r ? std::optional<Interval>(all) : std::nullopt;
  }
  return std::nullopt;
}

int64_t log2_floor(int64_t p) { return 63 - __builtin_clzll(static_cast<uint64_t>(p)); }

// Rounds of the data flow where the algorithm's cost formula gives them.
std::optional<int64_t> expected_rounds(Collective c, const std::string& name, int64_t p, int64_t root, int64_t n) {
  const int64_t q = ceil_log2(p);
  const bool odd = p != (int64_t{1} << log2_floor(p));
  if (c == Collective::bcast) {
    if (name == "binomial") return q;
    if (name == "logp-tree") return q;  // at lag 1, the default: the binomial rounds
    // One block: the bound that fills as fast as the unbounded tree, whose
    // rounds at lag 1 are the binomial tree's.
    if (name == "logp-tree-pipeline" && n == 1) return q;
    if (name == "circulant") return q == 0 ? 0 : n - 1 + q;
    if (name == "linear-pipeline") return p == 1 ? 0 : p - 2 + n;
    if (name == "binary-tree-pipeline") {  // 2(n − 1) + longest path, a right edge counting 2
      std::vector<int64_t> path(static_cast<size_t>(p), 0);
      for (int64_t v = 1; v < p; ++v) path[v] = path[(v - 1) / 2] + (v % 2 == 1 ? 1 : 2);
      return p == 1 ? 0 : std::min<int64_t>(p - 1, 2) * (n - 1) + *std::max_element(path.begin(), path.end());
    }
    return std::nullopt;
  }
  if (name == "binary-tree") return c == Collective::reduce ? q + (root != 0) : 2 * q;
  if (name == "logp-tree") return q + (root != 0);  // reduce, at lag 1: the binomial rounds, then to the root
  if (name == "logp-tree-pipeline" && n == 1) return q + (root != 0);  // reduce: one block, the whole tree's rounds
  if (name == "recursive-doubling") return log2_floor(p) + (odd ? (c == Collective::reduce ? 1 : 2) : 0);
  if (name == "ring") return 2 * (p - 1);  // reduce: the root's p − 1 receives after the reduce-scatter
  if (name == "halving-doubling") return 2 * log2_floor(p) + (odd ? (c == Collective::reduce ? 2 : 3) : 0);
  if (const ScanAlgorithm* a = find_scan_algorithm(name.c_str())) return scan_rounds(*a, p);
  return std::nullopt;
}

// The step count of a single rank the cost formula names.
void expect_step_counts(Collective c, const std::string& name, const Plan& pl, const std::string& where) {
  const int64_t p = pl.header.p, root = pl.header.root, n = pl.header.blocks, q = ceil_log2(p);
  if (c != Collective::bcast) return;
  if (name == "binomial") {
    EXPECT_EQ(int64_t(pl.steps(root).size()), q) << where << ": the root's sends";
  }
  if (name == "circulant") {
    EXPECT_EQ(int64_t(pl.steps(root).size()), q == 0 ? 0 : n - 1 + q) << where << ": the root sends every round";
    for (int64_t r = 0; r < p; ++r) EXPECT_LE(int64_t(pl.steps(r).size()), n - 1 + q) << where << " rank " << r;
  }
  if (name == "scatter-allgather" && p > 1) {
    for (int64_t r = 0; r < p; ++r) {  // scatter receive, one send per binomial child, p − 1 ring steps
      const int64_t v = virtual_rank(r, root, p);
      int64_t children = 0;
      for (int64_t d = binomial_child_span(v, p) >> 1; d > 0; d >>= 1) children += v + d < p;
      EXPECT_EQ(int64_t(pl.steps(r).size()), (v != 0) + children + p - 1) << where << " rank " << r;
    }
  }
}

std::vector<int64_t> block_counts(plan::Cut cut, int64_t p) {
  switch (cut) {
    case plan::Cut::whole: return {1, 3};
    case plan::Cut::per_rank:
    case plan::Cut::pow2: return {plan::cut_blocks(cut, p)};
    case plan::Cut::pipelined: return {1, 2, 3, 5, 8};
  }
  return {};
}

std::vector<int64_t> roots(Collective c, int64_t p) {
  if (c != Collective::bcast && c != Collective::reduce) return {0};
  const std::set<int64_t> some{0, 1 % p, p / 2, p - 1};
  return {some.begin(), some.end()};
}

const int64_t kSizes[] = {1, 2, 3, 4, 5, 7, 8, 13, 17, 64};

// The lags tried for a LogP tree (1: the binomial rounds; the default
// platform's 3.736 at 1 KiB; a flat-ish 40), none for the others.
std::vector<double> lags(const plan::PlanAlgorithm& a) {
  return a.build_with_lag ? std::vector<double>{1, 2.5, 3.736, 40} : std::vector<double>{1};
}

TEST(PlanBuilders, EveryPlanDeliversItsResult) {
  for (Collective c : kCollectives) {
    for (const std::string& name : plan::plan_algorithms(c)) {
      const plan::PlanAlgorithm& a = plan::find_plan_algorithm(c, name);
      for (int64_t p : kSizes) {
        for (int64_t root : roots(c, p)) {
          for (int64_t n : block_counts(a.cut, p))
          for (double lag : lags(a)) {
            const std::string where = std::string(collective_name(c)) + " " + name + " p=" + std::to_string(p) +
                                      " root=" + std::to_string(root) + " n=" + std::to_string(n) +
                                      " lag=" + std::to_string(lag);
            const Plan pl = plan::build_plan(c, name, p, root, n, {1, lag});
            if (pl.header.graph) continue;  // not blocking sendrecvs: PlanGraphVerify.* runs them
            DataFlow flow(pl);
            int64_t rounds = -1;
            try {
              rounds = flow.run();
            } catch (const std::runtime_error& e) {
              ADD_FAILURE() << where << ": " << e.what();
              continue;
            }
            for (int64_t r = 0; r < p; ++r)
              for (int64_t b = 0; b < pl.header.blocks; ++b)
                if (const std::optional<Interval> want = expected_acc(pl.header, r, b)) {
                  ASSERT_EQ(flow.acc(r)[b], runs_of(*want)) << where << " rank " << r << " block " << b << ": "
                                                   << text(flow.acc(r)[b]) << ", not " << text(*want);
                }
            if (const auto want = expected_rounds(c, name, p, root, n); want && lag == 1) {
              EXPECT_EQ(rounds, *want) << where;
            }
            if (c == Collective::bcast && name == "two-tree" && p > 1) {
              EXPECT_LE(rounds, sim::two_tree_step_count(p, n)) << where;
            }
            expect_step_counts(c, name, pl, where);
          }
        }
      }
    }
  }
}

// The simulation itself catches wrong plans: a cycle of receives, and a
// ⊕ in the wrong order.
TEST(PlanDataFlow, CatchesDeadlockAndWrongOrder) {
  const plan::Header h{Collective::allreduce, 2, 0, 1, false};
  const Plan deadlock{h, [](int64_t r) {
                        Step s;
                        s.recv_from = 1 - r;
                        s.recv_blocks = {0};
                        return std::vector<Step>{s};
                      }};
  EXPECT_THROW(DataFlow(deadlock).run(), std::runtime_error);
  const Plan wrong_side{h, [](int64_t r) {
                          Step s;
                          s.send_to = s.recv_from = 1 - r;
                          s.send_blocks = s.recv_blocks = {0};
                          s.combine = Combine::left;  // rank 0 puts rank 1's input first
                          return std::vector<Step>{s};
                        }};
  EXPECT_THROW(DataFlow(wrong_side).run(), std::runtime_error);
}

TEST(PlanBuilders, NamesAreTheCatalogsAndUnknownOnesAreListed) {
  EXPECT_EQ(plan::plan_algorithms(Collective::bcast),
            (std::vector<std::string>{"circulant", "binomial", "logp-tree", "logp-tree-pipeline", "linear-pipeline",
                                      "binary-tree-pipeline", "two-tree", "two-tree-overlap", "scatter-allgather",
                                      "node-aware"}));
  EXPECT_EQ(plan::plan_algorithms(Collective::allgatherv), (std::vector<std::string>{"circulant", "multi-lane"}));
  try {
    plan::build_plan(Collective::bcast, "binomal", 4, 0, 1);
    FAIL() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("known: circulant, binomial,"), std::string::npos) << e.what();
  }
  EXPECT_THROW(plan::build_plan(Collective::bcast, "binomial", 4, 4, 1), std::invalid_argument);
  EXPECT_THROW(plan::build_plan(Collective::allreduce, "binary-tree", 4, 1, 1), std::invalid_argument);
  EXPECT_THROW(plan::build_plan(Collective::bcast, "circulant", 4, 0, 0), std::invalid_argument);
  EXPECT_THROW(plan::build_plan(Collective::bcast, "scatter-allgather", 4, 0, 3), std::invalid_argument);
}

// p = 2^20: a rank's steps come alone, in O(its steps).
TEST(PlanBuilders, LargePIsPerRank) {
  const int64_t p = int64_t{1} << 20, n = 4;
  EXPECT_EQ(plan::build_plan(Collective::bcast, "binomial", p, 7, 1).steps(7).size(), 20u);
  EXPECT_EQ(plan::build_plan(Collective::bcast, "circulant", p, 0, n).steps(0).size(), size_t(n - 1 + 20));
  EXPECT_LE(plan::build_plan(Collective::bcast, "two-tree", p, 3, n).steps(p - 1).size(),
            size_t(sim::two_tree_step_count(1000, n) + 40));
  // p' = 2^20 and rank 1 folded into 0: receive, 20 exchanges, send back.
  EXPECT_EQ(plan::build_plan(Collective::allreduce, "recursive-doubling", p + 1, 0, 1).steps(0).size(), 22u);
  // The last rank receives in every round.
  EXPECT_EQ(plan::build_plan(Collective::exscan, "123-doubling", p, 0, 1).steps(p - 1).size(), size_t(q_123(p)));
}

bool same_steps(const std::vector<Step>& a, const std::vector<Step>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const Step &x = a[i], &y = b[i];
    if (x.send_to != y.send_to || x.send_blocks != y.send_blocks || x.recv_from != y.recv_from ||
        x.recv_blocks != y.recv_blocks || x.fold_blocks != y.fold_blocks || x.join != y.join ||
        (x.send_to >= 0 && x.send_value != y.send_value) || (x.recv_from >= 0 && x.combine != y.combine))
      return false;
  }
  return true;
}

// Written from Träff 2025, Algorithm 1 (skips 1, 2, 3; q = 3 at p = 5),
// plus MPI_Scan's last W ⊕ V on ranks 1..4:
//   round 0: r → r + 1 V, stored:        W = [0], [1], [2], [3] on 1..4
//   round 1: 0 → 2 V, 1 → 3 W ⊕ V, 2 → 4 W ⊕ V, on the left:
//            W_2 = [0, 1], W_3 = [0, 2], W_4 = [1, 3]
//   round 2: 1 → 4 W (ranks from 1 on send W): W_4 = [0, 3]
//   fold:    W_r = [0, r − 1] ⊕ V_r = [0, r]; rank 0 keeps V_0.
TEST(PlanBuilders, Scan123DoublingOfFiveRanksByHand) {
  using plan::fold_step;
  using plan::recv_step;
  using plan::send_step;
  using plan::with_recv;
  const std::vector<std::vector<Step>> want = {
      {send_step(1, {0}, Value::input), send_step(2, {0}, Value::input)},
      {with_recv(send_step(2, {0}, Value::input), 0, {0}), send_step(3, {0}, Value::acc_op_input),
       send_step(4, {0}), fold_step({0})},
      {with_recv(send_step(3, {0}, Value::input), 1, {0}),
       with_recv(send_step(4, {0}, Value::acc_op_input), 0, {0}, Combine::left), fold_step({0})},
      {with_recv(send_step(4, {0}, Value::input), 2, {0}), recv_step(1, {0}, Combine::left), fold_step({0})},
      {recv_step(3, {0}), recv_step(2, {0}, Combine::left), recv_step(1, {0}, Combine::left), fold_step({0})},
  };
  const Plan pl = plan::build_plan(Collective::scan, "123-doubling", 5, 0, 1);
  for (int64_t r = 0; r < 5; ++r) EXPECT_TRUE(same_steps(pl.steps(r), want[r])) << "rank " << r;
}

// allreduce binary-blocks at p = 6 = 4 + 2 over 4 segments, from seed 004
// §2.6: halving in {0..3} and {4, 5}; rank 4 holds [0, 2) of {4, 5} and
// hands [0, 1) to rank 0, then [1, 2) to rank 2 (their ranges); the results
// come back the same way; then each block's doubling allgather.
TEST(PlanBuilders, BinaryBlocksOfSixRanksByHand) {
  using plan::recv_step;
  using plan::send_step;
  using plan::with_recv;
  const Plan pl = plan::build_plan(Collective::allreduce, "binary-blocks", 6, 0, 4);
  const std::vector<Step> rank0 = {with_recv(send_step(1, {2, 3}), 1, {0, 1}, Combine::right),
                                   with_recv(send_step(2, {1}), 2, {0}, Combine::right),
                                   recv_step(4, {0}, Combine::right),
                                   send_step(4, {0}),
                                   with_recv(send_step(2, {0}), 2, {1}),
                                   with_recv(send_step(1, {0, 1}), 1, {2, 3})};
  const std::vector<Step> rank4 = {with_recv(send_step(5, {2, 3}), 5, {0, 1}, Combine::right),
                                   send_step(0, {0}),
                                   send_step(2, {1}),
                                   recv_step(0, {0}),
                                   recv_step(2, {1}),
                                   with_recv(send_step(5, {0, 1}), 5, {2, 3})};
  EXPECT_TRUE(same_steps(pl.steps(0), rank0));
  EXPECT_TRUE(same_steps(pl.steps(4), rank4));
}

// reduce linear-pipeline at p = 5, root 2, n = 2, written from the chains
// 0 → 1 → 2 (folded in on the left) and 4 → 3 → 2 (on the right): a chain
// rank receives block j and sends block j − 1 in one step; the root takes
// each block from the left, then from the right.
TEST(PlanBuilders, ReduceLinearPipelineOfFiveRanksByHand) {
  using plan::recv_step;
  using plan::send_step;
  using plan::with_recv;
  const std::vector<std::vector<Step>> want = {
      {send_step(1, {0}), send_step(1, {1})},
      {recv_step(0, {0}, Combine::left), with_recv(send_step(2, {0}), 0, {1}, Combine::left), send_step(2, {1})},
      {recv_step(1, {0}, Combine::left), recv_step(3, {0}, Combine::right), recv_step(1, {1}, Combine::left),
       recv_step(3, {1}, Combine::right)},
      {recv_step(4, {0}, Combine::right), with_recv(send_step(2, {0}), 4, {1}, Combine::right), send_step(2, {1})},
      {send_step(3, {0}), send_step(3, {1})},
  };
  const Plan pl = plan::build_plan(Collective::reduce, "linear-pipeline", 5, 2, 2);
  for (int64_t r = 0; r < 5; ++r) EXPECT_TRUE(same_steps(pl.steps(r), want[r])) << "rank " << r;
}

// reduce binary-tree-pipeline at p = 7, root 0, n = 2, written from the
// in-order tree 0 → 3, 3 → {1, 5}, 1 → 2, 5 → {4, 6} (middle ranks of
// [1, 6], [1, 2], [4, 6]): a rank takes block j from its left child, then
// its right one, and sends block j − 1 up with the first of them.
TEST(PlanBuilders, ReduceBinaryTreePipelineOfSevenRanksByHand) {
  using plan::recv_step;
  using plan::send_step;
  using plan::with_recv;
  const Combine L = Combine::left, R = Combine::right;
  const std::vector<std::vector<Step>> want = {
      {recv_step(3, {0}, R), recv_step(3, {1}, R)},
      {recv_step(2, {0}, R), with_recv(send_step(3, {0}), 2, {1}, R), send_step(3, {1})},
      {send_step(1, {0}), send_step(1, {1})},
      {recv_step(1, {0}, L), recv_step(5, {0}, R), with_recv(send_step(0, {0}), 1, {1}, L), recv_step(5, {1}, R),
       send_step(0, {1})},
      {send_step(5, {0}), send_step(5, {1})},
      {recv_step(4, {0}, L), recv_step(6, {0}, R), with_recv(send_step(3, {0}), 4, {1}, L), recv_step(6, {1}, R),
       send_step(3, {1})},
      {send_step(5, {0}), send_step(5, {1})},
  };
  const Plan pl = plan::build_plan(Collective::reduce, "binary-tree-pipeline", 7, 0, 2);
  for (int64_t r = 0; r < 7; ++r) EXPECT_TRUE(same_steps(pl.steps(r), want[r])) << "rank " << r;
}

// For p a power of two binary-blocks is one block: halving-doubling's plan.
TEST(PlanBuilders, BinaryBlocksIsHalvingDoublingAtPowersOfTwo) {
  for (Collective c : {Collective::reduce, Collective::allreduce})
    for (int64_t p : {2, 16, 64})
      for (int64_t root : roots(c, p)) {
        const Plan bb = plan::build_plan(c, "binary-blocks", p, root, p);
        const Plan hd = plan::build_plan(c, "halving-doubling", p, root, p);
        for (int64_t r = 0; r < p; ++r)
          EXPECT_TRUE(same_steps(bb.steps(r), hd.steps(r))) << collective_name(c) << " p=" << p << " rank " << r;
      }
}

TEST(PlanText, WrittenAndReadBackGivesTheSameSteps) {
  for (Collective c : kCollectives) {
    for (const std::string& name : plan::plan_algorithms(c)) {
      const int64_t p = 13, root = rooted(c) ? 5 : 0;
      const plan::Cut cut = plan::find_plan_algorithm(c, name).cut;
      const Plan built = plan::build_plan(c, name, p, root, plan::cut_blocks(cut, p) > 1 ? plan::cut_blocks(cut, p) : 3);
      std::stringstream text;
      plan::write_plan(text, built);
      const Plan read = plan::read_plan(text);
      EXPECT_EQ(read.header.collective, c);
      EXPECT_EQ(read.header.p, p);
      EXPECT_EQ(read.header.root, root);
      EXPECT_EQ(read.header.blocks, built.header.blocks);
      EXPECT_EQ(read.header.segments, built.header.segments);
      EXPECT_EQ(read.header.commutative, built.header.commutative);
      for (int64_t r = 0; r < p; ++r) EXPECT_TRUE(same_steps(read.steps(r), built.steps(r))) << name << " rank " << r;
    }
  }
}

// A strided run (block u of consecutive segments, j·n + u) is one run
// however many segments it spans; it continues where the next block is one
// stride on, iterates and prints block by block, and equals the same
// blocks listed one by one.
TEST(PlanBlockList, StridedRunsHoldBlockUOfConsecutiveSegments) {
  plan::BlockList list;
  list.push_strided(1, 3, 4);   // 1, 5, 9
  list.push_strided(13, 2, 4);  // continues: 13, 17
  list.push_strided(2, 1, 4);   // one block: a plain run
  list.push_run(3, 2);          // joins it: 2, 3, 4
  ASSERT_EQ(list.runs().size(), 2u);
  EXPECT_EQ(list.runs()[0].count, 5);
  EXPECT_EQ(list.runs()[0].stride, 4);
  EXPECT_EQ(list.runs()[0].last(), 17);
  EXPECT_EQ(list.runs()[1].stride, 1);
  EXPECT_EQ(std::vector<int64_t>(list.begin(), list.end()), (std::vector<int64_t>{1, 5, 9, 13, 17, 2, 3, 4}));
  EXPECT_EQ(plan::to_string(list), "1,5,9,13,17,2-4");
  EXPECT_EQ(list, (plan::BlockList{1, 5, 9, 13, 17, 2, 3, 4}));
  EXPECT_NE(list, (plan::BlockList{1, 5, 9, 13, 17, 2, 3, 5}));
}

// A step's block list keeps the listed order in runs: consecutive blocks
// join, a step back or a gap starts a new run, and equality is by blocks.
TEST(PlanBlockList, RunsKeepOrderAndJoinNeighbours) {
  const plan::BlockList list{4, 5, 6, 0, 2, 3, 3};
  ASSERT_EQ(list.runs().size(), 4u);
  EXPECT_EQ(list.runs()[0].first, 4);
  EXPECT_EQ(list.runs()[0].count, 3);
  EXPECT_EQ(list.runs()[2].first, 2);
  EXPECT_EQ(list.runs()[2].count, 2);
  EXPECT_EQ(list.size(), 7);
  EXPECT_EQ(std::vector<int64_t>(list.begin(), list.end()), (std::vector<int64_t>{4, 5, 6, 0, 2, 3, 3}));
  EXPECT_EQ(plan::to_string(list), "4-6,0,2-3,3");
  EXPECT_EQ(plan::BlockList::range(8, 1 << 20).runs().size(), 1u);
  EXPECT_EQ(plan::BlockList::range(0, 3), (plan::BlockList{0, 1, 2}));
  EXPECT_NE(plan::BlockList::range(0, 3), (plan::BlockList{0, 2, 1}));
  EXPECT_TRUE(plan::BlockList{}.empty());
}

// A streamed plan hands out exactly the steps it lists; a plan without a
// stream hands out its listed steps in turn.
TEST(PlanStream, SourceGivesTheListedSteps) {
  size_t streamed = 0;
  for (Collective c : kCollectives) {
    for (const std::string& name : plan::plan_algorithms(c)) {
      const int64_t p = 11, root = rooted(c) ? 4 : 0;
      const plan::Cut cut = plan::find_plan_algorithm(c, name).cut;
      const Plan built = plan::build_plan(c, name, p, root, cut == plan::Cut::pipelined ? 6 : plan::cut_blocks(cut, p));
      streamed += built.stream != nullptr;
      for (int64_t r = 0; r < p; ++r) {
        std::vector<Step> drained;
        const plan::StepSource next = built.source(r);
        for (Step s; next(s);) drained.push_back(s);
        EXPECT_TRUE(same_steps(drained, built.steps(r))) << name << " rank " << r;
      }
    }
  }
  // The pipelines and rings: n or p steps per rank.
  EXPECT_GE(streamed, 7u);
}

// Rotating a root-0 plan to root 3 renames every peer (rank r plays
// r − 3 mod p) and declares the plan commutative.
TEST(PlanStream, RotatedRenamesPeers) {
  const Plan base = plan::build_plan(Collective::reduce, "binary-tree", 5, 0, 1);
  const Plan moved = plan::rotated(base, 3);
  EXPECT_EQ(moved.header.root, 3);
  EXPECT_TRUE(moved.header.commutative);
  // Root-0 tree on 5 ranks: 1 → 0, 3 → 2, 2 → 0, 4 → 0. Rotated: rank 3
  // (virtual 0) receives from 4, 0 and 2; rank 0 (virtual 2) from 1, then sends to 3.
  std::vector<int64_t> from_root;
  for (const Step& s : moved.steps(3)) from_root.push_back(s.recv_from);
  EXPECT_EQ(from_root, (std::vector<int64_t>{4, 0, 2}));
  const std::vector<Step> v2 = moved.steps(0);
  ASSERT_EQ(v2.size(), 2u);
  EXPECT_EQ(v2[0].recv_from, 1);
  EXPECT_EQ(v2[1].send_to, 3);
}

std::string goal(Collective c, const std::string& name, int64_t p, int64_t blocks, int64_t bytes) {
  std::ostringstream out;
  plan::write_goal(out, plan::build_plan(c, name, p, 0, blocks), bytes, "test");
  return out.str();
}

// Written by hand from the GOAL format: 0 → 2, 0 → 1 (largest subtree
// first), 2 → 3; every message between a pair gets tag 0, 1, ...
TEST(PlanGoal, BinomialBroadcastOfFourRanks) {
  EXPECT_EQ(goal(Collective::bcast, "binomial", 4, 1, 1024),
            "// test\n"
            "num_ranks 4\n"
            "\n"
            "rank 0 {\n"
            "l1: send 1024b to 2 tag 0\n"
            "l2: send 1024b to 1 tag 0\n"
            "l2 requires l1\n"
            "}\n"
            "\n"
            "rank 1 {\n"
            "l1: recv 1024b from 0 tag 0\n"
            "}\n"
            "\n"
            "rank 2 {\n"
            "l1: recv 1024b from 0 tag 0\n"
            "l2: send 1024b to 3 tag 0\n"
            "l2 requires l1\n"
            "}\n"
            "\n"
            "rank 3 {\n"
            "l1: recv 1024b from 2 tag 0\n"
            "}\n");
}

// Two blocks of 9 bytes: 5 and 4 bytes, tags 0 and 1 between the pair.
TEST(PlanGoal, PipelineTagsCountPerPair) {
  EXPECT_EQ(goal(Collective::bcast, "linear-pipeline", 2, 2, 9),
            "// test\nnum_ranks 2\n\n"
            "rank 0 {\nl1: send 5b to 1 tag 0\nl2: send 4b to 1 tag 1\nl2 requires l1\n}\n\n"
            "rank 1 {\nl1: recv 5b from 0 tag 0\nl2: recv 4b from 0 tag 1\nl2 requires l1\n}\n");
}

// An exchange and its ⊕: the calc follows the receive, the send overlaps.
TEST(PlanGoal, ExchangeThenCombine) {
  const std::string rank = "l1: send 100b to X tag 0\nl2: recv 100b from X tag 0\nl3: calc 100\nl3 requires l2\n";
  std::string r0 = rank, r1 = rank;
  std::replace(r0.begin(), r0.end(), 'X', '1');
  std::replace(r1.begin(), r1.end(), 'X', '0');
  EXPECT_EQ(goal(Collective::allreduce, "recursive-doubling", 2, 1, 100),
            "// test\nnum_ranks 2\n\nrank 0 {\n" + r0 + "}\n\nrank 1 {\n" + r1 + "}\n");
}

// The ⊕ forming acc ⊕ input comes before the send it feeds; the next step
// waits for everything the previous one ended with.
TEST(PlanGoal, SendOfAccOpInputWaitsForItsCalc) {
  const std::string g = goal(Collective::exscan, "two-op-doubling", 4, 1, 8);
  EXPECT_NE(g.find("rank 1 {\nl1: send 8b to 2 tag 0\nl2: recv 8b from 0 tag 0\n"
                   "l3: calc 8\nl3 requires l1\nl3 requires l2\nl4: send 8b to 3 tag 0\nl4 requires l3\n"),
            std::string::npos)
      << g;
}

// A fold is a calc of its bytes after everything the step before ended with.
TEST(PlanGoal, FoldIsACalcAfterTheLastStep) {
  EXPECT_EQ(goal(Collective::scan, "two-op-doubling", 2, 1, 8),
            "// test\nnum_ranks 2\n\n"
            "rank 0 {\nl1: send 8b to 1 tag 0\n}\n\n"
            "rank 1 {\nl1: recv 8b from 0 tag 0\nl2: calc 8\nl2 requires l1\n}\n");
}

TEST(PlanCli, WritesThePlanAndTheGoal) {
  const auto plan_text = test::run_collsim("plan --collective bcast --algo binomial --p 4 --size 1024");
  EXPECT_EQ(plan_text.status, 0);
  std::ostringstream want;
  plan::write_plan(want, plan::build_plan(Collective::bcast, "binomial", 4, 0, 1));
  EXPECT_EQ(plan_text.out, want.str());
  const std::string path = test::fresh_path("plan_cli.goal");
  const auto to_file =
      test::run_collsim("plan --collective bcast --algo circulant --p 5 --root 2 --blocks 3 --size 10 --format goal --out " + path);
  EXPECT_EQ(to_file.status, 0);
  EXPECT_EQ(to_file.out, "");
  const std::string g = test::read_file(path);
  EXPECT_EQ(g.rfind("// collsim plan: bcast circulant, p 5, root 2, size 10, blocks 3\nnum_ranks 5\n", 0), 0u) << g;
}

TEST(PlanCli, BadInputIsOneLineAndStatusTwo) {
  for (const std::string args : {
           "plan --collective bcast --algo binomal --p 4 --size 8",
           "plan --collective bcst --algo binomial --p 4 --size 8",
           "plan --collective bcast --algo circulant --p 4 --size 8",
           "plan --collective bcast --algo binomial --p 0 --size 8",
           "plan --collective bcast --algo binomial --p 4 --root 4 --size 8",
           "plan --collective bcast --algo binomial --p 4 --size 8 --format xml",
           "plan --collective bcast --algo scatter-allgather --p 4 --blocks 3 --size 8",
           "plan --collective allreduce --algo binary-tree --p 4 --root 1 --size 8",
           "plan --collective bcast --algo binomial --p 4",
       }) {
    const auto res = test::run_collsim(args, true);
    EXPECT_EQ(res.status, 2) << args << ": " << res.out;
    EXPECT_EQ(std::count(res.out.begin(), res.out.end(), '\n'), 1) << args << ": " << res.out;
    EXPECT_EQ(res.out.rfind("collsim: error: ", 0), 0u) << args << ": " << res.out;
  }
  const auto unwritable = test::run_collsim(
      "plan --collective bcast --algo binomial --p 4 --size 8 --out /nonexistent/dir/x.plan", true);
  EXPECT_EQ(unwritable.status, 1) << unwritable.out;
}

// The engine's GOAL export is built in memory (goal_schedule); it must be
// what read_goal makes of the text write_goal writes, operation by
// operation, for every plan of the catalog, lock-step and overlapped.
void expect_same_schedule(const goal::Schedule& text, const goal::Schedule& memory, const std::string& what) {
  ASSERT_EQ(text.ranks, memory.ranks) << what;
  ASSERT_EQ(text.first_op, memory.first_op) << what;
  ASSERT_EQ(text.ops.size(), memory.ops.size()) << what;
  for (size_t i = 0; i < text.ops.size(); ++i) {
    const goal::Op &a = text.ops[i], &b = memory.ops[i];
    ASSERT_TRUE(a.kind == b.kind && a.size == b.size && a.peer == b.peer && a.tag == b.tag) << what << " op " << i;
  }
  EXPECT_EQ(text.waits, memory.waits) << what;
  EXPECT_EQ(text.after_done.begin, memory.after_done.begin) << what;
  EXPECT_EQ(text.after_done.to, memory.after_done.to) << what;
  EXPECT_EQ(text.after_start.begin, memory.after_start.begin) << what;
  EXPECT_EQ(text.after_start.to, memory.after_start.to) << what;
}

TEST(PlanGoal, ScheduleInMemoryIsTheTextRead) {
  int64_t compared = 0;
  for (Collective c : kCollectives)
    for (const std::string& name : plan::plan_algorithms(c))
      for (int64_t p : {5, 12}) {
        const plan::PlanAlgorithm& pa = plan::find_plan_algorithm(c, name);
        const int64_t blocks = plan::cut_blocks(pa.cut, p) == 0 ? 3 : plan::cut_blocks(pa.cut, p);
        const Plan lock_step = plan::build_plan(c, name, p, 0, blocks, {2, 1.5});
        for (const Plan& pl : {lock_step, plan::overlapped(lock_step)}) {
          std::stringstream text;
          plan::write_goal(text, pl, 1000, "");
          expect_same_schedule(goal::read_goal(text), plan::goal_schedule(pl, 1000),
                               std::string(collective_name(c)) + " " + name + " p=" + std::to_string(p));
          ++compared;
        }
      }
  EXPECT_GT(compared, 100);
}

}  // namespace
}  // namespace collsim
