#include "scan_plans.hpp"

#include <cstring>

#include "circulant.hpp"  // ceil_log2

namespace collsim {

const char* to_string(ScanValue v) {
  switch (v) {
    case ScanValue::V: return "V";
    case ScanValue::W: return "W";
    case ScanValue::W_op_V: return "W+V";
  }
  return "?";
}

const char* to_string(ScanCombine c) {
  switch (c) {
    case ScanCombine::none: return "-";
    case ScanCombine::store: return "W=T";
    case ScanCombine::left: return "W=T+W";
    case ScanCombine::right: return "W=W+T";
  }
  return "?";
}

// q = ceil(log2(p-1) + log2(4/3)) = ceil(log2(4(p-1)/3)), the least integer q
// with 2^q >= 4(p-1)/3, i.e. with 3 * 2^q >= 4(p-1). Equality is possible
// (p = 4: 3 * 4 = 12 = 4 * 3, q = 2) and then log2 is exact, so ">=" is the
// ceiling. p = 2: 3 < 4, 6 >= 4: q = 1. p = 7: 12 < 24 <= 24: q = 3.
// 4(p-1) < 2^33 for p <= 2^31 - 1, so 64 bits suffice.
int q_123(int64_t p) {
  int q = 0;
  while ((int64_t{3} << q) < 4 * (p - 1)) ++q;
  return q;
}

namespace {

constexpr ScanRule kShiftRule{1, 0, ScanValue::V, ScanCombine::store};  // W_r <- V_{r-1}

// Hillis-Steele: W_r = [max(0, r - 2^k + 1), r] before round k; receiving
// W_{r-2^k} on the left doubles the range.
ScanRule hillis_steele_rule(int k) { return {int64_t{1} << k, 0, ScanValue::W, ScanCombine::left}; }

// Two-⊕ doubling: after the shift round, W_r = [max(0, r - 2^k + 1), r - 1]
// before round k >= 1; r sends W ⊕ V = [.., r] (rank 0, whose W is the empty
// prefix, sends V) to r + 2^k, so r receives [.., r - 2^k] to put on the left.
ScanRule two_op_rule(int k) {
  return k == 0 ? kShiftRule : ScanRule{int64_t{1} << k, 0, ScanValue::W_op_V, ScanCombine::left};
}

// 1-doubling: after the shift, W_r = [max(0, r - s_k), r - 1] with
// s_k = 2^(k-1) before round k >= 1. Rank 0's W is empty, so only ranks >= 1
// send (the paper: "no further communication with processor r = 0").
ScanRule one_doubling_rule(int k) {
  return k == 0 ? kShiftRule : ScanRule{int64_t{1} << (k - 1), 1, ScanValue::W, ScanCombine::left};
}

// 123-doubling, Algorithm 1: skips 1, 2, 3 * 2^(k-2). Round 1 sends W ⊕ V =
// [r-1, r], so W_r = [r-3, r-1] afterwards and s_2 = 3 keeps the ranges
// adjacent. Round 1's branches lost in the extracted text (NOTES.md) read
// "t < p and r = 0: send V, rank 0 is done" (rank 0 sends V: its W is
// empty) and "t < p and r > 0: send W ⊕ V"; the later loops' "0 < f" makes
// rank 1 the lowest sender from round 2 on.
ScanRule one_two_three_rule(int k) {
  if (k == 0) return kShiftRule;
  if (k == 1) return {2, 0, ScanValue::W_op_V, ScanCombine::left};
  return {int64_t{3} << (k - 2), 1, ScanValue::W, ScanCombine::left};
}

int log_rounds(int64_t p) { return ceil_log2(p); }
int two_op_bound(int64_t p) { return 2 * ceil_log2(p) - 1; }
int one_doubling_rounds(int64_t p) { return 1 + ceil_log2(p - 1); }
int one_doubling_ops(int64_t p) { return ceil_log2(p - 1); }
int q_123_ops(int64_t p) { return q_123(p) - 1; }

}  // namespace

// Bounds as stated in seed 000 (abstract, §1 and Theorem 1); the inclusive
// scan's rounds are ceil(log2 p) (§1's floor is a typo, NOTES.md). The
// exclusive bounds need p >= 2.
const ScanAlgorithm kScanAlgorithms[] = {
    {"hillis-steele", true, hillis_steele_rule, log_rounds, "ceil(log2 p)", log_rounds, "ceil(log2 p)",
     "inclusive straight doubling scan (Hillis-Steele), skips 2^k"},
    {"two-op-doubling", false, two_op_rule, log_rounds, "ceil(log2 p)", two_op_bound, "2 ceil(log2 p) - 1",
     "exclusive: shift, then doubling sending W+V (two ⊕ per round)"},
    {"1-doubling", false, one_doubling_rule, one_doubling_rounds, "1 + ceil(log2(p-1))", one_doubling_ops,
     "ceil(log2(p-1))", "exclusive: shift, then straight doubling on ranks 1..p-1"},
    {"123-doubling", false, one_two_three_rule, q_123, "q = ceil(log2(p-1) + log2(4/3))", q_123_ops, "q - 1",
     "exclusive, Algorithm 1: skips 1, 2, 3*2^(k-2)"},
};
const int kScanAlgorithmCount = sizeof(kScanAlgorithms) / sizeof(kScanAlgorithms[0]);

const ScanAlgorithm* find_scan_algorithm(const char* name) {
  for (int i = 0; i < kScanAlgorithmCount; ++i)
    if (std::strcmp(kScanAlgorithms[i].name, name) == 0) return &kScanAlgorithms[i];
  return nullptr;
}

ScanRound scan_round(const ScanAlgorithm& a, int64_t p, int64_t r, int k) {
  const ScanRule x = a.rule(k);
  ScanRound out;
  if (r >= x.lowest_sender && r + x.skip < p) {
    out.send_to = r + x.skip;
    // Rank 0's exclusive prefix W is empty, so its W ⊕ V is V (no ⊕).
    out.send = (r == 0 && x.send == ScanValue::W_op_V) ? ScanValue::V : x.send;
  }
  if (r - x.skip >= x.lowest_sender) {
    out.recv_from = r - x.skip;
    out.combine = x.combine;
  }
  return out;
}

// Rank p-1 has the largest r - s_k, so a round where it does not receive has
// no receiver at all; skips and lowest senders never decrease, so neither do
// later rounds.
int scan_rounds(const ScanAlgorithm& a, int64_t p) {
  int k = 0;
  while (k < kMaxScanRounds && (p - 1) - a.rule(k).skip >= a.rule(k).lowest_sender) ++k;
  return k;
}

}  // namespace collsim
