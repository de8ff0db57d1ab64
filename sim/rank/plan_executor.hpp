// Runs a plan (schedules/plan.hpp) with MPI: the one executor for our
// algorithms that are plans (COLLSIM_PLAN rows of algorithms/algorithms.def)
// and for plans from files (`run --plan F`, `compare --algos plan:F`).
// plan_executor.cpp states cost and limits.
#pragma once

#include "collective.hpp"
#include "plan.hpp"

namespace collsim::sim {

// `plan` must be for a.comm's size and the collective `a` describes.
void run_plan(const plan::Plan& plan, const CollArgs& a);

// Runs the built plan of our algorithm `name` (plan_builders.hpp) for a's
// communicator, root and block count (the algorithm's own cut where it has
// one).
void run_catalog_plan(Collective c, const char* name, const CollArgs& a);

}  // namespace collsim::sim
