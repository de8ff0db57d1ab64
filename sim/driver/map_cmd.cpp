// `collsim map`: seed 004's Fig. 3 and Fig. 4 for one collective. For every
// p of a set and every size, the fastest of our algorithms (the winner) and
// the fastest of SimGrid's built-ins; DIR/map.csv, DIR/map.png (winner per
// (p, size) cell) and DIR/ratio.png (SimGrid's best time over ours: > 1 where
// ours is faster, Fig. 4's "best of the new algorithms / vendor").
//
// Each p is one `simulate` call (one smpirun for ours, one per built-in), so
// the cost grows with |p set| × (built-ins + 1); the default p set is the
// powers of two, 3·2^k and 2^k + 1 in the range (the shapes where the
// algorithms differ), not every p. A built-in that crashes or gives a wrong
// result is no contender (warned on stderr). Runs use one repetition: the
// simulation is deterministic.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "commands.hpp"
#include "launch.hpp"
#include "output.hpp"
#include "sim_options.hpp"

namespace collsim {

namespace {

using cli::po::value;
namespace fs = std::filesystem;

// "A:B": powers of two, 3·2^k and 2^k + 1 within [A, B], and A and B;
// "A:B:S": A, A + S, .. B; "a,b,c": the list.
std::vector<int64_t> parse_p_set(const std::string& text, int64_t kMax) {
  std::set<int64_t> ps;
  const auto colon = text.find(':');
  if (colon == std::string::npos) {
    size_t start = 0;
    for (size_t comma; (comma = text.find(',', start)) != std::string::npos; start = comma + 1)
      ps.insert(cli::parse_int(text.substr(start, comma - start), "--p", 1, kMax));
    ps.insert(cli::parse_int(text.substr(start), "--p", 1, kMax));
    return {ps.begin(), ps.end()};
  }
  const auto second = text.find(':', colon + 1);
  const int64_t lo = cli::parse_int(text.substr(0, colon), "--p", 1, kMax);
  const int64_t hi = cli::parse_int(text.substr(colon + 1, second - colon - 1), "--p", lo, kMax);
  if (second != std::string::npos) {
    const int64_t step = cli::parse_int(text.substr(second + 1), "--p step", 1, kMax);
    for (int64_t p = lo; p <= hi; p += step) ps.insert(p);
  } else {
    for (int64_t k = 1; k <= hi; k *= 2)
      for (int64_t p : {k, 3 * k / 2, k + 1})
        if (p >= lo && p <= hi) ps.insert(p);
  }
  ps.insert(lo);
  ps.insert(hi);
  return {ps.begin(), ps.end()};
}

struct Cell {
  int64_t p = 0, bytes = 0;
  std::string winner, simgrid_best;
  double time_us = std::numeric_limits<double>::infinity(), model_us = 0;
  double simgrid_time_us = std::numeric_limits<double>::infinity();
};

// Cells of one p from its rows: best correct row of ours and of SimGrid's.
void collect(sim::Collective c, const std::vector<sim::Row>& rows, std::map<std::pair<int64_t, int64_t>, Cell>& cells) {
  for (const sim::Row& r : rows) {
    if (!r.correct) {
      std::fprintf(stderr, "collsim: warning: %s gave wrong results at p = %lld, %s; no contender\n",
                   r.algorithm.c_str(), (long long)r.p, sim::format_bytes(r.bytes).c_str());
      continue;
    }
    Cell& cell = cells[{r.p, r.bytes}];
    cell.p = r.p;
    cell.bytes = r.bytes;
    if (sim::find_algorithm(c, r.algorithm).has(sim::kSmpiBuiltin)) {
      if (r.time_us < cell.simgrid_time_us) cell.simgrid_best = r.algorithm, cell.simgrid_time_us = r.time_us;
    } else if (r.time_us < cell.time_us) {
      cell.winner = r.algorithm, cell.time_us = r.time_us, cell.model_us = r.model_us.value_or(0);
    }
  }
}

double ratio(const Cell& c) { return c.time_us > 0 ? c.simgrid_time_us / c.time_us : 1; }

void write_csv(const fs::path& path, const std::map<std::pair<int64_t, int64_t>, Cell>& cells) {
  std::string f = "p,bytes,winner,time_us,model_us,simgrid_best,simgrid_time_us,ratio\n";
  for (const auto& [key, c] : cells) {
    char line[512];
    std::snprintf(line, sizeof line, "%lld,%lld,%s,%.3f,%.3f,%s,%.3f,%.4f\n", (long long)c.p, (long long)c.bytes,
                  c.winner.c_str(), c.time_us, c.model_us, c.simgrid_best.c_str(), c.simgrid_time_us, ratio(c));
    f += line;
  }
  sim::write_file(path, f);
}

// gnuplot tic labels at 0, 1, 2, ..
std::string tics(const std::vector<std::string>& labels) {
  std::string t = "(";
  for (size_t i = 0; i < labels.size(); ++i) t += (i ? ", '" : "'") + labels[i] + "' " + std::to_string(i);
  return t + ")";
}

void plot(const fs::path& out, const std::string& title, const std::vector<int64_t>& ps,
          const std::vector<int64_t>& sizes, const std::vector<std::string>& names,
          const std::map<std::pair<int64_t, int64_t>, Cell>& cells) {
  // Cells on a regular grid for `with image`: size index, p index, winner's
  // colour index, ratio.
  std::ostringstream grid;
  for (size_t y = 0; y < ps.size(); ++y) {
    for (size_t x = 0; x < sizes.size(); ++x) {
      const auto it = cells.find({ps[y], sizes[x]});
      if (it == cells.end() || it->second.winner.empty()) continue;
      const size_t w = std::find(names.begin(), names.end(), it->second.winner) - names.begin();
      grid << x << " " << y << " " << w << " " << ratio(it->second) << "\n";
    }
  }
  sim::write_file(out / "grid.dat", grid.str());
  std::vector<std::string> xl, yl;
  for (int64_t s : sizes) xl.push_back(sim::format_bytes(s));
  for (int64_t p : ps) yl.push_back(std::to_string(p));
  static const char* const colours[] = {"#e41a1c", "#377eb8", "#4daf4a", "#984ea3", "#ff7f00",
                                        "#a65628", "#f781bf", "#999999", "#66c2a5", "#ffd92f"};
  // gnuplot wants at least two palette colours: a lone winner gets its own twice.
  const size_t ncolours = std::max<size_t>(names.size(), 2);
  std::string palette;
  for (size_t i = 0; i < ncolours; ++i)
    palette += (i ? ", " : "") + std::to_string(i) + " '" + colours[i % names.size() % 10] + "'";
  const std::string common = "set terminal pngcairo size 1400,800 font ',9' noenhanced\nset xtics " + tics(xl) +
                             " rotate by 45 right\nset ytics " + tics(yl) +
                             "\nset xlabel 'input vector size'\nset ylabel 'number of MPI processes p'\n"
                             "set rmargin at screen 0.78\nset colorbox user origin screen 0.80, screen 0.15 size screen 0.02, screen 0.7\n"
                             "set xrange [-0.5:" + std::to_string(sizes.size() - 0.5) + "]\nset yrange [-0.5:" +
                             std::to_string(ps.size() - 0.5) + "]\n";
  // Files by name only: gnuplot runs in `out`.
  std::ostringstream gp;
  gp << common << "set output 'map.png'\nset title 'Fastest protocol: " << title
     << "'\nset palette maxcolors " << ncolours << "\nset palette defined (" << palette << ")\nset cbrange [-0.5:"
     << names.size() - 0.5 << "]\nset cbtics " << tics(names) << "\nplot 'grid.dat' using 1:2:3 with image notitle\n";
  gp << "set output 'ratio.png'\nset title 'SimGrid best time / our best time: " << title
     << "'\nset palette defined (0 '#d73027', 1 '#ffffbf', 2 '#1a9850')\nset logscale cb\nset cbrange [0.25:16]\n"
        "set cbtics auto\nplot 'grid.dat' using 1:2:4 with image notitle, '' using 1:2:(sprintf('%.1f', $4)) with "
        "labels font ',6' notitle\n";
  sim::write_file(out / "map.gp", gp.str());
  sim::run_gnuplot(out, "map.gp");
}

// The plan engine's rows, one algorithm at a time: one it cannot run at
// this p (too many holdings) is a failure, as a failed smpirun is.
std::vector<sim::Row> engine_rows(sim::SimRequest req, const sim::EngineRules& rules, std::vector<std::string>& failures) {
  std::vector<sim::Row> rows;
  const std::vector<const sim::Algorithm*> algos = req.algos;
  for (const sim::Algorithm* a : algos) {
    req.algos = {a};
    try {
      for (const sim::Row& r : sim::evaluate_plans(req, rules)) rows.push_back(r);
    } catch (const std::invalid_argument& e) {
      failures.push_back(std::string(a->name) + ": " + e.what());
    }
  }
  return rows;
}

}  // namespace

int map_command(int argc, char** argv) {
  cli::po::options_description opts("map options");
  opts.add_options()("collective", value<std::string>()->default_value("allreduce"), "reduce, allreduce, ...")(
      "p", value<std::string>()->default_value("2:128"),
      "p set: A:B (powers of two, 3*2^k, 2^k+1 and A, B), A:B:STEP, or a,b,c")(
      "sizes", value<std::string>()->default_value("8:8MiB"), "sizes: A:B (doubling) or a,b,c")(
      "algos", value<std::string>()->default_value("all"), "algorithms (ours and smpi:*), or all")(
      "out", value<std::string>()->required(), "output directory (map.csv, map.png, ratio.png)");
  sim::add_platform_options(opts);
  sim::add_engine_options(opts);
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm,
                          "usage: collsim map --out DIR [--collective C] [--p A:B] [--sizes A:B] [--algos LIST] "
                          "[platform options]\n"))
    return 0;
  sim::Collective c;
  try {
    c = sim::parse_collective(vm["collective"].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw cli::UsageError(e.what());
  }
  // --engine loggp: the plan engine instead of smpirun, for the algorithms
  // with a plan (`all`: those), at any p.
  const std::optional<sim::EngineRules> rules = sim::read_engine_options(vm);
  const std::vector<int64_t> ps = parse_p_set(vm["p"].as<std::string>(), rules ? (int64_t{1} << 31) - 1 : 1 << 16);
  sim::SimRequest req;
  req.algos = sim::read_algorithms(c, vm["algos"].as<std::string>());
  if (rules && vm["algos"].as<std::string>() == "all") sim::keep_plans(req);
  req.sizes = sim::parse_sizes(vm["sizes"].as<std::string>(), "--sizes");
  sim::skip_unrunnable(req);
  std::vector<std::string> names;  // ours, in table order: the map's colours
  for (const sim::Algorithm* a : req.algos)
    if (!a->has(sim::kSmpiBuiltin)) names.push_back(a->name);
  if (names.empty()) throw cli::UsageError("--algos: the map needs at least one algorithm of ours");
  const fs::path out = vm["out"].as<std::string>();
  sim::make_directories(out);

  std::map<std::pair<int64_t, int64_t>, Cell> cells;
  cli::Progress progress("map");
  for (size_t i = 0; i < ps.size(); ++i) {
    req.p = ps[i];
    req.platform = sim::platform_from(vm, ps[i]);
    std::vector<std::string> failures;
    const auto rows = rules ? engine_rows(req, *rules, failures)
                            : sim::simulate(
                                  req,
                                  [&](size_t done, size_t total) {
                                    progress.update((double(i) + double(done) / double(total)) / double(ps.size()),
                                                    "p = " + std::to_string(ps[i]) + " (" + std::to_string(i + 1) +
                                                        "/" + std::to_string(ps.size()) + ")");
                                  },
                                  &failures);
    if (rules) progress.update(double(i + 1) / double(ps.size()), "p = " + std::to_string(ps[i]));
    for (const auto& f : failures) std::fprintf(stderr, "collsim: warning: p = %lld: %s\n", (long long)ps[i], f.c_str());
    collect(c, rows, cells);
  }
  if (cells.empty()) throw std::runtime_error("no algorithm gave a result at any p (see the warnings above)");
  write_csv(out / "map.csv", cells);
  const std::string title =
      std::string(sim::collective_name(c)) + ", " + platforms::summary(req.platform) + (rules ? ", plan engine" : "");
  plot(out, title, ps, req.sizes, names, cells);
  std::printf("map: %s, %s, %s (%.0f s)\n", (out / "map.csv").string().c_str(), (out / "map.png").string().c_str(),
              (out / "ratio.png").string().c_str(), progress.elapsed_seconds());
  return 0;
}

}  // namespace collsim
