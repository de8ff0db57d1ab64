// The plan table: for every algorithm of ours (the one list,
// algorithms.def, same names), the plan (plan.hpp) of exactly the messages
// its MPI code sends, in the same order, with the same blocks; its cut and
// message shape come from the list row, its builder from its file
// (algorithms/<collective>/<name>.cpp, AlgorithmDef). The builders' shared
// step helpers: common/plan_families.hpp. Pure C++17.
//
// A built plan computes rank r's steps on demand, in O(steps of r) for the
// O(log p)-step algorithms, so p = 2^20 never needs the whole plan at once.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan.hpp"

namespace collsim::plan {

// How an algorithm cuts its data into the plan's B blocks.
enum class Cut {
  whole,      // every message carries the whole vector: all B blocks (B = 1 by default)
  pipelined,  // blocks move one per message: `blocks` is the algorithm's block
              // count n; B = n, or p·n where the plan is cut per rank segment
              // (allgatherv, reduce_scatter; allreduce circulant's p segments)
  per_rank,   // B = p pieces, one per rank (scatter-allgather, ring)
  pow2,       // B = p' = 2^⌊log2 p⌋ pieces (halving-doubling's base segments)
};

// B where the cut fixes it (whole: 1, per_rank: p, pow2: p'); 0 for
// pipelined, whose B is the caller's n.
int64_t cut_blocks(Cut cut, int64_t p);

// How a plan's messages, summed over the ranks, grow with p, the pipeline's
// n (1 for whole-vector messages) and the node size c: what
// engine/work_estimate.cpp counts without building the plan.
enum class MessageShape {
  tree,              // every rank but one sends each block once: (p − 1)·n
  tree_twice,        // up and down a tree (allreduce, two-tree scans): 2(p − 1)·n
  ring,              // p − 1 (+ log p) steps per rank: p²
  ring_twice,        // reduce-scatter and allgather rings: 2p(p − 1)
  doubling,          // log p exchanges per rank: p(⌊log2 p⌋ + 1)
  doubling_twice,    // halving then doubling: 2p(⌊log2 p⌋ + 1)
  all_to_all,        // circulant allgatherv / reduce_scatter: p(n − 1 + ⌈log2 p⌉)
  all_to_all_twice,  // circulant allreduce: 2p(n − 1 + ⌈log2 p⌉)
  lanes_allreduce,   // multi-lane allreduce (common/node_plans.cpp)
  lanes_allgatherv,  // multi-lane allgatherv
  scan_doubling,     // the doubling scans: ⌈log2 p⌉ rounds, round k idle on ranks below 2^k: p·q − 2^q + 1
};

// What a plan's shape may read of the machine besides p, root and blocks.
struct PlanParams {
  int64_t node_size = 1;  // node-aware algorithms: ranks block-wise, node_size to a node
  // LogP trees (logp_tree.hpp): a send's time until its receiver sends on,
  // in the sender's gaps between sends (>= 1; 1: the binomial tree);
  // sim::Net::tree_lag gives it for a machine and a message size.
  double lag = 1;
};

struct PlanAlgorithm {
  Collective collective;
  const char* name;
  Cut cut;
  MessageShape shape;
  // Called with checked arguments (see build_plan); from the file's AlgorithmDef.
  Plan (*build)(int64_t p, int64_t root, int64_t blocks);
  // Instead of build, for the node-aware algorithms (common/node_plans.cpp):
  // ranks placed block-wise, node_size to a node.
  Plan (*build_on_nodes)(int64_t p, int64_t root, int64_t blocks, int64_t node_size) = nullptr;
  // Instead of build, for the LogP trees: the tree's lag (PlanParams).
  Plan (*build_with_lag)(int64_t p, int64_t root, int64_t blocks, double lag) = nullptr;
};

// The names with a builder for collective c, in the list's order.
std::vector<std::string> plan_algorithms(Collective c);

// Whether `algorithm` of collective c has a builder (a plan).
bool has_plan(Collective c, const std::string& algorithm);

// The table row; std::invalid_argument listing the known names otherwise.
const PlanAlgorithm& find_plan_algorithm(Collective c, const std::string& algorithm);

// The plan of `algorithm` for p ranks, root (bcast, reduce; must be 0 for
// the others) and `blocks` (B, or n per segment: Cut::pipelined); a
// node-aware algorithm places params.node_size ranks on a node, block-wise,
// a LogP tree reads params.lag (the others ignore them). Throws
// std::invalid_argument for an unknown name (with the list), 1 <= p <=
// 2^31 - 1, 0 <= root < p, node_size >= 1 or 1 <= lag <= 2^16 violated,
// blocks < 1, or blocks != cut_blocks for a per_rank or pow2 cut.
Plan build_plan(Collective c, const std::string& algorithm, int64_t p, int64_t root, int64_t blocks,
                const PlanParams& params = {});

}  // namespace collsim::plan
