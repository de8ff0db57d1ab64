// The doubling scans' shared cost model (doubling_scans.cpp: what they are,
// cost, limits, memory).
#pragma once

#include <cstdint>

#include "algorithm.hpp"

namespace collsim::sim {

// The critical path of the doubling scan `name` (schedules/scan_plans.hpp)
// on net, p ranks, `bytes` bytes; inclusive_result: run as MPI_Scan.
double plan_time(const char* name, bool inclusive_result, const Net& net, int64_t p, int64_t bytes);

}  // namespace collsim::sim
