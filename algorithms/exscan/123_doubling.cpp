// exscan 123-doubling: Träff 2025, Alg. 1, skips 1, 2, 3·2^(k−2).
// Rounds, ⊕ counts, cost, limits and memory of the doubling scans:
// common/doubling_scans.cpp; the rounds are schedules/scan_plans.hpp's, which
// `collsim verify exscan` proves for every p up to 10^5; `collsim verify plan`
// checks the plan.
#include "doubling_scans.hpp"
#include "reduction_plans.hpp"

namespace collsim::sim {

double model_exscan_123_doubling(const Net& n, int64_t p, int64_t m, int64_t) {
  return plan_time("123-doubling", false, n, p, m);
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan exscan_123_doubling(int64_t p, int64_t, int64_t blocks) {
  return doubling_scan(Collective::exscan, "123-doubling", p, blocks);
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_exscan_123_doubling{
    kExactModel,
    "Traeff 2025, Alg. 1, skips 1,2,3*2^(k-2): q=ceil(log2(p-1)+log2(4/3)) rounds",
    model_exscan_123_doubling, plan::exscan_123_doubling};

}  // namespace collsim::sim
