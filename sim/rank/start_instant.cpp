#include "start_instant.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#ifdef COLLSIM_SMPI
#include <limits>

#include <simgrid/s4u/Actor.hpp>
#endif

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

namespace {

void nanosleep_for(double seconds) {
  if (seconds <= 0) return;
  timespec ts;
  ts.tv_sec = static_cast<time_t>(seconds);
  // Rounded up: waking a nanosecond early would start the clock before the instant.
  ts.tv_nsec = static_cast<long>(std::ceil((seconds - static_cast<double>(ts.tv_sec)) * 1e9));
  if (ts.tv_nsec >= 1000000000L) {
    ++ts.tv_sec;
    ts.tv_nsec -= 1000000000L;
  }
  nanosleep(&ts, nullptr);
}

}  // namespace

double sleep_until(double instant, MPI_Comm comm) {
#ifdef COLLSIM_SMPI
  // A nanosleep until the instant would wake the ranks up to a nanosecond
  // apart (it is rounded to whole nanoseconds), so in an order set by
  // rounding, and SMPI runs events of one instant in the order its ranks
  // run, which the plan engine's graph evaluator takes to be rank order
  // (engine/graph_links.hpp). So the ranks line up in two sleeps:
  //  - SimGrid's own sleep until the instant plus (p − 1 − rank)·ε: the
  //    date now + (X − now) is X exactly (X − now is exact, Sterbenz), and
  //    sleeps ending under 1e-9 s apart end in one step, in date order: so
  //    at the instant, highest rank first (ε = 2 ulp keeps the dates
  //    distinct, also past a power of two);
  //  - then a traced nanosleep of 1 ns, the same date for every rank. SimGrid
  //    stamps the sleeps started in one step last started first (CpuCas01::
  //    sleep pushes them to the front of the modified set), so they end in
  //    rank order, at the instant plus 1 ns: the start, where the Paje
  //    trace's last 'sleeping' state ends (driver/paje_trace.cpp).
  int p = 0, rank = 0;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &rank);
  const double ulp = std::nextafter(instant, std::numeric_limits<double>::infinity()) - instant;
  simgrid::s4u::this_actor::sleep_until(instant + static_cast<double>(p - 1 - rank) * 2 * ulp);
  nanosleep_for(1e-9);
  return MPI_Wtime();
#else
  (void)comm;
  nanosleep_for(instant - MPI_Wtime());
  return instant;
#endif
}

}  // namespace collsim::sim
