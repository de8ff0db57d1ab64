// two-tree-overlap: scan two-tree's up and down phases
// (common/two_tree_plans.cpp) as a dependency graph (plan::overlapped), as
// seed 002 §2.3 describes them: "both phases can be pipelined" and "two
// up-phases and two down-phases can take place simultaneously". Block b's
// prefix starts down its tree as soon as its up phase has reached the
// rank, while later blocks still come up, and the two trees run side by
// side instead of in one step order. Every ⊕ keeps its operands in rank
// order (overlapped() orders every two writes of a block as the lock-step
// plan does): any associative ⊕.
// Cost: seed 002's Theorem 2, read as 2(2⌈n/2⌉ + 2h − 3) steps of one
// block, α + βm/n each, plus the ⊕ of a block per step (h = ⌈log2(p + 1)⌉,
// the trees having p + 1 nodes): each tree carries ⌈n/2⌉ of the n blocks.
// For even n its minimum over n is 2((2h − 3)α + 2√((2h − 3)αβm) + βm).
// The printed theorem lost an α (after its first 2h − 3) and a bracket and
// has βm/2 under the root. The tree with the extra block of an odd n sets
// the time, as measured: p = 36, 10,000 longs (matmul) on omnipath36x32,
// one rank per node, n = 9..14: 60.8, 55.1, 58.0, 54.5, 58.6, 56.1 µs. The
// theorem counts the phases one after the other, so the plan runs below it
// (n = 12: 54.5 µs, model 92.5 µs; the lock-step plan 87.6 µs at its
// n = 11).
// Limits and memory: scan two-tree's, plus the graph executor's.
#include <algorithm>

#include "circulant.hpp"
#include "two_tree_plans.hpp"

namespace collsim::sim {

double model_scan_two_tree_overlap(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  if (p <= 1 || bytes == 0) return 0;
  const int64_t block = (bytes + blocks - 1) / blocks;
  const int64_t h = ceil_log2(p + 1);
  const int64_t per_tree = blocks / 2 + blocks % 2;
  const double steps = 2 * static_cast<double>(2 * per_tree + std::max<int64_t>(2 * h - 3, 0));
  return steps * (net.message(block) + net.gamma * static_cast<double>(block));
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan scan_two_tree_overlap(int64_t p, int64_t, int64_t blocks) {
  return overlapped(two_tree_scan(Collective::scan, p, blocks));
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_scan_two_tree_overlap{
    kGraph, "scan two-tree as a dependency graph (phases and trees overlap, seed 002 2.3): 2(2ceil(n/2)+2q-3)(a+b*m/n)",
    model_scan_two_tree_overlap, plan::scan_two_tree_overlap};

}  // namespace collsim::sim
