// `collsim compare`: sizes × algorithms (ours and SimGrid's) on one platform;
// DIR/results.csv, a PNG of time and bandwidth against size with the cost
// models, and on stdout the platform and a table of our best against
// SimGrid's best (compare_report.hpp: the table, warnings and pictures).
// With --engine loggp and a list of p at one size, the plan engine's times
// against p instead (SMPI stops near 2^14 ranks, the engine does not).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>

#include "commands.hpp"
#include "errors.hpp"
#include "compare_report.hpp"
#include "gpu_compare.hpp"
#include "output.hpp"
#include "sim_options.hpp"
#include "work_limits.hpp"

namespace collsim {

namespace {

using cli::po::value;
namespace fs = std::filesystem;

// The CSV's algorithm names of req: ours (with a cost model, and plan
// files) and SimGrid's built-ins: the pictures' series, in this order.
sim::PlotSpec plot_spec(const sim::SimRequest& req, const std::string& heading, const std::vector<int64_t>& xs,
                        const std::string& csv, const std::string& png) {
  sim::PlotSpec spec;
  for (const sim::Algorithm* a : req.algos) (a->model ? spec.ours : spec.theirs).push_back(a->name);
  for (const sim::PlanFile& plan : req.plans) spec.ours.push_back(sim::plan_row_name(plan.path));
  spec.heading = heading;
  spec.platform = platforms::describe(req.platform, req.p);
  spec.xs = xs;
  spec.csv = csv;
  spec.png = png;
  return spec;
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

// compare --engine loggp --p LIST: the engine at every p, one size. An
// algorithm the engine cannot run at some p (too many holdings, or its
// solves past --max-messages) is left out there with a warning; a plan
// file is for its own p only.
int compare_scaling(sim::SimRequest& req, const std::vector<int64_t>& ps, const sim::EngineRules& rules,
                    const fs::path& out, sim::Collective c, double max_messages) {
  if (req.sizes.size() != 1) throw cli::UsageError("a list of --p plots time against p at one size: give one --sizes");
  if (!req.plans.empty()) throw cli::UsageError("plan files are for one p: give them without a list of --p");
  cli::Progress progress("compare");
  std::vector<sim::Row> rows;
  const int64_t root = req.roots.front();
  const std::vector<const sim::Algorithm*> algos = req.algos;
  size_t done = 0;
  // One warning per algorithm left out somewhere: "p = P: why; p = P2: why".
  std::vector<std::string> left_out;
  std::map<std::string, std::string> why;
  for (const int64_t p : ps) {
    if (root >= p) throw cli::UsageError("--root " + std::to_string(root) + " is not a rank of p = " + std::to_string(p));
    for (const sim::Algorithm* a : algos) {
      req.p = p;
      req.algos = {a};
      if (sim::keep_within_limit(req, sim::Runner::engine, max_messages).algos.empty()) continue;
      auto leave_out = [&](const char* reason) {
        if (!why.count(a->name)) left_out.push_back(a->name);
        why[a->name] += (why[a->name].empty() ? "p = " : "; p = ") + std::to_string(p) + ": " + reason;
      };
      try {
        for (const sim::Row& r : sim::evaluate_plans(req, rules)) rows.push_back(r);
      } catch (const std::invalid_argument& e) {
        leave_out(e.what());
      } catch (const LimitError& e) {
        leave_out(e.what());
      }
      progress.update(double(++done) / double(ps.size() * algos.size()), std::string(a->name) + " at p = " + std::to_string(p));
    }
  }
  req.algos = algos;
  for (const std::string& name : left_out)
    std::fprintf(stderr, "collsim: warning: %s left out at %s\n", name.c_str(), why[name].c_str());
  // One algorithm's rows together, so that gnuplot joins its points.
  std::stable_sort(rows.begin(), rows.end(), [&](const sim::Row& x, const sim::Row& y) {
    auto index = [&](const sim::Row& r) {
      return std::find_if(algos.begin(), algos.end(), [&](const sim::Algorithm* a) { return r.algorithm == a->name; }) -
             algos.begin();
    };
    return index(x) < index(y);
  });
  const std::string csv = "results.csv", png = std::string(sim::collective_name(c)) + "-scaling.png";
  req.p = *std::max_element(ps.begin(), ps.end());  // the platform was sized for it
  const std::string heading =
      std::string(sim::collective_name(c)) + ", " + sim::format_bytes(req.sizes.front()) + ", plan engine";
  write_results(out, rows, csv, sim::scaling_plot_script(plot_spec(req, heading, ps, csv, png), rows));
  sim::warn_wrong_results(rows, "left out of the table");
  std::printf("platform: %s\n", platforms::describe(req.platform, req.p).c_str());
  for (const int64_t p : ps) std::printf("\n%s", sim::best_table(rows, p).c_str());
  std::printf("\nresults: %s\nplot:    %s\n", (out / csv).string().c_str(), (out / png).string().c_str());
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
  const std::string heading = std::string(sim::collective_name(c)) + ", p = " + std::to_string(req.p);
  write_results(out, rows, csv, sim::size_plot_script(plot_spec(req, heading, req.sizes, csv, png), rows));
  sim::warn_wrong_results(rows, "left out of the table");
  // Per size: our best and SimGrid's best, speedup = theirs / ours.
  std::printf("platform: %s\n%s", platforms::describe(req.platform, req.p).c_str(), sim::best_table(rows, req.p).c_str());
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
