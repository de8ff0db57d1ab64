// two-tree allreduce: two-tree reduce to p − 1 followed by the two-tree
// broadcast from p − 1 down the same trees with the same colours (seed 002
// §2.1 and §2.2: the paper gives the two halves, not an allreduce; reduce +
// broadcast is the composition it implies, seed 004 §2.2's "classical"
// allreduce with two-tree halves).
//
// Associative ⊕ only, order kept: root p − 1 keeps the inorder ranges
// contiguous (two_tree_pipeline.hpp).
// Cost: S steps of the reduce, S (α + β(⌈m/n⌉ + 16) + γ⌈m/n⌉), then S of the
// broadcast, S (α + β(⌈m/n⌉ + 16)); S as in bcast_two_tree.cpp. Measured
// equal to the model within 0.05 % for p in {2, 4, 5, 6, 17, 33, 64}, n in
// {1, 2, 3, 7, 16, 64}, 64 KiB (p = 3: up to 3 % faster, see the reduce).
// The phases do not overlap: p − 1 starts the broadcast after its last
// reduce step. Overlapping them (block b down the trees while later blocks
// still come up) would save about S − n steps, but a rank would then send
// and receive twice per step (up to its parent and down to a child, and the
// reverse), which the one-ported colouring does not cover; left out.
// Limits: any p, any count, n ≥ 1. Memory: as two-tree reduce.
// Runs as its plan (algorithms/common/two_tree_plans.cpp) through the plan
// executor (sim/rank/plan_executor.hpp); this file holds its cost model.
#include "two_tree_pipeline.hpp"
#include "plan_families.hpp"
namespace collsim::sim {

double model_bcast_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks);

double model_allreduce_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  return two_tree_reduce_model(net, p, bytes, blocks) + model_bcast_two_tree(net, p, bytes, blocks);
}

}  // namespace collsim::sim

namespace collsim::plan {

// two-tree allreduce (allreduce_two_tree.cpp): the reduction to p − 1, then
// the broadcast from p − 1 down the same trees; the phases do not overlap.
// Order-keeping: `commutative 0`.
Plan allreduce_two_tree(int64_t p, int64_t, int64_t blocks) {
  const Header h{Collective::allreduce, p, 0, blocks, false};
  if (p == 1) return no_steps(h);
  const TwoTree tt(p, p - 1);
  return streamed(h, [=](int64_t rank) {
    const sim::StepPlan up = sim::two_tree_reduce_plan(tt, rank, blocks), down = sim::two_tree_bcast_plan(tt, rank, blocks);
    const int64_t turn = up.end(blocks);
    return rounds(0, turn + down.end(blocks), [up, down, turn, blocks, rank](int64_t i, Step& step) {
      if (i < turn) two_tree_step(up, blocks, rank, true, i, step);
      else two_tree_step(down, blocks, rank, false, i - turn, step);
    });
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_allreduce_two_tree{
    kExactModel,
    "two-tree reduce to p-1 + two-tree bcast, order kept: S(2a+(2b+g)m/n), S<=n+2q-2",
    model_allreduce_two_tree, plan::allreduce_two_tree};

}  // namespace collsim::sim
