// exscan two-tree-overlap: scan/two_tree_overlap.cpp's graph of the
// exclusive plan (cost, limits, memory: there; only the last ⊕ differs).
#include "two_tree_plans.hpp"

namespace collsim::plan {

Plan exscan_two_tree_overlap(int64_t p, int64_t, int64_t blocks) {
  return overlapped(two_tree_scan(Collective::exscan, p, blocks));
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_exscan_two_tree_overlap{
    kGraph, "exscan two-tree as a dependency graph (phases and trees overlap, seed 002 2.3): 2(2ceil(n/2)+2q-3)(a+b*m/n)",
    model_scan_two_tree_overlap, plan::exscan_two_tree_overlap};

}  // namespace collsim::sim
