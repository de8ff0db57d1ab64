// The rank side's half of the catalog: each row's run function, taken from
// the same list (algorithms/algorithms.def) in the same order, so a row of
// algorithms() and its function cannot drift apart.
#pragma once

#include "catalog.hpp"
#include "collective.hpp"

namespace collsim::sim {

using RunFunction = void (*)(const CollArgs& args);

// The function that runs row `a` (SimGrid's built-ins: the plain MPI call,
// which the harness's --cfg=smpi/<collective>:<name> selects).
RunFunction run_function(const Algorithm& a);

}  // namespace collsim::sim
