// `collsim run`: one simulated collective (one or more sizes) on one platform.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "commands.hpp"
#include "engine_run.hpp"
#include "goal_read.hpp"
#include "sim_options.hpp"
#include "work_limits.hpp"

namespace collsim {

using cli::po::value;

namespace {

void print_rows(const std::vector<sim::Row>& rows, const std::string& format) {
  if (format == "csv") {
    std::printf("%s\n", sim::kCsvHeader);
    for (const auto& r : rows) std::printf("%s\n", sim::csv_line(r).c_str());
    return;
  }
  std::printf("%-22s %6s %10s %7s %14s %14s %8s\n", "algorithm", "p", "bytes", "blocks", "time_us", "model_us",
              "diff_%");
  for (const auto& r : rows) {
    std::printf("%-22s %6lld %10s %7lld %14.3f ", r.algorithm.c_str(), (long long)r.p, sim::format_bytes(r.bytes).c_str(),
                (long long)r.blocks, r.time_us);
    if (r.model_us && *r.model_us > 0)
      std::printf("%14.3f %+8.3f\n", *r.model_us, 100 * (r.time_us - *r.model_us) / *r.model_us);
    else
      std::printf("%14s %8s\n", r.model_us ? "0.000" : "-", "-");
  }
}

// The rows of `req` from the engine --engine names.
std::vector<sim::Row> run_engine(const cli::po::variables_map& vm, const sim::SimRequest& req) {
  const std::optional<sim::EngineRules> rules = sim::read_engine_options(vm);
  const sim::Runner runner = rules ? sim::Runner::engine : sim::Runner::smpi;
  sim::check_work(req, runner, sim::max_messages(vm, sim::default_max_messages(runner)));
  if (!rules) {
    if (vm.count("per-rank")) throw cli::UsageError("--per-rank is for --engine loggp");
    const sim::Heartbeat beat("run", sim::expected_seconds(req, runner));
    return sim::simulate(req);
  }
  try {
    return sim::evaluate_plans(req, *rules, vm.count("per-rank") ? vm["per-rank"].as<std::string>() : "");
  } catch (const std::invalid_argument& e) {
    throw cli::UsageError(std::string(e.what()) + " (--engine smpi runs every algorithm)");
  }
}

// The row of the GOAL schedule at `path` (run --plan F.goal): SMPI through
// the GOAL executor (the default), or the plan engine under the loggopsim
// rules (not the smpi rules, which time plans' blocking sendrecv steps);
// its sizes, ranks and operations are the file's, so --size and what shapes
// a collective are refused.
std::vector<sim::Row> run_goal(const cli::po::variables_map& vm, const sim::SimRequest& req, const std::string& path) {
  for (const char* name : {"size", "blocks", "collective", "root", "op", "layout"})
    if (vm.count(name) && !vm[name].defaulted())
      throw cli::UsageError(std::string("--") + name + " has no meaning for a GOAL schedule (" + path +
                            "): its sizes and operations are in the file");
  const std::optional<sim::EngineRules> rules = sim::read_engine_options(vm);
  if (!rules) {
    if (vm.count("per-rank")) throw cli::UsageError("--per-rank is for --engine loggp");
    try {
      return {sim::simulate_goal(req, path)};
    } catch (const std::invalid_argument& e) {
      throw cli::UsageError("GOAL file '" + path + "', " + e.what());
    }
  }
  if (rules->set != sim::EngineRules::Set::loggopsim)
    throw cli::UsageError("a GOAL schedule runs under --rules loggopsim only: the smpi rules time plans' blocking "
                          "sendrecv steps, not GOAL's calcs, irequires and CPUs");
  try {
    return sim::evaluate_goal(req, *rules, path, vm.count("per-rank") ? vm["per-rank"].as<std::string>() : "");
  } catch (const std::invalid_argument& e) {
    throw cli::UsageError(e.what());
  }
}

// Prints the rows; exit status 1 when a result was wrong.
int finish(const std::vector<sim::Row>& rows, const std::string& format) {
  print_rows(rows, format);
  for (const auto& r : rows)
    if (!r.correct) {
      std::fprintf(stderr, "collsim: error: %s gave a wrong result at %s (correct = 0)\n", r.algorithm.c_str(),
                   sim::format_bytes(r.bytes).c_str());
      return 1;
    }
  return 0;
}

}  // namespace

int run_command(int argc, char** argv) {
  cli::po::options_description opts("run options");
  opts.add_options()("algo", value<std::string>(), "algorithm name (see the list above)")(
      "plan", value<std::string>(),
      "instead of --algo: a plan file (docs/plan-format.md) to run through the plan executor (rows name it "
      "plan:NAME, NAME its file name with '_' for commas, quotes, blanks and control characters); or a GOAL "
      "schedule (LogGOPSim's text format, e.g. from Schedgen: a name ending in .goal or a first line num_ranks N), "
      "run in SMPI by the GOAL executor (MPI_Isend/Irecv in dependency order, no data checked) or with --engine "
      "loggp --rules loggopsim, with --p = its num_ranks and no --size (the sizes are in the file)")(
      "size", value<std::string>(),
      "bytes, with units B, KiB, MiB, GiB; or a list a,b or a range A:B (required but "
      "for a GOAL schedule)")(
      "blocks", value<std::string>(),
      "block count n of a pipelined algorithm, or model: the closed-form model's n (default: the block policy, "
      "which on nodes of several cores or a topology searches n on the engine: docs/simulation.md)")(
      "format", value<std::string>()->default_value("table"), "table or csv")(
      "per-rank", value<std::string>(),
      "--engine loggp: also write every rank's finish to this CSV (collective,algorithm,p,bytes,root,rank,"
      "finish_us): the critical path and the stragglers")(
      "ignore-restrictions", cli::po::bool_switch(),
      "run the algorithm even where its catalog row says this case breaks its restrictions (e.g. a "
      "commutative-only one with --op matmul), to see it give a wrong result (correct = 0, exit 1)");
  sim::add_common_options(opts);
  sim::add_engine_options(opts);
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm,
                          "usage: collsim run --algo NAME|--plan FILE --p P --size BYTES [options]\n"
                          "       collsim run --plan FILE.goal --p P [--engine loggp --rules loggopsim] [options]\n\n" +
                              sim::algorithm_help()))
    return 0;
  sim::SimRequest req;
  const sim::Collective c = sim::read_common_options(vm, req);
  const std::string format = vm["format"].as<std::string>();
  cli::require_one_of(format, "format", {"table", "csv"});
  if (vm.count("algo") == vm.count("plan")) throw cli::UsageError("give --algo NAME or --plan FILE (one of them)");
  if (vm.count("plan") && goal::is_goal_file(vm["plan"].as<std::string>()))
    return finish(run_goal(vm, req, vm["plan"].as<std::string>()), format);
  if (!vm.count("size")) throw cli::UsageError("the option '--size' is required but missing");
  req.sizes = sim::parse_sizes(vm["size"].as<std::string>(), "--size");
  if (vm.count("plan")) {
    if (vm.count("blocks")) throw cli::UsageError("--blocks: a plan file has its own block count");
    sim::read_plan_files({vm["plan"].as<std::string>()}, c, req);
    return finish(run_engine(vm, req), format);
  }
  req.algos = sim::read_algorithms(c, vm["algo"].as<std::string>(), "--algo");
  if (req.algos.size() != 1) throw cli::UsageError("--algo takes one name; `collsim compare` runs several");
  req.ignore_restrictions = vm["ignore-restrictions"].as<bool>();
  if (const std::string unmet = sim::unmet_restriction(*req.algos[0], req.op); !unmet.empty() && !req.ignore_restrictions)
    throw cli::UsageError(unmet + " (--ignore-restrictions runs it anyway, to see it fail)");
  sim::read_blocks(vm, req);
  return finish(run_engine(vm, req), format);
}

}  // namespace collsim
