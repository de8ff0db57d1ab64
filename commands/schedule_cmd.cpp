// `collsim schedule KIND ...`: print a schedule as the paper's table or as CSV.
#include <cstdio>
#include <string>
#include <vector>

#include "args.hpp"
#include "circulant.hpp"
#include "commands.hpp"
#include "two_tree_cmds.hpp"

namespace collsim {

namespace {

using cli::po::value;

// Paper layout (Tables 1-3): one column per rank, rows b, recvblock[k],
// sendblock[k]. Columns are real ranks; the schedule is that of the rank's
// position relative to the root.
void print_circulant_table(const CirculantSchedule& s, int64_t root) {
  const int64_t p = s.p();
  const int q = s.q();
  std::vector<int> recv(static_cast<size_t>(p * q)), send(static_cast<size_t>(p * q)), base(p);
  for (int64_t r = 0; r < p; ++r) {
    const int64_t v = virtual_rank(r, root, p);
    base[r] = s.baseblock(v);
    s.recv(v, &recv[r * q]);
    s.send(v, &send[r * q]);
  }
  std::printf("p=%lld q=%d root=%lld skips:", (long long)p, q, (long long)root);
  for (int k = 0; k <= q; ++k) std::printf(" %lld", (long long)s.skip(k));
  std::printf("\n%-14s", "r:");
  for (int64_t r = 0; r < p; ++r) std::printf("%4lld", (long long)r);
  std::printf("\n%-14s", "b:");
  for (int64_t r = 0; r < p; ++r) std::printf("%4d", base[r]);
  std::printf("\n");
  for (const auto& [name, rows] : {std::pair{"recvblock", &recv}, std::pair{"sendblock", &send}}) {
    for (int k = 0; k < q; ++k) {
      std::printf("%-14s", (std::string(name) + "[" + std::to_string(k) + "]:").c_str());
      for (int64_t r = 0; r < p; ++r) std::printf("%4d", (*rows)[r * q + k]);
      std::printf("\n");
    }
  }
}

// Header root,rank,k,recvblock,sendblock; rank ascending, then k ascending.
// Every row names the root: the schedules hold for ranks counted from it, so
// a reader (verify circulant --file) cannot check the file without it.
void print_circulant_csv(const CirculantSchedule& s, int64_t root) {
  int recv[kMaxRounds], send[kMaxRounds];
  std::printf("root,rank,k,recvblock,sendblock\n");
  for (int64_t r = 0; r < s.p(); ++r) {
    const int64_t v = virtual_rank(r, root, s.p());
    s.recv(v, recv);
    s.send(v, send);
    for (int k = 0; k < s.q(); ++k)
      std::printf("%lld,%lld,%d,%d,%d\n", (long long)root, (long long)r, k, recv[k], send[k]);
  }
}

int schedule_circulant(int argc, char** argv) {
  cli::po::options_description opts("schedule circulant options");
  opts.add_options()("p", value<std::string>()->required(), "number of processors, 1 <= p <= 2^31-1")(
      "root", value<std::string>()->default_value("0"), "broadcast root, 0 <= root < p")(
      "format", value<std::string>()->default_value("table"), "table (paper layout) or csv");
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm,
                          "usage: collsim schedule circulant --p P [--root R] [--format table|csv]\n"
                          "Receive and send schedules of the circulant broadcast (Traff 2024, Algorithms 2-6)."))
    return 0;
  const int64_t p = cli::parse_int(vm["p"].as<std::string>(), "--p", 1, kMaxProcs);
  const int64_t root = cli::parse_int(vm["root"].as<std::string>(), "--root", 0, p - 1);
  const std::string format = vm["format"].as<std::string>();
  cli::require_one_of(format, "format", {"table", "csv"});
  // The table holds every rank's column (8q bytes each) and no one reads
  // more columns than this; CSV streams rank by rank at any p.
  constexpr int64_t kMaxTableColumns = int64_t{1} << 16;
  if (format == "table" && p > kMaxTableColumns)
    throw cli::UsageError("--format table prints one column per rank and is limited to p <= 65536; "
                          "--format csv streams any p");
  const CirculantSchedule s(p);
  if (format == "csv")
    print_circulant_csv(s, root);
  else
    print_circulant_table(s, root);
  return 0;
}

constexpr cli::Entry kSchedules[] = {
    {"circulant", schedule_circulant, "circulant broadcast schedule (Traff 2024)"},
    {"two-tree", schedule_two_tree, "two inorder trees and their 0/1 edge colouring (Sanders/Speck/Traff)"},
};

}  // namespace

int schedule_command(int argc, char** argv) { return cli::dispatch("collsim schedule", kSchedules, argc, argv); }

}  // namespace collsim
