// Inside the plan builders (plan_builders.hpp): the small step helpers the
// algorithms' builders share, the shared family pieces (tree_plans.cpp,
// reduction_plans.cpp, circulant_plans.cpp, two_tree_plans.cpp,
// node_plans.cpp), and the builders that other builders reuse.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "circulant.hpp"
#include "plan.hpp"
#include "two_tree_steps.hpp"

namespace collsim::plan {

// Blocks 0 .. n − 1: what a whole-vector message carries.
inline BlockList all_blocks(int64_t n) { return BlockList::range(0, n); }

// Blocks first .. first + count − 1.
inline BlockList block_run(int64_t first, int64_t count) { return BlockList::range(first, count); }

// A step's halves and folds set in place: a streamed source fills one Step
// a round (plan::rounds), and the engine takes 10^8 steps at p = 2^20, so
// the hot sources move no Steps around.
inline void set_send(Step& s, int64_t to, BlockList blocks, Value value = Value::acc) {
  s.send_to = to;
  s.send_blocks = std::move(blocks);
  s.send_value = value;
}

inline void set_recv(Step& s, int64_t from, BlockList blocks, Combine combine = Combine::store) {
  s.recv_from = from;
  s.recv_blocks = std::move(blocks);
  s.combine = combine;
}

inline Step send_step(int64_t to, BlockList blocks, Value value = Value::acc) {
  Step s;
  set_send(s, to, std::move(blocks), value);
  return s;
}

inline Step recv_step(int64_t from, BlockList blocks, Combine combine = Combine::store) {
  Step s;
  set_recv(s, from, std::move(blocks), combine);
  return s;
}

// A local step: acc = acc ⊕ input on `blocks`, no message.
inline Step fold_step(BlockList blocks) {
  Step s;
  s.fold_blocks = std::move(blocks);
  return s;
}

// The step `s` plus a receive (one MPI_Sendrecv).
inline Step with_recv(Step s, int64_t from, BlockList blocks, Combine combine = Combine::store) {
  set_recv(s, from, std::move(blocks), combine);
  return s;
}

// A reduction's result, computed at rank 0, moved to another root: rank 0
// sends it whole and the root receives it (reduce binary-tree, logp-tree
// and logp-tree-pipeline keep rank order this way, one message more).
inline void result_to_root(int64_t rank, int64_t root, int64_t blocks, Step& s) {
  if (root == 0) return;
  if (rank == 0)
    set_send(s, root, all_blocks(blocks));
  else if (rank == root)
    set_recv(s, 0, all_blocks(blocks));
}

// A plan's header: collective c, p ranks, root, B blocks, rank order kept.
inline Header header(Collective c, int64_t p, int64_t root, int64_t blocks) { return {c, p, root, blocks, false}; }
inline Header bcast_header(int64_t p, int64_t root, int64_t blocks) { return header(Collective::bcast, p, root, blocks); }

// Ranks numbered from a root (virtual_rank / real_rank of circulant.hpp).
struct Rooted {
  int64_t p, root;
  int64_t virt(int64_t rank) const { return virtual_rank(rank, root, p); }
  int64_t real(int64_t v) const { return real_rank(v, root, p); }
};

// A plan in which no rank has a step (p = 1 where the schedule needs p >= 2).
inline Plan no_steps(Header h) {
  return {h, [](int64_t) { return std::vector<Step>{}; }};
}

// The pipeline down a fixed tree (tree_plans.cpp), one node of it.
// common/tree_pipeline.cpp's pipeline down a fixed tree (virtual ranks): a rank
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
  int64_t parent = -1;             // virtual ranks; −1: none
  std::vector<int64_t> children;  // in send order
};

StepSource tree_pipeline_source(const Rooted& ranks, const TreeNode& node, int64_t n);

// The pipeline up a fixed tree (tree_plans.cpp; reduce binary-tree-pipeline
// and logp-tree-pipeline), one node of it, on real ranks: a rank takes
// block j from each child in turn, folding it in on the child's side (a
// child below the rank on the left, above it on the right), and sends its
// block j − 1 up with the first of those receives, as the broadcast
// pipeline pairs its receive with the last send. Rank order is kept when
// each child's subtree is the range of ranks next to what the rank holds
// at that point (children in fold order). A leaf sends blocks 0 .. n − 1,
// one step each.
//
//   rank 3 with children 1 (ranks 1-2) and 5 (ranks 4-6), n = 2:
//     step 0: recv b0 from 1 left
//     step 1: recv b0 from 5 right
//     step 2: recv b1 from 1 left   + send b0 up
//     step 3: recv b1 from 5 right
//     step 4: send b1 up
// Streamed: round j·k + c is block j's receive from child c, round n·k the
// last send.
StepSource tree_reduce_pipeline_source(int64_t rank, const TreeNode& node, int64_t n);

