// The reduction and scan plans' shared pieces (reduction_plans.cpp): the
// binomial reduction tree, recursive doubling, the ring steps, halving and
// doubling, binary blocks and the doubling scans, each for reduce and
// allreduce (or scan and exscan); the algorithms' files (reduce/,
// allreduce/, scan/, exscan/) build their plans from them.
#pragma once

#include <cstdint>

#include "binomial_tree.hpp"
#include "plan_families.hpp"

namespace collsim::plan {

// binary_tree.cpp's tree_reduce on ranks 0 .. p − 1 (top 0): in round
// i < lg span receive v + 2^i's partial result and fold it in on the
// right, smallest subtree first; in round lg span send to the parent
// v − lowbit(v).
//   p = 4:   1 → 0,  3 → 2,  2 → 0      ⌈log2 p⌉ rounds
struct TreeReduce {
  int64_t p, blocks, v;
  int64_t rounds() const { return 1 + binomial_child_levels(v, p); }
  void operator()(int64_t i, Step& s) const {
    if (i + 1 < rounds()) {
      if (v + (int64_t{1} << i) < p) set_recv(s, v + (int64_t{1} << i), all_blocks(blocks), Combine::right);
    } else if (v != 0) {
      set_send(s, binomial_parent(v), all_blocks(blocks));
    }
  }
};

// recursive_doubling.cpp's exchanges: c reduce (root) or allreduce.
Plan recursive_doubling(Collective c, int64_t p, int64_t root, int64_t blocks);

// The ring's steps: reduce-scatter step i = 1 .. p − 1 and allgather step
// i = 0 .. p − 2 of rank r.
Step ring_reduce_scatter_step(int64_t p, int64_t r, int64_t i);
Step ring_allgather_step(int64_t p, int64_t r, int64_t i);

// header() with commutative 1.
Header commutative_header(Collective c, int64_t p, int64_t root, int64_t blocks);

// Halving-doubling and binary blocks, for reduce (root) or allreduce.
Plan halving_doubling(Collective c, int64_t p, int64_t root, int64_t blocks);
Plan binary_blocks_plan(Collective c, int64_t p, int64_t root, int64_t blocks);

// The doubling scans of schedules/scan_plans.hpp by name: exclusive (or
// hillis-steele) as they are, and an exclusive plan made inclusive.
Plan doubling_scan(Collective c, const char* name, int64_t p, int64_t blocks);
Plan inclusive_doubling_scan(const char* name, int64_t p, int64_t blocks);

}  // namespace collsim::plan
