#include "region_plot.hpp"

#include <algorithm>
#include <sstream>

#include "launch.hpp"
#include "output.hpp"

namespace collsim::sim {

namespace {

// gnuplot tic labels at 0, 1, 2, .. (an empty label: no tic there)
std::string tics(const std::vector<std::string>& labels) {
  std::string t;
  for (size_t i = 0; i < labels.size(); ++i)
    if (!labels[i].empty()) t += (t.empty() ? "" : ", ") + gnuplot_quote(labels[i]) + " " + std::to_string(i);
  return "(" + t + ")";
}

// The p axis's labels: every p of a short set; of a long one (a map over
// every p up to 512) the powers of two and the ends, which stay readable.
std::vector<std::string> p_labels(const std::vector<int64_t>& ps) {
  constexpr size_t kReadable = 40;
  std::vector<std::string> labels;
  for (size_t i = 0; i < ps.size(); ++i) {
    const bool ends = i == 0 || i + 1 == ps.size(), power_of_two = (ps[i] & (ps[i] - 1)) == 0;
    labels.push_back(ps.size() <= kReadable || ends || power_of_two ? std::to_string(ps[i]) : "");
  }
  return labels;
}

}  // namespace

std::string region_data(const RegionGrid& grid, const RegionCells& cells) {
  std::ostringstream data;
  for (size_t y = 0; y < grid.ps.size(); ++y) {
    for (size_t x = 0; x < grid.sizes.size(); ++x) {
      const auto it = cells.find({grid.ps[y], grid.sizes[x]});
      if (it == cells.end() || it->second.winner.empty()) continue;
      const size_t w = std::find(grid.names.begin(), grid.names.end(), it->second.winner) - grid.names.begin();
      data << x << " " << y << " " << w << " " << it->second.value << "\n";
    }
  }
  return data.str();
}

std::string region_axes(const RegionGrid& grid) {
  std::vector<std::string> xl;
  for (int64_t s : grid.sizes) xl.push_back(format_bytes(s));
  return "set terminal pngcairo size 1400,800 font ',9' noenhanced\nset xtics " + tics(xl) +
         " rotate by 45 right\nset ytics " + tics(p_labels(grid.ps)) +
         "\nset xlabel 'input vector size'\nset ylabel 'number of MPI processes p'\n"
         "set rmargin at screen 0.78\nset colorbox user origin screen 0.80, screen 0.15 size screen 0.02, screen 0.7\n"
         "set xrange [-0.5:" +
         std::to_string(grid.sizes.size() - 0.5) + "]\nset yrange [-0.5:" + std::to_string(grid.ps.size() - 0.5) +
         "]\n";
}

std::string region_image(const RegionGrid& grid, const std::string& data, const std::string& png,
                         const std::string& title, const std::string& label_format) {
  static const char* const colours[] = {"#e41a1c", "#377eb8", "#4daf4a", "#984ea3", "#ff7f00",
                                        "#a65628", "#f781bf", "#999999", "#66c2a5", "#ffd92f"};
  const size_t n = grid.names.size();
  // gnuplot wants at least two palette colours: a lone winner gets its own twice.
  const size_t ncolours = std::max<size_t>(n, 2);
  std::string palette;
  for (size_t i = 0; i < ncolours; ++i)
    palette += (i ? ", " : "") + std::to_string(i) + " '" + colours[i % std::max<size_t>(n, 1) % 10] + "'";
  std::ostringstream gp;
  gp << "set output " << gnuplot_quote(png) << "\nset title " << gnuplot_quote(title)
     << "\nunset logscale cb\nset palette maxcolors " << ncolours << "\nset palette defined (" << palette
     << ")\nset cbrange [-0.5:" << n - 0.5 << "]\nset cbtics " << tics(grid.names) << "\nplot "
     << gnuplot_quote(data) << " using 1:2:3 with image notitle";
  if (!label_format.empty())
    gp << ", '' using 1:2:(sprintf(" << gnuplot_quote(label_format) << ", $4)) with labels font ',7' notitle";
  gp << "\n";
  return gp.str();
}

}  // namespace collsim::sim
