#include <sstream>

#include "viz.hpp"

namespace collsim::viz {

namespace {

constexpr const char* kEdgeColor[2] = {"#1f5fbf", "#d62728"};  // colour 0 blue, 1 red
constexpr int kDx = 48, kDy = 64;                              // points per in-order step / level

int depth(const TwoTree& tt, int tree, int64_t rank) {
  int d = 0;
  for (int64_t u = rank; u != tt.root(); u = tt.parent(tree, u)) ++d;
  return d;
}

}  // namespace

// Layout (p = 10, root 9): row y = 0 holds nothing but the broadcast root at
// x = p; T1's copy of rank r is at (v + 1, +level), T2's at (v + 1, -level),
// level = height of the tree - depth + 1, so both roots are farthest from the
// middle and the leaves closest to it, as in Fig. 1.
std::string two_tree_dot(const TwoTree& tt, const TwoTreeTable& t) {
  const int64_t p = tt.p();
  int height[3] = {0, 0, 0};
  for (int tree = 1; tree <= 2; ++tree)
    for (int64_t r = 0; r < p; ++r) height[tree] = std::max(height[tree], depth(tt, tree, r));
  std::ostringstream os;
  os << "digraph two_tree {\n"
     << "  label=\"two trees, p=" << p << ", broadcast root " << tt.root()
     << ": T1 top-down, T2 bottom-up; edge colour 0 blue, 1 red\";\n"
     << "  node [shape=circle, fontsize=11, width=0.35, fixedsize=true];\n  edge [penwidth=1.6, arrowsize=0.6];\n";
  os << "  root [label=\"" << tt.root() << "\", shape=doublecircle, style=filled, fillcolor=gold, pos=\""
     << kDx * p << ",0!\"];\n";
  auto node = [&](int tree, int64_t r) { return r == tt.root() ? std::string("root") : "t" + std::to_string(tree) + "_" + std::to_string(r); };
  for (int tree = 1; tree <= 2; ++tree) {
    const int sign = tree == 1 ? 1 : -1;
    os << "  t" << tree << "_label [shape=plaintext, label=\"T" << tree << "\", pos=\"0," << sign * kDy * height[tree]
       << "!\"];\n";
    for (int64_t r = 0; r < p; ++r) {
      if (r == tt.root()) continue;
      const int level = height[tree] - depth(tt, tree, r) + 1;
      os << "  " << node(tree, r) << " [label=\"" << r << "\", pos=\"" << kDx * (tt.to_virtual(r) + 1) << ","
         << sign * kDy * level << "!\"];\n";
    }
    for (int64_t r = 0; r < p; ++r) {
      const int64_t up = t.parent_of(tree, r);
      if (up < 0) continue;
      os << "  " << node(tree, up) << " -> " << node(tree, r) << " [color=\"" << kEdgeColor[t.color_of(tree, r)]
         << "\"];\n";
    }
  }
  os << "}\n";
  return os.str();
}

}  // namespace collsim::viz
