#include "compare_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "launch.hpp"
#include "output.hpp"

namespace collsim::sim {

namespace {

// Distinct on white and far from kWrongColour's grey.
constexpr const char* kColours[] = {"#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6",
                                    "#9a6324", "#469990", "#800000", "#808000", "#000075", "#000000", "#e6b400",
                                    "#ff8fb1", "#a98bde", "#5fd38d", "#d9a066", "#8fbc1a"};
// pngcairo: filled circle, square, triangle up, triangle down, diamond,
// pentagon, then their outlines, then a cross.
constexpr int kPointTypes[] = {7, 5, 9, 11, 13, 15, 6, 4, 8, 10, 12, 14, 2};

// The 1-based CSV column of `name` in kCsvHeader (gnuplot's $N).
std::string column(const std::string& name) {
  const std::string header = std::string(",") + kCsvHeader + ",";
  const size_t at = header.find("," + name + ",");
  if (at == std::string::npos) throw std::logic_error("no CSV column " + name);
  return std::to_string(std::count(header.begin(), header.begin() + at + 1, ','));
}

// The plot command of `clauses`, one per line; a plot of nothing (no
// algorithm gave a row) draws empty axes instead of failing.
std::string plot_of(const std::vector<std::string>& clauses) {
  if (clauses.empty()) return "set yrange [1:10]\nplot NaN notitle\n";
  std::string p;
  for (const std::string& c : clauses) p += (p.empty() ? "plot " : ", \\\n     ") + c;
  return p + "\n";
}

// Where a picture's panels and legend go, in pixels turned into fractions
// of the canvas: panels side by side, the legend to their right in as
// many columns as its entries need, no data under it.
struct Canvas {
  int width = 0, height = 900, key_rows = 1;
  std::vector<std::pair<double, double>> panels;  // left, right (screen)
  double top = 0, bottom = 0, key_x = 0;          // screen
};

Canvas canvas(size_t panels, const std::vector<std::string>& key_titles, const std::string& title) {
  constexpr int kPanelPixels = 640, kLeftMargin = 90, kGap = 110, kBottom = 110, kRowPixels = 20;
  constexpr double kCharPixels = 7.5;  // 11 pt sans at 96 dpi, on average
  const int kTop = 35 + 21 * int(std::count(title.begin(), title.end(), '\n') + 1);  // 12 pt title lines
  Canvas c;
  const size_t entries = std::max<size_t>(key_titles.size(), 1);
  const size_t fit = size_t((c.height - kTop - 40) / kRowPixels);
  const size_t columns = (entries + fit - 1) / fit;
  c.key_rows = int((entries + columns - 1) / columns);
  size_t longest = 0;
  for (const std::string& t : key_titles) longest = std::max(longest, t.size());
  const int key_pixels = int(double(columns) * (double(longest) * kCharPixels + 90));
  const int key_left = kLeftMargin + int(panels) * kPanelPixels + int(panels - 1) * kGap + 30;
  c.width = std::max(key_left + key_pixels + 20, 1200);
  for (size_t i = 0; i < panels; ++i) {
    const int left = kLeftMargin + int(i) * (kPanelPixels + kGap);
    c.panels.push_back({double(left) / c.width, double(left + kPanelPixels) / c.width});
  }
  c.top = 1 - double(kTop) / c.height;
  c.bottom = double(kBottom) / c.height;
  c.key_x = double(key_left) / c.width;
  return c;
}

std::string margins(const Canvas& c, size_t panel) {
  char text[200];
  std::snprintf(text, sizeof text,
                "set lmargin at screen %.4f\nset rmargin at screen %.4f\nset tmargin at screen %.4f\n"
                "set bmargin at screen %.4f\n",
                c.panels[panel].first, c.panels[panel].second, c.top, c.bottom);
  return text;
}

// x from the first to the last value run (a lone value: a factor of 2
// either side), a tic at each, labelled where they stay readable.
std::string x_axis(const std::vector<int64_t>& xs, bool bytes) {
  std::vector<int64_t> v(xs);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  if (v.empty()) return "";
  constexpr size_t kLabels = 12;
  const size_t every = (v.size() + kLabels - 1) / kLabels;
  std::string tics;
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string label = i % every == 0 || i + 1 == v.size() ? (bytes ? format_bytes(v[i]) : std::to_string(v[i])) : "";
    tics += (i ? ", " : "") + gnuplot_quote(label) + " " + std::to_string(v[i]);
  }
  // A hair wider than the values: gnuplot drops a tic that rounding of
  // the log puts just outside the range (4096 on a base-2 axis).
  const double lo = (v.size() > 1 ? double(v.front()) : double(v.front()) / 2) * (1 - 1e-9),
               hi = (v.size() > 1 ? double(v.back()) : double(v.back()) * 2) * (1 + 1e-9);
  char range[100];
  std::snprintf(range, sizeof range, "set xrange [%.17g:%.17g]\n", lo, hi);
  return range + std::string("unset mxtics\nset xtics (") + tics + ")" +
         (v.size() > 8 ? " rotate by 45 right" : "") + "\n";
}

// Tics of a log axis over [lo, hi] at 1, 2 and 5 per decade (1 and 3
// where the range spans more than three decades, each decade alone past
// six): gnuplot's own put one tic per decade, none at all on a range
// narrower than a decade.
std::string log_tics(const std::string& axis, double lo, double hi) {
  if (!(lo > 0) || !(hi >= lo) || !std::isfinite(hi)) return "";
  const int first = int(std::floor(std::log10(lo))), last = int(std::ceil(std::log10(hi)));
  const std::vector<double> steps = last - first > 6 ? std::vector<double>{1}
                                    : last - first > 3 ? std::vector<double>{1, 3}
                                                       : std::vector<double>{1, 2, 5};
  std::string tics;
  for (int d = first; d <= last; ++d)
    for (double step : steps) {
      const double v = step * std::pow(10.0, d);
      if (v < lo / 1.5 || v > hi * 1.5) continue;
      char tic[64];
      std::snprintf(tic, sizeof tic, "%s'%g' %.17g", tics.empty() ? "" : ", ", v, v);
      tics += tic;
    }
  return tics.empty() ? "" : "set " + axis + "tics (" + tics + ")\nset m" + axis + "tics default\n";
}

// log_tics of the y values `of` gives for every row.
template <class Y>
std::string y_tics(const std::vector<Row>& rows, Y of) {
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (const Row& r : rows)
    for (double y : of(r))
      if (y > 0 && std::isfinite(y)) lo = std::min(lo, y), hi = std::max(hi, y);
  return log_tics("y", lo, hi);
}

// The measured time and, where there is one, the model's.
std::vector<double> times(const Row& r) {
  std::vector<double> t{r.time_us};
  if (r.model_us) t.push_back(*r.model_us);
  return t;
}

std::vector<double> bandwidths(const Row& r) {
  std::vector<double> b;
  for (double t : times(r)) b.push_back(double(r.bytes) / t);
  return b;
}

// One series' rows of names[i] (CSV column 2) with correct = `ok`; x and y
// as gnuplot `using` terms.
std::string rows_of(const std::string& csv, size_t i, bool ok, const std::string& x, const std::string& y) {
  return gnuplot_quote(csv) + " using ((strcol(" + column("algorithm") + ") eq names[" + std::to_string(i + 1) +
         "] && $" + column("correct") + " == " + (ok ? "1" : "0") + ") ? " + x + " : 1/0):(" + y + ")";
}

// The series of a picture: every name with a row, in spec order, each
// with its style and whether it has correct and wrong rows.
struct Series {
  std::string name;
  bool ours = true, any_correct = false, any_wrong = false;
  SeriesStyle style;
};

std::vector<Series> series_of(const PlotSpec& spec, const std::vector<Row>& rows) {
  std::vector<Series> all;
  for (const auto* list : {&spec.ours, &spec.theirs})
    for (const std::string& name : *list) {
      Series s{name, list == &spec.ours, false, false, {}};
      for (const Row& r : rows)
        if (r.algorithm == name) (r.correct ? s.any_correct : s.any_wrong) = true;
      if (s.any_correct || s.any_wrong) all.push_back(s);
    }
  // Styles by position among the series drawn in colour: the k-th correct
  // series gets style k, so that no colour is spent on a series not shown.
  size_t k = 0;
  for (Series& s : all)
    if (s.any_correct) s.style = series_style(k++);
  return all;
}

std::string wrong_title(const std::string& name) { return name + " (wrong result)"; }

// The legend's entries in plot order: coloured series, then the wrong ones.
std::vector<std::string> key_titles(const std::vector<Series>& series) {
  std::vector<std::string> titles;
  for (const Series& s : series)
    if (s.any_correct) titles.push_back(s.name);
  for (const Series& s : series)
    if (s.any_wrong) titles.push_back(wrong_title(s.name));
  return titles;
}

// The plot clauses of one panel: y = `measured` (and `model` for ours,
// where not empty), with titles only where `titled` (the panel the legend
// belongs to).
std::vector<std::string> clauses(const std::vector<Series>& series, const std::string& csv, const std::string& x,
                                 const std::string& measured, const std::string& model, bool titled) {
  std::vector<std::string> out;
  auto title = [&](size_t i, bool wrong) {
    const std::string name = "names[" + std::to_string(i + 1) + "]";
    return titled ? " title " + name + (wrong ? " . ' (wrong result)'" : "") : " notitle";
  };
  for (size_t i = 0; i < series.size(); ++i) {
    const Series& s = series[i];
    if (!s.any_correct) continue;
    const std::string colour = " lc rgb '" + s.style.colour + "' pt " + std::to_string(s.style.point_type);
    out.push_back(rows_of(csv, i, true, x, measured) + " with linespoints" + colour +
                  (s.ours ? " ps 1.1 lw 2.5 dt 1" : " ps 0.9 lw 1.5 dt 2") + title(i, false));
    if (s.ours && !model.empty())
      out.push_back(rows_of(csv, i, true, x, model) + " with lines lc rgb '" + s.style.colour + "' lw 1 dt 3 notitle");
  }
  for (size_t i = 0; i < series.size(); ++i) {
    const Series& s = series[i];
    if (!s.any_wrong) continue;
    // Its own shape where it also has a style, else the one of the next
    // series to come: grey tells wrong, the shape which algorithm.
    out.push_back(rows_of(csv, i, false, x, measured) + " with points lc rgb '" + kWrongColour + "' pt " +
                  std::to_string(s.any_correct ? s.style.point_type : series_style(i).point_type) + " ps 1.5" +
                  title(i, true));
  }
  return out;
}

// Terminal, output, names and the multiplot with its title: the lines
// every picture of compare starts with.
std::string preamble(const Canvas& c, const std::vector<Series>& series, const std::string& png,
                     const std::string& title) {
  std::vector<std::string> names;
  for (const Series& s : series) names.push_back(s.name);
  return "set terminal pngcairo size " + std::to_string(c.width) + "," + std::to_string(c.height) +
         " font ',11' noenhanced\nset output " + gnuplot_quote(png) + "\nset datafile separator ','\n" +
         (names.empty() ? "" : gnuplot_array("names", names)) + "set multiplot title " + gnuplot_quote(title) +
         " font ',12'\nset logscale xy\nset grid xtics ytics\nset autoscale yfix\n"
         "set offsets 0, 0, graph 0.04, graph 0.04\n";
}

std::string key_at(const Canvas& c) {
  char text[160];
  std::snprintf(text, sizeof text,
                "set key at screen %.4f, screen %.4f left top Left reverse samplen 3 spacing 1.1 maxrows %d "
                "font ',11'\n",
                c.key_x, c.top, c.key_rows);
  return text;
}

// The title's key to the line styles, of those the picture has.
std::string styles(const std::vector<Series>& series, const std::vector<Row>& rows) {
  auto any = [&](auto pred) { return std::any_of(series.begin(), series.end(), pred); };
  const bool models = std::any_of(rows.begin(), rows.end(), [](const Row& r) { return r.model_us.has_value(); });
  std::string text;
  auto add = [&](bool present, const char* what) {
    if (present) text += (text.empty() ? "" : "; ") + std::string(what);
  };
  add(any([](const Series& s) { return s.ours && s.any_correct; }), "thick solid: ours");
  add(any([](const Series& s) { return !s.ours && s.any_correct; }), "dashed: SimGrid's built-ins");
  add(models, "thin dotted: cost model of ours");
  add(any([](const Series& s) { return s.any_wrong; }), "grey: wrong result (left out of the table)");
  return text;
}

// "1KiB:64KiB" for a doubling run of three or more, else "1KiB, 3KiB".
std::string sizes_text(const std::vector<int64_t>& sorted) {
  std::string text;
  for (size_t i = 0; i < sorted.size();) {
    size_t j = i;
    while (j + 1 < sorted.size() && sorted[j + 1] == 2 * sorted[j] && sorted[j] > 0) ++j;
    text += text.empty() ? "" : ", ";
    if (j >= i + 2) {
      text += format_bytes(sorted[i]) + ":" + format_bytes(sorted[j]);
      i = j + 1;
    } else {
      text += format_bytes(sorted[i]);
      ++i;
    }
  }
  return text;
}

// A table's cell: the time, or "-" where there is none.
std::string time_cell(double us) {
  if (!std::isfinite(us)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", us);
  return text;
}

}  // namespace

std::string wrap_title(const std::string& text, size_t width) {
  std::string out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    // The changes from the preset on a line of their own.
    const size_t changed = line.find("; changed: ");
    if (changed != std::string::npos) line.replace(changed, 2, "\n");
    std::istringstream parts(line);
    for (std::string part; std::getline(parts, part);) {
      // Greedy at ", ": the pieces of a long line on as few lines as fit.
      std::string current;
      for (size_t start = 0; start <= part.size();) {
        size_t comma = part.find(", ", start);
        if (comma == std::string::npos) comma = part.size();
        const std::string piece = part.substr(start, comma - start) + (comma < part.size() ? "," : "");
        if (!current.empty() && current.size() + 1 + piece.size() > width) {
          out += current + "\n";
          current.clear();
        }
        current += (current.empty() ? "" : " ") + piece;
        start = comma + 2;
      }
      out += current + "\n";
    }
  }
  if (!out.empty()) out.pop_back();
  return out;
}

