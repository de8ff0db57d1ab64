// allreduce recursive-doubling: the exchanges of reduce/recursive_doubling.cpp
// with every rank keeping the result, and for p = p' + r the result sent
// back to the r folded ranks. The family (cost, limits, memory): there.
#include "reduction_phases.hpp"
#include "reduction_plans.hpp"

namespace collsim::sim {

using namespace phases;

double model_allreduce_recursive_doubling(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0 || p == 1) return 0;
  return doubling_model(net, p, bytes) + (Fold(p, -1).r > 0 ? oneway(net, static_cast<double>(bytes)) : 0);
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan allreduce_recursive_doubling(int64_t p, int64_t, int64_t blocks) {
  return recursive_doubling(Collective::allreduce, p, 0, blocks);
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_allreduce_recursive_doubling{
    kExactModel,
    "whole-vector exchanges at distance 1, 2, 4, ..: ~lg p (a + b*m + g*m)",
    model_allreduce_recursive_doubling, plan::allreduce_recursive_doubling};

}  // namespace collsim::sim
