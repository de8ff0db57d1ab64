// two-tree-overlap: two-tree's steps (bcast/two_tree.cpp) as a dependency
// graph (plan::overlapped): a rank forwards a block as soon as it has it
// and the send before it to that child has completed, without waiting for
// the step's other half, and posts its receives from the start. Seed 002
// §2.1 assumes exactly this ("a rank passes each block on at the first step
// of its child edge's colour after it got it"); the lock-step plan adds a
// barrier per step between a rank's send and its receive.
// Cost: the paper's (n + 2h − 2)(α + βm/n), the lock-step model (S steps
// of one block) as its closed form; on a LogGP platform sends of one rank
// overlap their L, so it runs below it (p = 13, 3,200 B, n = 9 on `loggp`:
// 49.1 µs against 70.9 µs lock-step). Limits and memory: two-tree's, plus
// the graph executor's (a buffer per message in flight and per posted
// receive, all of a rank's steps at once).
#include "algorithm.hpp"
#include "plan_families.hpp"

namespace collsim::sim {

double model_bcast_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks);

}  // namespace collsim::sim

namespace collsim::plan {

Plan bcast_two_tree_overlap(int64_t p, int64_t root, int64_t blocks) {
  return overlapped(bcast_two_tree(p, root, blocks));
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_bcast_two_tree_overlap{
    kGraph, "two-tree, steps as a dependency graph (blocks forwarded as they arrive): <=(n+2q-2)(a+b*m/n)",
    model_bcast_two_tree, plan::bcast_two_tree_overlap};

}  // namespace collsim::sim
