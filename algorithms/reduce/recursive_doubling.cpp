// recursive-doubling: seed 004 §2.4. In step d = 1, 2, .., p'/2 the partners
// v and v ^ d exchange their whole intermediate vectors and both compute the
// same ⊕ (the lower one's data on the left), so after lg p' steps every rank
// has the result: the fewest rounds, the whole vector in every one — the
// short-vector algorithm.
//
// Non-power-of-two p = p' + r: before the doubling, each odd rank 2i + 1
// (i < r) sends its input to 2i, which folds it in on the right; afterwards
// 2i sends the result back (allreduce). Reduce runs the same exchanges and
// drops the send-back; its result is kept by the root only (a paired root
// survives in place of its partner, as in halving-doubling).
//
// Cost (seed 004): allreduce ⌈lg p⌉(α + mβ + mγ) + (p not a power of two:
// α_uni + mβ_uni). Here the pre-step is a one-way message, which the paper
// counts among the ⌈lg p⌉ exchange steps; the model sums the actual steps
// (with SMPI's envelope; on half-duplex links every exchange costs α + 2mβ).
// Reduce is the same without the send-back.
// Limits: any p, any root; ⊕ need not be commutative; any count.
// Memory: the executor's: a vector of m
// (non-roots) and one message buffer each way.
// Runs as its plan (algorithms/common/reduction_plans.cpp) through the plan executor
// (sim/rank/plan_executor.hpp); this file holds its cost model.
#include "reduction_phases.hpp"
#include "reduction_plans.hpp"

namespace collsim::sim {

using namespace phases;

double model_reduce_recursive_doubling(const Net& net, int64_t p, int64_t bytes, int64_t) {
  return bytes == 0 || p == 1 ? 0 : doubling_model(net, p, bytes);
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan reduce_recursive_doubling(int64_t p, int64_t root, int64_t blocks) {
  return recursive_doubling(Collective::reduce, p, root, blocks);
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_reduce_recursive_doubling{
    kExactModel,
    "whole-vector exchanges at distance 1, 2, 4, ..: ~lg p (a + b*m + g*m)",
    model_reduce_recursive_doubling, plan::reduce_recursive_doubling};

}  // namespace collsim::sim
