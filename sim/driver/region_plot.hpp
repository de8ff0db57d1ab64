// Pictures of a choice per (p, size) cell, as `collsim map` (the fastest of
// ours, seed 004 Fig. 3) and `collsim tune` (the chosen algorithm) draw
// them: one colour per algorithm on a grid of sizes (x) by p (y), with
// gnuplot's `with image`. The gnuplot script names its files without a
// directory: gnuplot runs in the output directory (output.hpp). Every name
// and title enters the script through gnuplot_quote (output.hpp), under a
// noenhanced terminal: a name is shown, never run or read as markup.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace collsim::sim {

struct RegionCell {
  std::string winner;  // "" leaves the cell blank
  double value = 1;    // a number per cell: map's ratio to SimGrid, tune's margin
};
using RegionCells = std::map<std::pair<int64_t, int64_t>, RegionCell>;  // by (p, bytes)

struct RegionGrid {
  std::vector<int64_t> ps, sizes;  // the axes, ascending
  std::vector<std::string> names;  // colour order
};

// The data file: "x y colour value" per non-blank cell.
std::string region_data(const RegionGrid& grid, const RegionCells& cells);
// Terminal, axes and colour box.
std::string region_axes(const RegionGrid& grid);
// Draws `png` from `data`: each cell in its winner's colour; with
// `label_format` (printf, e.g. "%.2f"), each cell labelled with its value.
std::string region_image(const RegionGrid& grid, const std::string& data, const std::string& png,
                         const std::string& title, const std::string& label_format = "");

}  // namespace collsim::sim
