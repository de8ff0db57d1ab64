// Two-tree plans: the messages of sim/algorithms/bcast_two_tree.cpp,
// reduce_two_tree.cpp, allreduce_two_tree.cpp and two_tree_pipeline.cpp, the
// busy steps of two_tree_steps.hpp's per-rank step plans, one MPI_Sendrecv
// each (idle steps send nothing and are no step). B = n blocks.
// Streamed: a rank's state is its step plan (lags and edges), not its
// O(n) steps.
#include "plan_families.hpp"
#include "two_tree_steps.hpp"

namespace collsim::plan {

// Per busy step: send block s − lag to the out-edge's peer, receive block
// s − lag from the in-edge's; a broadcast stores it, a reduction folds the
// child's partial in on its side: left from a lower rank (its inorder range
// precedes this rank's when the trees' root is 0 or p − 1), right from a
// higher one (two_tree_pipeline.cpp's combine).
void two_tree_step(const sim::StepPlan& plan, int64_t n, int64_t rank, bool reduces, int64_t i, Step& step) {
  const sim::StepEdge &to = plan.out[i & 1], &from = plan.in[i & 1];
  const int64_t sb = to.block(i, n), rb = from.block(i, n);
  if (sb >= 0) set_send(step, to.peer, block_run(sb, 1));
  const Combine combine = !reduces ? Combine::store : from.peer < rank ? Combine::left : Combine::right;
  if (rb >= 0) set_recv(step, from.peer, block_run(rb, 1), combine);
}

// two-tree reduce (reduce_two_tree.cpp): the broadcast's steps mirrored in
// time on the trees rooted at the root. Root 0 or p − 1: the inorder ranges
// stay contiguous, right for any associative ⊕ (`commutative 0`). Other
// roots: the plan is the MPI code's path for a commutative ⊕, the trees
// rooted at the root itself (`commutative 1`). Left out: for a
// non-commutative ⊕ at such a root the MPI code reduces to p − 1 instead,
// which Isends each finished block to the root outside the step schedule
// while the root Irecvs them all up front (two_tree_pipeline.cpp's
// Forward); those messages overlap the steps, and a plan step is one
// blocking MPI_Sendrecv, so no plan says that.
//   p = 2, root 0, n = 2: one edge, 1 → 0, a block per step:
//     rank 1: send 0 b0; send 0 b1     rank 0: recv 1 b0 right; recv 1 b1 right
//   p = 4, root 3, n = 2 (the allreduce's first half): block 0 goes up the
//   tree 3 ← 1 ← {0, 2} (2 → 1, 0 → 1, 1 → 3), block 1 up 1 → 0 → 2 → 3:
//     rank 0: send 1 b0 + recv 1 b1 right; send 2 b1
//     rank 1: recv 2 b0 right; send 0 b1 + recv 0 b0 left; send 3 b0
Plan reduce_two_tree(int64_t p, int64_t root, int64_t blocks) {
  const Header h{Collective::reduce, p, root, blocks, root != 0 && root != p - 1};
  if (p == 1) return no_steps(h);
  const TwoTree tt(p, root);
  return streamed(h, [=](int64_t rank) {
    const sim::StepPlan plan = sim::two_tree_reduce_plan(tt, rank, blocks);
    return rounds(0, plan.end(blocks),
                  [plan, blocks, rank](int64_t i, Step& step) { two_tree_step(plan, blocks, rank, true, i, step); });
  });
}

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
