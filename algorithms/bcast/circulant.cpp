// circulant: the round-optimal n-block broadcast of Träff 2024 (seed 003,
// Algorithm 1) on the circulant graph with skips skip[0..q).
//
// Cost: (n − 1 + q) rounds of one simultaneous send and receive of a block of
// ⌈m/n⌉ bytes: (n − 1 + q)(α + β⌈m/n⌉), q = ⌈log2 p⌉ — optimal in rounds for
// any p and n. Needs full duplex to reach it (a rank sends and receives in the
// same round).
// On nodes of c ranks (block placement) a round's ranks whose partner is on
// another node share the node's link (Net::shift_round): the model sums
// its rounds' skips one by one.
// Limits: any p, any root, any n ≥ 1; no ⊕. Memory: O(n + q) steps per
// rank, one block each way for the messages.
//
// Per round i (from the first real round x = (q − (n−1) mod q) mod q on):
// k = i mod q, partner t = r + skip[k] and f = r − skip[k]; the schedule value
// v stands for block v − x + q⌊i/q⌋; negative blocks are not moved, blocks
// beyond n − 1 move block n − 1 instead, and nothing is sent to the root.
// These rules are the ones verify/'s data-flow simulation proves for every p.
// Runs as its plan (algorithms/bcast/) through the plan executor
// (sim/rank/plan_executor.hpp); this file holds its cost model.
#include <memory>
#include <algorithm>

#include "algorithm.hpp"
#include "circulant.hpp"
#include "circulant_all.hpp"
#include "plan_families.hpp"
namespace collsim::sim {

double model_bcast_circulant(const Net& net, int64_t p, int64_t bytes, int64_t blocks) {
  const int q = ceil_log2(p);
  if (q == 0 || bytes == 0) return 0;
  const int64_t b = (bytes + blocks - 1) / blocks;
  if (net.node_size() > 1) return circulant_rounds_on_nodes(net, p, blocks, b, false);
  return static_cast<double>(blocks - 1 + q) * net.message(b);
}

}  // namespace collsim::sim

namespace collsim::plan {

// circulant (bcast_circulant.cpp, seed 003 Algorithm 1): one MPI_Sendrecv
// per round i in [x, x + n − 1 + q), k = i mod q, to v + skip[k] and from
// v − skip[k]; schedule value u stands for block u + q⌊i/q⌋ − x. Dropped,
// as in the MPI code: negative blocks and sends to the root. Blocks beyond
// n − 1 move block n − 1, and unlike circulant_plan.hpp, which drops the
// repeats, the plan keeps them: the MPI code sends them (into scratch at
// the receiver), so they cost time. A repeated store of block n − 1
// changes nothing. Rounds with neither side are no step (MPI_PROC_NULL
// both ways costs nothing). The root sends in every round: n − 1 + q steps.
// Streamed: a rank's state is its two schedules, values in [−q, q) kept as
// bytes, and the one schedule all ranks share (the engine holds 2^20 ranks).
Plan bcast_circulant(int64_t p, int64_t root, int64_t blocks) {
  const auto shared = std::make_shared<const CirculantSchedule>(p);
  const Rooted ranks{p, root};
  return streamed(bcast_header(p, root, blocks), [=](int64_t rank) {
    const CirculantSchedule& s = *shared;
    const int q = s.q();
    const int64_t v = ranks.virt(rank), n = blocks, x = q == 0 ? 0 : algorithm1_first_round(q, n);
    int recv[kMaxRounds] = {}, send[kMaxRounds] = {};
    if (q > 0) s.recv(v, recv), s.send(v, send);
    std::array<int8_t, kMaxRounds> recvblock{}, sendblock{};
    std::copy(recv, recv + q, recvblock.begin());
    std::copy(send, send + q, sendblock.begin());
    return rounds(x, q == 0 ? x : x + n - 1 + q, [=](int64_t i, Step& step) {
      const CirculantSchedule& s = *shared;
      const int k = static_cast<int>(i % q);
      const int64_t shift = q * (i / q) - x, sb = sendblock[k] + shift, rb = recvblock[k] + shift;
      const int64_t to = s.to(v, k), from = s.from(v, k);
      if (to != 0 && sb >= 0) set_send(step, ranks.real(to), block_run(std::min(sb, n - 1), 1));
      if (v != 0 && rb >= 0) set_recv(step, ranks.real(from), block_run(std::min(rb, n - 1), 1));
    });
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_bcast_circulant{
    kExactModel,
    "round-optimal n-block circulant schedule (Traeff 2024, Alg. 1): (n-1+q)(a+b*m/n)",
    model_bcast_circulant, plan::bcast_circulant};

}  // namespace collsim::sim
