// Work before it starts (issue 31): how many messages a plan sends, from
// the algorithm's plan shape in closed form (no plan is built), and how
// long that takes to simulate or export, so that a command can refuse a
// case that would run for hours before it runs at all.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "collectives.hpp"
#include "topology.hpp"

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

// The block runs that the circulant all-to-all plans (allgatherv,
// reduce_scatter and allreduce circulant) list: a rank's step of a round
// lists the round's runs of virtual ranks that move one block
// (circulant_plans.hpp, all_rounds_block_runs), so a pass costs p·runs
// block runs, which grows as p² where n >= 16 (p = 16,384, n = 16: 1.6e9
// runs, about 64 s, against 4.9e5 messages). 0 for every other plan and
// for p <= 1. Builds the plan's table of rounds (which the plan then
// reuses): O(p·(n + log p)), about what the plan's messages cost; so 0
// also where those messages pass kDefaultMaxEngineMessages (the case is
// refused by them unless --max-messages is raised, and then its runs are
// not counted).
double block_runs(Collective c, const std::string& algorithm, int64_t p, int64_t blocks);
// Seconds the engine spends on one block run: circulant allgatherv at
// p = 4096, n = 37 on oneported, 3.0e8 runs in 12.7 s; at p = 16,384,
// n = 16 on fat-tree:2 with 128 cores a node, 1.6e9 in 72 s (with its
// 4.9e5 messages).
inline constexpr double kSecondsPerBlockRun = 42e-9;

// The block numbers `collsim plan --format plan` writes for the circulant
// all-to-all plans: a strided run of blocks (n >= 2) is written block by
// block, and each rank sends and receives every other rank's n blocks a
// pass, 2·p·(p − 1)·n numbers (p = 16,384, n = 16: 8.6e9 numbers, about
// 49 GB). 0 for every other plan and for n = 1, whose runs are ranges "a-b".
double listed_block_numbers(Collective c, const std::string& algorithm, int64_t p, int64_t blocks);

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
//   plan engine on shared links (engine/shared_links.hpp: ranks sharing
//   nodes, a topology or half duplex): dearer a message, as every flow
//   start, latency end and completion re-solves the bandwidth shares of
//   all the messages its links connect (SimGrid's selective update), and on
//   a fat tree's top or a dragonfly's global links that is most of those in
//   flight. Measured after groups and classes (docs/engine.md; CPU seconds
//   of the whole command on the idle machine, 1 MiB, 128 cores a node,
//   loggp with intra-node alpha 0.3 us and beta 0.1 ns/B, the plan's own
//   blocks n; tests/shared_links_bench.sh at 2^20, the same plans at 2^17):
//     plans whose ranks keep in step (all but the circulant all-to-all
//       ones): 0.2 to 1.0 us a message at 2^17 on fat-tree:2, the torus
//       and the dragonfly; at 2^20 up to 1.2 us on the fat tree and 1.3 us
//       on the dragonfly (two-tree bcast the slowest, circulant bcast 0.25
//       and 0.44 us);
//     on a crossbar of nodes (no topology), the default platform's one
//       rank a node among them: 1.1 to 2.0 us at 2^17 with one rank a node
//       (two-tree bcast the slowest), 0.2 to 1.1 us with 128; except
//       circulant bcast, whose eager blocks make the ranks drift apart
//       there, so that each message's start and end re-solves all those in
//       flight (docs/engine.md): 3.2 us a message at 2^14 on 128-core
//       nodes, 8.9 us at 2^15, and on 8-core nodes 171 us at 8,192 ranks;
//       no rate a message fits that, so the evaluator counts its solver's
//       work as it goes (kSecondsPerSolvedHop below);
//     the circulant all-to-all plans (allgatherv, reduce_scatter, allreduce),
//       whose segments of 0 or 1 element at large p make messages differ
//       in size and end one by one: 0.4 to 0.8 us at 2^17; at 2^20 2.4 us on
//       the fat tree (reduce_scatter), over 4.8 and 9.5 us on the dragonfly
//       (allreduce, reduce_scatter: past 200 s).
//   The slow end of each kind, as for the flat engine (the torus measured
//   at 2^17 only: its all-to-all rate is the one measured before groups).
struct SharedCost {
  double nodes;  // ranks sharing nodes on a crossbar: each node's NIC shared
  double fat_tree, torus, dragonfly;
};
inline constexpr SharedCost kSharedSecondsPerMessage{3e-6, 1.5e-6, 1.5e-6, 1.5e-6};
inline constexpr SharedCost kSharedSecondsPerAllToAllMessage{3e-6, 3e-6, 10e-6, 20e-6};
//   the max-min solver of the shared evaluator, a (message, link) pair
//     set up by a solve (FluidNetwork::solved_hops), with all the rest of
//     an evaluation whose time it dominates: circulant bcast, 1 MiB, on a
//     crossbar of nodes (loggp, intra-node alpha 0.3 us and beta 0.1 ns/B),
//     2,048 ranks on 8-core nodes 3.7e7 pairs in 3.1 s, 8,192 on 8-core
//     nodes 7.7e8 in 72.8 s, 16,384 on 128-core nodes 9.9e7 in 8.2 s,
//     32,768 on 128-core nodes 6.3e8 in 47.7 s: 75 to 94 ns. Where
//     messages keep in step the pairs are few (two-tree bcast at 2^17 on
//     fat-tree:2: 2.7e5 in 3.1 s), so they bound nothing there. The
//     evaluator stops past what the limit allows (SolveBudget of
//     shared_links.hpp): a case whose messages fall out of step re-solves
//     all those in flight at every event, work no estimate before the run
//     sees (circulant bcast on 8-core nodes: 0.5 s at 1,024 ranks, 11.9 s
//     at 4,096, 72 s at 8,192, each with about twice the messages of the
//     one before).
inline constexpr double kSecondsPerSolvedHop = 90e-9;
// The (message, link) pairs the solver may set up under a limit of `limit`
// messages: the limit's seconds on the flat engine (kEngineMessagesPerSecond)
// at kSecondsPerSolvedHop.
inline double solved_hops_allowed(double limit) { return limit / kEngineMessagesPerSecond / kSecondsPerSolvedHop; }
//   plan export (collsim plan > /dev/null): bcast binomial p = 2^22:
//     4.2e6 messages in 2.7 s (1.6e6/s); circulant p = 2^18, n = 64: 1.7e7 in
//     8.0 s (2.1e6/s).
inline constexpr double kExportMessagesPerSecond = 1.5e6;
//   A block number in a step's list weighs a tenth of a message against
//   the limit (about 5.7 bytes of text against some 50) and takes 42 ns:
//   circulant allgatherv at p = 2048, n = 16 lists 1.3e8 of them, 761 MB
//   in 5.6 s.
inline constexpr double kExportMessagesPerBlockNumber = 0.1;
inline constexpr double kExportSecondsPerBlockNumber = 42e-9;
//   SMPI (results/scale/summary.csv, scale mode, alphabeta, 1 MiB): a rank
//     costs about 1.3 ms by itself (bcast binomial p = 16384: 22 s for
//     16,383 messages) and a message about 35 us (reduce ring p = 1024:
//     1.05e6 messages in 32.6 s; two-tree allreduce p = 16384: 2.9e6 in
//     129 s, less the ranks' 21 s); SimGrid's cost per message grows with
//     the communications alive at once, which grow with p.
inline constexpr double kSmpiSecondsPerRank = 1.3e-3;
inline constexpr double kSmpiSecondsPerMessage = 35e-6;

