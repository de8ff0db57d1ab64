// binary-blocks: seed 004 §2.6 (Fig. 2). p = 2^e0 + 2^e1 + .. (e0 > e1 > ..)
// splits the ranks into blocks of those sizes, the largest first
// (schedules/halving_ranges.hpp). Every block runs the halving
// reduce-scatter of halving-doubling on its own, over the 2^e0 base
// segments; then, from the smallest block up, each block hands its partial
// results to the next larger block (block b's member with range R sends the
// pieces of R to the 2^(e_{b−1} − e_b) members of block b − 1 whose ranges
// lie in R), where they are folded in on the right. Block 0 then holds the
// result, one base segment per member. Allreduce returns the pieces down the
// chain and every block finishes with a doubling allgather; reduce gathers
// block 0's segments with a binomial tree, the root playing rank 0's part
// when it lies outside block 0 (rank 0 sends it its segment first).
//
// Runs as its plan (algorithms/common/reduction_plans.cpp, BinaryBlocks) through the
// plan executor; this file holds its cost model.
//
// Deviation: the paper's figure is not in the transcription; this is its
// text's reading. A member hands its pieces to the larger block one message
// after another (a plan step has one peer, and a one-ported rank sends one
// message at a time), so a hand-over of R to k members costs kα + |R|β on
// the sender; in the allgather a block first takes its results from the
// larger block, passes its range to the smaller one, then runs its own
// allgather (the paper's "pairs of messages", which would overlap the two,
// are not reproduced). For p a power of two it is halving-doubling.
// Cost (full duplex, even cut, k_b = 2^(e_{b−1} − e_b)): each block's
// halving Σ_j (α + β m/2^(j+1) + γ m/2^(j+1)); the hand-over chain adds
// k_b(α + β m/2^e_{b−1}) + γ m/2^e_{b−1} per block on the way up, as much
// again on the way down (allreduce), then the block's allgather.
// Limits: any p, any root; ⊕ need not be commutative (block b's ranks all
// precede block b + 1's, and within a block distance doubling keeps rank
// order); any count (segments may be empty).
// Memory: the executor's: a vector of m and one message buffer each way.
#include "binary_blocks_replay.hpp"
#include "reduction_plans.hpp"

namespace collsim::sim {

using namespace phases;

// For root 0 (a root outside block 0 waits one α + β m/2^e0 more, for rank
// 0's segment).
double model_reduce_binary_blocks(const Net& net, int64_t p, int64_t bytes, int64_t) {
  if (bytes == 0 || p == 1) return 0;
  return Replay(net, p, bytes).reduce();
}

}  // namespace collsim::sim

namespace collsim::plan {

// binary-blocks (BinaryBlocks above), B = 2^⌊log2 p⌋ base segments, any ⊕;
// for p a power of two the halving-doubling plan.
Plan reduce_binary_blocks(int64_t p, int64_t root, int64_t blocks) {
  return binary_blocks_plan(Collective::reduce, p, root, blocks);
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_reduce_binary_blocks{
    kExactModel,
    "halving reduce-scatter in power-of-two blocks, handed up to the largest: 2 lg p a + 2bm + gm at powers of two",
    model_reduce_binary_blocks, plan::reduce_binary_blocks};

}  // namespace collsim::sim
