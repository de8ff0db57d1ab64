// allreduce halving-doubling: Rabenseifner's reduce-scatter by recursive
// halving, then the allgather by recursive doubling, and for p = p' + r the
// result sent to the r removed ranks. The family (cost, limits, memory):
// reduce/halving_doubling.cpp.
#include "reduction_phases.hpp"
#include "reduction_plans.hpp"

namespace collsim::sim {

using namespace phases;

double model_allreduce_halving_doubling(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0 || p == 1) return 0;
  const Fold f(p, -1);
  const SegmentBytes cut{net, bytes, f.pow2};
  double t = scatter_model(net, f, cut) + (f.r > 0 ? oneway(net, static_cast<double>(bytes)) : 0);
  for (int64_t size = 1; size < f.pow2; size *= 2) t += exchange(net, cut.of(0, size));
  return t;
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan allreduce_halving_doubling(int64_t p, int64_t, int64_t blocks) {
  return halving_doubling(Collective::allreduce, p, 0, blocks);
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_allreduce_halving_doubling{
    kExactModel,
    "recursive halving reduce-scatter + doubling allgather/gather: ~2 lg p a + 2bm + gm",
    model_allreduce_halving_doubling, plan::allreduce_halving_doubling};

}  // namespace collsim::sim
