// binary-tree: seed 004 §2.3, the classical reduction tree with recursive
// distance doubling: in step d = 1, 2, 4, .. a rank with bit d set sends its
// whole intermediate vector to v − d and stops; v + d's vector is folded in on
// the right. Allreduce follows with the binomial broadcast (bcast_binomial.cpp)
// of the result from rank 0.
//
// Cost (seed 004): reduce ⌈lg p⌉(α_uni + mβ_uni + mγ), allreduce
// ⌈lg p⌉(2α_uni + 2mβ_uni + mγ); one-way messages only, so duplex does not
// matter. The models add SMPI's envelope. Short vectors: fewest messages
// on the critical path but the whole vector in each and lg p ⊕ of m.
// Limits: any p, any root. Order: the tree on ranks 0 .. p − 1 combines
// adjacent rank ranges, lower on the left, so it is right for non-commutative
// ⊕ when rooted at rank 0. For another root a commutative ⊕ runs the tree on
// ranks rotated to the root; a non-commutative one reduces to rank 0, which
// sends the result to the root (one more α + mβ; not in the model, which is
// the commutative or root-0 case). Any count. Memory: the executor's: a vector of m
// (non-roots) and one message buffer each way.
// Runs as its plan (algorithms/common/reduction_plans.cpp) through the plan executor
// (sim/rank/plan_executor.hpp).
#include "circulant.hpp"
#include "reduction_phases.hpp"
#include "reduction_plans.hpp"
#ifdef COLLSIM_RANK
#include "plan_builders.hpp"
#include "plan_executor.hpp"
#endif  // COLLSIM_RANK

namespace collsim::sim {

using namespace phases;

#ifdef COLLSIM_RANK
// The root-0 plan, or for a commutative ⊕ and another root the same tree on
// ranks rotated to the root (no extra message to the root).
void reduce_binary_tree(const CollArgs& a) {
  int p = 1, commutative = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Op_commutative(a.op, &commutative);
  if (!commutative || a.root == 0) return run_catalog_plan(Collective::reduce, "binary-tree", a);
  run_plan(plan::rotated(plan::build_plan(Collective::reduce, "binary-tree", p, 0, 1), a.root), a);
}
#endif  // COLLSIM_RANK

double model_reduce_binary_tree(const Net& net, int64_t p, int64_t bytes, int64_t) {
  const double m = static_cast<double>(bytes);
  return bytes == 0 ? 0 : ceil_log2(p) * (oneway(net, m) + net.gamma * m);
}

}  // namespace collsim::sim

namespace collsim::plan {

// reduce binary-tree: the tree reduces to rank 0, which sends the result to
// another root (one more round). This is what the MPI code runs for a
// non-commutative ⊕ (and for any ⊕ at root 0); for a commutative ⊕ at
// another root it runs the tree on ranks rotated to the root instead, one
// message fewer. The plan is the order-keeping variant, right for every ⊕.
Plan reduce_binary_tree(int64_t p, int64_t root, int64_t blocks) {
  return streamed(header(Collective::reduce, p, root, blocks), [=](int64_t rank) {
    const TreeReduce tree{p, blocks, rank};
    return rounds(0, tree.rounds() + 1, [=](int64_t i, Step& s) {
      if (i < tree.rounds())
        tree(i, s);
      else
        result_to_root(rank, root, blocks, s);
    });
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_reduce_binary_tree{
    kPlan | kExactModel,
    "binomial reduction tree (+ binomial bcast): ~lg p (a + b*m + g*m), allreduce 2x",
    model_reduce_binary_tree, plan::reduce_binary_tree};

}  // namespace collsim::sim
