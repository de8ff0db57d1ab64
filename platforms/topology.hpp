// Networks with contention (issue 17): SimGrid 3.32's cluster topologies
// (FAT_TREE, TORUS, DRAGONFLY) for a platform's nodes, instead of the flat
// crossbar where no two routes share a link. Every link has the platform's
// bandwidth 1/β and latency α/2 (a flat cluster's route crosses two links;
// a route of h links costs h·α/2), so what changes is where routes meet.
//
//   fat-tree[:T]       two levels: leaf switches of k = 32 nodes (k = nodes
//                      where fewer), each with k/T links up, one to each of
//                      k/T top switches, every top switch reaching every
//                      leaf. T = 1 (default): full bisection; T = 2: 2:1
//                      taper, half the bandwidth out of a leaf.
//                        SimGrid: "2;k,L;1,k/T;1,1" (L = nodes/k leaves)
//   torus[:X,Y,..]     the nodes on a torus of those sizes (default: three
//                      sizes as equal as nodes allows); routes go dimension
//                      by dimension through the other nodes' links.
//   dragonfly[:G,C,R,N]  G groups of C chassis of R routers of N nodes
//                      (default N = R = C = 4, G = nodes/64), one link
//                      between each pair of groups, chassis and routers.
// A shape must hold exactly the platform's nodes. Pure C++17.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace collsim::platforms {

struct Topology {
  enum class Kind { flat, fat_tree, torus, dragonfly };
  Kind kind = Kind::flat;
  std::vector<int64_t> shape;  // as given after the colon; empty: the default for the nodes
};

// "flat", "fat-tree", "fat-tree:2", "torus:4,4,8", "dragonfly:2,4,4,4".
// Throws std::invalid_argument naming what is wrong.
Topology parse_topology(const std::string& text);

// SimGrid's topology attribute and topo_parameters for `nodes` nodes;
// throws std::invalid_argument when the shape does not hold them exactly.
struct ClusterShape {
  std::string topology, parameters;  // empty for flat
};
ClusterShape cluster_shape(const Topology& t, int64_t nodes);

// The --topology help line.
std::string topology_help();

}  // namespace collsim::platforms
