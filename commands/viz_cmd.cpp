// `collsim viz KIND --p P --out F.dot|F.svg|F.png`: pictures of schedules.
#include <stdexcept>

#include "args.hpp"
#include "commands.hpp"
#include "viz.hpp"

namespace collsim {

namespace {

using cli::po::value;

int64_t drawn_p(const cli::po::variables_map& vm) {
  return cli::parse_int(vm["p"].as<std::string>(), "--p", 2, viz::kMaxDrawnProcs);
}

int viz_two_tree(int argc, char** argv) {
  cli::po::options_description opts("viz two-tree options");
  opts.add_options()("p", value<std::string>()->required(), "number of processors, 2 <= p <= 512")(
      "root", value<std::string>(), "broadcast root (default p-1, as in the paper's Fig. 1)")(
      "coloring", value<std::string>()->default_value("linear"), "linear or log")(
      "out", value<std::string>()->required(), "output file: .dot, .svg or .png");
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm,
                          "usage: collsim viz two-tree --p P [--root R] [--coloring linear|log] --out F.dot|F.svg|F.png\n"
                          "T1 top-down and T2 bottom-up as in Sanders/Speck/Traff Fig. 1, edges by 0/1 colour."))
    return 0;
  const int64_t p = drawn_p(vm);
  const int64_t root = vm.count("root") ? cli::parse_int(vm["root"].as<std::string>(), "--root", 0, p - 1) : p - 1;
  const Coloring coloring = coloring_from_name(vm["coloring"].as<std::string>());
  const TwoTree tt(p, root);
  viz::render(viz::two_tree_dot(tt, two_tree_table(tt, coloring)), vm["out"].as<std::string>());
  return 0;
}

int viz_circulant(int argc, char** argv) {
  cli::po::options_description opts("viz circulant options");
  opts.add_options()("p", value<std::string>()->required(), "number of processors, 2 <= p <= 512")(
      "rank", value<std::string>(), "highlight this rank's receive schedule")(
      "out", value<std::string>()->required(), "output file: .dot, .svg or .png");
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm,
                          "usage: collsim viz circulant --p P [--rank R] --out F.dot|F.svg|F.png\n"
                          "The circulant graph (Traff 2024) with its skips; optionally one rank's receive schedule."))
    return 0;
  const int64_t p = drawn_p(vm);
  std::optional<int64_t> rank;
  if (vm.count("rank")) rank = cli::parse_int(vm["rank"].as<std::string>(), "--rank", 0, p - 1);
  viz::render(viz::circulant_dot(CirculantSchedule(p), rank), vm["out"].as<std::string>());
  return 0;
}

constexpr cli::Entry kPictures[] = {
    {"two-tree", viz_two_tree, "both trees with their 0/1 edge colouring (Fig. 1 layout)"},
    {"circulant", viz_circulant, "circulant graph with skips, optionally one rank's receive schedule"},
};

}  // namespace

int viz_command(int argc, char** argv) { return cli::dispatch("collsim viz", kPictures, argc, argv); }

}  // namespace collsim