SeriesStyle series_style(size_t k) {
  constexpr size_t colours = sizeof kColours / sizeof *kColours, points = sizeof kPointTypes / sizeof *kPointTypes;
  // The shapes shift by 5 on each round through the colours: series k and
  // k + 19 share a colour, never a shape (nor shapes of one kind in a row).
  return {kColours[k % colours], kPointTypes[(k % colours + 5 * (k / colours)) % points]};
}

std::string size_plot_script(const PlotSpec& spec, const std::vector<Row>& rows) {
  const std::vector<Series> series = series_of(spec, rows);
  const std::string title = wrap_title(spec.heading + ": time and bandwidth against message size\nplatform " +
                                       spec.platform + "\n" + styles(series, rows));
  const Canvas c = canvas(2, key_titles(series), title);
  const std::string x = "$" + column("bytes"), time = "$" + column("time_us"), model = "$" + column("model_us");
  return preamble(c, series, spec.png, title) + x_axis(spec.xs, true) + "set xlabel 'message size m'\n" +
         margins(c, 0) + "set key off\nset ylabel 'time of the slowest rank (us)'\n" + y_tics(rows, times) +
         plot_of(clauses(series, spec.csv, x, time, model, false)) + margins(c, 1) + key_at(c) +
         "set ylabel 'bandwidth m / time (MB/s)'\n" + y_tics(rows, bandwidths) +
         plot_of(clauses(series, spec.csv, x, "(" + x + "/" + time + ")", "(" + x + "/" + model + ")", true)) +
         "unset multiplot\n";
}

