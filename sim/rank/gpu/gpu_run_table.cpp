#include "gpu_run_table.hpp"

#include <iterator>
#include <stdexcept>

namespace collsim::sim::gpu {

#define COLLSIM_GPU(name, run, what) void run(const GpuCall& call);
#include "gpu_algorithms.def"
#undef COLLSIM_GPU

void (*gpu_run_function(const GpuAlgorithm& a))(const GpuCall& call) {
  static constexpr void (*runs[])(const GpuCall&) = {
#define COLLSIM_GPU(name, run, what) run,
#include "gpu_algorithms.def"
#undef COLLSIM_GPU
  };
  const size_t i = static_cast<size_t>(&a - gpu_algorithms().data());
  if (i >= std::size(runs) || gpu_algorithms().size() != std::size(runs))
    throw std::logic_error("GPU run table and catalog differ");
  return runs[i];
}

}  // namespace collsim::sim::gpu
