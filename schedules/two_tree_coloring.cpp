#include "two_tree_coloring.hpp"

#include <boost/container/small_vector.hpp>
#include <boost/graph/adjacency_list.hpp>

#include <stdexcept>

namespace collsim {

Coloring coloring_from_name(const std::string& name) {
  if (name == "linear") return Coloring::linear;
  if (name == "log") return Coloring::log;
  throw std::invalid_argument("unknown coloring '" + name + "'; known: linear, log");
}

TwoTreeTable two_tree_parents(const TwoTree& tt) {
  TwoTreeTable t;
  t.p = tt.p();
  const size_t p = static_cast<size_t>(tt.p());
  for (int tree = 1; tree <= 2; ++tree) {
    auto& parent = t.parent[tree - 1];
    parent.resize(p);
    for (size_t r = 0; r < p; ++r) parent[r] = static_cast<int32_t>(tt.parent(tree, static_cast<int64_t>(r)));
    t.color[tree - 1].assign(p, -1);
  }
  return t;
}

TwoTreeTable two_tree_table(const TwoTree& tt, Coloring coloring) {
  TwoTreeTable t = two_tree_parents(tt);
  if (coloring == Coloring::linear) {
    linear_coloring(t);
    return t;
  }
  for (int tree = 1; tree <= 2; ++tree)
    for (int64_t r = 0; r < t.p; ++r)
      if (r != tt.root()) t.color[tree - 1][static_cast<size_t>(r)] = static_cast<int8_t>(tt.log_color(tree, r));
  return t;
}

namespace {
struct SmallVecS;
}  // namespace

}  // namespace collsim

// Boost.Graph's hook for a custom out-edge container (container_gen).
namespace boost {
template <class T>
struct container_gen<collsim::SmallVecS, T> {
  using type = boost::container::small_vector<T, 2>;
};
template <>
struct parallel_edge_traits<collsim::SmallVecS> {
  using type = allow_parallel_edge_tag;
};
namespace container {  // a small_vector behaves like std::vector (found by ADL)
template <class T, std::size_t N, class A, class O>
graph_detail::vector_tag container_category(const small_vector<T, N, A, O>&) {
  return {};
}
template <class T, std::size_t N, class A, class O>
graph_detail::unstable_tag iterator_stability(const small_vector<T, N, A, O>&) {
  return {};
}
}  // namespace container
}  // namespace boost

namespace collsim {

namespace {

struct TreeEdge {
  int tree;
  int64_t child;
};
// Every vertex of B has at most 2 edges: keeping them in a small_vector with
// room for 2 saves the two allocations per vertex of the default std::vector
// (3x faster at p = 10^6); the edge list is a vector too, not a std::list.
struct SmallVecS {};
using Bipartite = boost::adjacency_list<SmallVecS, boost::vecS, boost::undirectedS, boost::no_property, TreeEdge,
                                        boost::no_property, boost::vecS>;
using Vertex = boost::graph_traits<Bipartite>::vertex_descriptor;

}  // namespace

void linear_coloring(TwoTreeTable& t) {
  const int64_t p = t.p;
  Bipartite b(static_cast<size_t>(2 * p));  // s_i = i, r_i = p + i
  for (int tree = 1; tree <= 2; ++tree)
    for (int64_t r = 0; r < p; ++r)
      if (const int64_t s = t.parent_of(tree, r); s >= 0)
        boost::add_edge(static_cast<Vertex>(s), static_cast<Vertex>(p + r), TreeEdge{tree, r}, b);
  auto color_of = [&](const TreeEdge& e) -> int8_t& { return t.color[e.tree - 1][static_cast<size_t>(e.child)]; };
  // From u, colour the uncoloured edge, step across it, alternate; stops at a
  // path's end or where a cycle closes.
  auto walk = [&](Vertex u) {
    for (int8_t c = 0;; c ^= 1) {
      bool moved = false;
      for (auto [e, end] = boost::out_edges(u, b); e != end && !moved; ++e) {
        int8_t& color = color_of(b[*e]);
        if (color >= 0) continue;
        color = c;
        u = boost::target(*e, b);
        moved = true;
      }
      if (!moved) return;
    }
  };
  const size_t vertices = boost::num_vertices(b);
  for (Vertex v = 0; v < vertices; ++v)
    if (boost::out_degree(v, b) > 2)
      throw std::logic_error("linear coloring: vertex of degree " + std::to_string(boost::out_degree(v, b)) +
                             " in the sender/receiver graph");
  for (Vertex v = 0; v < vertices; ++v)  // paths from one end
    if (boost::out_degree(v, b) == 1) walk(v);
  for (Vertex v = 0; v < vertices; ++v) walk(v);  // what is left are cycles, even as B is bipartite
}

}  // namespace collsim
