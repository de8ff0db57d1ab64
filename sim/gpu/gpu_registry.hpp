// The GPU allreduce algorithms (seed 001): one row each, read by the SMPI
// harness (what to run) and by `collsim compare --collective gpu-allreduce`
// (--algos, help, error messages). Adding one = one file with its run
// function + one row in gpu_registry.cpp. This header needs no MPI.
#pragma once

#include <string>
#include <vector>

namespace collsim::sim::gpu {

struct GpuCall;  // gpu_call.hpp

struct GpuAlgorithm {
  const char* name;
  void (*run)(const GpuCall& call);
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
