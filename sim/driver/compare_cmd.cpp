// `collsim compare`: sizes × algorithms (ours and SimGrid's) on one platform;
// DIR/results.csv, a PNG of time and bandwidth against size with the cost
// models as dashed lines, and a table of our best against SimGrid's best.
// With --engine loggp and a list of p at one size, the plan engine's times
// against p instead (SMPI stops near 2^14 ranks, the engine does not).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>

#include "commands.hpp"
#include "errors.hpp"
#include "gpu_compare.hpp"
#include "output.hpp"
#include "sim_options.hpp"
#include "work_limits.hpp"

namespace collsim {

namespace {

using cli::po::value;
namespace fs = std::filesystem;

// Every name reaches the scripts below through gnuplot_quote (output.hpp):
// algorithm and plan-file names as gnuplot arrays (row names of the CSV and
// legend titles), the title with the platform's name as one string. The
// terminal is noenhanced, so `_`, `^`, `@` and braces in a name show as
// they are. Files by name only: gnuplot runs in the output directory.

// "for [i=1:|list|] 'CSV' using (...):Y": per item of the gnuplot array
// `list`, the CSV's rows of that algorithm (column 2), x = column x.
std::string rows_of(const std::string& list, const std::string& csv, const std::string& x, const std::string& y) {
  return "for [i=1:|" + list + "|] " + sim::gnuplot_quote(csv) + " using ((strcol(2) eq " + list + "[i]) ? $" + x +
         " : 1/0):" + y;
}

// The plot command of `clauses`, one per line.
std::string plot_of(const std::vector<std::string>& clauses) {
  std::string p;
  for (const std::string& c : clauses) p += (p.empty() ? "plot " : ", \\\n     ") + c;
  return p + "\n";
}

// The CSV's algorithm names of req: ours (with a cost model, and plan
// files) and SimGrid's built-ins.
std::pair<std::vector<std::string>, std::vector<std::string>> row_names(const sim::SimRequest& req) {
  std::vector<std::string> ours, theirs;
  for (const sim::Algorithm* a : req.algos) (a->model ? ours : theirs).push_back(a->name);
  for (const sim::PlanFile& plan : req.plans) ours.push_back(sim::plan_row_name(plan.path));
  return {ours, theirs};
}

// Gnuplot script: ours solid and thick (their models dashed in the same
// colour), SimGrid's built-ins dotted with their own point shapes.
std::string gnuplot_script(const sim::SimRequest& req, const std::string& collective, const std::string& csv,
                           const std::string& png) {
  const auto [ours, theirs] = row_names(req);
  const std::string title = collective + ", p = " + std::to_string(req.p) + ", platform " +
                            platforms::summary(req.platform) + " - dashed: cost model";
  auto panel = [&](const std::string& ylabel, const std::string& measured, const std::string& model) {
    std::vector<std::string> clauses;
    if (!ours.empty()) {
      clauses.push_back(rows_of("ours", csv, "4", measured) + " with linespoints lw 2 pt 7 ps 0.6 lc i title ours[i]");
      clauses.push_back(rows_of("ours", csv, "4", model) + " with lines lw 1 dt 2 lc i notitle");
    }
    if (!theirs.empty())
      clauses.push_back(rows_of("theirs", csv, "4", measured) +
                        " with linespoints lw 1 dt 3 pt (i % 12 + 1) ps 0.6 lc (i + 5) title theirs[i]");
    return "set ylabel " + sim::gnuplot_quote(ylabel) + "\n" + plot_of(clauses);
  };
  return "set terminal pngcairo size 1600,800 font ',9' noenhanced\n"
         "set output " + sim::gnuplot_quote(png) + "\n"
         "set datafile separator ','\n" +
         (ours.empty() ? "" : sim::gnuplot_array("ours", ours)) +
         (theirs.empty() ? "" : sim::gnuplot_array("theirs", theirs)) +
         "set multiplot layout 1,2 title " + sim::gnuplot_quote(title) + "\n"
         "set logscale xy\nset grid\nset xlabel 'message size (bytes)'\nset key left top font ',8'\n" +
         panel("time of the slowest rank (us)", "6", "7") + "set key off\n" +
         panel("bandwidth m / time (MB/s)", "($4/$6)", "($4/$7)") + "unset multiplot\n";
}

// DIR/results.csv, DIR/plot.gp and the PNG gnuplot draws from them.
void write_results(const fs::path& out, const std::vector<sim::Row>& rows, const std::string& csv,
                   const std::string& script) {
  std::string table = std::string(sim::kCsvHeader) + "\n";
  for (const auto& r : rows) table += sim::csv_line(r) + "\n";
  sim::write_file(out / csv, table);
  sim::write_file(out / "plot.gp", script);
  sim::run_gnuplot(out, "plot.gp");
}

// Gnuplot script of time against p (one size, --engine loggp): ours solid,
// models dashed.
std::string scaling_script(const sim::SimRequest& req, const std::string& collective, const std::string& csv,
                           const std::string& png) {
  std::vector<std::string> ours;
  for (const sim::Algorithm* a : req.algos) ours.push_back(a->name);
  const std::string title = collective + ", " + sim::format_bytes(req.sizes.front()) + ", platform " +
                            platforms::summary(req.platform) + ", plan engine - dashed: cost model";
  return "set terminal pngcairo size 1000,700 font ',9' noenhanced\n"
         "set output " + sim::gnuplot_quote(png) + "\n"
         "set datafile separator ','\n" + sim::gnuplot_array("ours", ours) +
         "set title " + sim::gnuplot_quote(title) + "\n"
         "set logscale xy 2\nset format x '2^%L'\nset grid\nset xlabel 'p (ranks)'\n"
         "set ylabel 'time of the slowest rank (us)'\nset key left top font ',8'\n" +
         plot_of({rows_of("ours", csv, "3", "6") + " with linespoints lw 2 pt 7 ps 0.6 lc i title ours[i]",
                  rows_of("ours", csv, "3", "7") + " with lines lw 1 dt 2 lc i notitle"});
}

// compare --engine loggp --p LIST: the engine at every p, one size. An
// algorithm the engine cannot run at some p (too many holdings) is left out
// there with a warning; a plan file is for its own p only.
int compare_scaling(sim::SimRequest& req, const std::vector<int64_t>& ps, const sim::EngineRules& rules,
                    const fs::path& out, sim::Collective c, double max_messages) {
  if (req.sizes.size() != 1) throw cli::UsageError("a list of --p plots time against p at one size: give one --sizes");
  if (!req.plans.empty()) throw cli::UsageError("plan files are for one p: give them without a list of --p");
  cli::Progress progress("compare");
  std::vector<sim::Row> rows;
  const int64_t root = req.roots.front();
  const std::vector<const sim::Algorithm*> algos = req.algos;
  size_t done = 0;
  for (const int64_t p : ps) {
    if (root >= p) throw cli::UsageError("--root " + std::to_string(root) + " is not a rank of p = " + std::to_string(p));
    for (const sim::Algorithm* a : algos) {
      req.p = p;
      req.algos = {a};
      if (sim::keep_within_limit(req, sim::Runner::engine, max_messages).algos.empty()) continue;
      try {
        for (const sim::Row& r : sim::evaluate_plans(req, rules)) rows.push_back(r);
      } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "collsim: warning: %s at p = %lld left out: %s\n", a->name, (long long)p, e.what());
      }
      progress.update(double(++done) / double(ps.size() * algos.size()), std::string(a->name) + " at p = " + std::to_string(p));
    }
  }
  req.algos = algos;
  // One algorithm's rows together, so that gnuplot joins its points.
  std::stable_sort(rows.begin(), rows.end(), [&](const sim::Row& x, const sim::Row& y) {
    auto index = [&](const sim::Row& r) {
      return std::find_if(algos.begin(), algos.end(), [&](const sim::Algorithm* a) { return r.algorithm == a->name; }) -
             algos.begin();
    };
    return index(x) < index(y);
  });
  const std::string csv = "results.csv", png = std::string(sim::collective_name(c)) + "-scaling.png";
  write_results(out, rows, csv, scaling_script(req, sim::collective_name(c), csv, png));
  std::printf("%-22s %10s %14s %10s %10s\n", "algorithm", "p", "time_us", "wall_s", "mem_mib");
  for (const auto& r : rows)
    std::printf("%-22s %10lld %14.3f %10.2f %10.1f\n", r.algorithm.c_str(), (long long)r.p, r.time_us, r.wall_s.value_or(0),
                r.mem_mib.value_or(0));
  std::printf("results: %s\nplot:    %s\n", (out / csv).string().c_str(), (out / png).string().c_str());
  return 0;
}

}  // namespace

