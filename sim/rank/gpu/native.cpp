// native: seed 001 Fig. 1, the reference. Copy the input to the GPU, compute
// the whole vector, synchronize, copy it back, MPI_Allreduce over all p
// ranks (SMPI's Open MPI selector: the seed used Open MPI 3.0).
//
// Cost: h2d(m) + kernel(F·n, shared by the GPU's c processes: c·F·n / speed)
// + d2h(m) (link latency + c·m / link bandwidth) + the library allreduce,
// plus γ·m·(p−1)/p of ⊕ charged after it (SMPI does not time MPI_Op; this is
// what a bandwidth-optimal allreduce reduces per rank).
// Limits: none. Memory: the vector and a send buffer like it (the library
// adds its own buffers).
#include <algorithm>

#include "gpu_call.hpp"

namespace collsim::sim::gpu {

void run_native(const GpuCall& call) {
  offload_whole(call);
  // A send buffer of the vector's layout rather than MPI_IN_PLACE, for which SMPI copies the whole vector
  // into private memory (too much for sampled buffers); the copy costs no simulated time either way.
  const auto send = like_layout(call.host);
  std::copy(call.data, call.data + call.elements, send->data());
  const Timed timed(call.ctx, Phase::allreduce);
  allreduce_sum(send->data(), call.data, call.elements, call.ctx.world);
}

}  // namespace collsim::sim::gpu
