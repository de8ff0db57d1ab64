#include "topology.hpp"

#include <stdexcept>

namespace collsim::platforms {

namespace {

// "4,4,8" as positive integers (at most 2^24 each).
std::vector<int64_t> sizes_of(const std::string& text, const std::string& what) {
  std::vector<int64_t> sizes;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 8)
      throw std::invalid_argument(what + ": '" + item + "' is not a positive integer");
    const int64_t v = std::stoll(item);
    if (v < 1 || v > (int64_t{1} << 24)) throw std::invalid_argument(what + ": " + item + " is out of [1, 2^24]");
    sizes.push_back(v);
    if (comma == std::string::npos) return sizes;
    start = comma + 1;
  }
}

std::string joined(const std::vector<int64_t>& v, char sep) {
  std::string s;
  for (int64_t x : v) s += (s.empty() ? "" : std::string(1, sep)) + std::to_string(x);
  return s;
}

// How many nodes `shape` holds, or -1 when more than 2^24 (no overflow:
// every factor is at most 2^24).
int64_t capacity(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t x : shape)
    if ((n *= x) > (int64_t{1} << 24)) return -1;
  return n;
}

void require_nodes(const std::vector<int64_t>& shape, int64_t nodes, const std::string& what) {
  const int64_t holds = capacity(shape);
  if (holds != nodes)
    throw std::invalid_argument(what + " holds " + (holds < 0 ? "more than 2^24" : std::to_string(holds)) +
                                " nodes, the platform has " + std::to_string(nodes));
}

// Three torus sizes a <= b <= c, a·b·c = nodes, c as small as can be.
std::vector<int64_t> cubic(int64_t nodes) {
  std::vector<int64_t> best{1, 1, nodes};
  for (int64_t a = 1; a * a * a <= nodes; ++a) {
    if (nodes % a) continue;
    for (int64_t b = a; a * b * b <= nodes; ++b)
      if ((nodes / a) % b == 0 && nodes / a / b < best[2]) best = {a, b, nodes / a / b};
  }
  return best;
}

// {k, leaves, k/T}: leaves of k = 32 nodes (all of them where fewer), k/T
// links up from each.
std::vector<int64_t> fat_tree(const std::vector<int64_t>& shape, int64_t nodes) {
  if (shape.size() > 1) throw std::invalid_argument("fat-tree takes one number, the taper T (fat-tree:2)");
  const int64_t taper = shape.empty() ? 1 : shape[0], leaf = nodes < 32 ? nodes : 32;
  if (nodes % leaf) throw std::invalid_argument("fat-tree: " + std::to_string(nodes) + " nodes is no multiple of 32");
  if (leaf % taper)
    throw std::invalid_argument("fat-tree: taper " + std::to_string(taper) + " does not divide the " +
                                std::to_string(leaf) + " links up from a leaf");
  return {leaf, nodes / leaf, leaf / taper};
}

// C = N = 4 and G·R = nodes/16: the most groups with G <= R and R >= 4.
std::vector<int64_t> default_dragonfly(int64_t nodes) {
  if (nodes % 64)
    throw std::invalid_argument("dragonfly: " + std::to_string(nodes) +
                                " nodes is no multiple of 64 (give dragonfly:G,C,R,N)");
  const int64_t routers = nodes / 16;  // G·R, a multiple of 4
  int64_t groups = 1;
  for (int64_t g = 2; g * g <= routers; ++g)
    if (routers % g == 0 && routers / g >= 4) groups = g;
  return {groups, 4, routers / groups, 4};
}

std::vector<int64_t> dragonfly(std::vector<int64_t> shape, int64_t nodes) {
  if (shape.empty()) shape = default_dragonfly(nodes);
  if (shape.size() != 4) throw std::invalid_argument("dragonfly takes four numbers: G,C,R,N");
  const std::string name = "dragonfly:" + joined(shape, ',');
  require_nodes(shape, nodes, name);
  if (shape[0] > shape[2])  // see topology.hpp
    throw std::invalid_argument(name + ": SimGrid 3.32 routes the link to group g through router g of a chassis, so "
                                "it needs G <= R (groups <= routers per chassis); give R >= " +
                                std::to_string(shape[0]));
  return shape;
}

}  // namespace

Topology parse_topology(const std::string& text) {
  const size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  Topology t;
  if (name == "flat")
    t.kind = Topology::Kind::flat;
  else if (name == "fat-tree")
    t.kind = Topology::Kind::fat_tree;
  else if (name == "torus")
    t.kind = Topology::Kind::torus;
  else if (name == "dragonfly")
    t.kind = Topology::Kind::dragonfly;
  else
    throw std::invalid_argument("unknown topology '" + name + "'; known: flat, fat-tree, torus, dragonfly");
  if (colon != std::string::npos) {
    if (t.kind == Topology::Kind::flat) throw std::invalid_argument("flat takes no shape");
    t.shape = sizes_of(text.substr(colon + 1), name);
  }
  return t;
}

std::vector<int64_t> wiring(const Topology& t, int64_t nodes) {
  switch (t.kind) {
    case Topology::Kind::flat:
      return {};
    case Topology::Kind::fat_tree:
      return fat_tree(t.shape, nodes);
    case Topology::Kind::torus: {
      const std::vector<int64_t> dims = t.shape.empty() ? cubic(nodes) : t.shape;
      require_nodes(dims, nodes, "torus:" + joined(dims, ','));
      // Sizes of 1 route nothing, and two of them crash SimGrid (topology.hpp).
      std::vector<int64_t> wired;
      for (int64_t size : dims)
        if (size > 1) wired.push_back(size);
      return wired.empty() ? std::vector<int64_t>{1} : wired;
    }
    case Topology::Kind::dragonfly:
      return dragonfly(t.shape, nodes);
  }
  return {};
}

ClusterShape cluster_shape(const Topology& t, int64_t nodes) {
  const std::vector<int64_t> w = wiring(t, nodes);
  const auto text = [&](size_t i) { return std::to_string(w[i]); };
  switch (t.kind) {
    case Topology::Kind::flat:
      return {};
    case Topology::Kind::fat_tree:  // one level where one leaf holds all nodes
      if (w[1] == 1) return {"FAT_TREE", "1;" + text(0) + ";1;1"};
      return {"FAT_TREE", "2;" + text(0) + "," + text(1) + ";1," + text(2) + ";1,1"};
    case Topology::Kind::torus:
      return {"TORUS", joined(w, ',')};
    case Topology::Kind::dragonfly:  // one link between each pair at every level
      return {"DRAGONFLY", text(0) + ",1;" + text(1) + ",1;" + text(2) + ",1;" + text(3)};
  }
  return {};
}

std::string topology_help() {
  return "flat (default: a crossbar, no shared links), fat-tree[:T] (two levels, leaves of 32 nodes, T:1 taper "
         "above them), torus[:X,Y,..] (default: 3 sizes as equal as the nodes allow), dragonfly[:G,C,R,N] (G <= R, "
         "as SimGrid's routing needs; default C = N = 4, R >= 4, G x R = nodes/16 with the most groups); every link "
         "1/beta and alpha/2; see platforms/topology.hpp";
}

}  // namespace collsim::platforms