// Step i of a two-tree step plan (two_tree_steps.hpp) as a plan step, left
// empty where the rank is idle then; with `reduces` a received block folds
// in on its side (two_tree_plans.cpp).
void two_tree_step(const sim::StepPlan& plan, int64_t n, int64_t rank, bool reduces, int64_t i, Step& step);

// The binomial broadcast's steps of one rank as rounds (plan::rounds), every
// message carrying all `blocks` blocks (bcast binomial; the second half of
// allreduce binary-tree).
struct BinomialBcast {
  BinomialBcast(const Rooted& ranks, int64_t blocks, int64_t rank);
  int64_t rounds() const;
  void operator()(int64_t i, Step& s) const;
  Rooted ranks;
  int64_t blocks, v;
};

// Builders, by collective and catalog name (checked arguments).
Plan bcast_binomial(int64_t p, int64_t root, int64_t blocks);
Plan bcast_linear_pipeline(int64_t p, int64_t root, int64_t blocks);
Plan bcast_binary_tree_pipeline(int64_t p, int64_t root, int64_t blocks);
Plan bcast_circulant(int64_t p, int64_t root, int64_t blocks);
Plan bcast_two_tree(int64_t p, int64_t root, int64_t blocks);
Plan bcast_scatter_allgather(int64_t p, int64_t root, int64_t blocks);
Plan reduce_binary_tree(int64_t p, int64_t root, int64_t blocks);
Plan reduce_linear_pipeline(int64_t p, int64_t root, int64_t blocks);
Plan reduce_binary_tree_pipeline(int64_t p, int64_t root, int64_t blocks);
Plan allreduce_binary_tree(int64_t p, int64_t root, int64_t blocks);
Plan reduce_recursive_doubling(int64_t p, int64_t root, int64_t blocks);
Plan allreduce_recursive_doubling(int64_t p, int64_t root, int64_t blocks);
Plan reduce_ring(int64_t p, int64_t root, int64_t blocks);
Plan allreduce_ring(int64_t p, int64_t root, int64_t blocks);
Plan reduce_halving_doubling(int64_t p, int64_t root, int64_t blocks);
Plan allreduce_halving_doubling(int64_t p, int64_t root, int64_t blocks);
Plan reduce_binary_blocks(int64_t p, int64_t root, int64_t blocks);
Plan allreduce_binary_blocks(int64_t p, int64_t root, int64_t blocks);
Plan scan_two_tree(int64_t p, int64_t root, int64_t blocks);
Plan exscan_two_tree(int64_t p, int64_t root, int64_t blocks);
Plan reduce_two_tree(int64_t p, int64_t root, int64_t blocks);
Plan allreduce_two_tree(int64_t p, int64_t root, int64_t blocks);
Plan reduce_circulant(int64_t p, int64_t root, int64_t blocks);
Plan allreduce_circulant(int64_t p, int64_t root, int64_t blocks);
Plan reduce_scatter_circulant(int64_t p, int64_t root, int64_t blocks);
Plan allgatherv_circulant(int64_t p, int64_t root, int64_t blocks);
Plan scan_hillis_steele(int64_t p, int64_t root, int64_t blocks);
Plan scan_two_op_doubling(int64_t p, int64_t root, int64_t blocks);
Plan scan_1_doubling(int64_t p, int64_t root, int64_t blocks);
Plan scan_123_doubling(int64_t p, int64_t root, int64_t blocks);
Plan exscan_two_op_doubling(int64_t p, int64_t root, int64_t blocks);
Plan exscan_1_doubling(int64_t p, int64_t root, int64_t blocks);
Plan exscan_123_doubling(int64_t p, int64_t root, int64_t blocks);
// B = p·n within plan.hpp's block limit (kMaxBlocks), else std::invalid_argument.
void check_segment_blocks(int64_t p, int64_t n);
Plan bcast_node_aware(int64_t p, int64_t root, int64_t blocks, int64_t node_size);
Plan reduce_node_aware(int64_t p, int64_t root, int64_t blocks, int64_t node_size);
Plan allreduce_node_aware(int64_t p, int64_t root, int64_t blocks, int64_t node_size);
Plan allreduce_multi_lane(int64_t p, int64_t root, int64_t blocks, int64_t node_size);
Plan allgatherv_multi_lane(int64_t p, int64_t root, int64_t blocks, int64_t node_size);

}  // namespace collsim::plan
