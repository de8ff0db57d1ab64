// `collsim verify circulant`: exhaustive sweep over a range of p, or a file.
// Exit status: 0 all checks hold, 1 a counterexample (printed), 2 bad input.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "args.hpp"
#include "bounded_stream.hpp"
#include "circulant_check.hpp"
#include "circulant_sweep.hpp"
#include "range_sweep.hpp"
#include "schedule_csv.hpp"
#include "verify_kinds.hpp"

namespace collsim {

namespace {

using cli::po::value;

void print_sweep(cli::Range range, const CirculantSweep& s, double seconds) {
  std::printf("verify circulant: p = %lld..%lld, %lld processors checked in %.2f s\n", (long long)range.lo,
              (long long)range.hi, (long long)s.processors, seconds);
  std::printf("  largest recursion count (Lemma 5, <= q-1): %d at p=%lld rank=%lld\n", s.worst.max_recursive_calls,
              (long long)s.p_of_max_recursion, (long long)s.worst.rank_of_max_recursion);
  std::printf("  send-schedule violations (Theorem 3, <= 4): max %d at p=%lld rank=%lld; processors by count:",
              s.worst.max_violations, (long long)s.p_of_max_violations, (long long)s.worst.rank_of_max_violations);
  for (int v = 0; v <= s.worst.max_violations; ++v)
    std::printf(" %d:%lld", v, (long long)s.worst.violation_histogram[v]);
  std::printf("\n");
}

// Started by Open MPI's mpirun with several ranks, this (MPI-free) program
// becomes collsim-verify-mpi, which splits the range over the ranks.
void exec_mpi_version_under_mpirun(int argc, char** argv) {
  const char* ranks = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (!ranks || std::atoi(ranks) < 2) return;
  std::vector<char*> args{const_cast<char*>(COLLSIM_VERIFY_MPI)};
  args.insert(args.end(), argv, argv + argc);
  args.push_back(nullptr);
  execv(COLLSIM_VERIFY_MPI, args.data());
  throw std::runtime_error(std::string("cannot start ") + COLLSIM_VERIFY_MPI + ": " + std::strerror(errno));
}

// --root as given (range-checked against the file's p later).
std::optional<int64_t> root_option(const cli::po::variables_map& vm) {
  if (!vm.count("root")) return std::nullopt;
  return cli::parse_int(vm["root"].as<std::string>(), "--root", 0, kMaxProcs - 1);
}

// The root the file's ranks are counted from: its root column, else --root,
// else 0 (files from before the column were all written for root 0).
int64_t root_of_file(const CirculantCsv& file, std::optional<int64_t> root_given, const std::string& path) {
  if (file.root && root_given && *file.root != *root_given)
    throw cli::UsageError("--root " + std::to_string(*root_given) + " disagrees with the root column of '" + path +
                          "' (" + std::to_string(*file.root) + ")");
  const int64_t root = file.root.value_or(root_given.value_or(0));
  if (root >= file.table.p)
    throw cli::UsageError("--root " + std::to_string(root) + " is not a rank of '" + path + "' (p=" +
                          std::to_string(file.table.p) + ")");
  return root;
}

// The checks count ranks from the root; the failing rank is named as the
// file numbers it, and the note says how to read the ranks in the detail.
std::string describe_in_file(Counterexample c, int64_t root) {
  if (root == 0) return describe(c);
  c.rank = (c.rank + root) % c.p;
  const std::string r = std::to_string(root);
  return describe(c) + " [root " + r + "; ranks in the detail count from the root: v = (rank - " + r + ") mod " +
         std::to_string(c.p) + "]";
}

int verify_file(const std::string& path, const std::vector<int64_t>& blocks, std::optional<int64_t> root_given) {
  BoundedFileStream in(path, kMaxScheduleCsvBytes, "schedule CSV");  // none, a directory, too big: one line
  CirculantCsv file;
  try {
    file = read_circulant_csv(in, path);
  } catch (const MalformedInput& e) {
    std::fprintf(stderr, "collsim verify circulant: malformed schedule: %s\n", e.what());
    return 2;
  }
  const int64_t root = root_of_file(file, root_given, path);
  const CirculantTable table = counted_from_root(std::move(file.table), root);
  if (auto failure = check_table(table, blocks)) {
    std::printf("FAIL %s\n", describe_in_file(*failure, root).c_str());
    return 1;
  }
  std::printf("OK %s: p=%lld root=%lld, conditions 1-4 and Algorithm 1 data flow hold\n", path.c_str(),
              (long long)table.p, (long long)root);
  return 0;
}

}  // namespace

// A check at p holds its schedule tables and the data flow's state: 60
// bytes a rank measured at p = 2^22, rounded up.
constexpr int64_t kCheckBytesPerRank = 64;

int verify_circulant(int argc, char** argv) {
  exec_mpi_version_under_mpirun(argc, argv);
  return verify_circulant(argc, argv, sweep_circulant);
}

int verify_circulant(int argc, char** argv, const CirculantSweeper& sweeper) {
  cli::po::options_description opts("verify circulant options");
  opts.add_options()("p", value<std::string>(), "range of processor counts A:B (or one p)")(
      "file", value<std::string>(), "check a schedule CSV (header root,rank,k,recvblock,sendblock) instead")(
      "root", value<std::string>(), "with --file: the root of a CSV without the root column (default 0)")(
      "blocks", value<std::string>(),
      "block counts n for the Algorithm 1 data-flow simulation, e.g. 1,5,40 (default: 1,2,q-1,q,q+1,3q+2)")(
      "threads", value<std::string>()->default_value("1"), "worker threads over the range of p");
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm,
                          "usage: collsim verify circulant --p A:B [--blocks LIST] [--threads N]\n"
                          "       collsim verify circulant --file F.csv [--root R] [--blocks LIST]\n"
                          "Checks the four correctness conditions of Traff 2024 §2, Lemma 5, Theorem 3 and a\n"
                          "data-flow simulation of Algorithm 1. Exit 0: all hold; 1: counterexample; 2: bad input."))
    return 0;
  if (vm.count("p") == vm.count("file")) throw cli::UsageError("give exactly one of --p A:B and --file F.csv");
  std::vector<int64_t> blocks;
  if (vm.count("blocks")) blocks = cli::parse_list(vm["blocks"].as<std::string>(), "--blocks", 1, 1 << 20);
  const int threads = static_cast<int>(cli::parse_int(vm["threads"].as<std::string>(), "--threads", 1, 256));

  if (vm.count("file")) {
    cli::reject_given(vm, {"threads"}, "is for --p; a file is checked on one thread");
    return verify_file(vm["file"].as<std::string>(), blocks, root_option(vm));
  }
  if (vm.count("root")) throw cli::UsageError("--root applies to --file only");
  const cli::Range range = cli::parse_range(vm["p"].as<std::string>(), "--p", 1, kMaxProcs);
  check_sweep_memory(range, threads, kCheckBytesPerRank, "verify circulant");
  const auto start = std::chrono::steady_clock::now();
  const CirculantSweep result = sweeper(range, blocks, threads);
  print_sweep(range, result, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  if (result.failure) {
    std::printf("FAIL %s\n", describe(*result.failure).c_str());
    return 1;
  }
  std::printf("OK: conditions 1-4, baseblock listing, Lemma 5, Theorem 3 and Algorithm 1 data flow hold\n");
  return 0;
}

}  // namespace collsim
