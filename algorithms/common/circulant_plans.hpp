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

// The runs of virtual ranks (each a strided run of blocks in a rank's step)
// summed over one pass of those rounds, sends and receives: each rank's
// step of a round visits the round's runs, so a pass costs whoever takes
// its steps (the engine, the plan writer) about p times this in block
// runs. Few where n is small (about 2.6 a round for n = 1, 13 for n = 4),
// up to p/4 a round for n >= 16 (3,391 a step at p = 16,384, n = 16):
// then the plan is quadratic in p. Builds the table of rounds, which the
// plan built next for (p, n) reuses.
int64_t all_rounds_block_runs(int64_t p, int64_t n);

}  // namespace collsim::plan
