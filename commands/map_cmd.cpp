// `collsim map`: seed 004's Fig. 3 and Fig. 4 for one collective. For every
// p of a set and every size, the fastest of our algorithms (the winner) and
// the fastest of SimGrid's built-ins; DIR/map.csv, DIR/map.png (winner per
// (p, size) cell) and DIR/ratio.png (SimGrid's best time over ours: > 1 where
// ours is faster, Fig. 4's "best of the new algorithms / vendor"), where
// SimGrid's built-ins run (not under --engine loggp, nor when --algos names
// none: their CSV columns are then empty).
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
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "commands.hpp"
#include "compare_report.hpp"
#include "errors.hpp"
#include "launch.hpp"
#include "output.hpp"
#include "region_plot.hpp"
#include "sim_options.hpp"
#include "work_limits.hpp"

namespace collsim {

namespace {

using cli::po::value;
using sim::RegionCells;
using sim::RegionGrid;
namespace fs = std::filesystem;

struct Cell {
  int64_t p = 0, bytes = 0;
  std::string winner, simgrid_best;
  double time_us = std::numeric_limits<double>::infinity(), model_us = 0;
  double runner_up_us = std::numeric_limits<double>::infinity();  // the second of ours
  double simgrid_time_us = std::numeric_limits<double>::infinity();
};

// Cells of one p from its rows: best correct row of ours and of SimGrid's
// (a wrong result is no contender: warned once per algorithm at the end).
void collect(sim::Collective c, const std::vector<sim::Row>& rows, std::map<std::pair<int64_t, int64_t>, Cell>& cells) {
  for (const sim::Row& r : rows) {
    if (!r.correct) continue;
    Cell& cell = cells[{r.p, r.bytes}];
    cell.p = r.p;
    cell.bytes = r.bytes;
    if (sim::find_algorithm(c, r.algorithm).has(sim::kSmpiBuiltin)) {
      if (r.time_us < cell.simgrid_time_us) cell.simgrid_best = r.algorithm, cell.simgrid_time_us = r.time_us;
    } else if (r.time_us < cell.time_us) {
      cell.runner_up_us = cell.time_us;
      cell.winner = r.algorithm, cell.time_us = r.time_us, cell.model_us = r.model_us.value_or(0);
    } else if (r.time_us < cell.runner_up_us) {
      cell.runner_up_us = r.time_us;
    }
  }
}

double ratio(const Cell& c) { return c.time_us > 0 ? c.simgrid_time_us / c.time_us : 1; }

// SimGrid's best time and the ratio as CSV fields, empty where no built-in ran.
std::string simgrid_fields(const Cell& c) {
  if (c.simgrid_best.empty()) return ",,";
  char fields[256];
  std::snprintf(fields, sizeof fields, "%s,%.3f,%.4f", c.simgrid_best.c_str(), c.simgrid_time_us, ratio(c));
  return fields;
}

void write_csv(const fs::path& path, const std::map<std::pair<int64_t, int64_t>, Cell>& cells) {
  std::string f = "p,bytes,winner,time_us,model_us,simgrid_best,simgrid_time_us,ratio\n";
  for (const auto& [key, c] : cells) {
    char line[512];
    std::snprintf(line, sizeof line, "%lld,%lld,%s,%.3f,%.3f,", (long long)c.p, (long long)c.bytes, c.winner.c_str(),
                  c.time_us, c.model_us);
    f += line + simgrid_fields(c) + "\n";
  }
  sim::write_file(path, f);
}

// map.png: the fastest of ours per cell, labelled with its margin (the
// runner-up of ours over it) where ours are several; ratio.png: SimGrid's
// best over ours. `title`: the collective; `platform`: its line.
void plot(const fs::path& out, const std::string& title, const std::string& platform, const RegionGrid& all,
          const std::map<std::pair<int64_t, int64_t>, Cell>& cells, bool with_simgrid) {
  RegionCells regions;
  for (const auto& [key, c] : cells) regions[key] = {c.winner, c.runner_up_us / c.time_us};
  const RegionGrid grid = sim::winners_only(all, regions);
  sim::write_file(out / "grid.dat", region_data(grid, regions));
  const bool margins = all.names.size() > 1;
  std::string gp = region_image(grid, "grid.dat", "map.png",
                                "Fastest of ours: " + title + (margins ? "; label: runner-up of ours / fastest" : "") +
                                    "\nplatform " + platform,
                                margins ? "%.2f" : "");
  if (with_simgrid) {
    // Palette positions in log2 of the ratio over cbrange [2^-2:2^4]: red
    // where SimGrid is 4x faster, pale yellow at a tie, green at 16x ours.
    for (auto& [key, c] : regions) c.value = ratio(cells.at(key));
    sim::write_file(out / "ratio.dat", region_data(grid, regions));
    gp += "set output 'ratio.png'\nset title " +
          sim::gnuplot_quote(sim::wrap_title("SimGrid's best time / our best time: " + title + "\nplatform " + platform)) +
          " font ',13'\nset palette maxcolors 0\nset palette defined (-2 '#d73027', 0 '#ffffbf', 4 '#1a9850')\nset logscale cb\n"
          "set cbrange [0.25:16]\nset cbtics auto\nplot 'ratio.dat' using 1:2:4 with image notitle" +
          (sim::region_labels_fit(grid) ? ", '' using 1:2:(sprintf('%.2f', $4)) with labels font ',11' notitle" : "") +
          "\n";
  }
  sim::write_file(out / "map.gp", gp);
  sim::run_gnuplot(out, "map.gp");
}

// The plan engine's rows, one algorithm at a time: one it cannot run at
// this p (too many holdings, or its solves past --max-messages) is a
// failure, as a failed smpirun is.
std::vector<sim::Row> engine_rows(sim::SimRequest req, const sim::EngineRules& rules, std::vector<std::string>& failures) {
  std::vector<sim::Row> rows;
  const std::vector<const sim::Algorithm*> algos = req.algos;
  for (const sim::Algorithm* a : algos) {
    req.algos = {a};
    try {
      for (const sim::Row& r : sim::evaluate_plans(req, rules)) rows.push_back(r);
    } catch (const std::invalid_argument& e) {
      failures.push_back(std::string(a->name) + ": " + e.what());
    } catch (const LimitError& e) {
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
      "algos", value<std::string>()->default_value("all"),
      "algorithms (ours and smpi:*; `collsim algorithms` lists them), or all")(
      "out", value<std::string>()->required(), "output directory (map.csv, map.png; ratio.png where SimGrid's built-ins run)");
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
  const std::vector<int64_t> ps = sim::parse_p_set(vm["p"].as<std::string>(), rules ? (int64_t{1} << 31) - 1 : 1 << 16);
  sim::SimRequest req;
  req.algos = sim::read_algorithms(c, vm["algos"].as<std::string>(), "--algos");
  if (rules && vm["algos"].as<std::string>() == "all") sim::keep_plans(req);
  req.sizes = sim::parse_sizes(vm["sizes"].as<std::string>(), "--sizes");
  sim::skip_unrunnable(req);
  std::vector<std::string> names;  // ours, in table order: the map's colours
  for (const sim::Algorithm* a : req.algos)
    if (!a->has(sim::kSmpiBuiltin)) names.push_back(a->name);
  if (names.empty()) throw cli::UsageError("--algos: the map needs at least one algorithm of ours");
  const bool with_simgrid = names.size() < req.algos.size();
  const fs::path out = vm["out"].as<std::string>();
  sim::make_directories(out);

  const sim::Runner runner = rules ? sim::Runner::engine : sim::Runner::smpi;
  const double max_messages = sim::max_messages(vm, sim::default_max_messages(runner));
  std::map<std::pair<int64_t, int64_t>, Cell> cells;
  cli::Progress progress("map");
  std::vector<sim::Row> all_rows;  // for the warnings of wrong results
  for (size_t i = 0; i < ps.size(); ++i) {
    req.p = ps[i];
    req.platform = sim::platform_from(vm, ps[i]);
    std::vector<std::string> failures;
    const sim::SimRequest cases = sim::keep_within_limit(req, runner, max_messages);
    const auto rows = rules ? engine_rows(cases, *rules, failures)
                            : sim::simulate(
                                  cases,
                                  [&](size_t done, size_t total) {
                                    progress.update((double(i) + double(done) / double(total)) / double(ps.size()),
                                                    "p = " + std::to_string(ps[i]) + " (" + std::to_string(i + 1) +
                                                        "/" + std::to_string(ps.size()) + ")");
                                  },
                                  &failures);
    if (rules) progress.update(double(i + 1) / double(ps.size()), "p = " + std::to_string(ps[i]));
    for (const auto& f : failures) std::fprintf(stderr, "collsim: warning: p = %lld: %s\n", (long long)ps[i], f.c_str());
    collect(c, rows, cells);
    all_rows.insert(all_rows.end(), rows.begin(), rows.end());
  }
  sim::warn_wrong_results(all_rows, "no contender there");
  if (cells.empty()) throw std::runtime_error("no algorithm gave a result at any p (see the warnings above)");
  write_csv(out / "map.csv", cells);
  const std::string title = std::string(sim::collective_name(c)) + (rules ? ", plan engine" : "");
  plot(out, title, platforms::describe(req.platform, req.p), {ps, req.sizes, names}, cells, with_simgrid);
  std::printf("map: %s, %s%s (%.0f s)\n", (out / "map.csv").string().c_str(), (out / "map.png").string().c_str(),
              with_simgrid ? (", " + (out / "ratio.png").string()).c_str() : "", progress.elapsed_seconds());
  return 0;
}

}  // namespace collsim
