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
