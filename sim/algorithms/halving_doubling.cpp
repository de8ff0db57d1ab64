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
// Runs as its plan (schedules/plans_reduce.cpp) through the plan executor
// (sim/rank/plan_executor.hpp); this file holds its cost model.
#include "reduction_phases.hpp"

namespace collsim::sim {

using namespace phases;

namespace {

double scatter_model(const Net& net, int64_t p, int64_t bytes) {
  const Fold f(p, -1);
  const double m = static_cast<double>(bytes);
  double t = f.r > 0 ? exchange(net, m / 2) + net.gamma * m / 2 + oneway(net, m / 2) : 0;
  for (double b = m / 2; b * static_cast<double>(f.pow2) >= m; b /= 2) t += exchange(net, b) + net.gamma * b;
  return t;
}

}  // namespace

double model_allreduce_halving_doubling(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0 || p == 1) return 0;
  const Fold f(p, -1);
  const double m = static_cast<double>(bytes);
  double t = scatter_model(net, p, bytes) + (f.r > 0 ? oneway(net, m) : 0);
  for (double b = m / static_cast<double>(f.pow2); b < m; b *= 2) t += exchange(net, b);
  return t;
}

double model_reduce_halving_doubling(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0 || p == 1) return 0;
  const double m = static_cast<double>(bytes);
  double t = scatter_model(net, p, bytes);
  for (double b = m / static_cast<double>(Fold(p, -1).pow2); b < m; b *= 2) t += oneway(net, b);
  return t;
}

}  // namespace collsim::sim
