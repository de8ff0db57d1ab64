#include "gpu_catalog.hpp"

#include <stdexcept>

namespace collsim::sim::gpu {

const std::vector<GpuAlgorithm>& gpu_algorithms() {
  static const std::vector<GpuAlgorithm> table = {
#define COLLSIM_GPU(name, run, what) {name, what},
#include "gpu_algorithms.def"
#undef COLLSIM_GPU
  };
  return table;
}

std::string gpu_algorithm_names() {
  std::string names;
  for (const auto& a : gpu_algorithms()) names += (names.empty() ? "" : ", ") + std::string(a.name);
  return names;
}

const GpuAlgorithm& find_gpu_algorithm(const std::string& name) {
  for (const auto& a : gpu_algorithms())
    if (name == a.name) return a;
  throw std::invalid_argument("unknown gpu-allreduce algorithm '" + name + "'; known: " + gpu_algorithm_names());
}

}  // namespace collsim::sim::gpu
