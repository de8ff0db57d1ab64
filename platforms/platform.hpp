// SimGrid 3.32 platform descriptions for the α-β(-γ) cost model (seed 004
// §2.1): a message of m bytes between two nodes costs α + mβ, one byte of a
// reduction ⊕ costs γ on the host that computes it.
//
// Every platform is one flat <cluster>: each node has a private link to a
// crossbar and no backbone, so a route crosses two private links (lat = α/2,
// bw = 1/β). SPLITDUPLEX links model full duplex (a node sends and receives
// at once, each at 1/β); SHARED links model half duplex. Concurrent flows of
// one node share its link bandwidth (max-min fairness, CM02 model).
//
// With cores_per_node > 1 each node is one host with that many cores; ranks on
// the same host talk over the host's loopback link (one link: lat = intra α,
// bw = 1/intra β, FATPIPE, i.e. no sharing between concurrent intra-node
// flows — SimGrid's default for cluster loopbacks).
//
// Host speed is 1/γ "flops" per second, so smpi_execute_flops(bytes) charges
// γ·bytes: a "flop" here is one byte of ⊕.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace collsim::platforms {

struct Platform {
  std::string name;          // "alphabeta", a preset name, or a file path
  double alpha = 5e-6;       // seconds per message between nodes
  double beta = 1e-9;        // seconds per byte between nodes
  double gamma = 1e-9;       // seconds per byte of ⊕
  bool full_duplex = true;   // SPLITDUPLEX (true) or SHARED (false) links
  int64_t nodes = 1;         // cluster size
  int64_t cores_per_node = 1;
  double intra_alpha = 0;    // seconds per message within a node
  double intra_beta = 0;     // seconds per byte within a node
  std::string source;        // where the numbers come from (a comment)
};

// The built-in presets with their documented numbers; see platform.cpp.
const std::vector<Platform>& presets();
std::vector<std::string> preset_names();  // "alphabeta" first

// "alphabeta" or a preset name; nullptr if neither.
const Platform* find_preset(const std::string& name);

// Throws std::invalid_argument naming the first bad field (α, β ≥ 0 finite,
// γ > 0, nodes ≥ 1, cores ≥ 1, ...).
void validate(const Platform& pf);

// The SimGrid 3.32 XML for `pf` (validated first). Hosts are named node-0 ..
// node-(nodes-1).
std::string platform_xml(const Platform& pf);

// An SMPI host file for p ranks placed block-wise, cores_per_node ranks per
// node, one line per rank (smpirun would otherwise unroll "host:count" lines
// into a temporary file in the current directory). Throws std::invalid_argument when p exceeds
// nodes × cores_per_node.
std::string hostfile(const Platform& pf, int64_t p);

}  // namespace collsim::platforms
