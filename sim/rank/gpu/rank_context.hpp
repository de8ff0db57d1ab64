// What a GPU allreduce algorithm knows about the rank that runs it: where it
// sits (node, socket, GPU), its communicators and hosts, and the trace of
// the repetition being recorded. Built once per smpirun, outside any timed
// region (communicator creation is collective and would cost simulated
// time). Lives on the stack of main(): under -no-privatize ranks share
// globals.
#pragma once

#include <mpi.h>
#include <simgrid/s4u/Host.hpp>

#include "gpu_platform.hpp"
#include "trace.hpp"

namespace collsim::sim::gpu {

struct RankContext {
  const platforms::GpuPlatform& pf;
  int rank = 0, p = 1;
  int node = 0, local = 0;          // node index, rank within the node
  int socket = 0, socket_rank = 0;  // socket within the node, rank within the socket
  MPI_Comm world = MPI_COMM_WORLD;
  MPI_Comm node_comm = MPI_COMM_NULL;    // the node's processes, ordered by local rank
  MPI_Comm node_lane = MPI_COMM_NULL;    // one process per node, same local rank (multilane's lanes)
  MPI_Comm socket_comm = MPI_COMM_NULL;  // the socket's processes, ordered by socket rank
  MPI_Comm socket_lane = MPI_COMM_NULL;  // one process per socket of every node, same socket rank (pr's lanes)
  simgrid::s4u::Host* host = nullptr;    // the node, where this rank runs
  simgrid::s4u::Host* gpu = nullptr;     // the GPU this rank offloads to
  Trace* trace = nullptr;                // non-null while a repetition is recorded

  RankContext(const platforms::GpuPlatform& platform, MPI_Comm comm);
  ~RankContext();
  RankContext(const RankContext&) = delete;
  RankContext& operator=(const RankContext&) = delete;
};

}  // namespace collsim::sim::gpu
