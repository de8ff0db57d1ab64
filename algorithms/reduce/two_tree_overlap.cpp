// two-tree-overlap: two-tree reduce's steps (reduce/two_tree.cpp) as a
// dependency graph (plan::overlapped): a rank sends a block up as soon as
// both children's partial results of it are in, and takes its children's
// blocks as they come. Order kept at every root (the combines into one
// block stay in plan order: overlapped() orders every two writes of a
// block): at roots 0 and p − 1 the trees' inorder ranges stay contiguous
// (seed 002 §2.2); at any other root the plan reduces to p − 1 and p − 1
// sends each block on to the root as soon as it is complete, while the
// root receives them as they come (the lock-step plan's file says why it
// cannot say this, and takes the commutative path there instead).
//   p = 4, root 1, n = 2: the reduction to 3, then 3 → 1 block 0, 3 → 1
//   block 1, each after 3's last combine into that block.
// Cost: seed 002's Theorem 1, the lock-step model (S steps of one block,
// S(α + (β + γ)m/n)) as its closed form; at another root the forwarding
// adds about one block's message, α + β(m/n), which the form leaves out.
// Limits and memory: two-tree reduce's, plus the graph executor's.
#include <utility>
#include <vector>

#include "algorithm.hpp"
#include "plan_families.hpp"
#include "two_tree_pipeline.hpp"

namespace collsim::sim {

double model_reduce_two_tree_overlap(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  return two_tree_reduce_model(net, p, bytes, blocks);
}

}  // namespace collsim::sim

namespace collsim::plan {

namespace {

// The reduction to p − 1, then each block sent on to `root`.
Plan reduce_through_last(int64_t p, int64_t root, int64_t blocks) {
  const Plan to_last = reduce_two_tree(p, p - 1, blocks);
  Header h = to_last.header;
  h.root = root;
  return {h, [to_last, p, root, blocks](int64_t rank) {
            std::vector<Step> steps = to_last.steps(rank);
            if (rank != p - 1 && rank != root) return steps;
            for (int64_t b = 0; b < blocks; ++b) {
              Step s;
              if (rank == p - 1)
                set_send(s, root, block_run(b, 1));
              else
                set_recv(s, p - 1, block_run(b, 1));
              steps.push_back(std::move(s));
            }
            return steps;
          }};
}

}  // namespace

Plan reduce_two_tree_overlap(int64_t p, int64_t root, int64_t blocks) {
  if (root == 0 || root == p - 1) return overlapped(reduce_two_tree(p, root, blocks));
  return overlapped(reduce_through_last(p, root, blocks));
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_reduce_two_tree_overlap{
    kGraph, "two-tree reduce, steps as a dependency graph (blocks sent up as they complete), order kept at any root: S(a+(b+g)m/n)",
    model_reduce_two_tree_overlap, plan::reduce_two_tree_overlap};

}  // namespace collsim::sim