int compare_command(int argc, char** argv) {
  if (sim::gpu::wants_gpu_compare(argc, argv)) return sim::gpu::compare_command(argc, argv);
  cli::po::options_description opts("compare options");
  opts.add_options()("sizes", value<std::string>()->default_value("1KiB:16MiB"),
                     "sizes: range A:B (doubling) or list a,b; units B, KiB, MiB, GiB")(
      "algos", value<std::string>()->default_value("all"),
      "comma-separated algorithm names, or all; plan:FILE adds a plan file (docs/plan-format.md)")(
      "out", value<std::string>()->required(), "output directory (results.csv, plot.gp, PNG)");
  sim::add_common_options(opts);
  sim::add_engine_options(opts);
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm,
                          "usage: collsim compare --p P --out DIR [--sizes A:B] [--algos LIST|all] [options]\n"
                          "       collsim compare --engine loggp --p P1,P2,.. --sizes S --out DIR [--algos LIST|all]\n"
                          "         (time against p; all: our algorithms with a plan)\n\n" +
                              sim::algorithm_help()))
    return 0;
  sim::SimRequest req;
  std::vector<int64_t> ps;
  const sim::Collective c = sim::read_common_options(vm, req, &ps);
  const std::optional<sim::EngineRules> rules = sim::read_engine_options(vm);
  if (ps.size() > 1 && !rules) throw cli::UsageError("a list of --p needs --engine loggp");
  std::vector<std::string> plan_paths;
  req.algos = sim::read_algorithms(c, vm["algos"].as<std::string>(), "--algos", &plan_paths);
  if (rules && vm["algos"].as<std::string>() == "all") sim::keep_plans(req);
  sim::read_plan_files(plan_paths, c, req);
  req.sizes = sim::parse_sizes(vm["sizes"].as<std::string>(), "--sizes");
  sim::skip_unrunnable(req);
  const fs::path out = vm["out"].as<std::string>();
  sim::make_directories(out);
  const sim::Runner runner = rules ? sim::Runner::engine : sim::Runner::smpi;
  const double max_messages = sim::max_messages(vm, sim::default_max_messages(runner));
  if (rules) return compare_scaling(req, ps, *rules, out, c, max_messages);
  req = sim::keep_within_limit(req, runner, max_messages);

  cli::Progress progress("compare");
  std::vector<std::string> failures, deadlocked;
  const auto rows = sim::simulate(
      req, [&](size_t done, size_t total) { progress.update(double(done) / double(total), std::to_string(done) + "/" + std::to_string(total) + " cases"); },
      &failures, &deadlocked);
  for (const auto& f : failures) std::fprintf(stderr, "collsim: warning: %s\n", f.c_str());

  const std::string csv = "results.csv", png = std::string(sim::collective_name(c)) + ".png";
  write_results(out, rows, csv, gnuplot_script(req, sim::collective_name(c), csv, png));

  // Per size: our best and SimGrid's best, speedup = theirs / ours.
  struct Best {
    std::string name;
    double us = std::numeric_limits<double>::infinity();
  };
  std::map<int64_t, std::pair<Best, Best>> best;
  // A wrong result is no contender (SimGrid's scans with matmul, say).
  for (const auto& r : rows)
    if (!r.correct) std::fprintf(stderr, "collsim: warning: %s gave wrong results at %s; left out of the table\n",
                                 r.algorithm.c_str(), sim::format_bytes(r.bytes).c_str());
  for (const auto& r : rows) {
    if (!r.correct) continue;
    const bool builtin = r.algorithm.compare(0, 5, "smpi:") == 0;  // plan files count as ours
    Best& b = builtin ? best[r.bytes].second : best[r.bytes].first;
    if (r.time_us < b.us) b = {r.algorithm, r.time_us};
  }
  std::printf("%-8s  %-22s %12s  %-30s %12s  %8s\n", "size", "ours_best", "time_us", "simgrid_best", "time_us",
              "speedup");
  for (const auto& [bytes, pair] : best) {
    const auto& [ours, theirs] = pair;
    // "-" where one side has no correct result at this size.
    auto cell = [](const Best& b, const char* fmt) {
      char text[32] = "-";
      if (std::isfinite(b.us)) std::snprintf(text, sizeof text, fmt, b.us);
      return std::string(text);
    };
    const Best ratio{"", theirs.us / ours.us};
    std::printf("%-8s  %-22s %12s  %-30s %12s  %8s\n", sim::format_bytes(bytes).c_str(),
                ours.name.empty() ? "-" : ours.name.c_str(), cell(ours, "%.2f").c_str(),
                theirs.name.empty() ? "-" : theirs.name.c_str(), cell(theirs, "%.2f").c_str(), cell(ratio, "%.2f").c_str());
  }
  std::printf("results: %s\nplot:    %s\n", (out / csv).string().c_str(), (out / png).string().c_str());
  // A failed built-in is SimGrid's problem (warned above); a failed one of
  // ours, or a failed plan file, is the user's to see in the exit status
  // (kExitDeadlock where it deadlocked).
  std::vector<std::string> ours;
  for (const sim::Algorithm* a : req.algos)
    if (!a->has(sim::kSmpiBuiltin)) ours.push_back(a->name);
  for (const sim::PlanFile& plan : req.plans) ours.push_back(sim::plan_row_name(plan.path));
  for (const std::string& name : ours)
    if (std::find(deadlocked.begin(), deadlocked.end(), name) != deadlocked.end()) return kExitDeadlock;
  for (const std::string& name : ours)
    if (std::none_of(rows.begin(), rows.end(), [&](const sim::Row& r) { return r.algorithm == name; }) ||
        std::any_of(rows.begin(), rows.end(), [&](const sim::Row& r) { return r.algorithm == name && !r.correct; }))
      return 1;
  return 0;
}

}  // namespace collsim
