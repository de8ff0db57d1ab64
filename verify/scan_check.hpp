// Symbolic verification of scan plans (schedules/scan_plans.hpp).
//
// Every value is an interval [i, j] standing for V_i ⊕ ... ⊕ V_j, or empty.
// ⊕ may only join [i, j] ⊕ [j+1, k] (left operand immediately left of the
// right one), so a rank that ends with [0, r-1] (exclusive) or [0, r]
// (inclusive) provably holds its prefix by associativity alone, for any
// associative, non-commutative ⊕. Rank 0 of an exclusive scan must end empty.
// Each round also checks that every receive is answered by the partner's send
// in the same round and vice versa, and that nothing undefined is sent.
//
// Counted per rank: ⊕ applied into W (combine T ⊕ W / W ⊕ T) and ⊕ applied to
// form a send value (W ⊕ V). `rounds` counts rounds in which any message
// moves.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "circulant_check.hpp"  // Counterexample
#include "scan_plans.hpp"

namespace collsim {

namespace cli {
class Progress;
}

// The verifier keeps O(log p) words per rank (about 250 bytes at p = 2^21).
inline constexpr int64_t kMaxScanVerifyProcs = int64_t{1} << 21;

// A plan as the verifier sees it: any function of (p, rank, round), so that
// tests can break one round of one rank.
struct ScanPlan {
  bool inclusive;
  std::function<ScanRound(int64_t p, int64_t r, int k)> round;
  std::function<int(int64_t p)> rounds;
};
ScanPlan plan_of(const ScanAlgorithm& a);

// Per p of [lo, hi] (index p - lo): rounds with messages, and the largest
// per-rank ⊕ counts. Filled only when no failure was found.
struct ScanSweep {
  int64_t lo = 0, hi = 0;
  std::optional<Counterexample> failure;
  std::vector<uint8_t> rounds, result_ops, total_ops;
};

// Exact symbolic execution at p = hi; the other p of [lo, hi] follow by
// truncation: in a plan whose messages all go to higher ranks, whose round
// count does not decrease with p, and where rank r's rounds at p are its
// rounds at hi without the sends to ranks >= p (the property scan_round
// guarantees by construction and tests/test_scan_plans.cpp checks), rank
// r < p sees exactly the same values at p as at hi, for the first rounds(p)
// rounds. A message to a lower rank is reported as a failure: use exact_scan.
ScanSweep sweep_scan(const ScanPlan& plan, int64_t lo, int64_t hi);

// Exact symbolic execution at every p of [lo, hi]: O(p log p) each, no
// assumption on the plan. Stops at the first p with a failure.
ScanSweep exact_scan(const ScanPlan& plan, int64_t lo, int64_t hi, cli::Progress* progress);

}  // namespace collsim
