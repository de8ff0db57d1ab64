// `collsim verify two-tree`: exhaustive sweep over a range of p, or a file.
// Exit status: 0 all checks hold, 1 a counterexample (printed), 2 bad input.
#include <chrono>
#include <cstdio>
#include <algorithm>
#include <fstream>
#include <sstream>

#include "args.hpp"
#include "bounded_stream.hpp"
#include "schedule_csv.hpp"
#include "range_sweep.hpp"
#include "two_tree_check.hpp"
#include "verify_kinds.hpp"

namespace collsim {

namespace {

using cli::po::value;

// The broadcast root of a checked table: the one rank without a parent. A
// file names it only implicitly (the rank without rows, the tree roots'
// parent), so the OK line says which root the trees were checked against.
int64_t broadcast_root(const TwoTreeTable& t) {
  int64_t r = 0;
  while (t.parent_of(1, r) >= 0) ++r;
  return r;
}

int verify_file(const std::string& path) {
  BoundedFileStream in(path, kMaxScheduleCsvBytes, "schedule CSV");  // none, a directory, too big: one line
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
  std::printf("OK %s: p=%lld root=%lld, trees, in-order numbering, depth, leaf/interior and Lemma 1 hold\n",
              path.c_str(), (long long)t.p, (long long)broadcast_root(t));
  return 0;
}

// "linear", "log" or both, comma-separated; throws std::invalid_argument.
std::vector<Coloring> colorings_from_list(const std::string& list) {
  std::vector<Coloring> colorings;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');) {
    const Coloring c = coloring_from_name(name);
    if (std::find(colorings.begin(), colorings.end(), c) != colorings.end())
      throw std::invalid_argument("coloring '" + name + "' given twice");
    colorings.push_back(c);
  }
  if (colorings.empty()) throw std::invalid_argument("--coloring: empty list; known: linear, log");
  return colorings;
}

// Σp ranks for the range, O(1) per rank and tree apart from children()
// (O(log p) at worst); the trees are checked once per p, each colouring's
// Lemma 1 after them. The smallest failing p is reported.
int verify_range(cli::Range range, const std::string& coloring_list, int threads) {
  const std::vector<Coloring> colorings = colorings_from_list(coloring_list);
  // The trees' arrays, and the linear colouring's: 47 and 140 bytes a rank
  // measured at p = 2^22, rounded up.
  const bool linear = std::find(colorings.begin(), colorings.end(), Coloring::linear) != colorings.end();
  check_sweep_memory(range, threads, linear ? 144 : 48, "verify two-tree");
  const auto start = std::chrono::steady_clock::now();
  const double all = 0.5 * double(range.hi + range.lo) * double(range.hi - range.lo + 1);
  const auto failure = sweep_range(range, threads, "verify two-tree", [&colorings](int64_t p) {
    thread_local TwoTreeChecker checker;  // keeps its arrays from one p to the next
    return checker.verify_p(p, p / 2, colorings);
  });
  if (failure) {
    std::printf("FAIL %s\n", describe(*failure).c_str());
    return 1;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("verify two-tree --coloring %s: p = %lld..%lld (root p/2), %.0f processors checked in %.2f s, %d thread%s\n",
              coloring_list.c_str(), (long long)range.lo, (long long)range.hi, all, seconds, threads,
              threads == 1 ? "" : "s");
  std::printf("OK: spanning trees, in-order numbering, <= 2 children, leaf/interior, depth, children(), Lemma 1\n");
  return 0;
}

}  // namespace

int verify_two_tree(int argc, char** argv) {
  cli::po::options_description opts("verify two-tree options");
  opts.add_options()("p", value<std::string>(), "range of processor counts A:B (or one p), p >= 2")(
      "file", value<std::string>(), "check a schedule CSV (header tree,rank,parent,color) instead")(
      "coloring", value<std::string>()->default_value("linear,log"),
      "linear (Lemma 1 proof), log (per rank), or both: linear,log")(
      "threads", value<std::string>()->default_value("1"), "worker threads over the range of p");
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm,
                          "usage: collsim verify two-tree --p A:B [--coloring linear|log|linear,log] [--threads N]\n"
                          "       collsim verify two-tree --file F.csv\n"
                          "Checks the two trees of Sanders/Speck/Traff §2 and the 0/1 colouring of Lemma 1.\n"
                          "Exit 0: all hold; 1: counterexample; 2: bad input."))
    return 0;
  if (vm.count("p") == vm.count("file")) throw cli::UsageError("give exactly one of --p A:B and --file F.csv");
  const std::string coloring = vm["coloring"].as<std::string>();
  colorings_from_list(coloring);  // rejects unknown names, also with --file
  if (vm.count("file")) {
    if (!vm["coloring"].defaulted()) throw cli::UsageError("--coloring applies to --p only (a file has its colours)");
    cli::reject_given(vm, {"threads"}, "is for --p; a file is checked on one thread");
    return verify_file(vm["file"].as<std::string>());
  }
  const int threads = static_cast<int>(cli::parse_int(vm["threads"].as<std::string>(), "--threads", 1, 256));
  return verify_range(cli::parse_range(vm["p"].as<std::string>(), "--p", 2, kMaxProcs), coloring, threads);
}

}  // namespace collsim
