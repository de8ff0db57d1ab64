// circulant reduce: the n-block circulant broadcast of bcast_circulant run
// backwards (seed 003, Observation 1, item 3): rounds from the last down to
// x, every transfer reversed, and each received partial block combined into
// the rank's own partial result for that block.
//
// Needs a COMMUTATIVE ⊕ (kCommutative): the real transfers of a block form a
// spanning tree of the circulant graph whose shape follows the skips, not the
// ranks: e.g. p = 4 (skips 1, 2), root 0: rank 1 gets block 0 from 0 in round
// 0 and passes it to 3 in round 1, so backwards 1 combines m3 into m1 and
// 0 gets m1 ⊕ m3 — not a contiguous range of ranks. An order-keeping ⊕ would
// need each partial to cover a range.
//
// Cost: the broadcast's n − 1 + q rounds, each with at most one send and one
// receive of a block of ⌈m/n⌉ bytes and at most one ⊕ of a received block
// (every rank's work per round, so also the critical path):
//   T = (n − 1 + q)(α + β⌈m/n⌉ + γ⌈m/n⌉),  q = ⌈log2 p⌉,
// round-optimal like the broadcast. Blocks are cut on element boundaries
// (⌈count/n⌉ elements), so ⌈m/n⌉ is rounded up to whole elements.
// Limits: any p, any root, n ≥ 1, any count (0 and count < n give empty
// blocks). Memory: one accumulator of m bytes (non-roots) and one block.
// Runs as its plan (algorithms/common/circulant_plans.cpp) through the plan
// executor (sim/rank/plan_executor.hpp); this file holds its cost model.
#include <memory>
#include <algorithm>

#include "algorithm.hpp"
#include "circulant_all.hpp"
#include "circulant_plan.hpp"
#include "plan_families.hpp"
#include "circulant_plans.hpp"
namespace collsim::sim {

double model_reduce_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  const int q = ceil_log2(p);
  if (q == 0 || bytes == 0) return 0;
  const int64_t b = (bytes + blocks - 1) / blocks;
  if (net.node_size() > 1) return circulant_rounds_on_nodes(net, p, blocks, b, true);
  return static_cast<double>(blocks - 1 + q) * (net.message(b) + net.gamma * static_cast<double>(b));
}

}  // namespace collsim::sim

namespace collsim::plan {

// reduce circulant (reduce_circulant.cpp): the broadcast of bcast_circulant
// from the root, run backwards: round i from the last down to x, a rank
// sends the partial of the block it received in round i back to the rank it
// came from, and receives and folds in the block it sent. Only real
// transfers (circulant_plan.hpp), so every partial arrives once. n − 1 + q
// steps at most.
//   p = 4 (skips 1, 2), root 0, n = 1: the broadcast is 0 → 1 in round 0,
//   then 0 → 2 and 1 → 3 in round 1; backwards:
//     round 1: 2 → 0, 3 → 1      round 0: 1 → 0 (m1 ⊕ m3)
//   rank 0: recv 2 b0 left; recv 1 b0 left.  rank 1: recv 3 b0 left; send 0 b0.
Plan reduce_circulant(int64_t p, int64_t root, int64_t blocks) {
  const auto shared = std::make_shared<const CirculantSchedule>(p);
  const Rooted ranks{p, root};
  // Streamed (n − 1 + q steps): a rank's state is its CirculantPlan.
  return streamed(circulant_header(Collective::reduce, p, root, blocks), [=](int64_t rank) -> StepSource {
    const CirculantSchedule& s = *shared;
    if (s.q() == 0) return [](Step&) { return false; };
    const int64_t v = ranks.virt(rank);
    auto plan = std::make_shared<const sim::CirculantPlan>(s, v, blocks);
    const int64_t last = plan->end() - 1;
    return rounds(0, plan->end() - plan->first(), [=](int64_t j, Step& step) {
      const int64_t i = last - j;
      const int k = static_cast<int>(i % shared->q());
      const int64_t out = plan->recv_block(i), in = plan->send_block(i);
      if (out >= 0) step = send_step(ranks.real(shared->from(v, k)), {out});
      if (in >= 0) step = with_recv(std::move(step), ranks.real(shared->to(v, k)), {in}, Combine::left);
    });
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_reduce_circulant{
    kCommutative | kExactModel,
    "reversed n-block circulant broadcast (Traeff 2024, Obs. 1.3), commutative: (n-1+q)(a+(b+g)m/n)",
    model_reduce_circulant, plan::reduce_circulant};

}  // namespace collsim::sim
