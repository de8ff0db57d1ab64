// two-tree: the pipelined parallel prefix on two inorder binary trees
// (Sanders, Speck, Träff, seed 002 §2.3), as MPI_Scan and MPI_Exscan.
//
// Runs as its plan (algorithms/common/two_tree_plans.cpp, TwoTreeScan) through the
// plan executor; this file holds its cost model. The plan's trees are those
// of schedules/two_tree.hpp built over all p ranks: TwoTree(p + 1, p) puts
// the broadcast root at the fictitious rank p, so both trees are inorder
// trees on 0..p-1 (a rank is interior in at most one of them). In an
// inorder tree a node x's subtree holds the ranks [lo(x), hi(x)] with x in
// between, its left subtree [lo(x), x-1], its right subtree [x+1, hi(x)].
// The vector is cut into n blocks, each going through the tree its colour
// picks; per block:
//
//   up phase   A = L ⊕ V_x            (L: sum of the left subtree, received)
//              S = A ⊕ R  -> parent   (R: sum of the right subtree, received
//                                      into the plan's second accumulator)
//   down phase P = [0, lo(x) - 1]      received from the parent (empty when
//                                      lo(x) = 0: no message at all)
//              P -> left child         (its lo is lo(x))
//              P ⊕ A = [0, x] -> right child (its lo is x + 1)
//              scan: P ⊕ A;  exscan: P ⊕ L = [0, x - 1]
//
// Every ⊕ has the lower ranks on the left, so the order is kept: correct for
// non-commutative operators. The up phase runs the two-tree reduction's
// step schedule and the down phase the broadcast's (two_tree_steps.hpp):
// the paper's 0/1-coloured lock-step schedule, one send and one receive a
// step.
//
// Deviation: the paper overlaps the down phase with the up phase; the plan
// runs the two schedules one after the other (as two-tree allreduce does).
// Before it was a plan, this algorithm's MPI code posted all receives up
// front and took blocks as they arrived (MPI_Waitany), in no fixed order of
// steps, which no plan can say; the plan's fixed order is the paper's.
//
// Cost: with S(p + 1, n) the broadcast's step count (two_tree_step_count,
// at most n + 2⌈log2(p + 1)⌉ − 2), 2·S steps of one block of ⌈m/n⌉ bytes,
// each a message and γ per byte for its ⊕. Seed 002's Theorem 2, as
// extracted ("2((2h−3) + 2√((2h−3)α)√(βm/2) + βm)"), is the minimum over N of
// its 4h − 2 + 2(N − 2) overlapped steps × (α + βm/N), garbled in the
// transcription; the model counts the plan's steps instead. Not exact: up
// steps ⊕ twice (the received L, then acc ⊕ aux sent up), and empty-prefix
// ranks skip messages.
// Limits: any p ≤ 2^31 − 2, any count, n at most the elements.
// Memory: the executor's: acc and aux, m bytes each, and one message each way.
#include "algorithm.hpp"
#include "two_tree_steps.hpp"
#include "two_tree_plans.hpp"

namespace collsim::sim {

double model_scan_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  if (p <= 1 || bytes == 0) return 0;
  const int64_t block = (bytes + blocks - 1) / blocks;
  const double steps = 2 * static_cast<double>(two_tree_step_count(p + 1, blocks));
  return steps * (net.message(block) + net.gamma * static_cast<double>(block));
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan scan_two_tree(int64_t p, int64_t, int64_t blocks) { return two_tree_scan(Collective::scan, p, blocks); }

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_scan_two_tree{
    kNone,
    "up then down phase on two inorder trees (seed 002 2.3), lock-step: ~2(n+2log2 p)(a+b*m/n)",
    model_scan_two_tree, plan::scan_two_tree};

}  // namespace collsim::sim
