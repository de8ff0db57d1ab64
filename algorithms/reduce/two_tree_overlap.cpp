// two-tree-overlap: two-tree reduce's steps (reduce/two_tree.cpp) as a
// dependency graph (plan::overlapped): a rank sends a block up as soon as
// both children's partial results of it are in, and takes its children's
// blocks as they come. Order kept at roots 0 and p − 1 as there (the
// combines into one block stay in plan order: overlapped() orders every
// two writes of a block); other roots commutative, as there.
// Cost: seed 002's Theorem 1, the lock-step model (S steps of one block,
// S(α + (β + γ)m/n)) as its closed form. Limits and memory: two-tree
// reduce's, plus the graph executor's.
#include "algorithm.hpp"
#include "plan_families.hpp"
#include "two_tree_pipeline.hpp"

namespace collsim::sim {

double model_reduce_two_tree_overlap(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  return two_tree_reduce_model(net, p, bytes, blocks);
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan reduce_two_tree_overlap(int64_t p, int64_t root, int64_t blocks) {
  return overlapped(reduce_two_tree(p, root, blocks));
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_reduce_two_tree_overlap{
    kGraph, "two-tree reduce, steps as a dependency graph (blocks sent up as they complete): S(a+(b+g)m/n)",
    model_reduce_two_tree_overlap, plan::reduce_two_tree_overlap};

}  // namespace collsim::sim