std::string scaling_plot_script(const PlotSpec& spec, const std::vector<Row>& rows) {
  const std::vector<Series> series = series_of(spec, rows);
  const std::string title =
      wrap_title(spec.heading + ": time against p\nplatform " + spec.platform + "\n" + styles(series, rows));
  const Canvas c = canvas(1, key_titles(series), title);
  const std::string x = "$" + column("p"), time = "$" + column("time_us"), model = "$" + column("model_us");
  return preamble(c, series, spec.png, title) + "set logscale x 2\n" + x_axis(spec.xs, false) +
         "set xlabel 'p (ranks)'\n" + margins(c, 0) + key_at(c) + "set ylabel 'time of the slowest rank (us)'\n" +
         y_tics(rows, times) +
         plot_of(clauses(series, spec.csv, x, time, model, true)) + "unset multiplot\n";
}

std::vector<std::string> wrong_result_warnings(const std::vector<Row>& rows, const std::string& consequence) {
  // By algorithm in order of appearance, then by p: the sizes.
  std::vector<std::string> order;
  std::map<std::string, std::map<int64_t, std::set<int64_t>>> wrong;
  std::set<int64_t> ps;
  for (const Row& r : rows) {
    ps.insert(r.p);
    if (r.correct) continue;
    if (!wrong.count(r.algorithm)) order.push_back(r.algorithm);
    wrong[r.algorithm][r.p].insert(r.bytes);
  }
  std::vector<std::string> lines;
  for (const std::string& name : order) {
    // p with the same sizes together: "p = 4, 8: 1KiB:64KiB; p = 16: 2KiB".
    std::vector<std::pair<std::string, std::string>> by_sizes;  // sizes, its p
    size_t cases = 0;
    for (const auto& [p, sizes] : wrong[name]) {
      const std::string text = sizes_text({sizes.begin(), sizes.end()});
      auto same = std::find_if(by_sizes.begin(), by_sizes.end(), [&](const auto& e) { return e.first == text; });
      if (same == by_sizes.end()) by_sizes.push_back({text, "p = " + std::to_string(p)});
      else same->second += ", " + std::to_string(p);
      cases += sizes.size();
    }
    std::string where;
    for (const auto& [text, at] : by_sizes) where += (where.empty() ? "" : "; ") + (ps.size() > 1 ? at + ": " : "") + text;
    lines.push_back("collsim: warning: " + name + " gave wrong results at " + where + " (" + std::to_string(cases) +
                    (cases == 1 ? " case" : " cases") + "); " + consequence);
  }
  return lines;
}

