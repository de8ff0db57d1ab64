// halving-doubling: Rabenseifner's recursive halving and doubling (seed 004
// §2.5, Fig. 1) for reduce and allreduce. A reduce-scatter by recursive
// vector halving with distance doubling, then recursive vector doubling with
// distance halving (allreduce) or a binomial gather to the root (reduce).
//
// Non-power-of-two p = p' + r: the first 2r ranks pair up; the even one
// sends the second half of its input to the odd one, the odd one the first
// half to the even one, both reduce their half, and the odd one sends its
// half back; the r survivors and the last p − 2r ranks continue as p' ranks.
// Where the reduce root is an odd paired rank the two swap roles (seed 004:
// "no additional overhead"). Allreduce ends by sending the result to the r
// removed ranks.
//
// Cost (seed 004, full duplex, p a power of two):
//   allreduce  2 lg p α + 2mβ + mγ − (2mβ + mγ)/p
//   reduce     2 lg p α + 2mβ + mγ − (2mβ + mγ)/p   (fα = fβ = 1)
// non-power-of-two adds the pre-step (1 + fα)α + (1 + fβ)/2·mβ + mγ/2 and, for
// allreduce, α + mβ. The models below sum exactly these steps with SMPI's
// 16-byte envelope; on half-duplex links every exchange step costs
// α + 2bβ (see reduction_phases.hpp).
// Limits: any p, any root; ⊕ need not be commutative (every combine is
// (lower ranks) ⊕ (higher ranks), see reduction_phases.hpp); any count,
// including count < p (empty segments) and 0. Memory: the executor's: a vector of m
// (non-roots) and one message buffer each way.
// Runs as its plan (algorithms/common/reduction_plans.cpp) through the plan executor
// (sim/rank/plan_executor.hpp); this file holds its cost model.
#include "reduction_phases.hpp"
#include "reduction_plans.hpp"

namespace collsim::sim {

using namespace phases;

// Root 0 holds block 0 after the halving and receives blocks [2^j, 2^j+1)
// in gather step j.
double model_reduce_halving_doubling(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0 || p == 1) return 0;
  const Fold f(p, -1);
  const SegmentBytes cut{net, bytes, f.pow2};
  double t = scatter_model(net, f, cut);
  for (int64_t size = 1; size < f.pow2; size *= 2) t += oneway(net, cut.of(size, 2 * size));
  return t;
}

}  // namespace collsim::sim

namespace collsim::plan {

// halving-doubling (halving_doubling.cpp), B = p' base segments, any ⊕:
// the pair pre-step for p = p' + r (2 steps of m/2), lg p' exchanges of
// m/2, m/4, .., then lg p' steps back up (allreduce: exchanges, and the
// result sent to the r removed ranks; reduce: a binomial gather to the
// root, which the Fold keeps a survivor).
Plan reduce_halving_doubling(int64_t p, int64_t root, int64_t blocks) {
  return halving_doubling(Collective::reduce, p, root, blocks);
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_reduce_halving_doubling{
    kExactModel,
    "recursive halving reduce-scatter + doubling allgather/gather: ~2 lg p a + 2bm + gm",
    model_reduce_halving_doubling, plan::reduce_halving_doubling};

}  // namespace collsim::sim
