// `collsim verify plan --file F`: reads a plan file (schedules/plan.hpp) and
// checks it symbolically (plan_check.hpp; graph plans: plan_graph_check.hpp);
// `--collective C --algo NAME|all --p A:B` checks the plans of our
// algorithms (algorithms/plan_builders.hpp) for every p of the range. Exit status: 0 correct, 1 a broken rule (one
// line), 2 malformed file or bad input (one line).
#include <algorithm>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "args.hpp"
#include "bounded_stream.hpp"
#include "goal_check.hpp"
#include "goal_read.hpp"
#include "logp_tree.hpp"
#include "plan_builders.hpp"
#include "plan_check.hpp"
#include "verify_kinds.hpp"

namespace collsim {

namespace {

using cli::po::value;

// The plan, or none after one line on stderr saying why the file is malformed.
// A file that cannot be read (none, a directory, over the size limit) is
// main's one line; only the parser's complaints are "malformed".
std::optional<plan::Plan> read_plan_file(const std::string& path) {
  BoundedFileStream in(path, kMaxPlanFileBytes, "plan file");
  try {
    return plan::read_plan(in);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "collsim verify plan: malformed plan %s: %s\n", path.c_str(), e.what());
    return std::nullopt;
  }
}

// A GOAL file (goal_read.hpp): malformed, exit 2; a broken rule
// (goal_check.hpp), one FAIL line and exit 1; else 0.
int verify_goal_file(const std::string& path, bool quiet) {
  BoundedFileStream in(path, kMaxPlanFileBytes, "GOAL file");
  goal::Schedule schedule;
  try {
    schedule = goal::read_goal(in);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "collsim verify plan: malformed GOAL schedule %s: %s\n", path.c_str(), e.what());
    return 2;
  }
  const GoalReport rep = check_goal(schedule);
  if (rep.failure) {
    std::printf("FAIL %s\n", describe(*rep.failure).c_str());
    return 1;
  }
  if (!quiet)
    std::printf("OK %s: GOAL, %lld ranks, %lld operations, %lld messages: every send meets its receive in posting "
                "order, no deadlock in any order the dependencies allow (sends may wait for their receives)\n",
                path.c_str(), (long long)schedule.ranks, (long long)rep.operations, (long long)rep.messages);
  return 0;
}

void print_summary(const std::string& path, const plan::Header& h, const PlanReport& rep) {
  std::printf("OK %s: %s p=%lld blocks=%lld%s%s: every rank ends with its result; max %lld steps, max %lld ⊕ per "
              "rank, critical path %lld steps\n",
              path.c_str(), collective_name(h.collective), (long long)h.p, (long long)h.blocks,
              h.commutative ? " (commutative)" : "", h.graph ? " (graph)" : "", (long long)rep.max_steps, (long long)rep.max_ops,
              (long long)rep.critical_path);
}

// The block counts checked for algorithm a at p: the list given for
// pipelined algorithms, else the cut's own (1 for whole-vector ones, p per
// rank, p' for pow2).
std::vector<int64_t> block_counts(const plan::PlanAlgorithm& a, int64_t p, const std::vector<int64_t>& pipelined) {
  if (a.cut == plan::Cut::pipelined) return pipelined;
  return {plan::cut_blocks(a.cut, p)};
}

// The largest counts over one algorithm's plans.
struct Worst {
  int64_t plans = 0, steps = 0, ops = 0, critical_path = 0;
};

// The node sizes checked for algorithm a: the list for the node-aware
// ones, 1 for the others (they know no nodes).
std::vector<int64_t> node_sizes(const plan::PlanAlgorithm& a, const std::vector<int64_t>& listed) {
  return a.build_on_nodes ? listed : std::vector<int64_t>{1};
}

// The lags checked for algorithm a: the list for the LogP trees, 1 for the
// others (they read none).
std::vector<double> lags(const plan::PlanAlgorithm& a, const std::vector<double>& listed) {
  return a.build_with_lag ? listed : std::vector<double>{1};
}

