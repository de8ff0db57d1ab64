// Scan plans: hand-computed rounds from seed 000's descriptions, round
// counts against the paper's closed forms, 64-bit ranks, and the truncation
// property that `verify exscan` relies on.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "circulant.hpp"  // ceil_log2
#include "scan_plans.hpp"

namespace collsim {
namespace {

const ScanAlgorithm& algo(const char* name) {
  const ScanAlgorithm* a = find_scan_algorithm(name);
  EXPECT_NE(a, nullptr) << name;
  return *a;
}

ScanRound round_of(int64_t to, ScanValue v, int64_t from, ScanCombine c) { return {to, v, from, c}; }
constexpr ScanValue V = ScanValue::V, W = ScanValue::W, WV = ScanValue::W_op_V;
constexpr ScanCombine none = ScanCombine::none, store = ScanCombine::store, left = ScanCombine::left;

// Algorithm 1 at p = 7, by hand (the header's worked example).
TEST(ScanPlans, OneTwoThreeDoublingAtSevenByHand) {
  const ScanAlgorithm& a = algo("123-doubling");
  EXPECT_EQ(scan_rounds(a, 7), 3);
  // rank 0: sends V in rounds 0 and 1, then is done
  EXPECT_EQ(scan_round(a, 7, 0, 0), round_of(1, V, -1, none));
  EXPECT_EQ(scan_round(a, 7, 0, 1), round_of(2, V, -1, none));
  EXPECT_EQ(scan_round(a, 7, 0, 2), round_of(-1, V, -1, none));
  // rank 1: round 1 sends W+V = [0,1] to 3 without receiving (branch t < p, r > 0)
  EXPECT_EQ(scan_round(a, 7, 1, 1), round_of(3, WV, -1, none));
  EXPECT_EQ(scan_round(a, 7, 1, 2), round_of(4, W, -1, none));
  // rank 4: sends [3,4] to 6 in round 1, receives from 1 (not 0) in round 2
  EXPECT_EQ(scan_round(a, 7, 4, 0), round_of(5, V, 3, store));
  EXPECT_EQ(scan_round(a, 7, 4, 1), round_of(6, WV, 2, left));
  EXPECT_EQ(scan_round(a, 7, 4, 2), round_of(-1, V, 1, left));
  // rank 6 only receives: from 5, 4, 3
  EXPECT_EQ(scan_round(a, 7, 6, 0), round_of(-1, V, 5, store));
  EXPECT_EQ(scan_round(a, 7, 6, 1), round_of(-1, V, 4, left));
  EXPECT_EQ(scan_round(a, 7, 6, 2), round_of(-1, V, 3, left));
}

// 1-doubling at p = 6 (skips 1, 1, 2, 4): rank 0 only sends in the shift.
TEST(ScanPlans, OneDoublingAtSixByHand) {
  const ScanAlgorithm& a = algo("1-doubling");
  EXPECT_EQ(scan_rounds(a, 6), 4);
  EXPECT_EQ(scan_round(a, 6, 0, 1), round_of(-1, V, -1, none));
  EXPECT_EQ(scan_round(a, 6, 1, 1), round_of(2, W, -1, none));
  EXPECT_EQ(scan_round(a, 6, 2, 1), round_of(3, W, 1, left));
  EXPECT_EQ(scan_round(a, 6, 5, 2), round_of(-1, V, 3, left));
  EXPECT_EQ(scan_round(a, 6, 5, 3), round_of(-1, V, 1, left));
  EXPECT_EQ(scan_round(a, 6, 4, 3), round_of(-1, V, -1, none));  // 4 - 4 = 0 holds nothing
}

// Two-⊕ doubling at p = 5 and Hillis-Steele at p = 5 (skips 1, 2, 4).
TEST(ScanPlans, TwoOpAndHillisSteeleAtFiveByHand) {
  const ScanAlgorithm& two = algo("two-op-doubling");
  EXPECT_EQ(scan_rounds(two, 5), 3);
  EXPECT_EQ(scan_round(two, 5, 0, 1), round_of(2, V, -1, none));  // rank 0's W+V is V
  EXPECT_EQ(scan_round(two, 5, 2, 1), round_of(4, WV, 0, left));
  EXPECT_EQ(scan_round(two, 5, 4, 2), round_of(-1, V, 0, left));
  const ScanAlgorithm& hs = algo("hillis-steele");
  EXPECT_TRUE(hs.inclusive);
  EXPECT_EQ(scan_rounds(hs, 5), 3);
  EXPECT_EQ(scan_round(hs, 5, 0, 0), round_of(1, W, -1, none));
  EXPECT_EQ(scan_round(hs, 5, 3, 1), round_of(-1, V, 1, left));
  EXPECT_EQ(scan_round(hs, 5, 4, 2), round_of(-1, V, 0, left));
}

// q = ceil(log2(p-1) + log2(4/3)) evaluated by hand: p=2: log2(4/3) = 0.415;
// p=4: log2 4 = 2 exactly; p=36: log2(140/3) = 5.54; p = 2^31 - 1:
// log2((2^31 - 2) * 4/3) = 31.415.
TEST(ScanPlans, RoundCountsMatchThePapersFormulasByHand) {
  const struct {
    int64_t p;
    int q123, one, two, hs;
  } cases[] = {{2, 1, 1, 1, 1},  {3, 2, 2, 2, 2},  {4, 2, 3, 2, 2},   {5, 3, 3, 3, 3},
               {7, 3, 4, 3, 3},  {8, 4, 4, 3, 3},  {13, 4, 5, 4, 4},  {14, 5, 5, 4, 4},
               {36, 6, 7, 6, 6}, {1152, 11, 12, 11, 11}, {(int64_t{1} << 31) - 1, 32, 32, 31, 31}};
  for (const auto& c : cases) {
    EXPECT_EQ(q_123(c.p), c.q123) << c.p;
    EXPECT_EQ(scan_rounds(algo("123-doubling"), c.p), c.q123) << c.p;
    EXPECT_EQ(scan_rounds(algo("1-doubling"), c.p), c.one) << c.p;
    EXPECT_EQ(scan_rounds(algo("two-op-doubling"), c.p), c.two) << c.p;
    EXPECT_EQ(scan_rounds(algo("hillis-steele"), c.p), c.hs) << c.p;
  }
  for (const char* name : {"123-doubling", "1-doubling", "two-op-doubling", "hillis-steele"})
    EXPECT_EQ(scan_rounds(algo(name), 1), 0) << name;
}

// The plans' round loops (skips) against the closed forms (integer formulas)
// for every p up to 2^16.
TEST(ScanPlans, RoundLoopsAgreeWithClosedForms) {
  for (int64_t p = 2; p <= (1 << 16); ++p) {
    ASSERT_EQ(scan_rounds(algo("123-doubling"), p), q_123(p)) << p;
    ASSERT_EQ(scan_rounds(algo("1-doubling"), p), 1 + ceil_log2(p - 1)) << p;
    ASSERT_EQ(scan_rounds(algo("two-op-doubling"), p), ceil_log2(p)) << p;
    ASSERT_EQ(scan_rounds(algo("hillis-steele"), p), ceil_log2(p)) << p;
  }
}

TEST(ScanPlans, SixtyFourBitRanks) {
  const int64_t p = (int64_t{1} << 31) - 1;
  const ScanAlgorithm& a = algo("123-doubling");
  // last round k = 31: skip 3 * 2^29 = 1610612736
  EXPECT_EQ(scan_round(a, p, p - 1, 31).recv_from, p - 1 - 1610612736);
  EXPECT_EQ(scan_round(a, p, 1, 31).send_to, 1 + 1610612736);
  EXPECT_EQ(scan_round(a, p, p - 1610612736, 31).send_to, -1);  // would reach p
  EXPECT_EQ(scan_round(a, p, p - 1610612737, 31).send_to, p - 1);
}

// The truncation property: rank r's round at p is its round at N without a
// send to a rank >= p; round counts never decrease with p.
TEST(ScanPlans, TruncationProperty) {
  const int64_t big = 260;
  for (int i = 0; i < kScanAlgorithmCount; ++i) {
    const ScanAlgorithm& a = kScanAlgorithms[i];
    for (int64_t p = 1; p <= big; ++p) {
      if (p > 1) {
        ASSERT_LE(scan_rounds(a, p - 1), scan_rounds(a, p)) << a.name;
      }
      for (int64_t r = 0; r < p; ++r)
        for (int k = 0; k < kMaxScanRounds; ++k) {
          ScanRound at_big = scan_round(a, big, r, k);
          if (at_big.send_to >= p) at_big.send_to = -1;
          ASSERT_EQ(scan_round(a, p, r, k), at_big) << a.name << " p=" << p << " r=" << r << " k=" << k;
        }
    }
  }
}

TEST(ScanPlans, Registry) {
  std::set<std::string> names;
  for (int i = 0; i < kScanAlgorithmCount; ++i) {
    EXPECT_TRUE(names.insert(kScanAlgorithms[i].name).second);
    EXPECT_EQ(find_scan_algorithm(kScanAlgorithms[i].name), &kScanAlgorithms[i]);
  }
  EXPECT_EQ(find_scan_algorithm("two-tree"), nullptr);
  EXPECT_EQ(names.size(), 4u);
}

}  // namespace
}  // namespace collsim
