// The CLI side of a GPU simulation: write the platform's "key = value" file
// and the host file to a temporary directory, start smpirun with the
// platform library (libcollsim-gpu-platform.so) on a program, read back
// what it printed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpu_platform.hpp"
#include "gpu_catalog.hpp"

namespace collsim::sim::gpu {

struct SmpiResult {
  int status = -1;  // exit status of smpirun
  std::string out, err;
  std::string trace;  // what the program wrote to kGpuTraceName in its working directory
};
// The trace file's name in the scratch directory (GpuRequest::trace_file
// gets its rows after the run).
inline constexpr const char* kGpuTraceName = "trace.csv";

// smpirun -np <ranks> on `program` (a shared object with main) with `args`
// (an argument vector), the pure α-β network flags of driver/launch.cpp and
// SMPI's Open MPI collective selector.
SmpiResult run_smpirun(const platforms::GpuPlatform& pf, const std::string& program,
                       const std::vector<std::string>& args);

struct GpuRequest {
  platforms::GpuPlatform platform;
  std::vector<const GpuAlgorithm*> algos;
  std::vector<int64_t> sizes;  // bytes, multiples of 8
  double flops_per_element = 0;
  int reps = 1, warmup = 1;  // as SimRequest's (launch.hpp)
  int64_t trace_bytes = -1;    // record this size's last repetition ...
  std::string trace_file;      // ... into this CSV (appended)
  int64_t sample_above = -1;   // sample vectors of more bytes (host_buffer.hpp); -1: gpu_full_check_limit
};

struct GpuRow {
  std::string algorithm;
  int64_t nodes = 0, procs_per_node = 0, p = 0, bytes = 0;
  double flops_per_element = 0, time_us = 0;
  int reps = 0;
  std::string check;  // "full" or "sampled"
};
std::string gpu_csv_line(const GpuRow& row);

// One smpirun per algorithm (libcollsim-gpu.so); `on_batch` is told after
// each how many of `total` cases are done. A failed run (a wrong result, a
// crash) throws std::runtime_error with the harness's error lines.
std::vector<GpuRow> simulate_gpu(const GpuRequest& req, const std::function<void(size_t done, size_t total)>& on_batch = {});

// Memory of a simulation of p ranks with vectors of `bytes`: checked fully
// (every element private) about 3 vectors per rank (the vector, receive
// slots or a send buffer, the library's temporaries); sampled about 1.5
// (multilane's library reduce-scatter keeps a private vector-sized buffer).
// Vectors are sampled above gpu_full_check_limit(p).
inline constexpr int64_t kGpuFullCheckMemory = int64_t{4} << 30;
inline constexpr int64_t kGpuMemoryLimit = int64_t{12} << 30;
inline int64_t gpu_full_check_limit(int64_t p) { return kGpuFullCheckMemory / (3 * p); }
inline int64_t gpu_memory(int64_t p, int64_t bytes) {
  return bytes <= gpu_full_check_limit(p) ? 3 * p * bytes : 3 * p * bytes / 2;
}

}  // namespace collsim::sim::gpu
