// main() of libcollsim-gpu.so, the program smpirun runs for
// `collsim compare --collective gpu-allreduce`: times the GPU allreduce
// algorithms of catalog/gpu_catalog.hpp on the platform named by $COLLSIM_GPU_PLATFORM
// and checks every result.
//
//   smpirun ... libcollsim-gpu.so --algos native,pr --sizes 32,4096
//       --flops-per-element F --reps R --warmup W [--sample-above BYTES]
//       [--trace-bytes B --trace-file PATH]
//
// Per algorithm × size: W warm-up and R timed repetitions, each started by
// all ranks at one common instant (they agree on the largest MPI_Wtime and
// sleep until a start safely after it); a repetition's time is the slowest
// rank's; the minimum is reported. Every rank's vector starts as NaN and
// must end as the closed-form SUM (vector_data.hpp); vectors larger than
// --sample-above are sampled (host_buffer.hpp): private, and checked, are
// the pages around the first and last element of every pr partition and
// every multilane block. With --trace-bytes, the
// last repetition of that size is recorded and appended to PATH
// (trace.hpp). Rank 0 prints one CSV row per case (header first); mismatches
// and late starts are error lines on stderr and exit status 1.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bounded_read.hpp"
#include "gpu_call.hpp"
#include "start_instant.hpp"
#include "gpu_run_table.hpp"

namespace collsim::sim::gpu {
namespace {

struct Options {
  std::vector<const GpuAlgorithm*> algos;
  std::vector<int64_t> sizes;
  double flops_per_element = 0;
  int reps = 1, warmup = 0;
  int64_t trace_bytes = -1;
  std::string trace_file;
  int64_t sample_above = std::numeric_limits<int64_t>::max();
};

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream ss(text);
  for (std::string part; std::getline(ss, part, ',');) parts.push_back(part);
  return parts;
}

// The CLI composes these arguments, so this parser is strict but terse.
Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i += 2) {
    const std::string key = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(key + " needs a value");
    const std::string val = argv[i + 1];
    if (key == "--algos")
      for (const auto& name : split(val)) o.algos.push_back(&find_gpu_algorithm(name));
    else if (key == "--sizes")
      for (const auto& s : split(val)) o.sizes.push_back(std::stoll(s));
    else if (key == "--flops-per-element") o.flops_per_element = std::stod(val);
    else if (key == "--reps") o.reps = std::stoi(val);
    else if (key == "--warmup") o.warmup = std::stoi(val);
    else if (key == "--trace-bytes") o.trace_bytes = std::stoll(val);
    else if (key == "--trace-file") o.trace_file = val;
    else if (key == "--sample-above") o.sample_above = std::stoll(val);
    else throw std::invalid_argument("unknown option " + key);
  }
  if (o.algos.empty() || o.sizes.empty()) throw std::invalid_argument("--algos and --sizes are required");
  for (int64_t s : o.sizes)
    if (s < 8 || s % 8 != 0 || s / 8 > std::numeric_limits<int>::max())
      throw std::invalid_argument("sizes must be whole doubles (multiples of 8 bytes)");
  if (o.reps < 1 || o.warmup < 0 || !(o.flops_per_element >= 0)) throw std::invalid_argument("bad --reps/--warmup/--flops");
  if (o.trace_bytes >= 0 && o.trace_file.empty()) throw std::invalid_argument("--trace-bytes needs --trace-file");
  return o;
}

platforms::GpuPlatform read_platform() {
  const char* path = std::getenv(platforms::kGpuPlatformEnv);
  if (!path) throw std::invalid_argument(std::string("$") + platforms::kGpuPlatformEnv + " is not set");
  return platforms::gpu_platform_from_text(read_bounded_file(path, kMaxSmallFileBytes, "GPU platform file"));
}

// The vector of n doubles; sampled: private around the edges of every pr
// partition (socket) and multilane block (node).
std::unique_ptr<HostBuffer> make_vector(int64_t n, bool sampled, const platforms::GpuPlatform& pf) {
  if (!sampled) return std::make_unique<HostBuffer>(n);
  std::vector<Elements> edges;
  for (int64_t parts : {pf.procs_per_socket, pf.procs_per_node})
    for (int64_t k = 0; k < parts; ++k)
      if (const Elements e = partition(n, parts, k); e.count() > 0) edges.insert(edges.end(), {{e.begin, e.begin + 1}, {e.end - 1, e.end}});
  return std::make_unique<HostBuffer>(n, edges);
}

