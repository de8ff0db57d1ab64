// GPU clusters for the gpu-allreduce comparison (seed 001): nodes of
// `procs_per_node` MPI processes in sockets of `procs_per_socket`, each node
// with `gpus_per_node` GPUs; a process offloads its computation to GPU
// local_rank / (procs_per_node / gpus_per_node), so the processes of one GPU
// share its compute speed and its host link.
//
// The simulated machine (built by libcollsim-gpu-platform.so, see
// gpu_platform_so.cpp) is one SimGrid star zone per node inside a star zone
// for the cluster:
//   - host "node-N": procs_per_node cores of 1/γ flop/s (a "flop" is one byte
//     of a host-side reduction ⊕, as in platform.hpp);
//   - its loopback (messages between processes of the node): a FATPIPE link
//     (latency intra α, bandwidth 1/intra β for every message) followed by a
//     SHARED link of node_memory_bw, so each message is capped at 1/intra β
//     and all of the node's messages together at node_memory_bw;
//   - hosts "node-N-gpu-G" of gpu_flops flop/s, one core (kernels of
//     processes sharing the GPU share its speed), each joined to the node by
//     a full-duplex host–device link (latency = fixed cost of one copy,
//     bandwidth shared by the copies in flight in one direction);
//   - between nodes a full-duplex InfiniBand link per node (α/2, 1/β), so a
//     message of m bytes costs α + (m + 16)β (16: SMPI's envelope).
// A device-to-host copy of b bytes (an S4U comm, no envelope) costs
// link_latency + c·b/link_bw when c processes of the GPU copy at once. A host
// callback (pr's per-partition notification) starts callback_latency after
// the kernel before it ends, and blocks the kernels queued after it until it
// returns (CUDA's cudaLaunchHostFunc semantics); the model charges that time
// in the algorithm (sim/gpu/pr.cpp), not in the platform.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace collsim::platforms {

struct GpuPlatform {
  std::string name;
  int64_t nodes = 4;
  int64_t procs_per_node = 40;
  int64_t procs_per_socket = 20;
  int64_t gpus_per_node = 4;
  double alpha = 1.2e-6;         // s per message between nodes
  double beta = 0.08e-9;         // s per byte between nodes
  double intra_alpha = 0.5e-6;   // s per message within a node
  double intra_beta = 0.1e-9;    // s per byte of one message within a node
  double node_memory_bw = 120e9; // B/s of all messages within one node together
  double gamma = 0.25e-9;        // s per byte of a host-side ⊕
  double link_latency = 10e-6;   // s: fixed cost of one host–device copy
  double link_bw = 68e9;         // B/s of one GPU's host–device link, per direction
  double callback_latency = 10e-6;  // s: from a kernel's end to its host callback starting
  double gpu_flops = 7.8e12;     // flop/s of one GPU
  std::string source;            // where the numbers come from

  int64_t sockets_per_node() const { return procs_per_node / procs_per_socket; }
  int64_t procs_per_gpu() const { return procs_per_node / gpus_per_node; }
  int64_t ranks() const { return nodes * procs_per_node; }
};

const std::vector<GpuPlatform>& gpu_presets();
std::vector<std::string> gpu_preset_names();
const GpuPlatform* find_gpu_preset(const std::string& name);  // nullptr if unknown

// Throws std::invalid_argument naming the first bad field: counts >= 1,
// procs_per_socket and gpus_per_node dividing procs_per_node, every time >= 0
// and finite, every speed > 0 and finite.
void validate(const GpuPlatform& pf);

// "key = value" lines (validated first), the form the platform library and
// the SMPI harness read back with gpu_platform_from_text.
std::string gpu_platform_text(const GpuPlatform& pf);
// Throws std::invalid_argument on a missing, unknown or malformed key.
GpuPlatform gpu_platform_from_text(const std::string& text);

// SMPI host file: procs_per_node lines "node-N" per node, ranks block-wise.
std::string gpu_hostfile(const GpuPlatform& pf);

std::string node_host_name(int64_t node);
std::string gpu_host_name(int64_t node, int64_t gpu);

// The environment variable naming the "key = value" file for smpirun's
// children (the platform library and the harness).
inline constexpr const char* kGpuPlatformEnv = "COLLSIM_GPU_PLATFORM";

}  // namespace collsim::platforms
