#include "start_instant.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>

namespace collsim::sim {

// One value combined over all ranks and returned to all: a binomial tree into
// rank 0 and back out (2⌈log2 p⌉ steps). SimGrid's default MPI_Allreduce
// reduces linearly at rank 0, which costs O(p²) wall time (minutes at
// p = 16,384). Its own tag keeps it apart from any algorithm's messages.
double all_ranks(double v, Fold fold, MPI_Comm comm) {
  constexpr int kTag = 32000;
  int p = 0, rank = 0;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &rank);
  int mask = 1;
  for (; mask < p; mask <<= 1) {
    if (rank & mask) {
      MPI_Send(&v, 1, MPI_DOUBLE, rank - mask, kTag, comm);
      break;
    }
    if (rank + mask >= p) continue;
    double x = 0;
    MPI_Recv(&x, 1, MPI_DOUBLE, rank + mask, kTag, comm, MPI_STATUS_IGNORE);
    v = fold == Fold::max ? std::max(v, x) : fold == Fold::min ? std::min(v, x) : v + x;
  }
  if (rank != 0) MPI_Recv(&v, 1, MPI_DOUBLE, rank - mask, kTag, comm, MPI_STATUS_IGNORE);
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rank + mask < p) MPI_Send(&v, 1, MPI_DOUBLE, rank + mask, kTag, comm);
  return v;
}

// The common start instant: W = the latest entry into all_ranks, E = the
// latest exit; a second all_ranks ends by about E + (E − W),
// so start = E + 2(E − W) + 1 µs leaves every rank time to arrive.
double common_start(MPI_Comm comm) {
  const double w = all_ranks(MPI_Wtime(), Fold::max, comm);
  const double e = all_ranks(MPI_Wtime(), Fold::max, comm);
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

}  // namespace collsim::sim
