// Scale mode (window buffers, lean SimGrid settings): every family gives the
// same simulated time as a full run and still checks results, and a wrong
// result is still caught at a size where scale mode turns on by itself.
#include <gtest/gtest.h>

#include <string>

#include "launch.hpp"
#include "platform.hpp"
#include "catalog.hpp"
#include "run_cli.hpp"
#include "sim_request.hpp"

namespace collsim::sim {
namespace {

using test::run_collsim;

using test::alphabeta_request;

// Ranks whose even-layout share of `count` elements holds an even element
// below 2 · kWindowUnits: the reduce_scatter ranks that can check anything.
int64_t reduce_scatter_checkers(int64_t count, int64_t p) {
  int64_t n = 0, first = 0;
  for (int64_t r = 0; r < p; ++r) {
    const int64_t size = count / p + (r < count % p ? 1 : 0);
    const int64_t even = first + first % 2;
    if (even < first + size && even < 2 * kWindowUnits) ++n;
    first += size;
  }
  return n;
}

// Sizes whose pieces (m/p bytes, elements) start inside the window at odd
// offsets, so the alternating private units are what makes them arrive.
TEST(ScaleMode, EveryAlgorithmIsCorrectAndTimedAsInAFullRun) {
  const int64_t p = 37;
  for (Collective c : kCollectives) {
    for (Operator op : {Operator::bxor, Operator::matmul}) {
      if (!reduces(c) && op == Operator::matmul) continue;
      for (const Algorithm* a : algorithms_of(c)) {
        // SimGrid's default stands for its built-ins (some overflow 64 KiB stacks).
        if (a->has(kSmpiBuiltin) && a->builtin_name() != "default") continue;
        if (op == Operator::matmul && a->has(kCommutative)) continue;
        SimRequest full = alphabeta_request(p, false), lean = alphabeta_request(p, true);
        full.algos = lean.algos = {a};
        full.sizes = lean.sizes = {32 * 1001, 32 * 17};
        full.roots = lean.roots = {5};
        full.op = lean.op = op;
        std::vector<Row> want, got;
        ASSERT_NO_THROW(want = simulate(full)) << a->name;
        ASSERT_NO_THROW(got = simulate(lean)) << a->name;
        const std::string what = std::string(collective_name(c)) + " " + a->name + " " + operator_name(op);
        for (size_t i = 0; i < 2; ++i) {
          EXPECT_TRUE(got.at(i).correct) << what << " bytes=" << got.at(i).bytes;
          EXPECT_EQ(got.at(i).time_us, want.at(i).time_us) << what << " bytes=" << got.at(i).bytes;
        }
        const int64_t count = 1001 * 32 / element_bytes(c, op);
        const int64_t checkers = c == Collective::reduce_scatter ? reduce_scatter_checkers(count, p)
                                 : c == Collective::reduce       ? 1
                                 : c == Collective::exscan       ? p - 1
                                                                 : p;
        EXPECT_EQ(got.at(0).checked_ranks, checkers) << what;
        EXPECT_EQ(want.at(0).checked_ranks, c == Collective::reduce_scatter ? p : checkers) << what;
      }
    }
  }
}

// Our reductions' own temporaries are window memory in scale mode
// (window.hpp). A non-power-of-two p, a root that the folds move (odd,
// paired), n = 5 blocks, so that pipelined blocks end inside and beyond the
// window, and the non-commutative matmul wherever allowed (bxor for the
// kCommutative ones): every result right, every time that of a full run.
TEST(ScaleMode, ReductionTemporariesKeepResultsAndTimes) {
  const int64_t p = 13;
  for (Collective c : kCollectives) {
    if (!reduces(c)) continue;
    for (bool commutative : {false, true}) {
      SimRequest full = alphabeta_request(p, false), lean = alphabeta_request(p, true);
      for (const Algorithm* a : our_algorithms(c))
        if (a->has(kCommutative) == commutative) full.algos.push_back(a);
      if (full.algos.empty()) continue;
      lean.algos = full.algos;
      full.sizes = lean.sizes = {32 * 1001};
      full.roots = lean.roots = {5};
      full.blocks = lean.blocks = 5;
      full.op = lean.op = commutative ? Operator::bxor : Operator::matmul;
      std::vector<Row> want, got;
      ASSERT_NO_THROW(want = simulate(full)) << collective_name(c);
      ASSERT_NO_THROW(got = simulate(lean)) << collective_name(c);
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        const std::string what = std::string(collective_name(c)) + " " + got[i].algorithm;
        EXPECT_TRUE(got[i].correct) << what;
        EXPECT_TRUE(want[i].correct) << what;
        EXPECT_EQ(got[i].time_us, want[i].time_us) << what;
        EXPECT_GT(got[i].checked_ranks, 0) << what;
      }
    }
  }
}

// ... and cost no memory beyond the window: with private temporaries every
// rank of these would hold at least one more MiB (p MiB in all).
TEST(ScaleMode, ReductionTemporariesCostNoMemory) {
  const int64_t p = 256;
  for (Collective c : {Collective::reduce, Collective::allreduce}) {
    SimRequest lean = alphabeta_request(p, true);
    // Not the graph rows: their executor holds a buffer for every receive
    // it posts up front (plan_executor.cpp, run_graph), by design.
    for (const Algorithm* a : our_algorithms(c))
      if (!a->has(kGraph)) lean.algos.push_back(a);
    lean.sizes = {int64_t{1} << 20};
    lean.warmup = 0;
    std::vector<Row> rows;
    ASSERT_NO_THROW(rows = simulate(lean)) << collective_name(c);
    for (const Row& r : rows) EXPECT_TRUE(r.correct) << collective_name(c) << " " << r.algorithm;
    ASSERT_FALSE(rows.empty());
    EXPECT_LT(rows.front().mem_mib, static_cast<double>(p) / 2) << collective_name(c);  // one smpirun for all
  }
}

// SimGrid's binomial reduce combines matmul in the wrong order; scale mode,
// on by itself at this p, must still see it (and see bxor right).
TEST(ScaleMode, CatchesAWrongResultWhereItTurnsOnByItself) {
  const std::string run = "run --collective reduce --algo smpi:ompi_binomial --size 1KiB --root 3 --format csv --p " +
                          std::to_string(kScaleAutoRanks);
  EXPECT_EQ(run_collsim(run + " --op matmul", true).status, 2) << "commutative-only: refused";
  const auto wrong = run_collsim(run + " --op matmul --ignore-restrictions");
  EXPECT_EQ(wrong.status, 1) << wrong.out;
  EXPECT_NE(wrong.out.find(",3,1,matmul,,0,1,"), std::string::npos) << wrong.out;  // root 3, reps 1, correct 0
  const auto right = run_collsim(run);
  EXPECT_EQ(right.status, 0) << right.out;
  EXPECT_NE(right.out.find(",3,1,bxor,,1,1,"), std::string::npos) << right.out;
}

TEST(ScaleMode, BadValueIsOneError) {
  const auto r = run_collsim("run --algo binomial --p 4 --size 1KiB --scale maybe", true);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("scale"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace collsim::sim
