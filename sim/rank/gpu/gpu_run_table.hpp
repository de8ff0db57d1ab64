// The rank side's half of the GPU catalog: each row's run function, from the
// same list (catalog/gpu_algorithms.def) in the same order.
#pragma once

#include "gpu_call.hpp"
#include "gpu_catalog.hpp"

namespace collsim::sim::gpu {

void (*gpu_run_function(const GpuAlgorithm& a))(const GpuCall& call);

}  // namespace collsim::sim::gpu
