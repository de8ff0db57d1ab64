// The pipelined broadcast down a fixed tree that linear-pipeline and
// binary-tree-pipeline share: a rank receives block j from its parent (the
// receive of block j + 1 already posted), then sends block j to its children
// one after the other. Ranks are relative to the root.
//
// Time (α-β, full duplex, the children's receives posted in time): block j
// leaves the root at j·c·T (c = the root's child count, T = α + β⌈m/n⌉) and
// reaches rank v after path(v)·T, where an edge to the i-th child (i = 1, 2,
// ...) costs i·T. The last rank to finish is the one with the longest path:
// c(n − 1)T + max_v path(v)·T.
#pragma once

#include <cstdint>

#include "algorithm.hpp"

namespace collsim::sim {

// c(n − 1)T + longest·T with T = net.message(⌈m/n⌉); 0 for p = 1 or m = 0.
double tree_pipeline_model(const Net& net, int64_t bytes, int64_t blocks, int root_children, int64_t longest_path);

// The LogP tree's pipeline (logp_tree.hpp, "Pipeline"), down it (bcast
// logp-tree-pipeline) or up it (reduce logp-tree-pipeline, `combines`: the
// lag and gap of a block with its ⊕): the bound pipeline_degree picks for
// n blocks, its pipeline_time(n) in gaps times the gap of one block
// (Net::tree_lag, Net::tree_gap); 0 for p = 1 or m = 0.
double logp_tree_pipeline_model(const Net& net, int64_t p, int64_t bytes, int64_t blocks, bool combines);

}  // namespace collsim::sim