// Default limits on the estimated messages of one case (--max-messages),
// each message of the shared evaluator weighing its cost over the flat
// engine's (Work::weight: 1.5 on a fat tree, a torus or a dragonfly, 3 on
// a crossbar of nodes such as the default platform's; for the circulant
// all-to-all plans 3 on a crossbar or a fat tree, 10 on a torus, 20 on a
// dragonfly):
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
  // What a message weighs against the limit: 1 on the flat engine, the
  // shared evaluator's cost a message over the flat engine's on shared
  // links (so the limit stays the flat engine's time, ~2,000 s by default).
  double weight = 1;
  // Beside the messages, the circulant all-to-all plans' block runs (the
  // engine) or listed block numbers (a plan text): `blocks` of them, each
  // weighing block_weight against the limit.
  double blocks = 0, block_weight = 0;
  const char* blocks_name = "";
};

// Is `algorithm` one of the circulant all-to-all plans (allgatherv,
// reduce_scatter, allreduce circulant: plan::MessageShape all_to_all)?
bool all_to_all_plan(Collective c, const std::string& algorithm);
// The engine's expected seconds a message: the flat engine's rate, or the
// shared evaluator's for the topology and the kind of plan where the
// machine shares links.
double engine_seconds_per_message(bool shares_links, platforms::Topology::Kind kind, bool all_to_all);

// "1.4 h", "25 min", "12 s".
std::string duration_text(double seconds);
// "51150", "3.4e+10".
std::string count_text(double n);

// "about 3.4e+10 messages, expected 1.4 h" ("about 1.1e+08 messages on
// shared links (each weighs 20 against the limit), expected 1.9 h"): for a
// refusal or a warning.
std::string describe(const Work& w);

// What w weighs against a limit: its messages times their weight, plus
// its block work times block_weight.
double weighed_messages(const Work& w);
// Is w within `limit` (weighed_messages)?
bool within(const Work& w, double limit);

// Throws LimitError (exit 4) when w is not within `limit`: one line
// naming `what` (the case), the count, the expected time, the limit and
// --max-messages, which raises it.
void check_work(const Work& w, double limit, const std::string& what);

}  // namespace collsim::engine
