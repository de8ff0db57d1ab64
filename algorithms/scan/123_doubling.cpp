// scan 123-doubling: the exclusive 123-doubling plan (Träff 2025, Alg. 1), then W ⊕ V.
// Rounds, ⊕ counts, cost, limits and memory of the doubling scans:
// common/doubling_scans.cpp; the rounds are schedules/scan_plans.hpp's, which
// `collsim verify scan` proves for every p up to 10^5; `collsim verify plan`
// checks the plan.
#include "doubling_scans.hpp"
#include "reduction_plans.hpp"

namespace collsim::sim {

double model_scan_123_doubling(const Net& n, int64_t p, int64_t m, int64_t) {
  return plan_time("123-doubling", true, n, p, m);
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan scan_123_doubling(int64_t p, int64_t, int64_t blocks) {
  return inclusive_doubling_scan("123-doubling", p, blocks);
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_scan_123_doubling{
    kExactModel,
    "exclusive 123-doubling (Traeff 2025, Alg. 1), then W+V: q rounds",
    model_scan_123_doubling, plan::scan_123_doubling};

}  // namespace collsim::sim
