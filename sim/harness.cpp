// main() of libcollsim-smpi.so, the program smpirun runs: times registry
// algorithms after the mpicroscope/OSU method and checks every result.
//
//   smpirun ... libcollsim-smpi.so --collective bcast --algos a,b --sizes 0,4096
//       --roots 0,3 [--blocks N] --alpha A --beta B --gamma G --reps R --warmup W
//
// For each algorithm × size × root: W warm-up and R timed repetitions. Each
// repetition starts at one common instant (all ranks agree on the largest
// MPI_Wtime and sleep until a start safely after it), so no rank's barrier
// exit skew enters the time; the time of a repetition is that of the slowest
// rank; the result is the minimum over repetitions. Before each repetition
// the root fills its buffer with a pattern that depends on the repetition,
// the others with its complement; afterwards every rank compares every byte.
// Rank 0 prints one CSV row per case on stdout (header first). Any mismatch
// or late start is an error line on stderr and exit status 1.
//
// All per-rank state is local to main: under -no-privatize ranks share globals.
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

namespace collsim::sim {
namespace {

struct Options {
  Collective collective = Collective::bcast;
  std::vector<const Algorithm*> algos;
  std::vector<int64_t> sizes, roots;
  int64_t blocks = 0;  // 0: block_policy
  Net net{5e-6, 1e-9, 1e-9};
  int reps = 3, warmup = 1;
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
    else if (key == "--reps") o.reps = static_cast<int>(to_int(val));
    else if (key == "--warmup") o.warmup = static_cast<int>(to_int(val));
    else throw std::invalid_argument("unknown option " + key);
  }
  for (auto& name : split(algos)) o.algos.push_back(&find_algorithm(o.collective, name));
  if (o.sizes.empty()) throw std::invalid_argument("--sizes is required");
  if (o.roots.empty()) o.roots.push_back(0);
  for (int64_t s : o.sizes)
    if (s < 0 || s > std::numeric_limits<int>::max()) throw std::invalid_argument("size out of range");
  for (int64_t r : o.roots)
    if (r < 0 || r >= p) throw std::invalid_argument("root out of range");
  if (o.blocks < 0 || o.reps < 1 || o.warmup < 0) throw std::invalid_argument("bad --blocks/--reps/--warmup");
  return o;
}

// The expected content of byte i in repetition `rep`: the bytes of a 64-bit
// mix of (word index, rep), so no shifted or stale copy passes the check.
uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

uint64_t expected_word(int64_t w, int rep) { return mix(static_cast<uint64_t>(w) * 1000003u + static_cast<uint64_t>(rep)); }

// The root gets the pattern, every other rank its complement. Word-wise:
// filling and checking p·m bytes per repetition is the harness's real cost.
void fill(uint8_t* buf, int64_t bytes, int rep, bool root) {
  const uint64_t flip = root ? 0 : ~uint64_t{0};
  for (int64_t w = 0; w * 8 < bytes; ++w) {
    const uint64_t v = expected_word(w, rep) ^ flip;
    std::memcpy(buf + w * 8, &v, static_cast<size_t>(std::min<int64_t>(8, bytes - w * 8)));
  }
}

// Index of the first wrong byte, or -1; its expected value in `want`.
int64_t first_mismatch(const uint8_t* buf, int64_t bytes, int rep, uint8_t& want) {
  for (int64_t w = 0; w * 8 < bytes; ++w) {
    const uint64_t v = expected_word(w, rep);
    const int64_t len = std::min<int64_t>(8, bytes - w * 8);
    if (std::memcmp(buf + w * 8, &v, static_cast<size_t>(len)) == 0) continue;
    for (int64_t i = 0; i < len; ++i) {
      want = static_cast<uint8_t>(v >> (8 * i));  // little-endian, as memcpy stored it
      if (buf[w * 8 + i] != want) return w * 8 + i;
    }
  }
  return -1;
}

// The common start instant: W = the latest entry into an allreduce, E = the
// latest exit; a second allreduce of the same kind ends by about E + (E − W),
// so start = E + 2(E − W) + 1 µs leaves every rank time to arrive.
double common_start(MPI_Comm comm) {
  double w = MPI_Wtime();
  MPI_Allreduce(MPI_IN_PLACE, &w, 1, MPI_DOUBLE, MPI_MAX, comm);
  double e = MPI_Wtime();
  MPI_Allreduce(MPI_IN_PLACE, &e, 1, MPI_DOUBLE, MPI_MAX, comm);
  return e + 2 * (e - w) + 1e-6;
}

void sleep_until(double instant) {
  const double d = instant - MPI_Wtime();
  if (d <= 0) return;
  timespec ts;
  ts.tv_sec = static_cast<time_t>(d);
  // Rounded up: waking a nanosecond early would start the clock before the instant.
  ts.tv_nsec = static_cast<long>(std::ceil((d - static_cast<double>(ts.tv_sec)) * 1e9));
  if (ts.tv_nsec >= 1000000000L) {
    ++ts.tv_sec;
    ts.tv_nsec -= 1000000000L;
  }
  nanosleep(&ts, nullptr);
}

// One case; returns the minimum over repetitions of the slowest rank's time
// and counts errors (mismatches, late starts) in `errors` (this rank's).
double time_case(const Algorithm& algo, CollArgs args, const Options& o, int p, int rank, int& errors) {
  uint8_t* buf = static_cast<uint8_t*>(malloc(static_cast<size_t>(args.bytes > 0 ? args.bytes : 1)));
  args.buf = buf;
  double best = std::numeric_limits<double>::infinity();
  for (int rep = 0; rep < o.warmup + o.reps; ++rep) {
    fill(buf, args.bytes, rep, rank == args.root);
    const double start = common_start(args.comm);
    sleep_until(start);
    if (MPI_Wtime() > start + 2e-9) {
      std::fprintf(stderr, "collsim-smpi: error: rank %d missed the common start by %g s\n", rank, MPI_Wtime() - start);
      ++errors;
    }
    algo.run(args);
    double t = MPI_Wtime() - start;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, args.comm);
    if (rep >= o.warmup && t < best) best = t;
    uint8_t want = 0;
    const int64_t bad = first_mismatch(buf, args.bytes, rep, want);
    if (bad >= 0) {
      if (errors == 0)
        std::fprintf(stderr,
                     "collsim-smpi: error: %s p=%d bytes=%" PRId64 " blocks=%" PRId64 " root=%d: rank %d byte %" PRId64
                     " is %u, expected %u\n",
                     algo.name, p, args.bytes, args.blocks, args.root, rank, bad, buf[bad], want);
      ++errors;
    }
  }
  free(buf);
  return best;
}

