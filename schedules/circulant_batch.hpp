// Sixteen ranks at a time (AVX-512, 32-bit lanes): the batch kernels behind
// compute_all_ranks. Each lane runs exactly the per-rank algorithm of
// circulant.cpp / circulant.hpp, so the table and the statistics are
// byte-identical to the portable loop (tests/test_circulant.cpp checks this).
//
// Cost, per 16 ranks: Algorithms 4-5's search runs in lock step until its
// slowest lane is done (at q = 17 about 39 steps, where each rank alone
// needs 37; a step is ~120 vector and mask instructions); Algorithms 6 and
// 3 are q steps of ~15 instructions. Memory: a few hundred bytes
// of registers and stack; the output goes straight to the table's rows.
//
// Limits: p <= 2^30, so that p + r and every sum the searches form stay
// below 2^32 in an unsigned lane; the portable loop covers larger p. The
// CPU needs AVX-512 F, CD (vplzcntd), BW and VL (byte loads and stores).
#pragma once

#include <cstdint>

#include "circulant_table.hpp"
#include "x86_cpu.hpp"

#ifdef COLLSIM_X86
namespace collsim::batch16 {

inline constexpr int kLanes = 16;
inline constexpr int64_t kMaxProcs = int64_t{1} << 30;

// True when this CPU has the instructions and p is in range.
bool usable(int64_t p);

// Algorithm 3 (per rank, not the listing) for ranks r0 .. r0 + lanes - 1,
// lanes <= kLanes, into out[r0 ..].
void baseblocks(const CirculantSchedule& s, int64_t r0, int lanes, int8_t* out);

// Receive schedules (Algorithms 4-5) of ranks r0 .. r0 + lanes - 1, lanes <=
// kLanes, into t.recv; calls[i]: recursive ALLBLOCKS calls of rank
// r0 + i. Needs t.base.
void recv_schedules(const CirculantSchedule& s, CirculantTable& t, int64_t r0, int lanes, int* calls);

// Send schedules (Algorithm 6, violations answered from t.recv) of ranks
// r0 .. r0 + lanes - 1, lanes <= kLanes, r0 + lanes <= p, none of them the root, into t.send;
// violations[i] for rank r0 + i. Needs every rank's receive schedule.
void send_schedules(const CirculantSchedule& s, CirculantTable& t, int64_t r0, int lanes, int* violations);

}  // namespace collsim::batch16
#endif
