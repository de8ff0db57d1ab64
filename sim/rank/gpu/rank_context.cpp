#include "rank_context.hpp"

#include <simgrid/s4u/Actor.hpp>

#include <stdexcept>
#include <string>

namespace collsim::sim::gpu {

RankContext::RankContext(const platforms::GpuPlatform& platform, MPI_Comm comm) : pf(platform), world(comm) {
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  if (p != pf.ranks())
    throw std::invalid_argument("smpirun started " + std::to_string(p) + " ranks; the platform has " +
                                std::to_string(pf.ranks()));
  const int ppn = static_cast<int>(pf.procs_per_node), pps = static_cast<int>(pf.procs_per_socket);
  node = rank / ppn;
  local = rank % ppn;
  socket = local / pps;
  socket_rank = local % pps;
  MPI_Comm_split(comm, node, local, &node_comm);
  MPI_Comm_split(comm, local, node, &node_lane);
  MPI_Comm_split(comm, node * static_cast<int>(pf.sockets_per_node()) + socket, socket_rank, &socket_comm);
  MPI_Comm_split(comm, socket_rank, rank, &socket_lane);
  host = simgrid::s4u::this_actor::get_host();
  // The host file places rank r on node r / procs_per_node; check that SimGrid agrees.
  if (host->get_name() != platforms::node_host_name(node))
    throw std::invalid_argument("rank " + std::to_string(rank) + " runs on " + host->get_name() + ", expected " +
                                platforms::node_host_name(node));
  gpu = simgrid::s4u::Host::by_name(platforms::gpu_host_name(node, local / pf.procs_per_gpu()));
}

RankContext::~RankContext() {
  for (MPI_Comm* c : {&node_comm, &node_lane, &socket_comm, &socket_lane})
    if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
}

}  // namespace collsim::sim::gpu
