// The network SimGrid 3.32 simulates for a platform: the links of the XML
// that platform_xml(pf) writes, and the route SimGrid gives a message from
// one node to another (the links it crosses, in order, and their summed
// latency), computed as SimGrid's zones compute them (StarZone for a flat
// cluster, FatTreeZone, TorusZone, DragonflyZone; src/kernel/routing at tag
// v3.32), quirks included: a dragonfly route inside a group may use a black
// link of chassis 0 that the message never reaches (as SimGrid's does),
// a fat-tree or dragonfly message from a node to itself without loopback
// goes up to the switch and back, on a torus it crosses nothing.
//
// Links are dense ids 0 .. links()-1, so that a simulator can keep per-link
// arrays. A SPLITDUPLEX cable is two links (its UP and DOWN halves, each
// with the whole bandwidth, ids 2c and 2c + 1), a SHARED cable one link
// (both directions share it, id c); then one loopback link per node where a
// node has several cores (FATPIPE: no sharing between its flows). Nothing is
// tabulated: a route is computed in O(its length), a link's numbers and
// SimGrid name in O(1) (O(routers) for a dragonfly name, for tests), so
// 2^24 nodes cost no memory. tests/test_routes.cpp compares every kind of
// topology with SimGrid's own Host::route_to.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "platform.hpp"

namespace collsim::platforms {

struct Link {
  enum class Sharing { shared, fatpipe };  // SimGrid's SHARED (max-min shared) and FATPIPE (each flow its own)
  enum class Direction { none, up, down };  // which half of a SPLITDUPLEX cable; none: SHARED or loopback
  double bandwidth = 0;  // bytes per second, as SimGrid reads it from the XML
  double latency = 0;    // seconds, as SimGrid reads it from the XML
  Sharing sharing = Sharing::shared;
  Direction direction = Direction::none;
};

class Routes {
 public:
  explicit Routes(const Machine& pf);  // validate()s pf

  int64_t nodes() const { return nodes_; }
  int64_t links() const { return links_; }
  Link link(int64_t id) const;
  std::string name(int64_t id) const;  // SimGrid's name of the link ("collsim_link_3_UP", ...)

  // The links a message from node `src` to node `dst` crosses, in SimGrid's
  // order, into `out` (cleared first; a link may appear twice, as in
  // SimGrid); returns the route's latency, the links' latencies summed in
  // that order.
  double route(int64_t src, int64_t dst, std::vector<int64_t>& out) const;

  // The node of rank `rank`: rank / cores_per_node, or rank mod nodes with
  // round-robin placement (as hostfile() places them).
  int64_t node_of(int64_t rank) const { return round_robin_ ? rank % nodes_ : rank / cores_; }

 private:
  // Ids of a cable's halves (the same id twice for a SHARED cable).
  int64_t up(int64_t cable) const { return cable * per_cable_; }
  int64_t down(int64_t cable) const { return cable * per_cable_ + per_cable_ - 1; }
  int64_t loopback(int64_t node) const { return cables_ * per_cable_ + node; }
  // One hop through `cable` in its UP (child to parent, lower to higher
  // number) or DOWN direction.
  void hop(int64_t cable, bool going_up, std::vector<int64_t>& out) const {
    out.push_back(going_up ? up(cable) : down(cable));
  }
  // The routes of each kind (route() takes the loopback first).
  void flat_route(int64_t src, int64_t dst, std::vector<int64_t>& out) const;
  void fat_tree_route(int64_t src, int64_t dst, std::vector<int64_t>& out) const;
  void torus_route(int64_t src, int64_t dst, std::vector<int64_t>& out) const;
  void dragonfly_route(int64_t src, int64_t dst, std::vector<int64_t>& out) const;
  std::string cable_name(int64_t cable) const;
  std::string dragonfly_cable_name(int64_t cable) const;

  Topology::Kind kind_;
  int64_t nodes_, cores_;
  bool round_robin_;
  int64_t per_cable_;            // 2 (SPLITDUPLEX) or 1 (SHARED)
  std::vector<int64_t> wiring_;  // wiring(): {k, leaves, up}, torus sizes, {G, C, R, N}
  int64_t cables_ = 0, links_ = 0;
  double bandwidth_, latency_, loopback_bandwidth_ = 0, loopback_latency_ = 0;
};

}  // namespace collsim::platforms
