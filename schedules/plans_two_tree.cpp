// Two-tree plans: the messages of sim/algorithms/bcast_two_tree.cpp,
// reduce_two_tree.cpp, allreduce_two_tree.cpp and two_tree_pipeline.cpp, the
// busy steps of two_tree_steps.hpp's per-rank step plans, one MPI_Sendrecv
// each (idle steps send nothing and are no step). B = n blocks.
// The MPI code also sends a message of an empty block (count < n) to its
// peer; the executor sends no half-step of zero bytes, so plan and MPI code
// agree in time for count >= n only.
#include "plan_families.hpp"
#include "two_tree_steps.hpp"

namespace collsim::plan {

// Per busy step: send block s − lag to the out-edge's peer, receive block
// s − lag from the in-edge's; a broadcast stores it, a reduction folds the
// child's partial in on its side: left from a lower rank (its inorder range
// precedes this rank's when the trees' root is 0 or p − 1), right from a
// higher one (two_tree_pipeline.cpp's combine).
void two_tree_steps(const sim::StepPlan& plan, int64_t n, int64_t rank, bool reduces, std::vector<Step>& steps) {
  sim::for_each_busy_step(plan, n, [&](const sim::Step& st) {
    Step step;
    if (st.send_block >= 0) step = send_step(st.to.peer, {st.send_block});
    const Combine combine = !reduces ? Combine::store : st.from.peer < rank ? Combine::left : Combine::right;
    if (st.recv_block >= 0) step = with_recv(std::move(step), st.from.peer, {st.recv_block}, combine);
    steps.push_back(std::move(step));
  });
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
  return {h, [=](int64_t rank) {
            std::vector<Step> steps;
            two_tree_steps(sim::two_tree_reduce_plan(tt, rank, blocks), blocks, rank, true, steps);
            return steps;
          }};
}

// two-tree allreduce (allreduce_two_tree.cpp): the reduction to p − 1, then
// the broadcast from p − 1 down the same trees; the phases do not overlap.
// Order-keeping: `commutative 0`.
Plan allreduce_two_tree(int64_t p, int64_t, int64_t blocks) {
  const Header h{Collective::allreduce, p, 0, blocks, false};
  if (p == 1) return no_steps(h);
  const TwoTree tt(p, p - 1);
  return {h, [=](int64_t rank) {
            std::vector<Step> steps;
            two_tree_steps(sim::two_tree_reduce_plan(tt, rank, blocks), blocks, rank, true, steps);
            two_tree_steps(sim::two_tree_bcast_plan(tt, rank, blocks), blocks, rank, false, steps);
            return steps;
          }};
}

}  // namespace collsim::plan
