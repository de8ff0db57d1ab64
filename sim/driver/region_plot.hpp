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

// `grid` with only the names that win at least one of `cells`, in their
// order: a palette lists no algorithm that wins nothing.
RegionGrid winners_only(const RegionGrid& grid, const RegionCells& cells);
// The data file: "x y colour value label_colour" per non-blank cell (value
// "-" where it is not finite), the label's colour (0xffffff or 0) readable
// on the cell's.
std::string region_data(const RegionGrid& grid, const RegionCells& cells);
// Terminal (larger for a larger grid), axes, colour box and `png` drawn
// from `data`: each cell in its winner's colour; with `label_format`
// (printf, e.g. "%.2f"), each cell labelled with its value where a cell is
// large enough for a label of 11 points. Fonts of 12 points (title 13, its
// lines wrapped: wrap_title): readable at 100 %. A later picture of the
// same script (map's ratio.png) keeps the terminal and axes.
std::string region_image(const RegionGrid& grid, const std::string& data, const std::string& png,
                         const std::string& title, const std::string& label_format = "");
// Whether region_image labels the cells of `grid`.
bool region_labels_fit(const RegionGrid& grid);

}  // namespace collsim::sim
