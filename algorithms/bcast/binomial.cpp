// binomial: the binomial-tree broadcast (MPICH's MPIR_Bcast_binomial shape) on
// ranks relative to the root. A rank receives the whole message from
// r − lowbit(r), then sends it to r + 2^j for 2^j < lowbit(r), largest first.
//
// Cost: ⌈log2 p⌉(α + βm): the root's q sends are sequential and each subtree
// starts as soon as its root has the data.
// Limits: any p, any root; no ⊕; one message of m bytes (m ≤ INT_MAX).
// Memory: the rank's steps and one
// message buffer each way (the executor).
// Runs as its plan (algorithms/bcast/) through the plan executor
// (sim/rank/plan_executor.hpp); this file holds its cost model.
#include "algorithm.hpp"
#include "binomial_tree.hpp"
#include "circulant.hpp"
#include "plan_families.hpp"
namespace collsim::sim {

double model_bcast_binomial(const Net& net, int64_t p, int64_t bytes, int64_t) {
  return bytes == 0 ? 0 : ceil_log2(p) * net.message(bytes);
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan bcast_binomial(int64_t p, int64_t root, int64_t blocks) {
  const Rooted ranks{p, root};
  return streamed(bcast_header(p, root, blocks), [=](int64_t rank) {
    const BinomialBcast bcast(ranks, blocks, rank);
    return rounds(0, bcast.rounds(), bcast);
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_bcast_binomial{
    kExactModel,
    "binomial tree, whole message: q(a+b*m)",
    model_bcast_binomial, plan::bcast_binomial};

}  // namespace collsim::sim
