// `collsim schedule two-tree`: both trees' parents and edge colours.
#include <cstdio>
#include <string>

#include "args.hpp"
#include "circulant.hpp"  // kMaxProcs
#include "two_tree_cmds.hpp"
#include "two_tree_coloring.hpp"

namespace collsim {

namespace {

// Whole tables (the table format, the linear colouring) take O(p) memory,
// about 100 bytes per rank (1.7 GB peak measured at 2^24 with the linear
// colouring): above this they are refused up front, never left to run out
// of memory. CSV with the log colouring streams at any p.
constexpr int64_t kMaxWholeTable = int64_t{1} << 24;

// Header tree,rank,parent,color; tree 1 then 2, ranks ascending, root left out.
void print_csv_row(int tree, int64_t r, int64_t parent, int color) {
  std::printf("%d,%lld,%lld,%d\n", tree, (long long)r, (long long)parent, color);
}

void print_csv(const TwoTreeTable& t) {
  std::printf("tree,rank,parent,color\n");
  for (int tree = 1; tree <= 2; ++tree)
    for (int64_t r = 0; r < t.p; ++r)
      if (t.parent_of(tree, r) >= 0) print_csv_row(tree, r, t.parent_of(tree, r), t.color_of(tree, r));
}

// The same rows one rank at a time (O(1) memory): parents and the per-rank
// colouring computed as they are printed.
void stream_csv_log(const TwoTree& tt) {
  std::printf("tree,rank,parent,color\n");
  for (int tree = 1; tree <= 2; ++tree)
    for (int64_t r = 0; r < tt.p(); ++r)
      if (tt.parent(tree, r) >= 0) print_csv_row(tree, r, tt.parent(tree, r), tt.log_color(tree, r));
}

// One line per rank: parent and in-edge colour per tree, and the children.
void print_table(const TwoTree& tt, const TwoTreeTable& t) {
  std::printf("p=%lld root=%lld T1 root=%lld T2 root=%lld\n", (long long)t.p, (long long)tt.root(),
              (long long)tt.tree_root(1), (long long)tt.tree_root(2));
  std::printf("%8s | %8s %5s %-17s | %8s %5s %-17s\n", "rank", "T1 par", "color", "T1 children", "T2 par", "color",
              "T2 children");
  for (int64_t r = 0; r < t.p; ++r) {
    std::printf("%8lld", (long long)r);
    for (int tree = 1; tree <= 2; ++tree) {
      int64_t out[2];
      const int n = tt.children(tree, r, out);
      std::string kids;
      for (int i = 0; i < n; ++i) kids += (i ? " " : "") + std::to_string(out[i]);
      if (r == tt.root())
        std::printf(" | %8s %5s %-17s", "-", "-", kids.c_str());
      else
        std::printf(" | %8lld %5d %-17s", (long long)t.parent_of(tree, r), t.color_of(tree, r),
                    (n ? kids : "leaf").c_str());
    }
    std::printf("\n");
  }
}

}  // namespace

int schedule_two_tree(int argc, char** argv) {
  using cli::po::value;
  cli::po::options_description opts("schedule two-tree options");
  opts.add_options()("p", value<std::string>()->required(), "number of processors, 2 <= p <= 2^31-1")(
      "root", value<std::string>()->default_value("0"), "broadcast root, 0 <= root < p")(
      "coloring", value<std::string>()->default_value("linear"),
      "linear (Lemma 1 proof, O(p)) or log (per rank, O(log p))")(
      "format", value<std::string>()->default_value("table"), "table or csv");
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm,
                          "usage: collsim schedule two-tree --p P [--root R] [--coloring linear|log] "
                          "[--format table|csv]\n"
                          "The two inorder trees T1, T2 and their 0/1 edge colouring (Sanders/Speck/Traff §2)."))
    return 0;
  const int64_t p = cli::parse_int(vm["p"].as<std::string>(), "--p", 2, kMaxProcs);
  const int64_t root = cli::parse_int(vm["root"].as<std::string>(), "--root", 0, p - 1);
  const Coloring coloring = coloring_from_name(vm["coloring"].as<std::string>());
  const std::string format = vm["format"].as<std::string>();
  cli::require_one_of(format, "format", {"table", "csv"});
  const TwoTree tt(p, root);
  if (format == "csv" && coloring == Coloring::log) {
    stream_csv_log(tt);
    return 0;
  }
  if (p > kMaxWholeTable)
    throw cli::UsageError("p = " + std::to_string(p) + ": the table format and the linear colouring hold all ranks " +
                          "at once and are limited to p <= 2^24; --format csv --coloring log streams any p");
  const TwoTreeTable t = two_tree_table(tt, coloring);
  if (format == "csv")
    print_csv(t);
  else
    print_table(tt, t);
  return 0;
}

}  // namespace collsim
