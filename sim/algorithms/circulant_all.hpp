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
// with nothing in it is not sent (both ends know its size from the counts).
// The three run as their plans (schedules/plans_circulant.cpp, which say
// `empty-messages skip`) through the plan executor
// (sim/rank/plan_executor.hpp); these files hold their cost models.
//
// Deviation from Algorithm 7 as printed: it packs duplicates of the capped
// block n − 1; the plans drop them (circulant_plan.hpp), which the reversal
// needs and which saves volume forwards.
//
// Cost, n − 1 + q rounds, round i moving c_i blocks per rank (c_i = the
// number of ranks receiving a real block in round i of ONE broadcast, the
// same for every rank): Σ_i (α + β c_i b) with b the block size. Every rank
// receives each other segment exactly once: total volume m − m_r per rank.
// ⊕ per run of consecutive blocks of the received message: γ for every
// received byte.
// Memory: one table of every virtual rank's moves per round, shared by all
// ranks of a process (O(pn + pq)), a message buffer each way of at most one
// block per root.
#pragma once

#include <cstdint>

#include "catalog.hpp"

namespace collsim::sim {

// Σ_i (message(c_i b) [+ γ c_i b]) for p even segments of bytes/p and n blocks:
// the model of the two cores above. half duplex: a round's send and receive
// share the link (seed 004's fβ = 2).
double circulant_all_model(const Net& net, int64_t p, int64_t bytes, int64_t blocks, bool reduces);

}  // namespace collsim::sim
