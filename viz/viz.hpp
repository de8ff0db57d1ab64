// Pictures of schedules as Graphviz DOT text, and rendering through
// Graphviz's own programs. Plain DOT with pinned positions (`neato -n2`), so
// the layout is ours: trees as in the paper's Fig. 1, circulant ranks on a
// circle.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "circulant.hpp"
#include "two_tree_coloring.hpp"

namespace collsim::viz {

// Largest p drawn; beyond it the pictures are unreadable anyway.
inline constexpr int64_t kMaxDrawnProcs = 512;

// Both trees in one picture, every rank twice: T1 drawn top-down above the
// middle line, T2 bottom-up below it, x = in-order position; the broadcast
// root (double circle, filled) sits at the right end of the middle line, as
// in Fig. 1 where it is p - 1. Edges colour 0 blue, colour 1 red.
std::string two_tree_dot(const TwoTree& tt, const TwoTreeTable& t);

// The circulant graph of p ranks on a circle, one edge r -> r + skip[k] per
// rank and skip, coloured by skip index k (legend at the side). With `rank`,
// its receive schedule is highlighted: its q in-edges are bold and the legend
// lists "round k: from r - skip[k], block b" (recvblock[k] of the paper;
// negative blocks belong to the previous phase).
std::string circulant_dot(const CirculantSchedule& s, std::optional<int64_t> rank);

// Writes `dot` to `out_path`: as is for *.dot, else through `neato -n2
// -Tsvg|-Tpng`. Throws std::runtime_error (one line) for another extension
// or when Graphviz fails (not installed, unwritable path).
void render(const std::string& dot, const std::string& out_path);

}  // namespace collsim::viz
