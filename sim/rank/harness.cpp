// main() of libcollsim-smpi.so, the program smpirun runs: times catalog
// algorithms after the mpicroscope/OSU method and checks every result.
//
//   smpirun ... libcollsim-smpi.so --collective C --algos a,b --sizes 0,4096
//       --roots 0,3 [--blocks N] --alpha A --beta B --gamma G --duplex full|half --reps R --warmup W
//       [--op bxor|matmul] [--layout even|ramp|single|mod3] [--scale 0|1]
//
// For each algorithm × size × root: W warm-up and R timed repetitions. Each
// repetition starts at one common instant (all ranks agree on the largest
// MPI_Wtime and sleep until a start safely after it), so no rank's barrier
// exit skew enters the time; the time of a repetition is that of the slowest
// rank; the result is the minimum over repetitions. Before each repetition
// every rank gets fresh inputs that depend on the repetition, and afterwards
// checks its whole result, in scale mode (--scale 1) its window part
// (workload.hpp). Rank 0 prints one CSV row per case
// on stdout (header first), `correct` 0 where any rank's result was wrong;
// the first wrong rank says where on stderr; `checked_ranks` says how many
// ranks checked any of their result (all but reduce_scatter's ranks beyond
// the window in scale mode, see workload.hpp). Exit status 1 if any result
// was wrong or any rank started late.
//
// All per-rank state is local to main: under -no-privatize ranks share globals.
//
// Built against Open MPI the same file is collsim-mpi, run by mpirun on real
// machines. There the common start is an instant of each node's own clock:
// on one node all ranks share it; across nodes MPI_Wtime is not synchronised
// (MPI_WTIME_IS_GLOBAL is false), so the start skew enters the times. A rank
// that wakes late (the OS scheduler, oversubscription) is no error there: the
// delay counts in its time, as the simulator's exact start cannot be had.
// SimGrid's built-ins (smpi:*) exist only in the simulator.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "block_policy.hpp"
#include "collective.hpp"
#include "goal_executor.hpp"
#include "goal_read.hpp"
#include "plan_executor.hpp"
#include "protocol.hpp"
#include "run_table.hpp"
#include "start_instant.hpp"
#include "workload.hpp"

