// multilane: the Multilane allreduce (Träff and Hunold, seed 001 ref. [3])
// on a GPU-produced vector, the seed's second baseline. After the whole
// vector is on the host (as native): reduce-scatter it over the node's P
// processes (block l to local rank l), allreduce block l over the lane of
// local rank l (one process per node, N lanes' worth of traffic in parallel
// on each node's link), allgather the blocks in the node.
//
// Cost: offload as native, then RS(m, P) + AR(m/P, N) + AG(m, P) with the
// library's algorithms (Open MPI selector), plus γ·(m(P−1)/P + (m/P)(N−1)/N)
// charged after the two reductions. Limits: none (blocks may be empty when
// n < P). Memory: the vector and one block of ⌈n/P⌉ doubles.
#include <algorithm>
#include <vector>

#include "gpu_call.hpp"

namespace collsim::sim::gpu {

namespace {

// MPI_Reduce_scatter over the node, with Open MPI 3.0's rule for empty
// blocks (reduce to local rank 0, then scatterv), which SMPI 3.32's Open MPI
// selector lacks: its recursive halving then sums wrongly (seen with 8
// doubles over 40 ranks).
void reduce_scatter(const GpuCall& call, const std::vector<int>& counts, const std::vector<int>& displs, double* block) {
  const RankContext& ctx = call.ctx;
  if (std::find(counts.begin(), counts.end(), 0) == counts.end()) {
    MPI_Reduce_scatter(call.data, block, counts.data(), MPI_DOUBLE, MPI_SUM, ctx.node_comm);
    return;
  }
  const int n = static_cast<int>(call.elements);
  if (ctx.local == 0)
    MPI_Reduce(MPI_IN_PLACE, call.data, n, MPI_DOUBLE, MPI_SUM, 0, ctx.node_comm);
  else
    MPI_Reduce(call.data, nullptr, n, MPI_DOUBLE, MPI_SUM, 0, ctx.node_comm);
  MPI_Scatterv(call.data, counts.data(), displs.data(), MPI_DOUBLE, block, counts[ctx.local], MPI_DOUBLE, 0,
               ctx.node_comm);
}

}  // namespace

void run_multilane(const GpuCall& call) {
  const RankContext& ctx = call.ctx;
  offload_whole(call);
  const int P = static_cast<int>(ctx.pf.procs_per_node);
  std::vector<int> counts(P), displs(P);
  for (int l = 0; l < P; ++l) {
    const Elements e = partition(call.elements, P, l);
    counts[l] = static_cast<int>(e.count());
    displs[l] = static_cast<int>(e.begin);
  }
  // At least one element: SMPI rejects a null buffer even for an empty block (n < P).
  std::vector<double> block(static_cast<size_t>(std::max(counts[ctx.local], 1)));
  {
    const Timed timed(ctx, Phase::reduce);
    reduce_scatter(call, counts, displs, block.data());
    charge_reduction(reduced_share(8 * call.elements, P));
  }
  {
    const Timed timed(ctx, Phase::allreduce);
    allreduce_sum(MPI_IN_PLACE, block.data(), counts[ctx.local], ctx.node_lane);
  }
  const Timed timed(ctx, Phase::allgather);
  MPI_Allgatherv(block.data(), counts[ctx.local], MPI_DOUBLE, call.data, counts.data(), displs.data(), MPI_DOUBLE,
                 ctx.node_comm);
}

}  // namespace collsim::sim::gpu
