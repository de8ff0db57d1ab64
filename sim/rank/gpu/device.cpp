#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Exec.hpp>

#include "gpu_call.hpp"

namespace sg4 = simgrid::s4u;

namespace collsim::sim::gpu {

void copy_to_device(const RankContext& ctx, int64_t bytes) {
  const Timed timed(ctx, Phase::h2d);
  sg4::Comm::sendto_async(ctx.host, ctx.gpu, static_cast<uint64_t>(bytes))->wait();
}

void compute(const RankContext& ctx, double flops, int partition) {
  const Timed timed(ctx, Phase::compute, partition);
  // Host::exec_async would run on the calling actor's host in SimGrid 3.32; set_host moves it to the GPU.
  sg4::this_actor::exec_init(flops)->set_host(ctx.gpu)->start()->wait();
}

void copy_to_host(const RankContext& ctx, int64_t bytes, int partition) {
  const Timed timed(ctx, Phase::d2h, partition);
  sg4::Comm::sendto_async(ctx.gpu, ctx.host, static_cast<uint64_t>(bytes))->wait();
}

void charge_reduction(double bytes) {
  // The node host computes 1/γ "flops" per second: one flop is one byte of ⊕.
  if (bytes > 0) smpi_execute_flops(bytes);
}

void allreduce_sum(const void* send, double* data, int64_t count, MPI_Comm comm) {
  if (count == 0) return;
  int members = 1;
  MPI_Comm_size(comm, &members);
  MPI_Allreduce(send, data, static_cast<int>(count), MPI_DOUBLE, MPI_SUM, comm);
  charge_reduction(reduced_share(8 * count, members));
}

void offload_whole(const GpuCall& call) {
  const int64_t bytes = 8 * call.elements;
  copy_to_device(call.ctx, bytes);
  compute(call.ctx, call.flops_per_element * static_cast<double>(call.elements), -1);
  copy_to_host(call.ctx, bytes, -1);
  produce(call.data, {0, call.elements}, call.ctx.rank, call.rep);
}

}  // namespace collsim::sim::gpu
