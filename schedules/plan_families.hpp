// Inside the plan builders (plan_builders.hpp): the per-family builders the
// table in plan_builders.cpp lists, and the small step helpers they share.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "circulant.hpp"
#include "plan.hpp"
#include "two_tree_steps.hpp"

namespace collsim::plan {

// Blocks 0 .. n − 1: what a whole-vector message carries.
inline std::vector<int64_t> all_blocks(int64_t n) {
  std::vector<int64_t> blocks(static_cast<size_t>(n));
  for (int64_t b = 0; b < n; ++b) blocks[static_cast<size_t>(b)] = b;
  return blocks;
}

// Blocks first .. first + count − 1.
inline std::vector<int64_t> block_run(int64_t first, int64_t count) {
  std::vector<int64_t> blocks = all_blocks(count);
  for (int64_t& b : blocks) b += first;
  return blocks;
}

inline Step send_step(int64_t to, std::vector<int64_t> blocks, Value value = Value::acc) {
  Step s;
  s.send_to = to;
  s.send_blocks = std::move(blocks);
  s.send_value = value;
  return s;
}

inline Step recv_step(int64_t from, std::vector<int64_t> blocks, Combine combine = Combine::store) {
  Step s;
  s.recv_from = from;
  s.recv_blocks = std::move(blocks);
  s.combine = combine;
  return s;
}

// The step `s` plus a receive (one MPI_Sendrecv).
inline Step with_recv(Step s, int64_t from, std::vector<int64_t> blocks, Combine combine = Combine::store) {
  s.recv_from = from;
  s.recv_blocks = std::move(blocks);
  s.combine = combine;
  return s;
}

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

// The busy steps of a two-tree step plan (two_tree_steps.hpp) appended to
// `steps`: stored (broadcast) or folded in on the child's side (reduction).
void two_tree_steps(const sim::StepPlan& plan, int64_t n, int64_t rank, bool reduces, std::vector<Step>& steps);

// The binomial broadcast's steps of one rank, every message carrying all
// `blocks` blocks (bcast binomial; the second half of allreduce binary-tree).
std::vector<Step> binomial_bcast_steps(const Rooted& ranks, int64_t blocks, int64_t rank);

// Builders, by collective and catalog name (checked arguments).
Plan bcast_binomial(int64_t p, int64_t root, int64_t blocks);
Plan bcast_linear_pipeline(int64_t p, int64_t root, int64_t blocks);
Plan bcast_binary_tree_pipeline(int64_t p, int64_t root, int64_t blocks);
Plan bcast_circulant(int64_t p, int64_t root, int64_t blocks);
Plan bcast_two_tree(int64_t p, int64_t root, int64_t blocks);
Plan bcast_scatter_allgather(int64_t p, int64_t root, int64_t blocks);
Plan reduce_binary_tree(int64_t p, int64_t root, int64_t blocks);
Plan allreduce_binary_tree(int64_t p, int64_t root, int64_t blocks);
Plan reduce_recursive_doubling(int64_t p, int64_t root, int64_t blocks);
Plan allreduce_recursive_doubling(int64_t p, int64_t root, int64_t blocks);
Plan reduce_ring(int64_t p, int64_t root, int64_t blocks);
Plan allreduce_ring(int64_t p, int64_t root, int64_t blocks);
Plan reduce_halving_doubling(int64_t p, int64_t root, int64_t blocks);
Plan allreduce_halving_doubling(int64_t p, int64_t root, int64_t blocks);
Plan reduce_two_tree(int64_t p, int64_t root, int64_t blocks);
Plan allreduce_two_tree(int64_t p, int64_t root, int64_t blocks);
Plan reduce_circulant(int64_t p, int64_t root, int64_t blocks);
Plan allreduce_circulant(int64_t p, int64_t root, int64_t blocks);
Plan reduce_scatter_circulant(int64_t p, int64_t root, int64_t blocks);
Plan allgatherv_circulant(int64_t p, int64_t root, int64_t blocks);
Plan scan_hillis_steele(int64_t p, int64_t root, int64_t blocks);
Plan exscan_two_op_doubling(int64_t p, int64_t root, int64_t blocks);
Plan exscan_1_doubling(int64_t p, int64_t root, int64_t blocks);
Plan exscan_123_doubling(int64_t p, int64_t root, int64_t blocks);

}  // namespace collsim::plan
