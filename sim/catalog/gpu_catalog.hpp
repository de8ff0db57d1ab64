// The GPU allreduce algorithms (seed 001): one row each, from the list
// gpu_algorithms.def, read by `collsim compare --collective gpu-allreduce`
// (--algos, help, error messages) and by the SMPI harness (which row; its
// run function: rank/gpu/gpu_run_table.hpp). Adding one = one file with its
// run function + one row in gpu_algorithms.def. MPI-free.
#pragma once

#include <string>
#include <vector>

namespace collsim::sim::gpu {

struct GpuAlgorithm {
  const char* name;
  const char* description;
};

const std::vector<GpuAlgorithm>& gpu_algorithms();
// Throws std::invalid_argument "unknown gpu-allreduce algorithm 'x'; known: ...".
const GpuAlgorithm& find_gpu_algorithm(const std::string& name);
std::string gpu_algorithm_names();  // "native, multilane, pr"

// The harness's CSV (one row per algorithm and size; time_us: the slowest
// rank, minimum over repetitions; check: "full" or "sampled", see
// host_buffer.hpp).
inline constexpr const char* kGpuCsvHeader =
    "algorithm,nodes,procs_per_node,p,bytes,flops_per_element,time_us,reps,check";

}  // namespace collsim::sim::gpu
