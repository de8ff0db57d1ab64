#include "gpu_platform.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <cstdio>
#include <set>
#include <sstream>
#include <stdexcept>

namespace collsim::platforms {

const std::vector<GpuPlatform>& gpu_presets() {
  static const std::vector<GpuPlatform> list = [] {
    std::vector<GpuPlatform> l;
    // Seed 001's machine. Its node description ("2 x IBM Power9 8335-GTH @ 2.4GHz (3.0GHz on turbo, 20 cores
    // and 4 threads/core ...), 512GB ..., 4 x GPU NVIDIA V100 (Volta) with 16GB HBM2", InfiniBand) is the
    // CTE-POWER cluster of the Barcelona Supercomputing Center (BSC CTE-POWER user guide, which adds a
    // single-port Mellanox EDR InfiniBand adapter per node). The seed runs 40 processes per node in
    // intra-node socket groups of 20 on 1, 2 and 4 nodes.
    //  - GPU: V100 SXM2, 7.8 TFLOP/s double precision (NVIDIA Tesla V100 datasheet).
    //  - Host-device link: the 8335-GTH (AC922, 4-GPU model) joins each V100 to its POWER9 by three NVLink
    //    2.0 bricks, 75 GB/s per direction (IBM Redpaper REDP-5472, AC922 technical overview); IBM's
    //    measured CPU-GPU copy rate on the 4-GPU AC922 is 68 GB/s (The Next Platform, "NVLink shines on
    //    Power9", 2017-12-15). Latency = the fixed cost of one cudaMemcpy of a small buffer, about 10 us
    //    (constant overhead below 8 KB, cs.virginia.edu "Memory transfer overhead"; 5-7 us for the
    //    submission alone, Wu et al. 2026, arXiv 2602.21548). Seed 001 Figs. 8-9 compare these copies
    //    but their values were lost with the figures.
    //  - Host callback (pr's cudaLaunchHostFunc per partition): 10 us from the end of the kernel before it
    //    to the callback running. Measurements bracket it: about 6 us for hipLaunchHostFunc alone on an
    //    AMD GPU (kokkos/kokkos pull request 8020, 2025) and about 100 us for a CUDA host callback round
    //    trip on a GeForce RTX 3080 over PCIe 4.0 (facebookincubator/velox pull request 6096, 2023). No
    //    V100 figure was found; we take the low end, the same fixed cost as one copy. Seed 001 blames
    //    PR's loss below 1 MB on its per-partition device-to-host steps without giving their cost.
    //  - InfiniBand EDR: 100 Gbit/s = 12.5 GB/s (beta = 0.08 ns/B); alpha = 1.2 us, the usual MPI
    //    ping-pong latency class of EDR through one switch level (assumed, not measured by the seed).
    //  - Within a node: 0.5 us and 10 GB/s per shared-memory message (single-copy transport, assumed as
    //    for the CPU presets in platform.cpp); all messages of a node together at most 120 GB/s: two
    //    sockets of 8 DDR4-2666 channels, 170 GB/s peak each (REDP-5472), about 70 % of peak sustained,
    //    every byte read once and written once.
    //  - Host reduction: one core streams about 12 GB/s; a += b moves 3 bytes per byte of operand, so
    //    gamma = 0.25 ns/B (assumed).
    GpuPlatform p9;
    p9.name = "power9-v100";
    p9.source = "seed 001 / BSC CTE-POWER: 2 x POWER9 (20 cores), 4 x V100 SXM2 on NVLink 2.0, EDR InfiniBand";
    l.push_back(p9);
    // The same node layout on PCIe: 2 x Intel Xeon Gold 6148 (20 cores each) and 4 x V100 PCIe, a
    // common x86 GPU node of the same generation (for comparison; not in the seed).
    //  - GPU: V100 PCIe, 7.0 TFLOP/s double precision (NVIDIA Tesla V100 datasheet).
    //  - Host-device link: PCIe 3.0 x16, 15.75 GB/s raw per direction; 12 GB/s is the usual measured
    //    pinned device-to-host rate (CUDA bandwidthTest class, assumed). Latency as above.
    //  - Memory: two sockets of 6 DDR4-2666 channels, 128 GB/s peak each; same derivation: 90 GB/s.
    //  - InfiniBand, shared memory, gamma: as power9-v100.
    GpuPlatform x86 = p9;
    x86.name = "xeon-v100-pcie";
    x86.link_bw = 12e9;
    x86.gpu_flops = 7.0e12;
    x86.node_memory_bw = 90e9;
    x86.source = "2 x Xeon Gold 6148, 4 x V100 PCIe on PCIe 3.0 x16, EDR InfiniBand (assumed figures)";
    l.push_back(x86);
    return l;
  }();
  return list;
}

std::vector<std::string> gpu_preset_names() {
  std::vector<std::string> names;
  for (const auto& pf : gpu_presets()) names.push_back(pf.name);
  return names;
}

const GpuPlatform* find_gpu_preset(const std::string& name) {
  for (const auto& pf : gpu_presets())
    if (pf.name == name) return &pf;
  return nullptr;
}

namespace {

struct IntField {
  const char* key;
  int64_t GpuPlatform::*field;
};
struct RealField {
  const char* key;
  double GpuPlatform::*field;
  bool time;  // >= 0 (a time), else > 0 (a speed)
};

constexpr IntField kIntFields[] = {
    {"nodes", &GpuPlatform::nodes},
    {"procs_per_node", &GpuPlatform::procs_per_node},
    {"procs_per_socket", &GpuPlatform::procs_per_socket},
    {"gpus_per_node", &GpuPlatform::gpus_per_node},
};
// Bandwidths are given as seconds per byte (β, γ) or bytes per second; both must be > 0.
constexpr RealField kRealFields[] = {
    {"alpha", &GpuPlatform::alpha, true},
    {"beta", &GpuPlatform::beta, false},
    {"intra_alpha", &GpuPlatform::intra_alpha, true},
    {"intra_beta", &GpuPlatform::intra_beta, false},
    {"node_memory_bw", &GpuPlatform::node_memory_bw, false},
    {"gamma", &GpuPlatform::gamma, false},
    {"link_latency", &GpuPlatform::link_latency, true},
    {"link_bw", &GpuPlatform::link_bw, false},
    {"callback_latency", &GpuPlatform::callback_latency, true},
    {"gpu_flops", &GpuPlatform::gpu_flops, false},
};

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  const auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

void validate(const GpuPlatform& pf) {
  for (const auto& f : kIntFields)
    if (pf.*f.field < 1 || pf.*f.field > (int64_t{1} << 20))
      throw std::invalid_argument(std::string(f.key) + " must be in [1, 2^20]");
  for (const auto& f : kRealFields) {
    const double v = pf.*f.field;
    if (!std::isfinite(v) || v < 0 || (!f.time && v == 0))
      throw std::invalid_argument(std::string(f.key) + (f.time ? " must be finite and >= 0" : " must be finite and > 0"));
  }
  if (pf.procs_per_node % pf.procs_per_socket != 0)
    throw std::invalid_argument("procs_per_socket (" + std::to_string(pf.procs_per_socket) +
                                ") must divide procs_per_node (" + std::to_string(pf.procs_per_node) + ")");
  if (pf.procs_per_node % pf.gpus_per_node != 0)
    throw std::invalid_argument("gpus_per_node (" + std::to_string(pf.gpus_per_node) +
                                ") must divide procs_per_node (" + std::to_string(pf.procs_per_node) + ")");
}

std::string gpu_platform_text(const GpuPlatform& pf) {
  validate(pf);
  std::string text = "# collsim GPU platform: " + pf.source + "\nname = " + pf.name + "\n";
  for (const auto& f : kIntFields) text += std::string(f.key) + " = " + std::to_string(pf.*f.field) + "\n";
  for (const auto& f : kRealFields) text += std::string(f.key) + " = " + num(pf.*f.field) + "\n";
  return text;
}

GpuPlatform gpu_platform_from_text(const std::string& text) {
  GpuPlatform pf;
  std::set<std::string> seen;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("GPU platform: no '=' in line '" + line + "'");
    const std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
    if (!seen.insert(key).second) throw std::invalid_argument("GPU platform: key '" + key + "' given twice");
    if (key == "name") {
      pf.name = value;
      continue;
    }
    const auto* i = std::find_if(std::begin(kIntFields), std::end(kIntFields), [&](auto& f) { return key == f.key; });
    const auto* r = std::find_if(std::begin(kRealFields), std::end(kRealFields), [&](auto& f) { return key == f.key; });
    if (i == std::end(kIntFields) && r == std::end(kRealFields))
      throw std::invalid_argument("GPU platform: unknown key '" + key + "'");
    size_t used = 0;
    try {
      if (i != std::end(kIntFields))
        pf.*i->field = std::stoll(value, &used);
      else
        pf.*r->field = std::stod(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (value.empty() || used != value.size())
      throw std::invalid_argument("GPU platform: bad value '" + value + "' for " + key);
  }
  const size_t expected = 1 + std::size(kIntFields) + std::size(kRealFields);
  if (seen.size() != expected)
    throw std::invalid_argument("GPU platform: " + std::to_string(expected - seen.size()) + " keys missing");
  validate(pf);
  return pf;
}

std::string gpu_hostfile(const GpuPlatform& pf) {
  std::string text;
  for (int64_t n = 0; n < pf.nodes; ++n)
    for (int64_t i = 0; i < pf.procs_per_node; ++i) text += node_host_name(n) + "\n";
  return text;
}

std::string node_host_name(int64_t node) { return "node-" + std::to_string(node); }
std::string gpu_host_name(int64_t node, int64_t gpu) { return node_host_name(node) + "-gpu-" + std::to_string(gpu); }

}  // namespace collsim::platforms
