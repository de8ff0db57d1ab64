// two-tree reduce: the pipelined two-tree broadcast run backwards in time
// (seed 002 §2.2): the same trees T1, T2, the same edge colours and step
// lags, blocks flowing from the leaves to the root; schedule and order
// argument in two_tree_pipeline.hpp and two_tree_steps.hpp.
//
// Associative ⊕ only, order kept (no kCommutative): with root 0 or p − 1 the
// trees run as they are. For a non-commutative ⊕ and another root the trees
// reduce to p − 1, which sends each finished block to the root outside the
// step schedule (measured: 1 step more at n = 1, up to about 4 at n = 16, as
// the root's link is shared with its children's messages; not in the
// model, which has no root argument). A commutative ⊕ takes any root
// directly (Theorem 1's last sentence).
//
// Cost: S (α + β(⌈m/n⌉ + 16) + γ⌈m/n⌉), S the broadcast's step count
// (bcast_two_tree.cpp). Why one γ per step: a rank receives at most one
// block per step and combines it at once, one ⊕ (left child ⊕ own and then
// ⊕ right child happen in the two different steps the children arrive in),
// and every step's send waits for the sender's ⊕ of the step before, so the
// critical path is S messages each followed by one ⊕, the last at the root.
// Exact under SMPI (0.00 % at p = 17, 64000 B, n = 16: 299.368 µs) for
// roots 0 and p − 1 when ⌈m/n⌉ is a whole number of elements; otherwise the
// blocks, cut on element boundaries, are slightly longer than the model's
// ⌈m/n⌉ (+0.3 % at n = 33, 64 KiB, 32-byte elements). Exception: p = 3,
// where every edge is idle every other step, runs up to 33 % faster than S
// steps with γ > 0 (and n = 1 at γ → 0, as the broadcast).
// Against the paper: Theorem 1 prints 4(h − 1)α + … for the reduction, twice
// the broadcast's latency as we read it (bcast_two_tree.cpp): the mirrored
// schedule has exactly the broadcast's steps, n + Λ ≤ n + 2⌈log2 p⌉ − 2.
// Limits: any p, any root, any count, n ≥ 1.
// Memory: the accumulator (m bytes; the root's buf) plus one block of scratch.
#ifdef COLLSIM_RANK
#include "collective.hpp"
#include "plan_executor.hpp"
#endif  // COLLSIM_RANK
#include "two_tree_pipeline.hpp"
#include "plan_families.hpp"
#ifdef COLLSIM_RANK
#include "window.hpp"
#endif  // COLLSIM_RANK

namespace collsim::sim {

#ifdef COLLSIM_RANK
// Its plan (two_tree_plans.cpp) where the trees hang from the root itself;
// the MPI code below where a non-commutative ⊕ reduces to p − 1, which
// forwards the blocks to the root outside the steps (no plan says that).
void reduce_two_tree(const CollArgs& a) {
  int rank = 0;
  MPI_Comm_rank(a.comm, &rank);
  const int tree_root = two_tree_root(a);
  if (tree_root == a.root) return run_catalog_plan(Collective::reduce, "two-tree", a);
  // The accumulator is buf only where the result is wanted there: a
  // forwarding p − 1 has no buf (MPI_Reduce's recvbuf is only the root's).
  Scratch own;
  char* acc = static_cast<char*>(a.buf);
  if (rank != tree_root || rank != a.root) {
    own = Scratch(a, Scratch::Kind::vector, a.bytes);
    acc = own.data();
  }
  copy_real(acc, a.sendbuf, a.bytes);
  two_tree_reduce(a, tree_root, acc, static_cast<char*>(a.buf));
}
#endif  // COLLSIM_RANK

double model_reduce_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  return two_tree_reduce_model(net, p, bytes, blocks);
}

}  // namespace collsim::sim

namespace collsim::plan {

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

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_reduce_two_tree{
    kPlan | kExactModel,
    "two-tree bcast schedule reversed (Sanders et al. 2.2), order kept: S(a+(b+g)m/n), S<=n+2q-2",
    model_reduce_two_tree, plan::reduce_two_tree};

}  // namespace collsim::sim