namespace collsim::sim {
namespace {

#ifdef COLLSIM_SMPI
constexpr const char* kProgram = "collsim-smpi";
constexpr bool kSimulated = true;
#else
constexpr const char* kProgram = "collsim-mpi";
constexpr bool kSimulated = false;
#endif

// One thing to time: a catalog row, or a plan from a file (run by the plan
// executor; no model, its block count is the plan's), or a GOAL schedule
// (run by the GOAL executor: no data, no collective, its own sizes).
struct Candidate {
  std::string name;  // the catalog name, or "plan:" and the file's name
  const Algorithm* row = nullptr;
  std::shared_ptr<const plan::Plan> plan;
  std::shared_ptr<const goal::Schedule> goal;
  void run(const CollArgs& args) const { plan ? run_plan(*plan, args) : run_function(*row)(args); }
};

// The protocol's arguments with the names looked up in the catalog and the
// plan files read.
struct Options {
  HarnessArgs args;
  std::vector<Candidate> candidates;
};

// The plan file at `path`, read and parsed once per process. Under
// smpirun -no-privatize the ranks are threads of one process and share this
// cache (a static on purpose): p ranks hold one parse, not p. Under mpirun
// each rank is a process and reads its own. A file that does not parse
// gives every rank the same error, also from the cache. SimGrid runs one
// rank at a time and parsing calls no MPI, so the lock is never contended
// there; it guards threads that really are concurrent.
// The same for a GOAL schedule (one cache per type T, read by `read`).
template <class T, class Read>
std::shared_ptr<const T> shared_parse(const std::string& path, Read read) {
  struct Parsed {
    std::shared_ptr<const T> value;
    std::string error;
  };
  static std::mutex mutex;
  static std::map<std::string, Parsed> parsed;
  const std::lock_guard<std::mutex> lock(mutex);
  auto [it, first] = parsed.try_emplace(path);
  if (first) {
    try {
      it->second.value = std::make_shared<const T>(read(path));
    } catch (const std::invalid_argument& e) {
      it->second.error = e.what();
    }
  }
  if (!it->second.value) throw std::invalid_argument(it->second.error);
  return it->second.value;
}

Candidate plan_candidate(const std::string& path, const HarnessArgs& a, int p) {
  if (goal::is_goal_file(path)) {
    auto schedule = shared_parse<goal::Schedule>(path, goal::read_goal_file);
    check_goal_for_mpi(*schedule, MPI_COMM_WORLD);
    return {plan_row_name(path), nullptr, nullptr, std::move(schedule)};
  }
  auto pl = shared_parse<plan::Plan>(path, plan::read_plan_file);
  check_plan_for_case(pl->header, path, a.collective, p, a.roots);
  return {plan_row_name(path), nullptr, std::move(pl), nullptr};
}

// The driver composes these arguments (catalog/protocol.hpp), so errors are
// terse; what needs p is checked here.
Options parse(int argc, char** argv, int p) {
  Options o{from_argv(argc, argv), {}};
  const HarnessArgs& a = o.args;
  for (const auto& name : a.algos) {
    const Algorithm& algo = find_algorithm(a.collective, name);
    if (!kSimulated && algo.has(kSmpiBuiltin)) throw std::invalid_argument(name + " is SimGrid's, simulator only");
    const std::string unmet = unmet_restriction(algo, a.op);
    if (!unmet.empty() && !a.ignore_restrictions) throw std::invalid_argument(unmet);
    o.candidates.push_back({name, &algo, nullptr, nullptr});
  }
  for (const auto& path : a.plan_files) o.candidates.push_back(plan_candidate(path, a, p));
  const int64_t elem = element_bytes(a.collective, a.op);
  o.args.net.element = elem;
  for (int64_t s : a.sizes)
    if (s < 0 || s > std::numeric_limits<int>::max() || s % elem != 0)
      throw std::invalid_argument("size " + std::to_string(s) + " out of range or no multiple of " + std::to_string(elem));
  for (int64_t r : a.roots)
    if (r < 0 || r >= p) throw std::invalid_argument("root out of range");
  return o;
}

// Says on stderr, from the lowest rank whose result is wrong, where it is
// wrong; returns whether every rank's result is right.
bool all_correct(const std::string& wrong, const std::string& what, int rank, MPI_Comm comm) {
  int p = 0;
  MPI_Comm_size(comm, &p);
  const int first = static_cast<int>(all_ranks(wrong.empty() ? p : rank, Fold::min, comm));
  if (first == rank) std::fprintf(stderr, "%s: error: %s: rank %d %s\n", kProgram, what.c_str(), rank, wrong.c_str());
  return first == p;
}

struct Outcome {
  double seconds = std::numeric_limits<double>::infinity();  // best repetition
  bool correct = true, on_time = true;
  int checked_ranks = 0;
};

// One repetition of `call` on every rank of `comm` from one common instant:
// the slowest rank's time, into out.seconds past the warm-ups; a rank that
// wakes late in the simulator says so and clears out.on_time.
template <class Call>
void time_repetition(MPI_Comm comm, int rep, const Options& o, Outcome& out, Call call) {
  const double instant = common_start(comm);
  const double start = sleep_until(instant, comm);
  if (kSimulated && started_late(instant, start)) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    std::fprintf(stderr, "%s: error: rank %d missed the common start by %g s\n", kProgram, rank, start - instant);
    out.on_time = false;
  }
  call();
  const double t = all_ranks(MPI_Wtime() - start, Fold::max, comm);
  if (rep >= o.args.warmup) out.seconds = std::min(out.seconds, t);
}

// One case: the minimum over repetitions of the slowest rank's time.
Outcome time_case(const Candidate& candidate, Workload& work, int64_t blocks, const Options& o, const std::string& what) {
  int rank = 0;
  CollArgs args = work.args(blocks);
  args.params = plan_params(o.args.net, o.args.collective, args.bytes, args.blocks);
  MPI_Comm_rank(args.comm, &rank);
  Outcome out;
  out.checked_ranks = static_cast<int>(all_ranks(work.checks_something() ? 1 : 0, Fold::sum, args.comm));
  for (int rep = 0; rep < o.args.warmup + o.args.reps; ++rep) {
    work.fill(rep);
    time_repetition(args.comm, rep, o, out, [&] { candidate.run(args); });
    // One report per case is enough: later repetitions only repeat it.
    if (out.correct) out.correct = all_correct(work.check(rep), what, rank, args.comm);
  }
  return out;
}

// The block count of a case: the driver's choice where it made one
// (HarnessArgs::chosen_blocks: on shared links, from the engine), else
// resolve_blocks (block_policy.hpp). Where the
// policy searches, rank 0 alone resolves and broadcasts before any timing:
// the policy evaluates the cost model some 70 times, and the models of
// two-tree and circulant allgatherv cost O(p log p) and more each (at
// p = 16,384 every rank searching took longer than the collective).
int64_t block_count(const Candidate& c, const Options& o, int p, int64_t bytes, MPI_Comm comm) {
  if (c.goal) return 0;
  if (c.plan) return resolve_blocks(c.plan->header);
  const Algorithm& algo = *c.row;
  BlockCase bc{p, bytes, o.args.blocks, {}};
  if (!policy_decides(algo, bc)) return resolve_blocks(algo, o.args.net, bc);
  if (const auto chosen = chosen_blocks(o.args, algo.name, bytes)) return *chosen;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int64_t n = 0;
  if (rank == 0) {
    if (algo.has(kSegments)) {  // in bytes, where the layout cuts the vector (root 0: W is cyclic)
      const int64_t element = element_bytes(algo.collective, o.args.op);
      for (int count : partition(bytes / element, p, o.args.layout, 0).counts) bc.segment_bytes.push_back(count * element);
    }
    n = resolve_blocks(algo, o.args.net, bc);
  }
  MPI_Bcast(&n, 1, MPI_INT64_T, 0, comm);
  return n;
}

// The row of a GOAL schedule, timed as a case is: collective goal, no
// bytes, blocks or model, nothing checked (GOAL has no data). Whether every
// rank started on time.
bool print_goal_row(const Candidate& c, const Options& o, int p) {
  Outcome out;
  for (int rep = 0; rep < o.args.warmup + o.args.reps; ++rep)
    time_repetition(MPI_COMM_WORLD, rep, o, out, [&] { run_goal(*c.goal, MPI_COMM_WORLD, o.args.net.gamma); });
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    const Row row{"goal", c.name, p, 0, 0, out.seconds * 1e6, std::nullopt, 0, o.args.reps, "", "", true, 0,
                  {},     {},     {}, kSimulated ? "smpi" : "openmpi"};
    std::printf("%s\n", csv_line(row).c_str());
    std::fflush(stdout);
  }
  return out.on_time;
}

