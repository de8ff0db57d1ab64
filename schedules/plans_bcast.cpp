// Broadcast plans: the messages of sim/algorithms/bcast_*.cpp and
// tree_pipeline.cpp, rank by rank, in the order each rank's MPI calls
// complete. An MPI_Send or MPI_Recv is one step, an MPI_Sendrecv one step
// with both. The MPI code sends nothing for m = 0 bytes; a plan describes
// m > 0.
#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>
#include <string>

#include "binomial_tree.hpp"
#include "plan_families.hpp"
#include "two_tree_steps.hpp"

namespace collsim::plan {

namespace {

Header bcast_header(int64_t p, int64_t root, int64_t blocks) { return {Collective::bcast, p, root, blocks, false}; }

// tree_pipeline.cpp, the pipeline down a fixed tree (virtual ranks): a rank
// receives block j from its parent, then sends it to its children in turn.
// The MPI code posts the receive of block j + 1 (MPI_Irecv) before those
// sends and waits for it after the last one; a plan step is one
// MPI_Sendrecv, so the plan pairs that receive with the last send of block
// j. (The MPI receive may complete earlier, while the first child is being
// served; a plan cannot say so. With the parent serving its children in
// turn, block j + 1 arrives no earlier than that last send starts, so the
// times agree; tests/test_plans.cpp checks the model's step count.)
//
//   binary tree, rank v with parent u and children c0, c1, n = 2 blocks:
//     step  0: recv b0 from u
//     step  1: send b0 to c0
//     step  2: send b0 to c1   + recv b1 from u
//     step  3: send b1 to c0
//     step  4: send b1 to c1
// A leaf receives blocks 0 .. n − 1, one step each; the root sends them.
// Streamed: round 0 is the first receive, round 1 + j·k + c (k = the child
// count, at least 1) block j's send to child c.
struct TreeNode {
  int64_t parent = -1;  // virtual ranks; −1: none
  std::array<int64_t, 2> children{};
  int nchildren = 0;
};

StepSource tree_pipeline_source(const Rooted& ranks, const TreeNode& node, int64_t n) {
  const int64_t k = std::max(node.nchildren, 1);
  return rounds(0, 1 + n * k, [ranks, node, n, k](int64_t i, Step& s) {
    const bool has_parent = node.parent >= 0;
    if (i == 0) {
      if (has_parent) s = recv_step(ranks.real(node.parent), {0});
      return;
    }
    const int64_t j = (i - 1) / k, c = (i - 1) % k;
    const bool next = has_parent && j + 1 < n && c == k - 1;
    if (node.nchildren > 0) s = send_step(ranks.real(node.children[static_cast<size_t>(c)]), {j});
    if (next) s = with_recv(std::move(s), ranks.real(node.parent), {j + 1});
  });
}

}  // namespace

// binomial (bcast_binomial.cpp): receive the whole message from the parent
// v − lowbit(v), then send it to v + d, largest subtree first
// (binomial_tree.hpp's picture). Root: ⌈log2 p⌉ sends, ⌈log2 p⌉ rounds.
// Round 0 is the receive, round i >= 1 the send to v + span/2^i.
BinomialBcast::BinomialBcast(const Rooted& ranks_, int64_t blocks_, int64_t rank)
    : ranks(ranks_), blocks(blocks_), v(ranks_.virt(rank)) {}

int64_t BinomialBcast::rounds() const { return 1 + binomial_child_levels(v, ranks.p); }

void BinomialBcast::operator()(int64_t i, Step& s) const {
  if (i == 0) {
    if (v != 0) set_recv(s, ranks.real(binomial_parent(v)), all_blocks(blocks));
    return;
  }
  const int64_t d = binomial_child_span(v, ranks.p) >> i;
  if (v + d < ranks.p) set_send(s, ranks.real(v + d), all_blocks(blocks));
}

Plan bcast_binomial(int64_t p, int64_t root, int64_t blocks) {
  const Rooted ranks{p, root};
  return streamed(bcast_header(p, root, blocks), [=](int64_t rank) {
    const BinomialBcast bcast(ranks, blocks, rank);
    return rounds(0, bcast.rounds(), bcast);
  });
}

// linear-pipeline (bcast_linear_pipeline.cpp): the chain root → root + 1 →
// ... → root + p − 1. (p − 2 + n) rounds for p >= 2.
Plan bcast_linear_pipeline(int64_t p, int64_t root, int64_t blocks) {
  const Rooted ranks{p, root};
  return streamed(bcast_header(p, root, blocks), [=](int64_t rank) {
    const int64_t v = ranks.virt(rank);
    TreeNode node{v - 1, {v + 1, 0}, v + 1 < p ? 1 : 0};
    return tree_pipeline_source(ranks, node, blocks);
  });
}

// binary-tree-pipeline (bcast_binary_tree_pipeline.cpp): the heap-ordered
// tree, children 2v + 1 then 2v + 2. 2(n − 1) + longest path rounds, a left
// edge counting 1 and a right edge 2 (p = 2: n).
Plan bcast_binary_tree_pipeline(int64_t p, int64_t root, int64_t blocks) {
  const Rooted ranks{p, root};
  return streamed(bcast_header(p, root, blocks), [=](int64_t rank) {
    const int64_t v = ranks.virt(rank);
    TreeNode node{v == 0 ? -1 : (v - 1) / 2, {2 * v + 1, 2 * v + 2}, 0};
    node.nchildren = static_cast<int>(std::clamp<int64_t>(p - (2 * v + 1), 0, 2));
    return tree_pipeline_source(ranks, node, blocks);
  });
}

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

// two-tree (bcast_two_tree.cpp): the busy steps of two_tree_steps.hpp's
// per-rank plan, one MPI_Sendrecv each (idle steps send nothing and are no
// step). At most two_tree_step_count(p, n) rounds.
Plan bcast_two_tree(int64_t p, int64_t root, int64_t blocks) {
  if (p == 1) return no_steps(bcast_header(p, root, blocks));
  const TwoTree tt(p, root);
  return streamed(bcast_header(p, root, blocks), [=](int64_t rank) {
    const sim::StepPlan plan = sim::two_tree_bcast_plan(tt, rank, blocks);
    return rounds(0, plan.end(blocks),
                  [plan, blocks, rank](int64_t i, Step& step) { two_tree_step(plan, blocks, rank, false, i, step); });
  });
}

// scatter-allgather (bcast_scatter_allgather.cpp): B = p blocks, block v
// being virtual rank v's piece (block_span's cut into p blocks is the MPI
// code's pieces of ⌈m/p⌉ bytes). A binomial scatter hands rank v the blocks
// of its subtree [v, v + lowbit(v)) ∩ [0, p); then p − 1 ring steps
// (MPI_Sendrecv) pass block v − i to v + 1 and take block v − i − 1 from
// v − 1.
//   p = 4: scatter 0 → 2: b2,b3   0 → 1: b1   2 → 3: b3;  ring: 3 steps each
Plan bcast_scatter_allgather(int64_t p, int64_t root, int64_t blocks) {
  if (blocks != p)
    throw std::invalid_argument("scatter-allgather cuts the message into p blocks: blocks must be p = " +
                                std::to_string(p));
  const Rooted ranks{p, root};
  return streamed(bcast_header(p, root, blocks), [=](int64_t rank) {
    const int64_t v = ranks.virt(rank);
    std::vector<Step> scatter;  // at most ⌈log2 p⌉ steps
    int64_t mask = 1;
    for (; mask < p; mask <<= 1) {
      if (v & mask) {
        scatter.push_back(recv_step(ranks.real(v - mask), block_run(v, std::min(mask, p - v))));
        break;
      }
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
      if (v + mask < p) scatter.push_back(send_step(ranks.real(v + mask), block_run(v + mask, std::min(mask, p - v - mask))));
    const auto first_ring = static_cast<int64_t>(scatter.size());
    return rounds(0, p == 1 ? 0 : first_ring + p - 1, [=](int64_t i, Step& step) {
      if (i < first_ring) {
        step = scatter[static_cast<size_t>(i)];
        return;
      }
      const auto ring = [p](int64_t u) { return (u % p + p) % p; };
      const int64_t r = i - first_ring;
      step = with_recv(send_step(ranks.real(ring(v + 1)), {ring(v - r)}), ranks.real(ring(v - 1)), {ring(v - r - 1)});
    });
  });
}

}  // namespace collsim::plan
