// The two-tree scans' shared pieces (two_tree_plans.cpp): the plan of scan
// or exscan two-tree, and the scan's models, lock-step and overlapped,
// which exscan's share (the same steps; only the last ⊕ differs).
#pragma once

#include <cstdint>

#include "algorithm.hpp"
#include "plan_families.hpp"

namespace collsim::plan {

Plan two_tree_scan(Collective c, int64_t p, int64_t blocks);

}  // namespace collsim::plan

namespace collsim::sim {

double model_scan_two_tree(const Net& net, int64_t p, int64_t bytes, int64_t blocks);
// Seed 002's Theorem 2 for n blocks (scan/two_tree_overlap.cpp).
double model_scan_two_tree_overlap(const Net& net, int64_t p, int64_t bytes, int64_t blocks);

}  // namespace collsim::sim
