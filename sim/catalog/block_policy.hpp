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
#include <vector>

#include "catalog.hpp"

namespace collsim::sim {

// 1 for algorithms without kBlocks or m = 0.
int64_t choose_blocks(const Algorithm& algo, const Net& net, int64_t p, int64_t bytes);

// The same for a segmented algorithm (kSegments: allgatherv, reduce_scatter)
// with the actual bytes of each rank's segment, which need not be even
// (--layout ramp, single). The models assume even segments; with uneven
// ones the first q = ⌈log2 p⌉ rounds cost more. In round t < q a rank
// forwards, for each root within distance 2^t behind it, one block of that
// root's segment: at most W(2^t)/n bytes, W(w) the largest sum of w
// cyclically consecutive segments, against 2^t·m/(p·n) when even. So the
// cost is the model plus (β [+ γ]) Σ_{t<q} (W(2^t) − 2^t·m/p)/n, and n may
// go up to the largest segment's elements. Worked example, p = 64,
// m = 16 MiB on alphabeta: even, n = 1 (m·63/64·β + 6α = 16.5 ms);
// single (W = m): the excess is (6 − 63/64)·mβ/n, 84 ms at n = 1, and the
// policy takes n = 128 (18.1 ms simulated, 1.09× even); ramp: W(32) =
// 0.75 m, the excess 0.65·mβ/n, n = 46 (17.1 ms, 1.03×). Segments within one element of each other
// are even: choose_blocks(p, bytes).
int64_t choose_blocks(const Algorithm& algo, const Net& net, int64_t p, int64_t bytes,
                      const std::vector<int64_t>& segment_bytes);

}  // namespace collsim::sim
