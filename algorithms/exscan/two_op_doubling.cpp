// exscan two-op-doubling: shift, then doubling sending W ⊕ V.
// Rounds, ⊕ counts, cost, limits and memory of the doubling scans:
// common/doubling_scans.cpp; the rounds are schedules/scan_plans.hpp's, which
// `collsim verify exscan` proves for every p up to 10^5; `collsim verify plan`
// checks the plan.
#include "doubling_scans.hpp"
#include "reduction_plans.hpp"

namespace collsim::sim {

double model_exscan_two_op_doubling(const Net& n, int64_t p, int64_t m, int64_t) {
  return plan_time("two-op-doubling", false, n, p, m);
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan exscan_two_op_doubling(int64_t p, int64_t, int64_t blocks) {
  return doubling_scan(Collective::exscan, "two-op-doubling", p, blocks);
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_exscan_two_op_doubling{
    kExactModel,
    "shift, then doubling sending W+V: ceil(log2 p) rounds, up to 2ceil(log2 p)-2 ops",
    model_exscan_two_op_doubling, plan::exscan_two_op_doubling};

}  // namespace collsim::sim
