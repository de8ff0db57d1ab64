// Running one per-p check over a range of p on a few threads, for the
// `verify KIND --p A:B` commands.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "values.hpp"
#include "circulant_check.hpp"  // Counterexample

namespace collsim {

// Calls check(p) for every p in `range` on `threads` workers that take the
// next p from a shared counter; stops handing out p beyond a failing one and
// returns the counterexample of the smallest failing p. Progress (weighted by
// p, the number of processors checked) goes to stderr under `label`.
// `check` runs concurrently when threads > 1 and must guard what it shares.
std::optional<Counterexample> sweep_range(cli::Range range, int threads, const std::string& label,
                                          const std::function<std::optional<Counterexample>(int64_t p)>& check);

// What the per-p checks' tables may hold at once (docs/hardening.md, "Limits").
inline constexpr int64_t kMaxSweepBytes = int64_t{2} << 30;  // 2 GiB

// A check at p holds about p·bytes_per_rank (measured) until it ends, and
// up to `threads` checks run at once: throws LimitError naming the largest
// p that fits where `range` would need more than kMaxSweepBytes, before
// anything is allocated.
void check_sweep_memory(cli::Range range, int threads, int64_t bytes_per_rank, const std::string& label);

}  // namespace collsim
