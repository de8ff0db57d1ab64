// `--engine loggp`: a request answered by the plan engine (engine/loggp.hpp)
// instead of smpirun, for algorithms with a plan builder and plan files.
// The same rows, engine = loggp; checked_ranks 0 (the engine moves no data:
// `collsim verify plan` proves the plans); wall_s and cpu_s of this process,
// mem_mib its peak resident size.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "launch.hpp"
#include "loggp.hpp"
#include "work_estimate.hpp"

namespace collsim::sim {

// Which rules the engine evaluates a plan under (`run --rules`), and the
// parameters given for them (unset: L = α, G = β of the platform, o = g = 0).
struct EngineRules {
  enum class Set { smpi, loggopsim };
  Set set = Set::smpi;
  std::optional<double> L, G;  // seconds; G in seconds per byte (o and g: the platform's)
  // The smpi rules' links shared as SimGrid shares them where messages meet
  // (engine/shared_links.hpp); false: the same rules with every message as
  // if alone on its route, to see what sharing costs.
  bool contention = true;
  // --max-messages: beside the estimate checked before the run, the most
  // work the shared evaluator's solver may do (engine::SolveBudget).
  double max_messages = engine::kDefaultMaxEngineMessages;
};

// Throws std::invalid_argument for an algorithm without a plan builder
// (SimGrid's built-ins). The smpi rules follow the platform: rendezvous on
// an α-β one, eager with its o and g (engine::Network). Rows of the loggopsim rules say engine =
// loggopsim and have no model_us (the catalog's model is the α-β one).
// With a `per_rank_csv` path, also writes every rank's finish there:
// collective,algorithm,p,bytes,root,rank,finish_us, one line per rank and
// row (an OutputError if the write fails).
// An algorithm's model_us on the request's platform: its catalog model on
// an α-β platform; with o or g (whose closed forms the catalog lacks) its
// plan evaluated under SMPI's eager rules (engine::Network), the cost that
// LogGP's L, o, g, G give it; none on half-duplex links there, nor where the
// plan is a commutative path and ⊕ is not (ring with matmul runs other code). `blocks`
// the row's (resolve_blocks: the pipeline's n, 1 for an algorithm that cuts
// its data itself). `max_messages` bounds that evaluation's work as
// --max-messages bounds a row's (engine::SolveBudget).
std::optional<double> model_us(const SimRequest& req, const Algorithm& a, int64_t bytes, int64_t root, int64_t blocks,
                               double max_messages = engine::kDefaultMaxEngineMessages);

// The block count of a pipelined case where the machine's ranks share
// links (nodes of several cores, or a topology; issue 33, item 5): the n
// whose plan the engine times fastest on the shared links (SMPI's rules,
// root 0), among the closed-form policy's pick (block_policy.hpp), n = 1,
// 2, 4, .. up to most_blocks (for a segmented pipeline, the vector's
// elements: empty blocks of a segment pay there) and n·2^(±1/2) around
// the best of those and around the policy's pick; a
// tie keeps the one tried first (the policy's pick first). The policy's model
// knows nothing of the ranks of a node sharing its NIC: measured on 64
// nodes of 128 cores, its n took up to 3.3 times the best n's time
// (results/block-policy-sweep). The evaluations are budgeted by the work
// estimate (engine_case_seconds): 8 times the policy's n's, between 5 and
// 30 s a case in all, each also stopped by the solver's budget; where the
// policy's n alone would pass 30 s (2^20 ranks, say), nullopt with a note
// on stderr. The work estimates before a run (work_limits.hpp) count the
// policy's n: the searched one can have more messages, as many as the
// search's budget allows. nullopt
// also where the policy decides alone: a fixed n (--blocks N), `--blocks
// model` (SimRequest::model_blocks), no such
// machine, no plan, uneven segments. Both engines take this n
// (HarnessArgs::chosen_blocks under SMPI), so a row's `blocks` has one
// meaning. The engine's row takes its time from the search's evaluation
// of that n where that is the row's own (root 0, no per-rank finish or
// events, a solver's budget at least the search's), so the chosen n is
// evaluated once; its wall_s and cpu_s add that evaluation's.
// `net`: the machine with the case's element (the engine's, with --L and
// --G where given).
std::optional<int64_t> contention_blocks(const SimRequest& req, const Algorithm& a, const Net& net, int64_t bytes);
// How many times this process has evaluated a plan on the engine: the
// rows', the block search's and model_us's (the tests count them).
int64_t plan_evaluations();

std::vector<Row> evaluate_plans(const SimRequest& req, const EngineRules& rules = {},
                                const std::string& per_rank_csv = "");
// The same with every message and ⊕ told to `sink` (`collsim timeline`;
// the smpi rules only: std::invalid_argument under loggopsim's).
std::vector<Row> evaluate_plans(const SimRequest& req, const EngineRules& rules, const std::string& per_rank_csv,
                                engine::EventSink* sink);

// A GOAL schedule (schedules/goal_read.hpp) at `path` under the loggopsim
// rules (engine/goal_sim.hpp): one row, collective "goal", algorithm
// "plan:" and the file's name, bytes and blocks 0 (the sizes are in the
// file), engine loggopsim, no model_us. req.p must be the file's num_ranks.
// Throws std::invalid_argument for a malformed file, another p or a
// schedule that does not run to its end; `per_rank_csv` as above.
std::vector<Row> evaluate_goal(const SimRequest& req, const EngineRules& rules, const std::string& path,
                               const std::string& per_rank_csv = "");

}  // namespace collsim::sim
