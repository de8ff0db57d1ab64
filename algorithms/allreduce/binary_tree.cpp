// allreduce binary-tree: reduce binary-tree's tree to rank 0, then the
// binomial broadcast of the result from rank 0. The family (cost, limits,
// order, memory): reduce/binary_tree.cpp.
#include "circulant.hpp"
#include "reduction_phases.hpp"
#include "reduction_plans.hpp"

namespace collsim::sim {

using namespace phases;

double model_allreduce_binary_tree(const Net& net, int64_t p, int64_t bytes, int64_t) {
  return bytes == 0 ? 0 : model_reduce_binary_tree(net, p, bytes, 1) + ceil_log2(p) * oneway(net, static_cast<double>(bytes));
}

}  // namespace collsim::sim

namespace collsim::plan {

// allreduce binary-tree: the tree reduction to 0, then the binomial
// broadcast from 0: 2⌈log2 p⌉ rounds.
Plan allreduce_binary_tree(int64_t p, int64_t, int64_t blocks) {
  return streamed(header(Collective::allreduce, p, 0, blocks), [=](int64_t rank) {
    const TreeReduce up{p, blocks, rank};
    const BinomialBcast down({p, 0}, blocks, rank);
    return rounds(0, up.rounds() + down.rounds(), [=](int64_t i, Step& s) {
      if (i < up.rounds()) up(i, s);
      else down(i - up.rounds(), s);
    });
  });
}

}  // namespace collsim::plan

namespace collsim::sim {

const AlgorithmDef def_allreduce_binary_tree{
    kExactModel,
    "binomial reduction tree (+ binomial bcast): ~lg p (a + b*m + g*m), allreduce 2x",
    model_allreduce_binary_tree, plan::allreduce_binary_tree};

}  // namespace collsim::sim
