// exscan two-tree: scan/two_tree.cpp's up and down phases on two inorder
// trees, the exclusive result (cost, limits, memory: there).
#include "two_tree_plans.hpp"

namespace collsim::sim {

double model_exscan_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  return model_scan_two_tree(net, p, bytes, blocks);  // the same steps; only the last ⊕ differs
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan exscan_two_tree(int64_t p, int64_t, int64_t blocks) { return two_tree_scan(Collective::exscan, p, blocks); }

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_exscan_two_tree{
    kNone,
    "up then down phase on two inorder trees (seed 002 2.3), lock-step: ~2(n+2log2 p)(a+b*m/n)",
    model_exscan_two_tree, plan::exscan_two_tree};

}  // namespace collsim::sim