int run(int argc, char** argv) {
  int p = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Options o;
  try {
    o = parse(argc, argv, p);
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "collsim-smpi: error: %s\n", e.what());
    return 2;
  }
  if (rank == 0) std::printf("collective,algorithm,p,bytes,blocks,time_us,model_us,root,reps\n");
  int errors = 0;
  for (const Algorithm* algo : o.algos) {
    for (int64_t bytes : o.sizes) {
      const int64_t n = !algo->has(kBlocks) ? 1 : o.blocks > 0 ? o.blocks : choose_blocks(*algo, o.net, p, bytes);
      for (int64_t root : o.roots) {
        const CollArgs args{nullptr, bytes, static_cast<int>(root), MPI_COMM_WORLD, n};
        const double t = time_case(*algo, args, o, p, rank, errors);
        if (rank != 0) continue;
        std::printf("%s,%s,%d,%" PRId64 ",%" PRId64 ",%.3f,", collective_name(o.collective), algo->name, p, bytes, n,
                    t * 1e6);
        if (algo->model) std::printf("%.3f", algo->model(o.net, p, bytes, n) * 1e6);
        std::printf(",%" PRId64 ",%d\n", root, o.reps);
        std::fflush(stdout);
      }
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &errors, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (errors > 0 && rank == 0) std::fprintf(stderr, "collsim-smpi: error: %d failed checks\n", errors);
  return errors > 0 ? 1 : 0;
}

}  // namespace
}  // namespace collsim::sim

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int status = collsim::sim::run(argc, argv);
  MPI_Finalize();
  return status;
}
