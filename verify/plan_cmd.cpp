// `collsim verify plan --file F`: reads a plan file (schedules/plan.hpp) and
// checks it symbolically (plan_check.hpp). Exit status: 0 correct, 1 a broken
// rule (one line), 2 malformed file or bad input (one line).
#include <cstdio>
#include <fstream>
#include <optional>
#include <stdexcept>

#include "args.hpp"
#include "plan_check.hpp"
#include "verify_kinds.hpp"

namespace collsim {

namespace {

using cli::po::value;

// The plan, or none after one line on stderr saying why the file is malformed.
std::optional<plan::Plan> read_plan_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw cli::UsageError("cannot open '" + path + "'");
  try {
    return plan::read_plan(in);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "collsim verify plan: malformed plan %s: %s\n", path.c_str(), e.what());
    return std::nullopt;
  }
}

void print_summary(const std::string& path, const plan::Header& h, const PlanReport& rep) {
  std::printf("OK %s: %s p=%lld blocks=%lld%s: every rank ends with its result; max %lld steps, max %lld ⊕ per rank, "
              "critical path %lld steps\n",
              path.c_str(), collective_name(h.collective), (long long)h.p, (long long)h.blocks,
              h.commutative ? " (commutative)" : "", (long long)rep.max_steps, (long long)rep.max_ops,
              (long long)rep.critical_path);
}

}  // namespace

int verify_plan(int argc, char** argv) {
  cli::po::options_description opts("verify plan options");
  opts.add_options()("file", value<std::string>(), "plan file (collsim-plan 1 text format); /dev/stdin reads the input")(
      "quiet", "print nothing when the plan is correct");
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm,
                          "usage: collsim verify plan --file F [--quiet]\n"
                          "Executes the plan symbolically: every send meets its receive, no deadlock, nothing sent\n"
                          "that is not held, ⊕ joins adjacent intervals (unless commutative), every rank ends with its\n"
                          "result. Exit 0: correct; 1: a broken rule (rank, step, block, rule); 2: malformed plan."))
    return 0;
  if (!vm.count("file")) throw cli::UsageError("give --file F");
  const std::string path = vm["file"].as<std::string>();
  const std::optional<plan::Plan> plan = read_plan_file(path);
  if (!plan) return 2;
  const PlanReport rep = check_plan(*plan);  // std::length_error: exit 2 through main
  if (rep.failure) {
    std::printf("FAIL %s\n", describe(*rep.failure).c_str());
    return 1;
  }
  if (!vm.count("quiet")) print_summary(path, plan->header, rep);
  return 0;
}

}  // namespace collsim
