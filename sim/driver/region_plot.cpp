#include "region_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "compare_report.hpp"
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

// The picture's size in pixels: cells of at least 56 x 30 up to a bound,
// the margins around them (tic labels, a two-line title, the colour box
// with the winners' names).
struct Frame {
  int plot_w = 0, plot_h = 0, left = 130, bottom = 120, top = 0, right = 0;
  int width() const { return left + plot_w + right; }
  int height() const { return bottom + plot_h + top; }
};

Frame frame(const RegionGrid& grid, const std::string& title = "") {
  Frame f;
  f.top = 40 + 23 * int(std::count(title.begin(), title.end(), '\n') + 1);  // 13 pt title lines
  f.plot_w = std::clamp(int(grid.sizes.size()) * 56, 900, 1900);
  f.plot_h = std::clamp(int(grid.ps.size()) * 30, 560, 1300);
  size_t longest = 0;
  for (const std::string& n : grid.names) longest = std::max(longest, n.size());
  f.right = 80 + int(double(longest) * 8.5) + 30;
  return f;
}

// Black or white, whichever reads on `colour` ("#rrggbb"), as gnuplot's
// rgb integer.
int label_colour(const std::string& colour) {
  const long rgb = std::strtol(colour.c_str() + 1, nullptr, 16);
  const double luminance = 0.299 * double((rgb >> 16) & 255) + 0.587 * double((rgb >> 8) & 255) + 0.114 * double(rgb & 255);
  return luminance < 128 ? 0xffffff : 0;
}

// Terminal (larger for a larger grid, high enough for the title), axes and
// colour box; fonts of 12 points.
std::string region_axes(const RegionGrid& grid, const std::string& title) {
  const Frame f = frame(grid, title);
  const double w = f.width(), h = f.height();
  std::vector<std::string> xl;
  for (int64_t s : grid.sizes) xl.push_back(format_bytes(s));
  char layout[400];
  std::snprintf(layout, sizeof layout,
                "set lmargin at screen %.4f\nset rmargin at screen %.4f\nset bmargin at screen %.4f\n"
                "set tmargin at screen %.4f\nset colorbox user origin screen %.4f, screen %.4f size screen %.4f, "
                "screen %.4f\n",
                f.left / w, (f.left + f.plot_w) / w, f.bottom / h, (f.bottom + f.plot_h) / h,
                (f.left + f.plot_w + 25) / w, f.bottom / h, 22 / w, f.plot_h / h);
  return "set terminal pngcairo size " + std::to_string(f.width()) + "," + std::to_string(f.height()) +
         " font ',12' noenhanced\nset xtics " + tics(xl) + " rotate by 45 right\nset ytics " + tics(p_labels(grid.ps)) +
         "\nset xlabel 'input vector size'\nset ylabel 'number of MPI processes p'\n" + layout +
         "set xrange [-0.5:" + std::to_string(grid.sizes.size() - 0.5) + "]\nset yrange [-0.5:" +
         std::to_string(grid.ps.size() - 0.5) + "]\n";
}

}  // namespace

RegionGrid winners_only(const RegionGrid& grid, const RegionCells& cells) {
  RegionGrid kept{grid.ps, grid.sizes, {}};
  for (const std::string& name : grid.names)
    if (std::any_of(cells.begin(), cells.end(), [&](const auto& cell) { return cell.second.winner == name; }))
      kept.names.push_back(name);
  return kept;
}

bool region_labels_fit(const RegionGrid& grid) {
  const Frame f = frame(grid);
  return f.plot_w >= 44 * int(grid.sizes.size()) && f.plot_h >= 20 * int(grid.ps.size());
}

std::string region_data(const RegionGrid& grid, const RegionCells& cells) {
  std::ostringstream data;
  for (size_t y = 0; y < grid.ps.size(); ++y) {
    for (size_t x = 0; x < grid.sizes.size(); ++x) {
      const auto it = cells.find({grid.ps[y], grid.sizes[x]});
      if (it == cells.end() || it->second.winner.empty()) continue;
      const size_t w = std::find(grid.names.begin(), grid.names.end(), it->second.winner) - grid.names.begin();
      if (w == grid.names.size()) throw std::logic_error("region_data: winner '" + it->second.winner + "' not in the grid");
      // No number (no runner-up, no SimGrid time): "-", which gnuplot
      // skips, so the cell has no label rather than "inf".
      data << x << " " << y << " " << w << " ";
      if (std::isfinite(it->second.value)) data << it->second.value;
      else data << "-";
      data << " " << label_colour(series_style(w).colour) << "\n";
    }
  }
  return data.str();
}

std::string region_image(const RegionGrid& grid, const std::string& data, const std::string& png,
                         const std::string& text, const std::string& label_format) {
  const std::string title = wrap_title(text);
  const size_t n = grid.names.size();
  // gnuplot wants at least two palette colours: a lone winner gets its own twice.
  const size_t ncolours = std::max<size_t>(n, 2);
  std::string palette;
  for (size_t i = 0; i < ncolours; ++i)
    palette += (i ? ", " : "") + std::to_string(i) + " '" + series_style(n ? i % n : 0).colour + "'";
  std::ostringstream gp;
  gp << region_axes(grid, title) << "set output " << gnuplot_quote(png) << "\nset title " << gnuplot_quote(title)
     << " font ',13'\nunset logscale cb\nset palette maxcolors " << ncolours << "\nset palette defined (" << palette
     << ")\nset cbrange [-0.5:" << n - 0.5 << "]\nset cbtics " << tics(grid.names) << " font ',12'\nplot "
     << gnuplot_quote(data) << " using 1:2:3 with image notitle";
  if (!label_format.empty() && region_labels_fit(grid))
    gp << ", '' using 1:2:(sprintf(" << gnuplot_quote(label_format)
       << ", $4)):5 with labels tc rgb variable font ',11' notitle";
  gp << "\n";
  return gp.str();
}

}  // namespace collsim::sim
