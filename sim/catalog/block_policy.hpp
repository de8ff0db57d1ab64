// The policy that picks the block count n of a pipelined algorithm (kBlocks),
// kept apart from the algorithms as Open MPI keeps coll/tuned apart from
// coll/base: the algorithms run any n they are given.
//
// Rule: the n in [1, e] that minimises the algorithm's own cost model on the
// platform's α and β (ternary search down to 32 candidates, then all of
// them; the models are unimodal in n up to the rounding of ⌈m/n⌉). For
// circulant, (n − 1 + q)(α + β m/n) is smallest at n = sqrt((q − 1)βm/α),
// i.e. blocks of F·sqrt(m/(q − 1)) bytes with F = sqrt(α/β): the paper's
// F·sqrt(m/⌈log2 p⌉) rule with F set by the model instead of by experiment.
// e is the number of elements cut into blocks: of the vector, or of one of
// the p segments (⌈elements/p⌉, kSegments).
#pragma once

#include <cstdint>

#include "catalog.hpp"

namespace collsim::sim {

// 1 for algorithms without kBlocks or m = 0.
int64_t choose_blocks(const Algorithm& algo, const Net& net, int64_t p, int64_t bytes);

}  // namespace collsim::sim
