// scan two-op-doubling: the exclusive two-⊕ doubling plan, then W ⊕ V.
// Rounds, ⊕ counts, cost, limits and memory of the doubling scans:
// common/doubling_scans.cpp; the rounds are schedules/scan_plans.hpp's, which
// `collsim verify scan` proves for every p up to 10^5; `collsim verify plan`
// checks the plan.
#include "doubling_scans.hpp"
#include "reduction_plans.hpp"

namespace collsim::sim {

double model_scan_two_op_doubling(const Net& n, int64_t p, int64_t m, int64_t) {
  return plan_time("two-op-doubling", true, n, p, m);
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan scan_two_op_doubling(int64_t p, int64_t, int64_t blocks) {
  return inclusive_doubling_scan("two-op-doubling", p, blocks);
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_scan_two_op_doubling{
    kExactModel,
    "exclusive two-op doubling, then W+V: ceil(log2 p) rounds",
    model_scan_two_op_doubling, plan::scan_two_op_doubling};

}  // namespace collsim::sim