// Checks every plan of `names` for p in `range`; the first failure is one
// FAIL line naming the algorithm, p, blocks, root and node size, then exit 1.
int verify_builders(Collective c, const std::vector<std::string>& names, cli::Range range,
                    const std::vector<int64_t>& pipelined, const std::vector<int64_t>& nodes,
                    const std::vector<double>& listed_lags, int64_t root, bool quiet) {
  cli::Progress progress("verify plan");
  for (const std::string& name : names) {
    const plan::PlanAlgorithm& a = plan::find_plan_algorithm(c, name);
    Worst worst;
    for (int64_t p = range.lo; p <= range.hi; ++p) {
      progress.update(double(p - range.lo) / double(range.hi - range.lo + 1), name + " p = " + std::to_string(p));
      const int64_t r = rooted(c) ? std::min(root, p - 1) : 0;
      for (int64_t node_size : node_sizes(a, nodes))
        for (double lag : lags(a, listed_lags))
        for (int64_t blocks : block_counts(a, p, pipelined)) {
          const PlanReport rep = check_plan(plan::build_plan(c, name, p, r, blocks, {node_size, lag}));
          if (rep.failure) {
            std::printf("FAIL %s %s blocks=%lld root=%lld node-size=%lld lag=%g: %s\n", collective_name(c),
                        name.c_str(), (long long)blocks, (long long)r, (long long)node_size, lag,
                        describe(*rep.failure).c_str());
            return 1;
          }
          worst = {worst.plans + 1, std::max(worst.steps, rep.max_steps), std::max(worst.ops, rep.max_ops),
                   std::max(worst.critical_path, rep.critical_path)};
        }
    }
    if (!quiet)
      std::printf("OK %s %s p=%lld:%lld: %lld plans; max %lld steps, max %lld ⊕ per rank, critical path %lld steps\n",
                  collective_name(c), name.c_str(), (long long)range.lo, (long long)range.hi, (long long)worst.plans,
                  (long long)worst.steps, (long long)worst.ops, (long long)worst.critical_path);
  }
  return 0;
}

// --collective's value; an unknown name is a usage error.
Collective collective_option(const cli::po::variables_map& vm) {
  try {
    return parse_collective(vm["collective"].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw cli::UsageError(std::string("--collective: ") + e.what());
  }
}

// --algo's options that none of `names` would use are errors, not ignored.
void reject_unused(const cli::po::variables_map& vm, Collective c, const std::vector<std::string>& names) {
  bool pipelined = false, on_nodes = false, with_lag = false;
  for (const std::string& name : names) {
    const plan::PlanAlgorithm& a = plan::find_plan_algorithm(c, name);
    pipelined |= a.cut == plan::Cut::pipelined;
    on_nodes |= a.build_on_nodes != nullptr;
    with_lag |= a.build_with_lag != nullptr;
  }
  const std::string algo = vm["algo"].as<std::string>();
  const std::string none =
      algo == "all" ? std::string("no ") + collective_name(c) + " algorithm is one" : algo + " is not one";
  if (!rooted(c)) cli::reject_given(vm, {"root"}, std::string("is for bcast and reduce; ") + collective_name(c) + " has no root");
  if (!pipelined) cli::reject_given(vm, {"blocks"}, "is for pipelined algorithms; " + none);
  if (!on_nodes) cli::reject_given(vm, {"node-size"}, "is for the node-aware algorithms; " + none);
  if (!with_lag) cli::reject_given(vm, {"lag"}, "is for the LogP trees; " + none);
}

}  // namespace

