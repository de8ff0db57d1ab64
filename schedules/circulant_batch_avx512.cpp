#include "circulant_batch.hpp"

#ifdef COLLSIM_X86
#include <immintrin.h>

// GCC 12's intrinsics headers seed some intrinsics with a deliberately
// undefined vector and then warn about it (-Wuninitialized): not ours.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#define COLLSIM_KERNEL __attribute__((target("avx512f,avx512cd,avx512bw,avx512vl")))

namespace collsim::batch16 {

bool usable(int64_t p) { return p <= kMaxProcs && x86::has_avx512_f_cd_bw_vl(); }

namespace {

using Mask = __mmask16;

// skip[0..31] (zero past q) in two registers: a 16-lane look-up is one
// permute.
struct Skips {
  __m512i low, high;
};

COLLSIM_KERNEL inline Skips load_skips(const CirculantSchedule& s) {
  alignas(64) int32_t skip[32] = {};
  for (int k = 0; k <= s.q(); ++k) skip[k] = static_cast<int32_t>(s.skip(k));
  return {_mm512_load_si512(skip), _mm512_load_si512(skip + 16)};
}
COLLSIM_KERNEL inline __m512i skip_of(const Skips& s, __m512i index) {
  return _mm512_permutex2var_epi32(s.low, index, s.high);
}
// Highest set bit of each lane, -1 where the lane is 0.
COLLSIM_KERNEL inline __m512i top_bit(__m512i v) {
  return _mm512_sub_epi32(_mm512_set1_epi32(31), _mm512_lzcnt_epi32(v));
}
// 1 << index per lane; 0 for index -1 (vpsllvd reads counts as unsigned).
COLLSIM_KERNEL inline __m512i bit(__m512i index) { return _mm512_sllv_epi32(_mm512_set1_epi32(1), index); }

COLLSIM_KERNEL inline Mask lanes_mask(int lanes) {
  return lanes >= kLanes ? Mask{0xFFFF} : static_cast<Mask>((1u << lanes) - 1);
}
COLLSIM_KERNEL inline __m512i load_blocks(const int8_t* v, Mask lanes) {
  return _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(lanes, v));
}
// r0 + lane in each lane.
COLLSIM_KERNEL inline __m512i ranks_from(int64_t r0) {
  return _mm512_add_epi32(_mm512_set1_epi32(static_cast<int32_t>(r0)),
                          _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

// Algorithm 4's recursion as a loop, one ALLBLOCKS frame per lane and step:
//  - the frame stack is the bit set `path` of the skip indices taken on the
//    way down: indices strictly fall with depth, so the innermost caller's e
//    is the lowest set bit, and its r' is r' - skip[e];
//  - `last_found` (the paper's s) needs no stack: after a callee returns, the
//    caller either returns too or accepts and overwrites s before reading it;
//  - once k = q every pending frame returns at once, so the lane stops.
// A step either passes over e, calls, accepts, or returns; a return also
// runs the caller's "upon return" check in the same step, so the caller
// accepts there or is marked `returning` for the next step.
//
// Worked example, p = 9, r = 1 (b = 0, target 10, skips 1 2 3 5 9; interval
// k is [10 - skip[k+1], 10 - skip[k]]):
//   e = 4: 0 + 9 = 9 lies in [8, 9]: accept, k = 0 gets block b = 0
//   e = 3: 0 + 5 = 5 lies below [7, 8]: call, path {3}
//     e = 2: 5 + 3 = 8 in [7, 8]: accept, k = 1 gets 2 - q = -2
//     e = 1: 5 + 2 = 7 in [5, 7]: accept, k = 2 gets -3; list exhausted
//   resume e = 3, r' = 0: 5 in [1, 5]: accept, k = 3 gets -1
// giving 0 -2 -3 -1, column r = 1 of Table 2, with one recursive call.
//
// Which round accepted which skip index, bit-sliced: bit e of round_bit[j]
// is bit j of the k that accepted e (k < 32). One masked OR per bit plane on
// accept; a scatter to found[k][lane] instead took about 40 % of the search.
inline constexpr int kRoundBits = 5;

struct Search {
  __m512i target, base, left, path, reached, last_found, e, k, calls;
  __m512i round_bit[kRoundBits];
  Mask live, returning = 0;  // returning: the frame returns at the next step
};

COLLSIM_KERNEL inline void start(Search& a, const CirculantSchedule& s, const CirculantTable& t, int64_t r0,
                                 Mask in_range) {
  a.target = ranks_from(s.p() + r0);
  a.base = load_blocks(t.base.data() + r0, in_range);
  a.left = _mm512_andnot_si512(bit(a.base), _mm512_set1_epi32(static_cast<int32_t>((2u << s.q()) - 1)));
  a.path = a.reached = a.k = a.calls = _mm512_setzero_si512();
  for (__m512i& plane : a.round_bit) plane = _mm512_setzero_si512();
  a.last_found = _mm512_set1_epi32(static_cast<int32_t>(s.p() + s.p()));
  a.e = _mm512_set1_epi32(s.q());
  a.live = in_range;
}

// Every test of the step is made at once from the frame's state, then the
// outcomes are combined in mask registers: a chain of compares each masked
// by the one before took about 15 % longer.
COLLSIM_KERNEL inline void step(Search& a, const Skips& skips, __m512i q) {
  const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi32(1);
  a.live &= ~_mm512_cmpeq_epi32_mask(a.k, q);
  const __m512i via = _mm512_add_epi32(a.reached, skip_of(skips, a.e));
  const __m512i hi = _mm512_sub_epi32(a.target, skip_of(skips, a.k));
  const __m512i lo = _mm512_sub_epi32(a.target, skip_of(skips, _mm512_add_epi32(a.k, one)));
  const __m512i caller_e = top_bit(_mm512_and_si512(a.path, _mm512_sub_epi32(zero, a.path)));
  const __m512i caller_reached = _mm512_sub_epi32(a.reached, skip_of(skips, caller_e));
  const Mask at_end = _mm512_cmpeq_epi32_mask(a.e, _mm512_set1_epi32(-1));
  const Mask overshoots = _mm512_cmpgt_epu32_mask(via, hi) | _mm512_cmpge_epu32_mask(via, a.last_found);
  const Mask below = _mm512_cmple_epu32_mask(via, lo);
  const Mask past = _mm512_cmpgt_epu32_mask(a.reached, lo);
  const Mask caller_past = _mm512_cmpgt_epu32_mask(caller_reached, lo);
  const Mask outermost = _mm512_testn_epi32_mask(a.path, a.path);

  const Mask loop = a.live & ~a.returning;
  const Mask scan = loop & ~at_end;
  const Mask pass = scan & overshoots;
  const Mask call = scan & ~overshoots & below;
  const Mask decide = scan & ~overshoots & ~below;
  const Mask leaving = (loop & at_end) | (decide & past) | (a.live & a.returning);
  const Mask pop = leaving & ~outermost;
  a.live &= ~(leaving & outermost);  // the outermost call returned
  // The caller resumes "upon return" in the same step: it returns as well if
  // its r' lies past the interval, else it accepts the callee's r'.
  const Mask accept = (decide & ~past) | (pop & ~caller_past);
  a.returning = pop & caller_past;

  const __m512i bit_e = bit(a.e), bit_caller = bit(caller_e);
  const __m512i accepted_bit = _mm512_mask_mov_epi32(bit_e, pop, bit_caller);
  const __m512i accepted_via = _mm512_mask_mov_epi32(via, pop, a.reached);
  const __m512i next = _mm512_mask_mov_epi32(top_bit(_mm512_and_si512(a.left, _mm512_sub_epi32(bit_e, one))), pop,
                                             top_bit(_mm512_and_si512(a.left, _mm512_sub_epi32(bit_caller, one))));
  a.path = _mm512_mask_and_epi32(a.path, pop, a.path, _mm512_sub_epi32(a.path, one));
  a.path = _mm512_mask_or_epi32(a.path, call, a.path, bit_e);
  a.reached = _mm512_mask_mov_epi32(a.reached, pop, caller_reached);
  a.reached = _mm512_mask_mov_epi32(a.reached, call, via);
  a.calls = _mm512_mask_add_epi32(a.calls, call, a.calls, one);

  a.last_found = _mm512_mask_mov_epi32(a.last_found, accept, accepted_via);
  for (int j = 0; j < kRoundBits; ++j)
    a.round_bit[j] = _mm512_mask_or_epi32(
        a.round_bit[j], accept & _mm512_test_epi32_mask(a.k, _mm512_set1_epi32(1 << j)), a.round_bit[j], accepted_bit);
  a.k = _mm512_mask_add_epi32(a.k, accept, a.k, one);
  a.left = _mm512_mask_andnot_epi32(a.left, accept, accepted_bit, a.left);
  a.e = _mm512_mask_mov_epi32(a.e, pass | call | accept, next);
}

// Algorithm 5's renaming: index q (the virtual root) delivers b, index e is
// block e - q.
COLLSIM_KERNEL inline void finish(const Search& a, CirculantTable& t, int64_t r0, Mask in_range, __m512i q,
                                  int* calls) {
  const __m512i all = _mm512_set1_epi32(static_cast<int32_t>((2u << t.q) - 1));
  const __m512i accepted = _mm512_andnot_si512(_mm512_or_si512(a.left, bit(a.base)), all);
  for (int round = 0; round < t.q; ++round) {
    __m512i taken = accepted;  // and whose round has the bits of `round`
    for (int j = 0; j < kRoundBits; ++j)
      taken = round >> j & 1 ? _mm512_and_si512(taken, a.round_bit[j]) : _mm512_andnot_si512(a.round_bit[j], taken);
    const __m512i index = top_bit(taken);
    const __m512i block =
        _mm512_mask_mov_epi32(_mm512_sub_epi32(index, q), _mm512_cmpeq_epi32_mask(index, q), a.base);
    _mm512_mask_cvtepi32_storeu_epi8(t.recv.data() + t.cell(r0, round), in_range, block);
  }
  _mm512_mask_storeu_epi32(calls, in_range, a.calls);
}

}  // namespace

COLLSIM_KERNEL void recv_schedules(const CirculantSchedule& s, CirculantTable& t, int64_t r0, int lanes,
                                   int* calls) {
  const Skips skips = load_skips(s);
  const __m512i q = _mm512_set1_epi32(s.q());
  Search search;
  start(search, s, t, r0, lanes_mask(lanes));
  while (search.live) step(search, skips, q);
  finish(search, t, r0, lanes_mask(lanes), q, calls);
}

// Algorithm 3 with every lane walking all q skips: a lane that lands on its
// rank keeps that k and ignores the rest of the walk.
COLLSIM_KERNEL void baseblocks(const CirculantSchedule& s, int64_t r0, int lanes, int8_t* out) {
  const __m512i r = ranks_from(r0);
  __m512i reached = _mm512_setzero_si512(), b = _mm512_set1_epi32(s.q());
  Mask open = lanes_mask(lanes);
  for (int k = s.q() - 1; k >= 0; --k) {
    const __m512i sk = _mm512_set1_epi32(static_cast<int32_t>(s.skip(k)));
    const __m512i via = _mm512_add_epi32(reached, sk);
    const Mask hit = _mm512_mask_cmpeq_epi32_mask(open, via, r);
    b = _mm512_mask_mov_epi32(b, hit, _mm512_set1_epi32(k));
    open &= ~hit;
    reached = _mm512_mask_mov_epi32(reached, _mm512_cmplt_epi32_mask(via, r), via);
  }
  _mm512_mask_cvtepi32_storeu_epi8(out + r0, lanes_mask(lanes), b);
}

namespace {

// recvblock[k] of the to-processors (r + skip[k]) mod p of ranks r0 ...
COLLSIM_KERNEL __m512i receiver_blocks(const CirculantTable& t, int64_t skip, int k, int64_t r0, int lanes) {
  const int8_t* row = t.recv_round(k);
  int64_t first = r0 + skip;
  if (first >= t.p) first -= t.p;
  if (first + lanes <= t.p) return load_blocks(row + first, lanes_mask(lanes));
  alignas(16) int8_t wrapped[kLanes] = {};
  for (int i = 0; i < lanes; ++i) wrapped[i] = row[first + i < t.p ? first + i : first + i - t.p];
  return load_blocks(wrapped, lanes_mask(lanes));
}

}  // namespace

// Algorithm 6 (see CirculantSchedule::send) with both branches evaluated and
// blended: every lane walks the same rounds k = q-1 .. 1.
COLLSIM_KERNEL void send_schedules(const CirculantSchedule& s, CirculantTable& t, int64_t r0, int lanes,
                                   int* violations) {
  const Mask in_range = lanes_mask(lanes);
  const int q = s.q();
  const __m512i one = _mm512_set1_epi32(1);
  const __m512i base = load_blocks(t.base.data() + r0, in_range);
  const Mask base_positive = _mm512_cmpgt_epi32_mask(base, _mm512_setzero_si512());

  __m512i rv = ranks_from(r0);
  __m512i e = _mm512_set1_epi32(static_cast<int32_t>(s.p()));
  __m512i c = base, nviolations = _mm512_setzero_si512();
  for (int k = q - 1; k >= 1; --k) {
    const __m512i sk = _mm512_set1_epi32(static_cast<int32_t>(s.skip(k)));
    const __m512i sk1 = _mm512_set1_epi32(static_cast<int32_t>(s.skip(k - 1)));
    const __m512i rv_sk = _mm512_add_epi32(rv, sk);
    const Mask lower = _mm512_cmplt_epi32_mask(rv, sk);
    const Mask lower_keeps = _mm512_cmplt_epi32_mask(rv_sk, e) | _mm512_cmplt_epi32_mask(e, sk1) |
                             (k == 1 ? base_positive : Mask{0});
    const Mask upper_keeps = k == 1 ? Mask{0xFFFF}
                                    : static_cast<Mask>(_mm512_cmpgt_epi32_mask(rv, sk) |
                                                        _mm512_cmplt_epi32_mask(_mm512_sub_epi32(e, sk), sk1) |
                                                        _mm512_cmple_epi32_mask(rv_sk, e));
    const Mask violation = in_range & ~((lower & lower_keeps) | (~lower & upper_keeps));
    c = _mm512_mask_mov_epi32(c, ~lower, _mm512_set1_epi32(k - q));
    __m512i block = c;
    if (violation) block = _mm512_mask_mov_epi32(c, violation, receiver_blocks(t, s.skip(k), k, r0, lanes));
    nviolations = _mm512_mask_add_epi32(nviolations, violation, nviolations, one);
    _mm512_mask_cvtepi32_storeu_epi8(t.send.data() + t.cell(r0, k), in_range, block);
    e = _mm512_mask_min_epi32(_mm512_sub_epi32(e, sk), lower, e, sk);
    rv = _mm512_mask_sub_epi32(rv, ~lower, rv, sk);
  }
  if (q > 0)
    _mm512_mask_cvtepi32_storeu_epi8(t.send.data() + t.cell(r0, 0), in_range,
                                     _mm512_sub_epi32(base, _mm512_set1_epi32(q)));
  _mm512_mask_storeu_epi32(violations, in_range, nviolations);
}

}  // namespace collsim::batch16

#pragma GCC diagnostic pop
#endif
