// Work before it starts (issue 31): how many messages a plan sends, from
// the algorithm's plan shape in closed form (no plan is built), and how
// long that takes to simulate or export, so that a command can refuse a
// case that would run for hours before it runs at all.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "collectives.hpp"

namespace collsim::engine {

// The messages (sends) of plan::build_plan(c, algorithm, p, root, blocks,
// node_size), summed over all ranks, without building it: within a factor
// of 2 of the count for every builder (tests/test_work_limits.cpp checks
// p = 1 .. 100). `blocks` is the pipeline's n (per segment where the
// collective is cut per rank); the other cuts ignore it, their messages
// carry all blocks. A double, as p² at p = 2^31 and p·n with n up to 2^40
// overflow 64 bits. Nothing for a name without a builder.
std::optional<double> plan_messages(Collective c, const std::string& algorithm, int64_t p, int64_t blocks,
                                    int64_t node_size = 1);

// Rates measured on the development machine (2 shared cores, Release build,
// load about 1), wall time of the whole command:
//   plan engine (run --engine loggp, default platform loggp, 1 MiB):
//     allreduce ring p = 4096: 3.35e7 messages in 5.1 s (6.6e6/s);
//     allreduce circulant p = 2^18, n = 1: 9.4e6 in 6.1 s (1.5e6/s);
//     bcast two-tree p = 2^18, n = 25: 6.6e6 in 6.5 s (1.0e6/s);
//     bcast circulant p = 2^20, n = 19: 2.0e7 in 26 s (0.8e6/s);
//     allreduce ring p = 16384: 5.4e8 in 157 s (3.4e6/s, load 3).
//   The rate falls as p grows (the ranks' state leaves the caches); the
//   slow end is the rate, so the expected time is an upper estimate.
//   Not counted: multi-lane plans at one rank per node rename blocks one
//   by one, O(p) a message (p = 16384: 13 s against 1 s estimated).
inline constexpr double kEngineMessagesPerSecond = 1.0e6;
//   plan export (collsim plan > /dev/null): bcast binomial p = 2^22:
//     4.2e6 messages in 2.7 s (1.6e6/s); circulant p = 2^18, n = 64: 1.7e7 in
//     8.0 s (2.1e6/s).
inline constexpr double kExportMessagesPerSecond = 1.5e6;
//   SMPI (results/scale/summary.csv, scale mode, alphabeta, 1 MiB): a rank
//     costs about 1.3 ms by itself (bcast binomial p = 16384: 22 s for
//     16,383 messages) and a message about 35 us (reduce ring p = 1024:
//     1.05e6 messages in 32.6 s; two-tree allreduce p = 16384: 2.9e6 in
//     129 s, less the ranks' 21 s); SimGrid's cost per message grows with
//     the communications alive at once, which grow with p.
inline constexpr double kSmpiSecondsPerRank = 1.3e-3;
inline constexpr double kSmpiSecondsPerMessage = 35e-6;

// Default limits on the estimated messages of one case (--max-messages):
//   engine  2e9: p = 2^24 bcast circulant at n = 64 (1.1e9, README) runs;
//           allreduce ring at p = 2^17 (3.4e10, about an hour) does not.
//   export  1e9: about 50 GB of plan text; bcast binomial at p = 2^31 (2.1e9)
//           is refused.
//   SMPI    1e8: about an hour; ring at p = 4096 (3.4e7) runs, at 16384
//           (5.4e8) it does not.
inline constexpr double kDefaultMaxEngineMessages = 2e9;
inline constexpr double kDefaultMaxExportMessages = 1e9;
inline constexpr double kDefaultMaxSmpiMessages = 1e8;

struct Work {
  double messages = 0;
  double seconds = 0;  // expected
};

// "1.4 h", "25 min", "12 s".
std::string duration_text(double seconds);
// "51150", "3.4e+10".
std::string count_text(double n);

// "about 3.4e+10 messages, expected 1.4 h": for a refusal or a warning.
std::string describe(const Work& w);

// Throws LimitError (exit 4) when w.messages exceeds `limit`: one line
// naming `what` (the case), the count, the expected time, the limit and
// --max-messages, which raises it.
void check_work(const Work& w, double limit, const std::string& what);

}  // namespace collsim::engine
