// scan hillis-steele: the inclusive straight doubling scan (Hillis-Steele), skips 2^k.
// Rounds, ⊕ counts, cost, limits and memory of the doubling scans:
// common/doubling_scans.cpp; the rounds are schedules/scan_plans.hpp's, which
// `collsim verify scan` proves for every p up to 10^5; `collsim verify plan`
// checks the plan.
#include "doubling_scans.hpp"
#include "reduction_plans.hpp"

namespace collsim::sim {

double model_scan_hillis_steele(const Net& n, int64_t p, int64_t m, int64_t) {
  return plan_time("hillis-steele", true, n, p, m);
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan scan_hillis_steele(int64_t p, int64_t, int64_t blocks) {
  return doubling_scan(Collective::scan, "hillis-steele", p, blocks);
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_scan_hillis_steele{
    kExactModel,
    "straight doubling, skips 2^k: ceil(log2 p) rounds and ceil(log2 p) ops",
    model_scan_hillis_steele, plan::scan_hillis_steele};

}  // namespace collsim::sim
