// `collsim verify two-tree`: exhaustive sweep over a range of p, or a file.
// Exit status: 0 all checks hold, 1 a counterexample (printed), 2 bad input.
#include <chrono>
#include <cstdio>
#include <fstream>

#include "args.hpp"
#include "schedule_csv.hpp"
#include "two_tree_check.hpp"
#include "verify_kinds.hpp"

namespace collsim {

namespace {

using cli::po::value;

int verify_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw cli::UsageError("cannot open '" + path + "'");
  TwoTreeTable t;
  try {
    t = read_two_tree_csv(in, path);
  } catch (const MalformedInput& e) {
    std::fprintf(stderr, "collsim verify two-tree: malformed schedule: %s\n", e.what());
    return 2;
  }
  if (auto failure = check_two_tree(t)) {
    std::printf("FAIL %s\n", describe(*failure).c_str());
    return 1;
  }
  std::printf("OK %s: p=%lld, trees, in-order numbering, depth, leaf/interior and Lemma 1 hold\n", path.c_str(),
              (long long)t.p);
  return 0;
}

// Single-threaded: Σp ranks for the range, O(1) per rank and tree apart from
// children() (O(log p) at worst).
int verify_range(cli::Range range, const std::string& coloring_name) {
  const Coloring coloring = coloring_from_name(coloring_name);
  const auto start = std::chrono::steady_clock::now();
  const double all = 0.5 * double(range.hi + range.lo) * double(range.hi - range.lo + 1);
  double done = 0;
  cli::Progress progress("verify two-tree");
  for (int64_t p = range.lo; p <= range.hi; ++p) {
    if (auto failure = verify_two_tree_p(p, p / 2, coloring)) {
      std::printf("FAIL %s\n", describe(*failure).c_str());
      return 1;
    }
    done += double(p);
    progress.update(done / all, "p=" + std::to_string(p));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("verify two-tree --coloring %s: p = %lld..%lld, %.0f processors checked in %.2f s\n",
              coloring_name.c_str(), (long long)range.lo, (long long)range.hi, all, seconds);
  std::printf("OK: spanning trees, in-order numbering, <= 2 children, leaf/interior, depth, children(), Lemma 1\n");
  return 0;
}

}  // namespace

int verify_two_tree(int argc, char** argv) {
  cli::po::options_description opts("verify two-tree options");
  opts.add_options()("p", value<std::string>(), "range of processor counts A:B (or one p), p >= 2")(
      "file", value<std::string>(), "check a schedule CSV (header tree,rank,parent,color) instead")(
      "coloring", value<std::string>()->default_value("linear"), "linear (Lemma 1 proof) or log (per rank)");
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm,
                          "usage: collsim verify two-tree --p A:B [--coloring linear|log]\n"
                          "       collsim verify two-tree --file F.csv\n"
                          "Checks the two trees of Sanders/Speck/Traff §2 and the 0/1 colouring of Lemma 1.\n"
                          "Exit 0: all hold; 1: counterexample; 2: bad input."))
    return 0;
  if (vm.count("p") == vm.count("file")) throw cli::UsageError("give exactly one of --p A:B and --file F.csv");
  const std::string coloring = vm["coloring"].as<std::string>();
  cli::require_one_of(coloring, "coloring", {"linear", "log"});
  if (vm.count("file")) {
    if (!vm["coloring"].defaulted()) throw cli::UsageError("--coloring applies to --p only (a file has its colours)");
    return verify_file(vm["file"].as<std::string>());
  }
  return verify_range(cli::parse_range(vm["p"].as<std::string>(), "--p", 2, kMaxProcs), coloring);
}

}  // namespace collsim
