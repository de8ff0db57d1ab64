// The circulant plans' shared pieces (circulant_plans.cpp): the header of a
// circulant reduction or all-broadcast plan, and the p simultaneous
// broadcasts (forwards), reductions (backwards) or both, n blocks per
// segment, that allgatherv, reduce_scatter and allreduce circulant run.
#pragma once

#include <cstdint>

#include "plan_families.hpp"

namespace collsim::plan {

Header circulant_header(Collective c, int64_t p, int64_t root, int64_t blocks);
Plan all_rounds_plan(Collective c, int64_t p, int64_t n, bool reduce_scatter, bool allgather);

}  // namespace collsim::plan
