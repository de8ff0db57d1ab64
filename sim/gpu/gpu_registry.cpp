#include "gpu_registry.hpp"

#include <stdexcept>

namespace collsim::sim::gpu {

void run_native(const GpuCall& call);     // native.cpp
void run_multilane(const GpuCall& call);  // multilane.cpp
void run_pr(const GpuCall& call);         // pr.cpp

const std::vector<GpuAlgorithm>& gpu_algorithms() {
  static const std::vector<GpuAlgorithm> table = {
      {"native", run_native, "compute, synchronize, copy the whole vector, MPI_Allreduce (seed 001 Fig. 1)"},
      {"multilane", run_multilane,
       "compute, copy the whole vector; reduce-scatter in the node, allreduce per lane, allgather in the node"},
      {"pr", run_pr,
       "partitioned reduction (seed 001 Figs. 2-3): per partition a callback copies it and sends it to its "
       "owner in the socket; owners allreduce across sockets, then allgather in the socket"},
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
