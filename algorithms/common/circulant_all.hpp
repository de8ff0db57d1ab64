// All p circulant broadcasts at once (seed 003, Observation 1 item 2 and
// Algorithm 7) and their reversal, p simultaneous reductions (item 4): the
// cores of circulant allgatherv, reduce_scatter and allreduce.
//
// Rank r plays, for every root j, the broadcast role of virtual rank
// (r − j) mod p (a CirculantPlan per root). All p broadcasts use the same
// circulant graph and rounds, so in round i rank r sends ONE message to
// t = r + skip[k], the concatenation (root order) of the blocks it moves for
// each root, and receives one from f = r − skip[k]. Segments may differ in
// size (irregular counts, empty segments, one rank with everything): each is
// cut into n blocks of its own, empty blocks are not packed, and a message
// with nothing in it is not sent (both ends know its size from the plans).
//
// Why MPI code and not the plan executor: their plans
// (algorithms/common/circulant_plans.cpp, `empty-messages skip`) move one block per
// root in a round. They list them as a few strided runs, which the engine
// sizes in closed form, but the executor packs a message block by block,
// O(p) pieces. This code sizes a message from how
// many virtual ranks move each block (equal segments) and, in scale mode,
// walks only the pieces inside the window. Measured with the executor at
// p = 4096, 1 MiB (run here, same load): allgatherv (n = 1) equal, 5.7 s
// CPU either way; reduce_scatter (n = 20) 55.7 s CPU and 1,756 MB against
// 13.7 s and 439 MB here, and growing with p² beyond (the block policy
// takes n = 4 for allgatherv at 16,384). Same simulated times: the plans
// are the messages this code sends, checked by the engine's tests.
//
// Deviation from Algorithm 7 as printed: it packs duplicates of the capped
// block n − 1; the plans drop them (circulant_plan.hpp), which the reversal
// needs and which saves volume forwards.
//
// Cost, n − 1 + q rounds, round i moving c_i blocks per rank (c_i = the
// number of ranks receiving a real block in round i of ONE broadcast, the
// same for every rank): Σ_i (α + β c_i b) with b the block size. Every rank
// receives each other segment exactly once: total volume m − m_r per rank.
// One ⊕ per round, over the whole received message (the rank's own partial
// blocks gathered into one more message buffer and put back after): γ for
// the same bytes as one ⊕ per block, without p MPI_Reduce_local calls.
// Memory: one table of every virtual rank's moves per round, shared by all
// ranks of a process (O(pn + pq)), two or three message buffers of at most
// one block per root.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithm.hpp"

#ifdef COLLSIM_RANK
#include "collective.hpp"
#endif

namespace collsim::sim {

// Σ_i (message(c_i b) [+ γ c_i b]) for p even segments of bytes/p and n blocks:
// the model of the two cores above. half duplex: a round's send and receive
// share the link (seed 004's fβ = 2).
double circulant_all_model(const Net& net, int64_t p, int64_t bytes, int64_t blocks, bool reduces);

// The n-block circulant broadcast (reduce: reduces) on nodes of several
// ranks: its rounds i = x .. x + n − 2 + q, x = (q − (n − 1) mod q) mod q,
// each one block of b bytes over skip[i mod q] (Net::shift_round), + γb
// where it reduces. Every rank counted as sending in every round: the
// first q rounds, where fewer ranks hold a block, are charged as full.
double circulant_rounds_on_nodes(const Net& net, int64_t p, int64_t blocks, int64_t b, bool reduces);

#ifdef COLLSIM_RANK
// Segment j of the vector, in units of `unit` bytes: [displs[j], displs[j] +
// counts[j]) where counts are given, else block j of `count` units cut
// evenly into p (block_span). In scale mode displs must increase with j (the
// packed messages' window argument, circulant_all.cpp). Views of the
// caller's arrays: a rank holds no O(p) copy (p ranks of one SMPI process
// would hold O(p²)).
struct Segments {
  const int* counts = nullptr;
  const int* displs = nullptr;
  int64_t count = 0;  // units, when counts is null
  int64_t p = 1;
  int unit = 1;
  Span operator()(int64_t j) const {
    if (counts == nullptr) return block_span(count, p, j);
    return {displs[j], int64_t{displs[j]} + counts[j]};
  }
};

// Both run over a.comm with n = a.blocks blocks per segment.
// Algorithm 7: buf holds this rank's segment; on return it holds all of them.
void circulant_allgather(const CollArgs& a, char* buf, const Segments& seg);

// The reversal: acc holds this rank's whole input vector (segments in
// elements of a.type); on return segment r of acc holds the ⊕ (a.op) of every
// rank's segment r (in an order set by the schedule: commutative ⊕ only).
// The rest of acc is scratch.
void circulant_reduce_scatter(const CollArgs& a, char* acc, const Segments& seg);
#endif  // COLLSIM_RANK

}  // namespace collsim::sim
