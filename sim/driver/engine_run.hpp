// `--engine loggp`: a request answered by the plan engine (engine/loggp.hpp)
// instead of smpirun, for algorithms with a plan builder and plan files.
// The same rows, engine = loggp; checked_ranks 0 (the engine moves no data:
// `collsim verify plan` proves the plans); wall_s and cpu_s of this process,
// mem_mib its peak resident size.
#pragma once

#include <vector>

#include "launch.hpp"

namespace collsim::sim {

// Throws std::invalid_argument for an algorithm without a plan builder
// (SimGrid's built-ins, and ours not yet written as plans).
std::vector<Row> evaluate_plans(const SimRequest& req);

}  // namespace collsim::sim
