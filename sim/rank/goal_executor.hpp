// Runs a GOAL schedule (schedules/goal_read.hpp: LogGOPSim's dependency
// graphs, Schedgen's or `collsim plan --format goal`'s) as MPI code on
// every rank of `comm` (issue 34, item 6): under SMPI in the harness
// (`collsim run --plan F.goal`, the default engine) and under Open MPI in
// collsim-mpi.
//
// Nonblocking, in dependency order: an operation starts when every
// operation it `requires` has completed and every one it `irequires` has
// started; ready receives are posted first (MPI_Irecv: -1 is
// MPI_ANY_SOURCE / MPI_ANY_TAG), then ready sends (MPI_Isend), then calcs;
// the rank waits (MPI_Waitany: SMPI's MPI_Waitsome charges 100 µs for each
// request it tests in vain) only when nothing is ready. A calc of c
// units takes γ·c seconds: smpi_execute_flops(c) under SMPI, whose hosts
// run 1/γ flops a second (workload.hpp), a busy wait under Open MPI.
// GOAL has no data: messages carry zeros, receives land in buffers of the
// stated sizes, nothing is checked. cpu and nic indices are ignored (one
// MPI rank is one process).
//
// Limits: the schedule's num_ranks equals the communicator's size; a
// message of at most INT_MAX bytes and a tag at most MPI_TAG_UB (checked
// before anything is sent: std::invalid_argument). A schedule whose receives
// can never all match deadlocks as MPI would (SMPI reports it);
// `collsim verify plan --file F.goal` finds that first.
// Memory: the schedule (shared by the ranks of one process), per rank one
// byte and one counter an operation of its own, one send buffer of its
// largest message and a buffer per receive in flight.
#pragma once

#include <mpi.h>

#include "goal_read.hpp"

namespace collsim::sim {

// Throws std::invalid_argument (same on every rank) where the schedule does
// not fit `comm`; then call run_goal.
void check_goal_for_mpi(const goal::Schedule& schedule, MPI_Comm comm);

// This rank's operations, to the end; `gamma`: seconds a calc unit.
void run_goal(const goal::Schedule& schedule, MPI_Comm comm, double gamma);

}  // namespace collsim::sim
