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
//                        SimGrid: "X,Y,.." without the sizes of 1, which
//                        route nothing: SimGrid 3.32 names a node's link in
//                        a dimension of size 1 after the node alone
//                        ("collsim_link_from_0_to_0"), so two such sizes
//                        abort it (exit 134: "declared several times"), as
//                        the default torus:1,1,7 of 7 nodes once did.
//   dragonfly[:G,C,R,N]  G groups of C chassis of R routers of N nodes,
//                      one link between each pair of groups, chassis and
//                      routers; G <= R (below). Default: C = N = 4 and
//                      G·R = nodes/16 with G <= R, G as large as that
//                      allows and R >= 4 (64 nodes: 1,4,4,4; 256: 4,4,4,4;
//                      1,024: 8,4,8,4; 8,192: 16,4,32,4).
//                        SimGrid: "G,1;C,1;R,1;N"
// A shape must hold exactly the platform's nodes. Pure C++17.
//
// Why a dragonfly needs G <= R: SimGrid 3.32's DragonflyZone wires the
// global link from group i to group j at router number j of group i (router
// numbers count blades fastest, chassis next), but routes a message for
// group j through blade j of its chassis (green_links_[j], a vector of R
// links) and then chassis 0. With G > R a message for group j >= R indexes
// past that vector: SimGrid crashes (exit 139) or, worse, routes through
// whatever lies there. So G > R is refused with one line before SimGrid
// starts (validate() calls cluster_shape()), and the default shape keeps
// G <= R; every shape with G <= R routes as SimGrid's code says
// (platforms/routes.hpp describes those routes, tests/test_routes.cpp
// checks them against SimGrid's own).
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

// The numbers behind cluster_shape(), defaults filled in and checked the
// same way: flat {}; fat-tree {k nodes per leaf, leaves, k/T top switches};
// torus its sizes but those of 1 ({1} for one node); dragonfly {G, C, R, N}.
std::vector<int64_t> wiring(const Topology& t, int64_t nodes);

// The --topology help line.
std::string topology_help();

}  // namespace collsim::platforms
