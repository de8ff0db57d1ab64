// The instant every rank starts a timed repetition, and the one-value
// combine it needs (MPI side; shared by the collective and the GPU harness).
// Barrier exit times differ between ranks, so ranks agree on an instant
// after everyone has arrived and sleep until it.
#pragma once

#include <mpi.h>

namespace collsim::sim {

enum class Fold { max, min, sum };

// One value combined over all ranks and returned to all.
double all_ranks(double v, Fold fold, MPI_Comm comm);
// An instant safely after every rank has called this.
double common_start(MPI_Comm comm);
// Sleeps (simulated time under SMPI) until `instant`, never waking early,
// and returns the instant the timed call starts: `instant`, or under SMPI
// 1 ns later, when every rank of `comm` wakes, in rank order.
double sleep_until(double instant, MPI_Comm comm);
// Whether a rank's start (sleep_until's) is past what it promises for
// `instant`: the rank arrived after the instant.
inline bool started_late(double instant, double start) { return start > instant + 2e-9; }

}  // namespace collsim::sim