int run(int argc, char** argv) {
  int p = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Options o;
  try {
    o = parse(argc, argv, p);
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "%s: error: %s\n", kProgram, e.what());
    return 2;
  }
  if (rank == 0) std::printf("%s\n", kCsvHeader);
  int failures = 0;
  const HarnessArgs& a = o.args;
  const bool reducing = reduces(a.collective);
  const bool layout = a.collective == Collective::reduce_scatter || a.collective == Collective::allgatherv;
  for (const Candidate& c : o.candidates) {
    if (c.goal) {
      failures += !print_goal_row(c, o, p);
      continue;
    }
    for (int64_t bytes : a.sizes) {
      const int64_t n = block_count(c, o, p, bytes, MPI_COMM_WORLD);
      for (int64_t root : a.roots) {
        char what[200];
        std::snprintf(what, sizeof what, "%s %s p=%d bytes=%" PRId64 " blocks=%" PRId64 " root=%" PRId64,
                      collective_name(a.collective), c.name.c_str(), p, bytes, n, root);
        Workload work(a.collective, a.op, a.layout, MPI_COMM_WORLD, static_cast<int>(root), bytes, a.scale);
        const Outcome out = time_case(c, work, n, o, what);
        failures += !out.correct || !out.on_time;
        if (rank != 0) continue;
        Row row{collective_name(a.collective), c.name, p, bytes, n, out.seconds * 1e6, std::nullopt, root,
                a.reps, reducing ? operator_name(a.op) : "", layout ? layout_name(a.layout) : "", out.correct,
                out.checked_ranks, {}, {}, {}, kSimulated ? "smpi" : "openmpi"};
        if (c.row && c.row->model) row.model_us = c.row->model(a.net, p, bytes, n) * 1e6;
        std::printf("%s\n", csv_line(row).c_str());
        std::fflush(stdout);
      }
    }
  }
  return failures > 0 ? 1 : 0;
}

}  // namespace
}  // namespace collsim::sim

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int status = collsim::sim::run(argc, argv);
  MPI_Finalize();
  return status;
}
