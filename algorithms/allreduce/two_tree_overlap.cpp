// two-tree-overlap: two-tree allreduce's steps (allreduce/two_tree.cpp) as
// a dependency graph (plan::overlapped). Besides what two-tree bcast and
// reduce gain, the phases overlap: rank p − 1 sends block b down the trees
// as soon as it is complete, while later blocks still come up, which the
// lock-step plan leaves out (its file says why: a step would send and
// receive twice); as a graph a rank simply has more messages in flight.
// Order kept (root p − 1), as there.
// Cost: the closed form stays the lock-step sum of the two phases,
// S(2α + (2β + γ)m/n), an upper bound: the overlap saves up to about S − n
// steps (p = 13, 3,200 B, n = 7 on `loggp`: 74.8 µs against 120.5 µs
// lock-step). Limits and memory: two-tree allreduce's, plus the graph
// executor's.
#include "algorithm.hpp"
#include "plan_families.hpp"

namespace collsim::sim {

double model_allreduce_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks);

}  // namespace collsim::sim

namespace collsim::plan {

Plan allreduce_two_tree_overlap(int64_t p, int64_t root, int64_t blocks) {
  return overlapped(allreduce_two_tree(p, root, blocks));
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_allreduce_two_tree_overlap{
    kGraph, "two-tree allreduce as a dependency graph (phases overlap): <=S(2a+(2b+g)m/n)",
    model_allreduce_two_tree, plan::allreduce_two_tree_overlap};

}  // namespace collsim::sim
