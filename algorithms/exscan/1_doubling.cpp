// exscan 1-doubling: shift, then straight doubling on ranks 1..p-1.
// Rounds, ⊕ counts, cost, limits and memory of the doubling scans:
// common/doubling_scans.cpp; the rounds are schedules/scan_plans.hpp's, which
// `collsim verify exscan` proves for every p up to 10^5; `collsim verify plan`
// checks the plan.
#include "doubling_scans.hpp"
#include "reduction_plans.hpp"

namespace collsim::sim {

double model_exscan_1_doubling(const Net& n, int64_t p, int64_t m, int64_t) {
  return plan_time("1-doubling", false, n, p, m);
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan exscan_1_doubling(int64_t p, int64_t, int64_t blocks) {
  return doubling_scan(Collective::exscan, "1-doubling", p, blocks);
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_exscan_1_doubling{
    kExactModel,
    "shift, then straight doubling on ranks 1..p-1: 1+ceil(log2(p-1)) rounds and ops-1",
    model_exscan_1_doubling, plan::exscan_1_doubling};

}  // namespace collsim::sim
