// Runs a plan (schedules/plan.hpp) with MPI: the one executor for plans from
// files (`run --plan F`, `compare --algos plan:F`) and, as the plans of our
// algorithms land, for those too. plan_executor.cpp states cost and limits.
#pragma once

#include "collective.hpp"
#include "plan.hpp"

namespace collsim::sim {

// `plan` must be for a.comm's size and the collective `a` describes;
// throws std::invalid_argument in scale mode.
void run_plan(const plan::Plan& plan, const CollArgs& a);

}  // namespace collsim::sim
