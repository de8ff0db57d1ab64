// `collsim bench two-tree`: time to colour both trees for all p ranks, beside
// the paper's Table 1 (seed 002 §3.3: linear colouring on a 2.1 GHz Athlon).
// A benchmark, not a test: it prints numbers and asserts nothing.
#include <chrono>
#include <cstdio>

#include "args.hpp"
#include "two_tree_cmds.hpp"
#include "two_tree_coloring.hpp"

namespace collsim {

namespace {

using Clock = std::chrono::steady_clock;

struct Table1Row {
  int64_t p;
  double paper_us;  // "Two tree 0/1-coloring"
};
constexpr Table1Row kTable1[] = {
    {100, 71.75}, {1000, 443.37}, {10000, 13651.42}, {100000, 209919.33}, {1000000, 1990228.74},
};

double us_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// Parents and the Boost.Graph path colouring for all ranks (what the paper's
// column measures: the whole O(p) precomputation).
double linear_us(const TwoTree& tt) {
  const auto start = Clock::now();
  const TwoTreeTable t = two_tree_table(tt, Coloring::linear);
  const double us = us_since(start);
  if (t.color[0].empty()) std::puts("");  // keeps the work observable
  return us;
}

// What each rank computes for itself: parent, children and in-edge colour in
// both trees, summed over all p ranks (a rank needs only its own).
double per_rank_us(int64_t p) {
  int64_t sink = 0;
  const auto start = Clock::now();
  const TwoTree tt(p, 0);
  for (int64_t r = 0; r < tt.p(); ++r)
    for (int tree = 1; tree <= 2; ++tree) {
      int64_t out[2];
      sink += tt.parent(tree, r) + tt.children(tree, r, out) + tt.log_color(tree, r);
    }
  const double us = us_since(start);
  if (sink == INT64_MIN) std::puts("");
  return us;
}

}  // namespace

int bench_two_tree(int argc, char** argv) {
  cli::po::options_description opts("bench two-tree options");
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm,
                          "usage: collsim bench two-tree\n"
                          "Colouring time for p = 10^2..10^6 beside Sanders/Speck/Traff Table 1."))
    return 0;
  std::printf("%9s %16s %18s %18s %18s\n", "p", "linear us", "per-rank all us", "per-rank us/rank",
              "paper linear us");
  for (const auto& row : kTable1) {
    const TwoTree tt(row.p, 0);
    const double lin = linear_us(tt), per_rank = per_rank_us(row.p);
    std::printf("%9lld %16.2f %18.2f %18.4f %18.2f\n", (long long)row.p, lin, per_rank, per_rank / double(row.p),
                row.paper_us);
    std::fflush(stdout);
  }
  std::printf("per-rank: TwoTree(p, root) (its O(log^3 p) block table) once, then parent + children + colour in\n"
              "both trees for every rank; a real rank computes only its own.\n");
  return 0;
}

}  // namespace collsim
