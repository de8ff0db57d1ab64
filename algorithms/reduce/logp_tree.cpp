// logp-tree: the LogP-optimal broadcast tree (bcast/logp_tree.cpp,
// schedules/logp_tree.hpp) run backwards, whole vector (issue 34): Karp,
// Sahay, Santos and Schauser's summation, with the tree's lag for a
// receiver that ⊕s each message before it takes the next (Net::tree_lag
// with combines). A rank receives its children's partial results, the
// broadcast's last child first, folding each in on the right, then sends
// its own to its parent; every rank sends at once, so a receiver's
// children overlap their messages with its ⊕s.
//
// Order. The tree is rooted at rank 0 on the ranks themselves: a rank's
// subtree is the interval [v, v + n), its children's intervals lie above it
// and the last child's starts at v + 1, so receiving in reverse send order
// keeps acc = [v, v + k) and folds [v + k, ..) on the right: right for a
// non-commutative ⊕. Another root gets the result from rank 0 (one more
// message, as reduce binary-tree's plan does).
//
// Cost: T·gap (Net::tree_gap with combines: the receiver's o + γm, or the
// NIC's wire time in where longer; T the tree's time in gaps at the lag),
// for root 0; another root adds a message. Rendezvous sizes (and α-β
// platforms, topologies): lag 1, the binomial tree's ⌈log2 p⌉(α + βm + γm).
// Limits: any p, any root, any ⊕; lag <= 2^16.
// Memory: the tree's table of budgets, O(T²/lag), and the executor's
// vector and one message buffer.
// Runs as its plan through the plan executor (sim/rank/plan_executor.hpp).
#include <algorithm>
#include <memory>

#include "algorithm.hpp"
#include "logp_tree.hpp"
#include "plan_families.hpp"

namespace collsim::sim {

double model_reduce_logp_tree(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0) return 0;
  return LogPTree(p, net.tree_lag(bytes, true)).time() * net.tree_gap(bytes, true);
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan reduce_logp_tree(int64_t p, int64_t root, int64_t blocks, double lag) {
  const auto tree = std::make_shared<const LogPTree>(p, lag);
  return streamed(header(Collective::reduce, p, root, blocks), [=](int64_t rank) {
    LogPTree::Links links = tree->links(rank);
    std::vector<int64_t> children = std::move(links.children);
    std::reverse(children.begin(), children.end());  // the adjacent interval first
    const int64_t kids = static_cast<int64_t>(children.size()), parent = links.parent;
    return rounds(0, kids + 2, [=, children = std::move(children)](int64_t i, Step& s) {
      if (i < kids)
        set_recv(s, children[static_cast<size_t>(i)], all_blocks(blocks), Combine::right);
      else if (i == kids && parent >= 0)
        set_send(s, parent, all_blocks(blocks));
      else if (i == kids + 1)
        result_to_root(rank, root, blocks, s);
    });
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_reduce_logp_tree{
    kExactModel, "LogP-optimal tree run backwards (Karp et al.), whole vector: T*gap, T from the lag",
    model_reduce_logp_tree, plan::reduce_logp_tree};

}  // namespace collsim::sim
