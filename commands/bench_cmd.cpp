// `collsim bench schedules`: per-processor time of receive + send schedule
// computation over the processor ranges of Traff 2024, Table 4. A benchmark,
// not a test: it prints numbers and asserts nothing.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "args.hpp"
#include "circulant_table.hpp"
#include "commands.hpp"
#include "two_tree_cmds.hpp"

namespace collsim {

namespace {

using cli::po::value;
using Clock = std::chrono::steady_clock;

struct Table4Row {
  int64_t lo, hi;
  double paper_us;  // the paper's O(log p) per-processor column
};

constexpr Table4Row kTable4[] = {
    {1, 17000, 0.334},           {16000, 33000, 0.370},     {64000, 73000, 0.454},
    {131000, 140000, 0.534},     {262000, 267000, 0.548},   {524000, 529000, 0.566},
    {1048000, 1050000, 0.516},   {2097000, 2099000, 0.608},
};

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Direct: Algorithm 5 then Algorithm 6 for each rank on its own, each
// violation recomputing the to-processor's receive schedule.
double direct_seconds(const CirculantSchedule& s) {
  int recv[kMaxRounds], send[kMaxRounds];
  int64_t sink = 0;
  const auto start = Clock::now();
  for (int64_t r = 0; r < s.p(); ++r) {
    s.recv(r, recv);
    s.send(r, send);
    sink += recv[0] + send[0];
  }
  const double t = seconds_since(start);
  if (sink == INT64_MIN) std::puts("");  // keeps the loop from being optimised away
  return t;
}

// Batch: all ranks of one p with the linear baseblock listing; sends by
// Algorithm 6 with table look-ups for violations, or read off the receive
// table (circulant_table.hpp).
double batch_seconds(const CirculantSchedule& s, SendRule rule) {
  const auto start = Clock::now();
  const CirculantTable t = compute_all_ranks(s, nullptr, rule);
  const double elapsed = seconds_since(start);
  if (t.send.size() != static_cast<size_t>(s.p() * s.q())) std::puts("");
  return elapsed;
}

int bench_schedules(int argc, char** argv) {
  cli::po::options_description opts("bench schedules options");
  opts.add_options()("samples", value<std::string>()->default_value("5"), "sampled p per Table 4 range")(
      "max-p", value<std::string>()->default_value("2099000"), "skip ranges that start above this p");
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm,
                          "usage: collsim bench schedules [--samples N] [--max-p P]\n"
                          "Per-processor receive+send schedule time (microseconds) over the p ranges of\n"
                          "Traff 2024, Table 4: direct = Algorithms 5+6 per rank; batch-alg6 = all ranks of one p\n"
                          "with the O(p) baseblock listing, Algorithm 6 answering violations from the table;\n"
                          "batch-lookup = the same receive pass, sends read off the receive table."))
    return 0;
  const int64_t samples = cli::parse_int(vm["samples"].as<std::string>(), "--samples", 1, 1000);
  const int64_t max_p = cli::parse_int(vm["max-p"].as<std::string>(), "--max-p", 1, kMaxProcs);
  std::printf("%-22s %8s %12s %12s %12s %12s\n", "proc. range p", "samples", "direct", "batch-alg6",
              "batch-lookup", "paper");
  for (const auto& row : kTable4) {
    if (row.lo > max_p) break;
    // Total time over total processors of the sampled p (in microseconds).
    double direct = 0, alg6 = 0, lookup = 0, procs = 0;
    for (int64_t i = 0; i < samples; ++i) {
      const int64_t p = row.lo + (row.hi - row.lo) * i / std::max<int64_t>(samples - 1, 1);
      const CirculantSchedule s(p);
      direct += direct_seconds(s);
      alg6 += batch_seconds(s, SendRule::algorithm6);
      lookup += batch_seconds(s, SendRule::lookup);
      procs += double(p);
    }
    const std::string range = "[" + std::to_string(row.lo) + ", " + std::to_string(row.hi) + "]";
    std::printf("%-22s %8lld %12.3f %12.3f %12.3f %12.3f\n", range.c_str(), (long long)samples, 1e6 * direct / procs,
                1e6 * alg6 / procs, 1e6 * lookup / procs, row.paper_us);
    std::fflush(stdout);
  }
  return 0;
}

constexpr cli::Entry kBenchmarks[] = {
    {"schedules", bench_schedules, "circulant receive+send schedule time per processor (Table 4)"},
    {"two-tree", bench_two_tree, "two-tree colouring time, linear and per rank (Sanders/Speck/Traff Table 1)"},
};

}  // namespace

int bench_command(int argc, char** argv) { return cli::dispatch("collsim bench", kBenchmarks, argc, argv); }

}  // namespace collsim
