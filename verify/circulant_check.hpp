// Checks of circulant broadcast schedules (seed 003 §2), independent of how
// the schedules were computed: they read a CirculantTable only, so the same
// code checks our computation and a schedule file from elsewhere.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "circulant_table.hpp"

namespace collsim {

// The first thing found wrong: processor count, rank, round (or step) index k
// (-1 where no round applies), which condition, in words, and the block it
// concerns (-1 where none; plan_check names blocks).
struct Counterexample {
  int64_t p = 0;
  int64_t rank = 0;
  int k = -1;
  std::string condition;
  std::string detail;
  int64_t block = -1;
};
std::string describe(const Counterexample& c);

// The four correctness conditions of §2 for every rank, in rank order.
// The root (r = 0) has no baseblock below q: it must receive exactly
// {-1, ..., -q} and send block k in round k.
std::optional<Counterexample> check_conditions(const CirculantTable& t);

// One run of Algorithm 1: n blocks; rounds first_round .. first_round+n-1+q-1;
// in round i the schedule value v stands for block v - block_shift +
// q*floor(i/q). Algorithm 1 uses first_round = block_shift = x, the number of
// leading virtual rounds x = (q - (n-1) mod q) mod q; the two are separate so
// that tests can break one of them.
struct BroadcastRun {
  int64_t n;
  int first_round;
  int block_shift;
};
BroadcastRun algorithm1_run(int64_t n, int q);

// Data-flow simulation of a run: blocks capped to n-1, negative blocks
// skipped, no sends to the root. Checks that every sent block is held by its
// sender before the round, that sender and receiver agree on the block, and
// that after the n-1+q rounds every rank holds all n blocks.
std::optional<Counterexample> simulate_broadcast(const CirculantTable& t, const BroadcastRun& run);
// The same for several runs of one table, in order; the first failure.
std::optional<Counterexample> simulate_broadcasts(const CirculantTable& t, const std::vector<BroadcastRun>& runs);

// The simulation's inner loop comes in three builds that must agree; the
// fastest the CPU has is used. For tests: switch to `kernel` (process-wide,
// not thread-safe); false, and no switch, if this CPU or build lacks it.
enum class DataflowKernel { portable, avx2, avx512 };
bool use_dataflow_kernel(DataflowKernel kernel);

// The default block counts of `verify circulant`: 1, 2, q-1, q, q+1, 3q+2
// (those >= 1, without repeats).
std::vector<int64_t> default_block_counts(int q);

// The checks that need only the table (also for schedule files): the four
// conditions, then the data flow for each n in `blocks` (default_block_counts
// when empty).
std::optional<Counterexample> check_table(const CirculantTable& t, const std::vector<int64_t>& blocks);

// The facts of the construction itself, from what computing the table
// measured: the O(p) baseblock listing (t.base) equals Algorithm 3's search
// (`searched`), Lemma 5 (at most q − 1 recursive ALLBLOCKS calls a rank) and
// Theorem 3 (at most 4 send-schedule violations a rank).
std::optional<Counterexample> check_construction(const CirculantTable& t, const std::vector<int8_t>& searched,
                                                 const CirculantBatchStats& stats);

// Everything `verify circulant` checks for one p: computes all ranks'
// schedules (filling `stats`), check_construction, then check_table.
std::optional<Counterexample> verify_circulant_p(int64_t p, const std::vector<int64_t>& blocks,
                                                 CirculantBatchStats& stats);

}  // namespace collsim
