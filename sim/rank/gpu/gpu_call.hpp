// What one GPU allreduce call gets (MPI + S4U side), and the device model
// the algorithms share: copies and kernels as S4U activities on the rank's
// GPU host and host-device link, each recorded in the trace.
#pragma once

#include <cstdint>

#include "host_buffer.hpp"
#include "rank_context.hpp"
#include "vector_data.hpp"

namespace collsim::sim::gpu {

struct GpuCall {
  const RankContext& ctx;
  const HostBuffer& host;    // the host vector: NaN on entry, the allreduce (SUM) on return
  double* data;              // host.data()
  int64_t elements;          // host.size(): doubles per rank
  double flops_per_element;  // work of the GPU kernel that produces the vector
  int rep;                   // selects the values the GPU produces (vector_data.hpp)
};

// Host to device, `bytes` (the input, seed 001 Fig. 1 line 1): blocks until done.
void copy_to_device(const RankContext& ctx, int64_t bytes);
// One kernel of `flops` on the rank's GPU, shared fairly with the kernels of
// the other ranks on that GPU: blocks until done (launch + synchronize).
void compute(const RankContext& ctx, double flops, int partition);
// Device to host, `bytes`: link latency + bytes at the link's (shared) rate.
void copy_to_host(const RankContext& ctx, int64_t bytes, int partition);
// γ·bytes of host time: SMPI charges nothing for MPI_Op, so each algorithm
// charges its own reductions here.
void charge_reduction(double bytes);
// Bytes of ⊕ per rank in a bandwidth-optimal reduction of `bytes` over
// `members` ranks, (members − 1)/members of the vector: what is charged after
// a library collective, whose ⊕ SMPI does not time.
inline double reduced_share(int64_t bytes, int members) {
  return static_cast<double>(bytes) * (members - 1) / members;
}

// MPI_Allreduce(send, data, count, MPI_DOUBLE, MPI_SUM, comm) (send may be
// MPI_IN_PLACE), then its ⊕ charged as reduced_share. Count 0 is a no-op
// (SMPI 3.32's Open MPI allreduce for small counts divides by zero on it).
void allreduce_sum(const void* send, double* data, int64_t count, MPI_Comm comm);

// Seed 001 Fig. 1 up to the reduction: copy in, compute, synchronize, copy
// the whole vector out; call.data then holds this rank's vector.
void offload_whole(const GpuCall& call);

}  // namespace collsim::sim::gpu
