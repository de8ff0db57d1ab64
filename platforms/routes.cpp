#include "routes.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace collsim::platforms {

namespace {

// Index of the pair (j, k), j < k < n, in SimGrid's loops "for j, for k > j".
int64_t pair_index(int64_t j, int64_t k, int64_t n) { return j * n - j * (j + 1) / 2 + (k - j - 1); }
int64_t pairs(int64_t n) { return n * (n - 1) / 2; }

// The pair at `index` of pair_index(., ., n): O(n), for names only.
std::pair<int64_t, int64_t> pair_at(int64_t index, int64_t n) {
  int64_t j = 0;
  while (index >= n - j - 1) index -= n - j - 1, ++j;
  return {j, j + 1 + index};
}

// The dragonfly's cables in SimGrid's order of creation (DragonflyZone::
// generate_links, whose running uniqueId ends every name): each router's
// links to its N nodes, then green links between the routers of a chassis,
// black links between the chassis of a group (one per blade), blue links
// between groups.
struct Dragonfly {
  int64_t G, C, R, N;
  explicit Dragonfly(const std::vector<int64_t>& w) : G(w[0]), C(w[1]), R(w[2]), N(w[3]) {}
  int64_t routers() const { return G * C * R; }
  int64_t green0() const { return routers() * N; }
  int64_t black0() const { return green0() + G * C * pairs(R); }
  int64_t blue0() const { return black0() + G * pairs(C) * R; }
  int64_t cables() const { return blue0() + pairs(G); }

  struct Router {
    int64_t g, c, b;  // group, chassis, blade
    int64_t index(const Dragonfly& d) const { return (g * d.C + c) * d.R + b; }
  };
  Router router_of(int64_t node) const { return {node / (C * R * N), node / (R * N) % C, node / N % R}; }
  int64_t local(const Router& r, int64_t node) const { return r.index(*this) * N + node % N; }
  int64_t green(const Router& r, int64_t blade) const {
    return green0() + (r.g * C + r.c) * pairs(R) + pair_index(std::min(r.b, blade), std::max(r.b, blade), R);
  }
  int64_t black(const Router& r, int64_t chassis) const {
    return black0() + (r.g * pairs(C) + pair_index(std::min(r.c, chassis), std::max(r.c, chassis), C)) * R + r.b;
  }
  int64_t blue(int64_t from, int64_t to) const {
    return blue0() + pair_index(std::min(from, to), std::max(from, to), G);
  }
};

}  // namespace

Routes::Routes(const Machine& pf)
    : kind_(pf.topology.kind),
      nodes_(pf.nodes),
      cores_(pf.cores_per_node),
      round_robin_(pf.round_robin),
      per_cable_(pf.full_duplex ? 2 : 1) {
  validate(pf);
  wiring_ = wiring(pf.topology, pf.nodes);
  bandwidth_ = as_written(link_bandwidth(pf));
  latency_ = as_written(pf.alpha / 2);
  if (cores_ > 1) loopback_bandwidth_ = as_written(1.0 / pf.intra_beta), loopback_latency_ = as_written(pf.intra_alpha);
  switch (kind_) {
    case Topology::Kind::flat:  // one private link per node
      cables_ = nodes_;
      break;
    case Topology::Kind::fat_tree:  // node to leaf; leaf to every top switch where there are two levels
      cables_ = nodes_ + (wiring_[1] > 1 ? wiring_[1] * wiring_[2] : 0);
      break;
    case Topology::Kind::torus:  // one per node and dimension, to the next node
      cables_ = nodes_ * static_cast<int64_t>(wiring_.size());
      break;
    case Topology::Kind::dragonfly:
      cables_ = Dragonfly(wiring_).cables();
      break;
  }
  links_ = cables_ * per_cable_ + (cores_ > 1 ? nodes_ : 0);
}

