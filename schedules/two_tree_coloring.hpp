// 0/1 edge colourings of the two trees (seed 002, Lemma 1) and the table of
// all ranks' parents and colours that `schedule`, `verify` and `viz` share.
//
// Lemma 1: (1) a rank's in-edges in T1 and T2 differ in colour; (2) a rank's
// out-edges in T1 and T2 together (the broadcast root's two included) have
// distinct colours. Colour c edges are used in communication steps of parity c.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "two_tree.hpp"

namespace collsim {

// Parents and colours of every rank, indexed by real rank; index 0 is tree 1.
// The broadcast root has parent -1 and colour -1 in both trees.
struct TwoTreeTable {
  int64_t p = 0;
  std::vector<int32_t> parent[2];  // ranks < 2^31 - 1 fit; arithmetic on them is 64-bit
  std::vector<int8_t> color[2];
  int64_t parent_of(int tree, int64_t rank) const { return parent[tree - 1][static_cast<size_t>(rank)]; }
  int color_of(int tree, int64_t rank) const { return color[tree - 1][static_cast<size_t>(rank)]; }
};

enum class Coloring { linear, log };
// "linear" / "log"; throws std::invalid_argument for any other name.
Coloring coloring_from_name(const std::string& name);
const char* coloring_name(Coloring coloring);

// Parents from the per-rank functions; colours from `coloring`.
TwoTreeTable two_tree_table(const TwoTree& tt, Coloring coloring);

// The parents only (colours -1), for the colourings and for mutation tests.
TwoTreeTable two_tree_parents(const TwoTree& tt);

// The same into an existing table, whose storage is reused: a sweep over
// many p then allocates (and page-faults) only when p grows.
void fill_parents(const TwoTree& tt, TwoTreeTable& t);

// Proof of Lemma 1, O(p): the bipartite graph B with a sender vertex s_i and
// a receiver vertex r_i per rank (an edge s_i - r_j for each tree edge i -> j)
// has maximum degree 2, so it is a union of paths and even cycles; walking
// each path from an end and then each cycle, alternating 0/1, colours it.
// B is a boost::compressed_sparse_row_graph, rebuilt on each call from an
// edge list whose storage is kept. Fills t.color from t.parent; throws std::logic_error if B has a vertex of
// degree > 2 (not two binary trees with complementary leaves). B is
// bipartite, so its cycles are even.
class LinearColoring {
 public:
  LinearColoring();
  ~LinearColoring();
  LinearColoring(const LinearColoring&) = delete;
  LinearColoring& operator=(const LinearColoring&) = delete;
  void operator()(TwoTreeTable& t);

 private:
  struct Graph;
  std::unique_ptr<Graph> graph_;
};

// Colours of every non-root rank of a table of tt's parents, by `coloring`:
// `linear` runs `linear` on the table, `log` asks TwoTree::log_color.
void fill_colors(const TwoTree& tt, Coloring coloring, TwoTreeTable& t, LinearColoring& linear);

}  // namespace collsim
