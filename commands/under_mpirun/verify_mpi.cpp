// collsim-verify-mpi: `collsim verify circulant` with the range of p split
// over MPI ranks, for ranges one machine cannot sweep in time:
//
//   mpirun -np N collsim-verify-mpi circulant --p A:B [--blocks LIST] [--threads T]
//
// (`collsim verify circulant` started by mpirun with N > 1 ranks becomes this
// program.) Rank r sweeps the r-th of N consecutive slices of A..B, cut so
// that each holds about the same Σp (checking p costs about p); every rank
// then gets everyone's findings, merges them in rank order (= increasing p)
// and rank 0 prints the summary `collsim verify circulant` prints. Exit status
// as there, the same on every rank. Unlike one process, a rank does not stop
// at another rank's counterexample: the smallest failing p is still reported.
#include <mpi.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "circulant_sweep.hpp"
#include "verify_kinds.hpp"

namespace collsim {
namespace {

// The first p of slice `slice` of `slices`: the smallest p with
// Σ_{lo <= x < p} x >= slice/slices · Σ_{lo <= x <= hi} x.
int64_t slice_begin(cli::Range range, int slice, int slices) {
  auto sum_below = [&](int64_t p) { return 0.5 * double(p - range.lo) * double(p - 1 + range.lo); };
  const double target = sum_below(range.hi + 1) * slice / slices;
  int64_t lo = range.lo, hi = range.hi + 1;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (sum_below(mid) >= target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// Every rank's text, in rank order, on every rank.
std::vector<std::string> all_gather(const std::string& mine) {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const int length = static_cast<int>(mine.size());
  std::vector<int> lengths(ranks), offsets(ranks);
  MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD);
  int total = 0;
  for (int r = 0; r < ranks; ++r) offsets[r] = total, total += lengths[r];
  std::string all(static_cast<size_t>(total), '\0');
  MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, MPI_COMM_WORLD);
  std::vector<std::string> texts;
  for (int r = 0; r < ranks; ++r) texts.push_back(all.substr(offsets[r], lengths[r]));
  return texts;
}

CirculantSweep sweep_over_ranks(cli::Range range, const std::vector<int64_t>& blocks, int threads) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const cli::Range slice{slice_begin(range, rank, ranks), slice_begin(range, rank + 1, ranks) - 1};
  if (rank == 0) std::fprintf(stderr, "collsim-verify-mpi: p = %lld..%lld over %d ranks\n", (long long)range.lo, (long long)range.hi, ranks);
  const CirculantSweep mine = slice.lo <= slice.hi ? sweep_circulant(slice, blocks, threads) : CirculantSweep{};
  CirculantSweep total;
  for (const std::string& text : all_gather(pack_sweep(mine))) total.merge(unpack_sweep(text));
  return total;
}

}  // namespace
}  // namespace collsim

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // Rank 0 prints the summary; the others only their errors.
  if (rank != 0 && !std::freopen("/dev/null", "w", stdout)) MPI_Abort(MPI_COMM_WORLD, 2);
  int status = 2;
  try {
    if (argc < 2 || std::string(argv[1]) != "circulant")
      throw std::invalid_argument("usage: mpirun -np N collsim-verify-mpi circulant --p A:B [--blocks LIST] [--threads T]");
    status = collsim::verify_circulant(argc - 1, argv + 1, collsim::sweep_over_ranks);
  } catch (const std::exception& e) {  // the same bad input on every rank: all get here
    if (rank == 0) std::fprintf(stderr, "collsim-verify-mpi: error: %s\n", e.what());
  }
  MPI_Finalize();
  return status;
}
