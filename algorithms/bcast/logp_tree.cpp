// logp-tree: the LogP-optimal broadcast tree of Karp, Sahay, Santos and
// Schauser (SPAA 1993; issue 34), whole message, on the tree of
// schedules/logp_tree.hpp for the machine's lag at this size
// (Net::tree_lag). A rank receives from its parent, then sends to its
// children back to back, largest subtree first: while its first children
// already forward, it keeps sending, every max(o, g) where the messages are
// eager, instead of waiting a full message time per level as the binomial
// tree's rounds do.
//
// On the default platform at p = 64, 1 KiB (o = 1.5 µs, L = 2.5 µs, wire
// 1,040 B at 0.1 ns/B): gap 1.5 µs, a child ready 5.604 µs after its send
// starts, lag 3.736; T = 21.708 µs against the binomial tree's 6 × 5.604 =
// 33.62 µs. (The "about 22.4 µs" counts the gap as max(o, g) + m·G;
// m·G is on the NIC, not the CPU, and at 1 KiB the NIC is idle between two
// sends, so the sender is free after max(o, g).)
//
// Cost: T·gap (Net::tree_gap), T the tree's time in gaps; exact where
// the NIC carries one message at a time (m·G <= max(o, g)); above, the
// sender's messages share its NIC and the model, which lets the k-th
// message leave after k wire times, is close but not exact. Rendezvous
// sizes (and α-β platforms, topologies): lag 1, the binomial tree's
// ⌈log2 p⌉(α + βm).
// Limits: any p, any root; no ⊕; one message of m bytes; lag <= 2^16.
// Memory: the tree's table of budgets, O(T²/lag) (T ~ 22 at p = 64), and
// one message buffer (the executor).
// Runs as its plan through the plan executor (sim/rank/plan_executor.hpp).
#include <memory>

#include "algorithm.hpp"
#include "logp_tree.hpp"
#include "plan_families.hpp"

namespace collsim::sim {

double model_bcast_logp_tree(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0) return 0;
  return LogPTree(p, net.tree_lag(bytes)).time() * net.tree_gap(bytes);
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan bcast_logp_tree(int64_t p, int64_t root, int64_t blocks, double lag) {
  const Rooted ranks{p, root};
  const auto tree = std::make_shared<const LogPTree>(p, lag);
  return streamed(bcast_header(p, root, blocks), [=](int64_t rank) {
    LogPTree::Links links = tree->links(ranks.virt(rank));
    const int64_t parent = links.parent < 0 ? -1 : ranks.real(links.parent);
    const int64_t steps = 1 + static_cast<int64_t>(links.children.size());
    return rounds(0, steps, [=, children = std::move(links.children)](int64_t i, Step& s) {
      if (i == 0) {
        if (parent >= 0) set_recv(s, parent, all_blocks(blocks));
        return;
      }
      set_send(s, ranks.real(children[static_cast<size_t>(i - 1)]), all_blocks(blocks));
    });
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_bcast_logp_tree{
    kExactModel, "LogP-optimal tree (Karp et al.), whole message: T*gap, T from the lag",
    model_bcast_logp_tree, plan::bcast_logp_tree};

}  // namespace collsim::sim