void warn_wrong_results(const std::vector<Row>& rows, const std::string& consequence) {
  for (const std::string& line : wrong_result_warnings(rows, consequence)) std::fprintf(stderr, "%s\n", line.c_str());
}

std::string best_table(const std::vector<Row>& rows, int64_t p) {
  struct Best {
    std::string name = "-";
    double us = std::numeric_limits<double>::infinity();
  };
  std::map<int64_t, std::pair<Best, Best>> best;  // by size: ours, SimGrid's
  for (const Row& r : rows) {
    if (r.p != p) continue;
    auto& pair = best[r.bytes];
    if (!r.correct) continue;  // a wrong result is no contender
    Best& b = r.algorithm.compare(0, 5, "smpi:") == 0 ? pair.second : pair.first;  // plan files count as ours
    if (r.time_us < b.us) b = {r.algorithm, r.time_us};
  }
  size_t ours_width = 9, theirs_width = 12;  // the headers
  for (const auto& [bytes, pair] : best) {
    ours_width = std::max(ours_width, pair.first.name.size());
    theirs_width = std::max(theirs_width, pair.second.name.size());
  }
  // Names padded to the longest (a plan file's name can be long), never cut.
  auto pad = [](const std::string& text, size_t width, bool left) {
    const std::string fill(width > text.size() ? width - text.size() : 0, ' ');
    return left ? text + fill : fill + text;
  };
  auto line = [&](const std::string& size, const std::string& ours, const std::string& ours_us,
                  const std::string& theirs, const std::string& theirs_us, const std::string& speedup) {
    return pad(size, 8, true) + "  " + pad(ours, ours_width, true) + " " + pad(ours_us, 10, false) + "  " +
           pad(theirs, theirs_width, true) + " " + pad(theirs_us, 10, false) + "  " + pad(speedup, 8, false) + "\n";
  };
  std::string table = "p = " + std::to_string(p) + "\n" +
                      line("size", "ours_best", "time_us", "simgrid_best", "time_us", "speedup");
  for (const auto& [bytes, pair] : best) {
    const auto& [ours, theirs] = pair;
    table += line(format_bytes(bytes), ours.name, time_cell(ours.us), theirs.name, time_cell(theirs.us),
                  time_cell(std::isfinite(ours.us) ? theirs.us / ours.us : NAN));
  }
  return table;
}

}  // namespace collsim::sim
