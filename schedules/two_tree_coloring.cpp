#include "two_tree_coloring.hpp"

#include <boost/graph/compressed_sparse_row_graph.hpp>

#include <stdexcept>

namespace collsim {

Coloring coloring_from_name(const std::string& name) {
  if (name == "linear") return Coloring::linear;
  if (name == "log") return Coloring::log;
  throw std::invalid_argument("unknown coloring '" + name + "'; known: linear, log");
}

const char* coloring_name(Coloring coloring) { return coloring == Coloring::linear ? "linear" : "log"; }

void fill_parents(const TwoTree& tt, TwoTreeTable& t) {
  t.p = tt.p();
  const size_t p = static_cast<size_t>(tt.p());
  for (int tree = 1; tree <= 2; ++tree) {
    auto& parent = t.parent[tree - 1];
    parent.resize(p);
    for (size_t r = 0; r < p; ++r) parent[r] = static_cast<int32_t>(tt.parent(tree, static_cast<int64_t>(r)));
    t.color[tree - 1].assign(p, -1);
  }
}

TwoTreeTable two_tree_parents(const TwoTree& tt) {
  TwoTreeTable t;
  fill_parents(tt, t);
  return t;
}

TwoTreeTable two_tree_table(const TwoTree& tt, Coloring coloring) {
  TwoTreeTable t = two_tree_parents(tt);
  LinearColoring linear;
  fill_colors(tt, coloring, t, linear);
  return t;
}

namespace {

// B as a Boost compressed sparse row graph with 32-bit vertex and edge
// indices: each undirected edge s_i - r_j is stored once per direction, both
// copies naming the same colour slot, (tree - 1)·p + j. Interleaved
// vertices, s_i = 2i and r_i = 2i + 1, keep a rank's two vertices together.
// About 40 bytes per rank, a quarter of a boost::adjacency_list's, which
// matters once B outgrows the cache (p in the tens of thousands).
using Bipartite = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, uint32_t,
                                                     boost::no_property, uint32_t, uint32_t>;
using Vertex = boost::graph_traits<Bipartite>::vertex_descriptor;

}  // namespace

struct LinearColoring::Graph {
  Bipartite b;
  // The edge list B is built from and the colour of each slot, kept between
  // calls so that a sweep over p does not allocate each time.
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  std::vector<uint32_t> slots;
  std::vector<int8_t> color;

  void build(const TwoTreeTable& t);
  size_t walk(Vertex u);
};

void LinearColoring::Graph::build(const TwoTreeTable& t) {
  const int64_t p = t.p;
  edges.resize(static_cast<size_t>(4 * p));
  slots.resize(static_cast<size_t>(4 * p));
  size_t e = 0;
  for (int tree = 1; tree <= 2; ++tree)
    for (int64_t r = 0; r < p; ++r)
      if (const int64_t s = t.parent_of(tree, r); s >= 0) {
        const auto sender = static_cast<uint32_t>(2 * s), receiver = static_cast<uint32_t>(2 * r + 1);
        edges[e] = {sender, receiver};
        edges[e + 1] = {receiver, sender};
        slots[e] = slots[e + 1] = static_cast<uint32_t>((tree - 1) * p + r);
        e += 2;
      }
  b = Bipartite(boost::edges_are_unsorted_multi_pass, edges.begin(), edges.begin() + static_cast<std::ptrdiff_t>(e),
                slots.begin(), static_cast<uint32_t>(2 * p));
  color.assign(static_cast<size_t>(2 * p), -1);
}

// From u, colour the uncoloured edge, step across it, alternate; stops at a
// path's end or where a cycle closes. Returns the edges it coloured.
size_t LinearColoring::Graph::walk(Vertex u) {
  size_t colored = 0;
  for (int8_t c = 0;; c ^= 1) {
    bool moved = false;
    for (auto [e, end] = boost::out_edges(u, b); e != end && !moved; ++e) {
      int8_t& slot_color = color[b[*e]];
      if (slot_color >= 0) continue;
      slot_color = c;
      u = boost::target(*e, b);
      moved = true;
    }
    if (!moved) return colored;
    ++colored;
  }
}

LinearColoring::LinearColoring() : graph_(std::make_unique<Graph>()) {}
LinearColoring::~LinearColoring() = default;

void LinearColoring::operator()(TwoTreeTable& t) {
  Graph& g = *graph_;
  g.build(t);
  const Bipartite& b = g.b;
  const size_t vertices = boost::num_vertices(b), edges = boost::num_edges(b) / 2;
  size_t colored = 0;
  for (Vertex v = 0; v < vertices; ++v) {  // paths from one end
    const size_t degree = boost::out_degree(v, b);
    if (degree > 2)
      throw std::logic_error("linear coloring: vertex of degree " + std::to_string(degree) +
                             " in the sender/receiver graph");
    if (degree == 1) colored += g.walk(v);
  }
  for (Vertex v = 0; v < vertices && colored < edges; ++v)  // what is left are cycles, even as B is bipartite
    colored += g.walk(v);
  const size_t p = static_cast<size_t>(t.p);
  for (int tree = 1; tree <= 2; ++tree)
    for (size_t r = 0; r < p; ++r)
      if (t.parent[tree - 1][r] >= 0) t.color[tree - 1][r] = g.color[(tree - 1) * p + r];
}

void fill_colors(const TwoTree& tt, Coloring coloring, TwoTreeTable& t, LinearColoring& linear) {
  if (coloring == Coloring::linear) {
    linear(t);
    return;
  }
  for (int tree = 1; tree <= 2; ++tree) {
    auto& color = t.color[tree - 1];
    for (int64_t r = 0; r < t.p; ++r)
      color[static_cast<size_t>(r)] = r == tt.root() ? int8_t{-1} : static_cast<int8_t>(tt.log_color(tree, r));
  }
}

}  // namespace collsim