int verify_plan(int argc, char** argv) {
  cli::po::options_description opts("verify plan options");
  opts.add_options()("file", value<std::string>(), "plan file (collsim-plan 1 or 2 text format); /dev/stdin reads the input")(
      "collective", value<std::string>(),
      "bcast, reduce, allreduce, scan, exscan, ... (with --file: must agree with the file's header)")(
      "algo", value<std::string>(), "instead of --file: an algorithm of ours with a plan, or all")(
      "p", value<std::string>(), "with --algo: p range A:B (or one p)")(
      "blocks", value<std::string>()->default_value("1,2,7"), "with --algo: block counts of pipelined algorithms")(
      "root", value<std::string>()->default_value("0"), "with --algo: root of bcast and reduce (min(root, p-1))")(
      "node-size", value<std::string>()->default_value("1,2,3,4,7"),
      "with --algo: ranks per node of the node-aware algorithms (block-wise)")(
      "lag", value<std::string>()->default_value("1,1.5,2.5,3.736,8,40"),
      "with --algo: lags of the LogP trees, each 1 <= X <= 65536 (plan --help)")(
      "quiet", "print nothing when the plans are correct");
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm,
                          "usage: collsim verify plan --file F|F.goal [--quiet]\n"
                          "       collsim verify plan --collective C --algo NAME|all --p A:B [--blocks LIST] [--root R]\n"
                          "                               [--node-size LIST] [--lag LIST]\n"
                          "Executes the plan symbolically: every send meets its receive, no deadlock, nothing sent\n"
                          "that is not held, ⊕ joins adjacent intervals (unless commutative), every rank ends with its\n"
                          "result. A lock-step plan's steps are blocking sendrecvs; a graph plan's (order graph) start\n"
                          "when the steps they require have completed, receives posted up front: its sends to one peer\n"
                          "and its steps that touch one block (one writing it) must be ordered by requirements.\n"
                          "A GOAL schedule (F.goal, or a file whose first word is num_ranks: LogGOPSim's,\n"
                          "Schedgen's, `collsim plan --format goal`'s) has no data: every send meets its receive in\n"
                          "MPI's posting order (no wildcard, no unordered sends or receives of one channel that\n"
                          "differ in size, none larger than its receive), and no order its dependencies allow\n"
                          "deadlocks when sends wait for their receives.\n"
                          "Exit 0: correct; 1: a broken rule (rank, step or operation, rule); 2: malformed plan."))
    return 0;
  if (vm.count("file") == vm.count("algo")) throw cli::UsageError("give --file F or --algo NAME|all (one of them)");
  if (vm.count("algo")) {
    if (!vm.count("collective") || !vm.count("p")) throw cli::UsageError("--algo needs --collective and --p");
    const Collective c = collective_option(vm);
    std::vector<std::string> names;
    try {
      const std::string algo = vm["algo"].as<std::string>();
      names = algo == "all" ? plan::plan_algorithms(c) : std::vector<std::string>{plan::find_plan_algorithm(c, algo).name};
    } catch (const std::invalid_argument& e) {
      throw cli::UsageError(e.what());
    }
    reject_unused(vm, c, names);
    const cli::Range range = cli::parse_range(vm["p"].as<std::string>(), "--p", 1, kMaxPlanRanks);
    const auto pipelined = cli::parse_list(vm["blocks"].as<std::string>(), "--blocks", 1, int64_t{1} << 20);
    const int64_t root = cli::parse_int(vm["root"].as<std::string>(), "--root", 0, range.hi - 1);
    const auto nodes = cli::parse_list(vm["node-size"].as<std::string>(), "--node-size", 1, kMaxPlanRanks);
    const auto lag_list = cli::parse_real_list(vm["lag"].as<std::string>(), "--lag", 1, kMaxLag);
    return verify_builders(c, names, range, pipelined, nodes, lag_list, root, vm.count("quiet") > 0);
  }
  // A plan file's header says what --algo's options would: given with
  // --file they would be ignored, and --collective may only agree with it.
  cli::reject_given(vm, {"p", "blocks", "root", "node-size", "lag"}, "is for --algo; a plan file (--file) has its own");
  const std::string path = vm["file"].as<std::string>();
  if (goal::is_goal_file(path)) {
    cli::reject_given(vm, {"collective"}, "is not for a GOAL schedule, which has no collective");
    return verify_goal_file(path, vm.count("quiet") > 0);
  }
  const std::optional<plan::Plan> plan = read_plan_file(path);
  if (!plan) return 2;
  const Collective c = plan->header.collective;
  if (const Collective said = vm.count("collective") ? collective_option(vm) : c; said != c)
    throw cli::UsageError("--collective " + std::string(collective_name(said)) + " contradicts '" + path +
                          "', whose header says " + collective_name(c) + ": drop --collective or make it " +
                          collective_name(c));
  const PlanReport rep = check_plan(*plan);  // std::length_error: exit 2 through main
  if (rep.failure) {
    std::printf("FAIL %s\n", describe(*rep.failure).c_str());
    return 1;
  }
  if (!vm.count("quiet")) print_summary(path, plan->header, rep);
  return 0;
}

}  // namespace collsim
