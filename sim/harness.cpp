// main() of libcollsim-smpi.so, the program smpirun runs: times registry
// algorithms after the mpicroscope/OSU method and checks every result.
//
//   smpirun ... libcollsim-smpi.so --collective C --algos a,b --sizes 0,4096
//       --roots 0,3 [--blocks N] --alpha A --beta B --gamma G --duplex full|half --reps R --warmup W
//       [--op bxor|matmul] [--layout even|ramp|single] [--scale 0|1]
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
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "block_policy.hpp"
#include "collective.hpp"
#include "registry.hpp"
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

struct Options {
  Collective collective = Collective::bcast;
  Operator op = Operator::bxor;
  Layout layout = Layout::even;
  std::vector<const Algorithm*> algos;
  std::vector<int64_t> sizes, roots;
  int64_t blocks = 0;  // 0: block_policy
  Net net{5e-6, 1e-9, 1e-9};
  int reps = 3, warmup = 1;
  bool scale = false;  // window buffers (workload.hpp)
};

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t comma; (comma = text.find(',', start)) != std::string::npos; start = comma + 1)
    parts.push_back(text.substr(start, comma - start));
  parts.push_back(text.substr(start));
  return parts;
}

int64_t to_int(const std::string& s) {
  size_t used = 0;
  const long long v = std::stoll(s, &used);
  if (used != s.size()) throw std::invalid_argument("not an integer: '" + s + "'");
  return v;
}

double to_double(const std::string& s) {
  size_t used = 0;
  const double v = std::stod(s, &used);
  if (used != s.size() || !std::isfinite(v)) throw std::invalid_argument("not a number: '" + s + "'");
  return v;
}

// The CLI composes these arguments, so this parser is strict but terse.
Options parse(int argc, char** argv, int p) {
  Options o;
  std::string algos = "";
  for (int i = 1; i < argc; i += 2) {
    const std::string key = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(key + " needs a value");
    const std::string val = argv[i + 1];
    if (key == "--collective") o.collective = parse_collective(val);
    else if (key == "--algos") algos = val;
    else if (key == "--sizes") for (auto& s : split(val)) o.sizes.push_back(to_int(s));
    else if (key == "--roots") for (auto& s : split(val)) o.roots.push_back(to_int(s));
    else if (key == "--blocks") o.blocks = to_int(val);
    else if (key == "--alpha") o.net.alpha = to_double(val);
    else if (key == "--beta") o.net.beta = to_double(val);
    else if (key == "--gamma") o.net.gamma = to_double(val);
    else if (key == "--duplex") o.net.full_duplex = val == "full" ? true : val == "half" ? false : throw std::invalid_argument("--duplex full|half");
    else if (key == "--reps") o.reps = static_cast<int>(to_int(val));
    else if (key == "--warmup") o.warmup = static_cast<int>(to_int(val));
    else if (key == "--op") o.op = parse_operator(val);
    else if (key == "--layout") o.layout = parse_layout(val);
    else if (key == "--scale") o.scale = to_int(val) != 0;
    else throw std::invalid_argument("unknown option " + key);
  }
  for (auto& name : split(algos)) o.algos.push_back(&find_algorithm(o.collective, name));
  for (const Algorithm* a : o.algos)
    if (!kSimulated && a->has(kSmpiBuiltin)) throw std::invalid_argument(std::string(a->name) + " is SimGrid's, simulator only");
  if (o.sizes.empty()) throw std::invalid_argument("--sizes is required");
  if (o.roots.empty()) o.roots.push_back(0);
  const int64_t elem = element_bytes(o.collective, o.op);
  for (int64_t s : o.sizes)
    if (s < 0 || s > std::numeric_limits<int>::max() || s % elem != 0)
      throw std::invalid_argument("size " + std::to_string(s) + " out of range or no multiple of " + std::to_string(elem));
  for (int64_t r : o.roots)
    if (r < 0 || r >= p) throw std::invalid_argument("root out of range");
  if (o.blocks < 0 || o.reps < 1 || o.warmup < 0) throw std::invalid_argument("bad --blocks/--reps/--warmup");
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

// One case: the minimum over repetitions of the slowest rank's time.
Outcome time_case(const Algorithm& algo, Workload& work, int64_t blocks, const Options& o, const std::string& what) {
  int rank = 0;
  const CollArgs args = work.args(blocks);
  MPI_Comm_rank(args.comm, &rank);
  Outcome out;
  out.checked_ranks = static_cast<int>(all_ranks(work.checks_something() ? 1 : 0, Fold::sum, args.comm));
  for (int rep = 0; rep < o.warmup + o.reps; ++rep) {
    work.fill(rep);
    const double start = common_start(args.comm);
    sleep_until(start);
    if (kSimulated && MPI_Wtime() > start + 2e-9) {
      std::fprintf(stderr, "%s: error: rank %d missed the common start by %g s\n", kProgram, rank, MPI_Wtime() - start);
      out.on_time = false;
    }
    algo.run(args);
    const double t = all_ranks(MPI_Wtime() - start, Fold::max, args.comm);
    if (rep >= o.warmup) out.seconds = std::min(out.seconds, t);
    // One report per case is enough: later repetitions only repeat it.
    if (out.correct) out.correct = all_correct(work.check(rep), what, rank, args.comm);
  }
  return out;
}

// The block count n of `algo` at `bytes`: --blocks, else the block policy's
// pick, made by rank 0 alone and broadcast before any timing: the policy
// evaluates the cost model some 70 times, and the models of two-tree and
// circulant allgatherv cost O(p log p) and more each (at p = 16,384 every
// rank searching took longer than the collective).
int64_t block_count(const Algorithm& algo, const Options& o, int p, int64_t bytes, MPI_Comm comm) {
  if (!algo.has(kBlocks)) return 1;
  if (o.blocks > 0) return o.blocks;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int64_t n = rank == 0 ? choose_blocks(algo, o.net, p, bytes) : 0;
  MPI_Bcast(&n, 1, MPI_INT64_T, 0, comm);
  return n;
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
  if (rank == 0)
    std::printf("collective,algorithm,p,bytes,blocks,time_us,model_us,root,reps,op,layout,correct,checked_ranks\n");
  int failures = 0;
  const bool reducing = reduces(o.collective);
  const bool layout = o.collective == Collective::reduce_scatter || o.collective == Collective::allgatherv;
  for (const Algorithm* algo : o.algos) {
    for (int64_t bytes : o.sizes) {
      const int64_t n = block_count(*algo, o, p, bytes, MPI_COMM_WORLD);
      for (int64_t root : o.roots) {
        char what[200];
        std::snprintf(what, sizeof what, "%s %s p=%d bytes=%" PRId64 " blocks=%" PRId64 " root=%" PRId64,
                      collective_name(o.collective), algo->name, p, bytes, n, root);
        Workload work(o.collective, o.op, o.layout, MPI_COMM_WORLD, static_cast<int>(root), bytes, o.scale);
        const Outcome out = time_case(*algo, work, n, o, what);
        failures += !out.correct || !out.on_time;
        if (rank != 0) continue;
        std::printf("%s,%s,%d,%" PRId64 ",%" PRId64 ",%.3f,", collective_name(o.collective), algo->name, p, bytes, n,
                    out.seconds * 1e6);
        if (algo->model) std::printf("%.3f", algo->model(o.net, p, bytes, n) * 1e6);
        std::printf(",%" PRId64 ",%d,%s,%s,%d,%d\n", root, o.reps, reducing ? operator_name(o.op) : "",
                    layout ? layout_name(o.layout) : "", out.correct ? 1 : 0, out.checked_ranks);
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