Link Routes::link(int64_t id) const {
  if (id >= cables_ * per_cable_)
    return {loopback_bandwidth_, loopback_latency_, Link::Sharing::fatpipe, Link::Direction::none};
  const Link::Direction direction =
      per_cable_ == 1 ? Link::Direction::none : (id % 2 == 0 ? Link::Direction::up : Link::Direction::down);
  return {bandwidth_, latency_, Link::Sharing::shared, direction};
}

std::string Routes::name(int64_t id) const {
  if (id >= cables_ * per_cable_) return "collsim_link_" + std::to_string(id - cables_ * per_cable_) + "_loopback";
  const std::string half = per_cable_ == 1 ? "" : id % 2 == 0 ? "_UP" : "_DOWN";
  return cable_name(id / per_cable_) + half;
}

std::string Routes::cable_name(int64_t cable) const {
  const auto s = [](int64_t v) { return std::to_string(v); };
  switch (kind_) {
    case Topology::Kind::flat:
      return "collsim_link_" + s(cable);
    case Topology::Kind::fat_tree: {
      // FatTreeZone numbers switches down from 2·nodes - 1: the leaves, then the top switches.
      const int64_t k = wiring_[0], leaves = wiring_[1], up = wiring_[2], top = 2 * nodes_ - 1;
      if (cable < nodes_) return "link_from_" + s(cable) + "_" + s(top - cable / k) + "_" + s(cable);
      const int64_t leaf = (cable - nodes_) / up, spine = (cable - nodes_) % up;
      return "link_from_" + s(top - leaf) + "_" + s(top - leaves - spine) + "_" + s(cable);
    }
    case Topology::Kind::torus: {
      const int64_t dims = static_cast<int64_t>(wiring_.size()), node = cable / dims;
      int64_t stride = 1;
      for (int64_t j = 0; j < cable % dims; ++j) stride *= wiring_[j];
      const int64_t size = wiring_[cable % dims];
      const int64_t next = node / stride % size == size - 1 ? node - (size - 1) * stride : node + stride;
      return "collsim_link_from_" + s(node) + "_to_" + s(next);
    }
    case Topology::Kind::dragonfly:
      return dragonfly_cable_name(cable);
  }
  return {};
}

std::string Routes::dragonfly_cable_name(int64_t cable) const {
  const Dragonfly d(wiring_);
  const auto s = [](int64_t v) { return std::to_string(v); };
  if (cable < d.green0())
    return "local_link_from_router_" + s(cable / d.N) + "_to_node_" + s(cable % d.N) + "_" + s(cable);
  if (cable < d.black0()) {
    const int64_t chassis = (cable - d.green0()) / pairs(d.R);
    const auto [j, k] = pair_at((cable - d.green0()) % pairs(d.R), d.R);
    return "green_link_in_chassis_" + s(chassis % d.C) + "_between_routers_" + s(j) + "_and_" + s(k) + "_" + s(cable);
  }
  if (cable < d.blue0()) {
    const int64_t group = (cable - d.black0()) / (pairs(d.C) * d.R), blade = (cable - d.black0()) % d.R;
    const auto [j, k] = pair_at((cable - d.black0()) / d.R % pairs(d.C), d.C);
    return "black_link_in_group_" + s(group) + "_between_chassis_" + s(j) + "_and_" + s(k) + "_blade_" + s(blade) +
           "_" + s(cable);
  }
  const auto [i, j] = pair_at(cable - d.blue0(), d.G);
  return "blue_link_between_group_" + s(i) + "_and_" + s(j) + "_routers_" + s(i * d.R * d.C + j) + "_and_" +
         s(j * d.R * d.C + i) + "_" + s(cable);
}

