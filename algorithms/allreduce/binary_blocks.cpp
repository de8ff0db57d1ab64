// allreduce binary-blocks: reduce/binary_blocks.cpp's reduce-scatter and
// hand-over up the chain of blocks, then the pieces returned down the chain
// and each block's doubling allgather. The family (cost, deviation,
// limits, memory): there.
#include "binary_blocks_replay.hpp"
#include "reduction_plans.hpp"

namespace collsim::sim {

using namespace phases;

double model_allreduce_binary_blocks(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0 || p == 1) return 0;
  return Replay(net, p, bytes).allreduce();
}

}  // namespace collsim::sim

namespace collsim::plan {

Plan allreduce_binary_blocks(int64_t p, int64_t, int64_t blocks) {
  return binary_blocks_plan(Collective::allreduce, p, 0, blocks);
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_allreduce_binary_blocks{
    kExactModel,
    "halving reduce-scatter in power-of-two blocks, handed up to the largest: 2 lg p a + 2bm + gm at powers of two",
    model_allreduce_binary_blocks, plan::allreduce_binary_blocks};

}  // namespace collsim::sim