// One algorithm at one size: the minimum over repetitions of the slowest
// rank's time; failed checks are counted in `errors` (this rank's).
double time_case(const GpuAlgorithm& algo, int64_t bytes, const Options& o, RankContext& ctx, int& errors) {
  const int64_t n = bytes / 8;
  const auto vector = make_vector(n, bytes > o.sample_above, ctx.pf);
  double* data = vector->data();
  const bool traced = bytes == o.trace_bytes;
  Trace trace;
  double best = std::numeric_limits<double>::infinity();
  for (int rep = 0; rep < o.warmup + o.reps; ++rep) {
    poison(data, n);
    const double instant = common_start(ctx.world);
    const double start = sleep_until(instant, ctx.world);
    if (started_late(instant, start)) {
      std::fprintf(stderr, "collsim-gpu: error: rank %d missed the common start by %g s\n", ctx.rank,
                   start - instant);
      ++errors;
    }
    trace = Trace{start, {}};
    ctx.trace = traced && rep == o.warmup + o.reps - 1 ? &trace : nullptr;
    try {
      gpu_run_function(algo)(GpuCall{ctx, *vector, data, n, o.flops_per_element, rep});
    } catch (const std::exception& e) {
      std::fprintf(stderr, "collsim-gpu: error: rank %d: %s\n", ctx.rank, e.what());
      ++errors;
    }
    ctx.trace = nullptr;
    double t = MPI_Wtime() - start;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, ctx.world);
    if (rep >= o.warmup && t < best) best = t;
    int64_t bad = -1;
    for (const Elements& range : vector->private_ranges())
      if (bad < 0) bad = first_mismatch(data, range, ctx.p, rep);
    if (bad >= 0) {
      if (errors == 0)
        std::fprintf(stderr, "collsim-gpu: error: %s bytes=%" PRId64 ": rank %d element %" PRId64 " is %g, expected %g\n",
                     algo.name, bytes, ctx.rank, bad, data[bad], expected(bad, ctx.p, rep));
      ++errors;
    }
  }
  if (traced && !write_trace(trace, algo.name, o.trace_file, ctx.world)) {
    std::fprintf(stderr, "collsim-gpu: error: cannot write %s\n", o.trace_file.c_str());
    ++errors;
  }
  return best;
}

int run(int argc, char** argv) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Options o;
  platforms::GpuPlatform pf;
  try {
    o = parse(argc, argv);
    pf = read_platform();
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "collsim-gpu: error: %s\n", e.what());
    return 2;
  }
  std::unique_ptr<RankContext> context;
  try {
    context = std::make_unique<RankContext>(pf, MPI_COMM_WORLD);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "collsim-gpu: error: %s\n", e.what());
    return 2;
  }
  RankContext& ctx = *context;
  if (rank == 0) std::printf("%s\n", kGpuCsvHeader);
  int errors = 0;
  for (const GpuAlgorithm* algo : o.algos)
    for (int64_t bytes : o.sizes) {
      const double t = time_case(*algo, bytes, o, ctx, errors);
      if (rank != 0) continue;
      std::printf("%s,%" PRId64 ",%" PRId64 ",%d,%" PRId64 ",%.17g,%.3f,%d,%s\n", algo->name, pf.nodes,
                  pf.procs_per_node, ctx.p, bytes, o.flops_per_element, t * 1e6, o.reps,
                  bytes > o.sample_above ? "sampled" : "full");
      std::fflush(stdout);
    }
  MPI_Allreduce(MPI_IN_PLACE, &errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (errors > 0 && rank == 0) std::fprintf(stderr, "collsim-gpu: error: %d failed checks\n", errors);
  return errors > 0 ? 1 : 0;
}

}  // namespace
}  // namespace collsim::sim::gpu

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int status = collsim::sim::gpu::run(argc, argv);
  MPI_Finalize();
  return status;
}