double Routes::route(int64_t src, int64_t dst, std::vector<int64_t>& out) const {
  out.clear();
  if (src == dst && cores_ > 1) {
    out.push_back(loopback(src));  // every zone: a host's loopback, alone
  } else {
    switch (kind_) {
      case Topology::Kind::flat:
        flat_route(src, dst, out);
        break;
      case Topology::Kind::fat_tree:
        fat_tree_route(src, dst, out);
        break;
      case Topology::Kind::torus:
        torus_route(src, dst, out);
        break;
      case Topology::Kind::dragonfly:
        dragonfly_route(src, dst, out);
        break;
    }
  }
  double latency = 0;
  for (int64_t id : out) latency += id >= cables_ * per_cable_ ? loopback_latency_ : latency_;
  return latency;
}

// StarZone: the source's link UP, the destination's DOWN, a link once
// (a SHARED link from a node to itself is crossed once).
void Routes::flat_route(int64_t src, int64_t dst, std::vector<int64_t>& out) const {
  hop(src, true, out);
  if (down(dst) != out.back()) hop(dst, false, out);
}

// FatTreeZone: up from the node to its leaf; to another leaf through the
// top switch numbered dst mod (top switches) (d-mod-k), then down.
void Routes::fat_tree_route(int64_t src, int64_t dst, std::vector<int64_t>& out) const {
  const int64_t k = wiring_[0], up = wiring_[2];
  hop(src, true, out);
  if (src / k != dst / k) {
    hop(nodes_ + src / k * up + dst % up, true, out);
    hop(nodes_ + dst / k * up + dst % up, false, out);
  }
  hop(dst, false, out);
}

// TorusZone: dimension by dimension, lowest first; in each, the way the
// source's coordinate says (the shorter way round, ties as SimGrid breaks
// them). Going right crosses the current node's cable UP, going left the
// next node's cable DOWN.
void Routes::torus_route(int64_t src, int64_t dst, std::vector<int64_t>& out) const {
  const int64_t dims = static_cast<int64_t>(wiring_.size());
  int64_t current = src, stride = 1;
  for (int64_t j = 0; j < dims; stride *= wiring_[j], ++j) {
    const uint64_t size = wiring_[j], mine = src / stride % size, target = dst / stride % size;
    const bool right =
        (target > mine && target <= mine + size / 2) || (mine > size / 2 && (mine + size / 2) % size >= target);
    while (uint64_t(current / stride) % size != target) {
      const int64_t at = current / stride % size;
      if (right) {
        hop(current * dims + j, true, out);
        current += at == int64_t(size) - 1 ? -(int64_t(size) - 1) * stride : stride;
      } else {
        current += at == 0 ? (int64_t(size) - 1) * stride : -stride;
        hop(current * dims + j, false, out);
      }
    }
  }
}

// DragonflyZone's minimal routing, step for step: to another group through
// blade g (green), chassis 0 (black) and the blue link, arriving at blade
// (source group) of chassis 0; then to the target's blade (green, after
// which SimGrid counts the message at chassis 0 whichever chassis it was in)
// and chassis (black).
void Routes::dragonfly_route(int64_t src, int64_t dst, std::vector<int64_t>& out) const {
  const Dragonfly d(wiring_);
  const Dragonfly::Router mine = d.router_of(src), target = d.router_of(dst);
  hop(d.local(mine, src), true, out);
  if (mine.index(d) != target.index(d)) {
    Dragonfly::Router at = mine;
    if (target.g != at.g) {
      if (at.b != target.g) {
        hop(d.green(at, target.g), at.b < target.g, out);
        at.b = target.g;
      }
      if (at.c != 0) {
        hop(d.black(at, 0), false, out);
        at.c = 0;
      }
      hop(d.blue(mine.g, target.g), mine.g < target.g, out);
      at = {target.g, 0, mine.g};
    }
    if (target.b != at.b) {
      hop(d.green(at, target.b), at.b < target.b, out);
      at = {target.g, 0, target.b};
    }
    if (target.c != at.c) hop(d.black(at, target.c), at.c < target.c, out);
  }
  hop(d.local(target, dst), false, out);
}

}  // namespace collsim::platforms
