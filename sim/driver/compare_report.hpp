// What `collsim compare` shows a user, shared with map and tune where they
// say the same: the table of our best against SimGrid's best per size (one
// block per p, SMPI's compare and the engine's alike), one warning per
// algorithm with wrong results, and the gnuplot scripts of its pictures.
//
// The pictures say what the table says: a row with correct = 0 is drawn
// only as a grey point titled "NAME (wrong result)", never in a series'
// colour; each series has its own colour and point type (series_style),
// ours thick and solid, SimGrid's built-ins dashed, the cost models thin
// and dotted in their algorithm's colour; the legend sits to the right of
// the panels; the x axis spans exactly the sizes (or p) run; the title
// names the platform with every parameter changed from its preset
// (platforms::describe). Names enter the scripts only through gnuplot_quote
// (output.hpp), under a noenhanced terminal.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "protocol.hpp"

namespace collsim::sim {

// Series k's colour ("#rrggbb") and gnuplot point type, for k = 0, 1, ...:
// no two of the first 247 share both (19 colours, 13 point types).
struct SeriesStyle {
  std::string colour;
  int point_type = 7;
};
SeriesStyle series_style(size_t k);
// The colour of wrong results: in no series' style.
inline constexpr const char* kWrongColour = "#8c8c8c";

// What a picture's script needs besides the rows.
struct PlotSpec {
  std::string heading;               // "bcast, p = 64": the title's first words
  std::string platform;              // platforms::describe
  std::vector<std::string> ours;     // series order: ours (solid, with models) ...
  std::vector<std::string> theirs;   // ... then SimGrid's built-ins (dashed)
  std::vector<int64_t> xs;           // the sizes (or p) run: the x axis
  std::string csv, png;              // file names in the output directory
};

// compare: time and bandwidth against message size (x = bytes), two panels.
std::string size_plot_script(const PlotSpec& spec, const std::vector<Row>& rows);
// compare --engine loggp --p LIST: time against p at one size (spec.xs: the
// p run), the plan engine's.
std::string scaling_plot_script(const PlotSpec& spec, const std::vector<Row>& rows);

// A figure's title of at most `width` characters a line: "; changed: "
// (platforms::describe) starts a new line, and a longer line breaks after
// a comma. Lines already in `text` stay.
std::string wrap_title(const std::string& text, size_t width = 120);

// One line per algorithm with a wrong result among `rows`: "collsim:
// warning: NAME gave wrong results at SIZES; CONSEQUENCE", the sizes in
// --sizes notation (a doubling run of three or more as A:B), per p where
// the rows hold several.
std::vector<std::string> wrong_result_warnings(const std::vector<Row>& rows, const std::string& consequence);
// Prints them on stderr.
void warn_wrong_results(const std::vector<Row>& rows, const std::string& consequence);

// The table of one p: "p = P", a header and per size our best correct
// time, SimGrid's best (a row whose name starts "smpi:") and the speedup
// theirs / ours, "-" where a side has no correct result at that size.
std::string best_table(const std::vector<Row>& rows, int64_t p);

}  // namespace collsim::sim
