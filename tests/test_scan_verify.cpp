// The scan verifier: the registry's plans pass, the counts agree with values
// worked out independently (paper, NOTES.md, hand), the range sweep agrees
// with exact per-p execution, and broken plans are caught (mutation tests).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>

#include "circulant.hpp"  // ceil_log2
#include "run_cli.hpp"
#include "scan_check.hpp"

namespace collsim {
namespace {

const ScanAlgorithm& algo(const char* name) { return *find_scan_algorithm(name); }
int64_t first_p(const ScanAlgorithm& a) { return a.inclusive ? 1 : 2; }

TEST(ScanVerify, EveryAlgorithmPassesUpTo5000) {
  for (int i = 0; i < kScanAlgorithmCount; ++i) {
    const ScanSweep s = sweep_scan(plan_of(kScanAlgorithms[i]), first_p(kScanAlgorithms[i]), 5000);
    ASSERT_FALSE(s.failure) << kScanAlgorithms[i].name << ": " << describe(*s.failure);
  }
}

// The sweep derives p < hi by truncation; exact execution at every p must
// give the same counts.
TEST(ScanVerify, SweepAgreesWithExactExecution) {
  for (int i = 0; i < kScanAlgorithmCount; ++i) {
    const ScanPlan plan = plan_of(kScanAlgorithms[i]);
    const int64_t lo = first_p(kScanAlgorithms[i]);
    const ScanSweep sweep = sweep_scan(plan, lo, 200), exact = exact_scan(plan, lo, 200, nullptr);
    ASSERT_FALSE(sweep.failure);
    ASSERT_FALSE(exact.failure);
    EXPECT_EQ(sweep.rounds, exact.rounds) << kScanAlgorithms[i].name;
    EXPECT_EQ(sweep.result_ops, exact.result_ops) << kScanAlgorithms[i].name;
    EXPECT_EQ(sweep.total_ops, exact.total_ops) << kScanAlgorithms[i].name;
  }
}

// Expected counts from the paper's statements and NOTES.md:
//  - rounds: exactly the stated counts (Theorem 1, §2);
//  - 123-doubling: q-1 ⊕ into W; with the round-1 send value W ⊕ V counted,
//    q-1 only for p in {2,3,4} and p = 3*2^j + 2, 3*2^j + 3, else q;
//  - 1-doubling: ceil(log2(p-1)) ⊕, none forming send values;
//  - two-⊕: rank p-1 receives in every round after the shift, ceil(log2 p)-1
//    ⊕ into W; at most 2 ceil(log2 p) - 2 in all (NOTES.md); by hand p = 4:
//    rank 1 forms [0,1] and nothing else, rank 3 forms [0,2]: 1; p = 5:
//    rank 2 forms [1,2] and W_2 = [0] ⊕ [1]: 2;
//  - Hillis-Steele: ceil(log2 p) ⊕ (rank p-1 receives every round).
bool q_minus_one_in_all(int64_t p) {
  if (p <= 4) return true;
  for (int64_t x = 3; x + 2 <= p; x *= 2)
    if (p == x + 2 || p == x + 3) return true;
  return false;
}

TEST(ScanVerify, CountsMatchIndependentExpectations) {
  const int64_t hi = 5000;
  const ScanSweep s123 = sweep_scan(plan_of(algo("123-doubling")), 2, hi);
  const ScanSweep s1 = sweep_scan(plan_of(algo("1-doubling")), 2, hi);
  const ScanSweep s2 = sweep_scan(plan_of(algo("two-op-doubling")), 2, hi);
  const ScanSweep shs = sweep_scan(plan_of(algo("hillis-steele")), 2, hi);
  for (int64_t p = 2; p <= hi; ++p) {
    const size_t i = p - 2;
    const int q = q_123(p), lp = ceil_log2(p), lp1 = ceil_log2(p - 1);
    ASSERT_EQ(s123.rounds[i], q) << p;
    ASSERT_EQ(s123.result_ops[i], q - 1) << p;
    ASSERT_EQ(s123.total_ops[i], q_minus_one_in_all(p) ? q - 1 : q) << p;
    ASSERT_EQ(s1.rounds[i], 1 + lp1) << p;
    ASSERT_EQ(s1.result_ops[i], lp1) << p;
    ASSERT_EQ(s1.total_ops[i], lp1) << p;
    ASSERT_EQ(s2.rounds[i], lp) << p;
    ASSERT_EQ(s2.result_ops[i], lp - 1) << p;
    ASSERT_LE(s2.total_ops[i], 2 * lp - 2) << p;
    ASSERT_EQ(shs.rounds[i], lp) << p;
    ASSERT_EQ(shs.result_ops[i], lp) << p;
  }
  EXPECT_EQ(s2.total_ops[4 - 2], 1);
  EXPECT_EQ(s2.total_ops[5 - 2], 2);
}

// --- mutation tests --------------------------------------------------------

using Mutation = std::function<void(int64_t p, int64_t r, int k, ScanRound&)>;

ScanPlan mutated(const ScanAlgorithm& a, Mutation m) {
  ScanPlan plan = plan_of(a);
  plan.round = [base = plan.round, m](int64_t p, int64_t r, int k) {
    ScanRound x = base(p, r, k);
    m(p, r, k, x);
    return x;
  };
  return plan;
}

// Calls `check(p, r, k)` for every receive of the real plans at the test sizes.
template <class Check>
void for_each_receive(Check check) {
  for (int i = 0; i < kScanAlgorithmCount; ++i)
    for (int64_t p : {3, 7, 12, 36})
      for (int64_t r = 0; r < p; ++r)
        for (int k = 0; k < scan_rounds(kScanAlgorithms[i], p); ++k)
          if (scan_round(kScanAlgorithms[i], p, r, k).recv_from >= 0) check(kScanAlgorithms[i], p, r, k);
}

TEST(ScanVerifyMutation, WrongPartnerIsCaught) {
  int tried = 0;
  for_each_receive([&](const ScanAlgorithm& a, int64_t p, int64_t r, int k) {
    const ScanPlan plan = mutated(a, [=](int64_t, int64_t rr, int kk, ScanRound& x) {
      if (rr == r && kk == k) x.recv_from = x.recv_from > 0 ? x.recv_from - 1 : x.recv_from + 1;
    });
    const ScanSweep s = exact_scan(plan, p, p, nullptr);
    ASSERT_TRUE(s.failure) << a.name << " p=" << p << " r=" << r << " k=" << k;
    ++tried;
  });
  EXPECT_GT(tried, 100);
}

TEST(ScanVerifyMutation, SwappedCombineOrderIsCaught) {
  for_each_receive([&](const ScanAlgorithm& a, int64_t p, int64_t r, int k) {
    if (scan_round(a, p, r, k).combine != ScanCombine::left) return;
    const ScanPlan plan = mutated(a, [=](int64_t, int64_t rr, int kk, ScanRound& x) {
      if (rr == r && kk == k) x.combine = ScanCombine::right;
    });
    const ScanSweep s = exact_scan(plan, p, p, nullptr);
    ASSERT_TRUE(s.failure) << a.name << " p=" << p << " r=" << r << " k=" << k;
    EXPECT_EQ(s.failure->condition, "non-adjacent combine");
    EXPECT_EQ(s.failure->rank, r);
    // The range sweep sees it too (the mutation is present at p = hi).
    EXPECT_TRUE(sweep_scan(plan, first_p(a), p).failure);
  });
}

TEST(ScanVerifyMutation, SkippedRoundIsCaught) {
  for (int i = 0; i < kScanAlgorithmCount; ++i)
    for (int64_t p : {3, 5, 9, 36, 100}) {
      const ScanAlgorithm& a = kScanAlgorithms[i];
      for (int k = 0; k < scan_rounds(a, p); ++k) {
        const ScanPlan plan = mutated(a, [=](int64_t, int64_t, int kk, ScanRound& x) {
          if (kk == k) x = ScanRound{};
        });
        EXPECT_TRUE(exact_scan(plan, p, p, nullptr).failure) << a.name << " p=" << p << " k=" << k;
        EXPECT_TRUE(sweep_scan(plan, first_p(a), p).failure) << a.name << " p=" << p << " k=" << k;
      }
    }
}

// Off-by-one skips, made in the rule so the sends and receives still pair up:
// only the intervals can tell.
const ScanAlgorithm* g_base;
int g_round, g_delta;
ScanRule off_by_one_rule(int k) {
  ScanRule x = g_base->rule(k);
  if (k == g_round) x.skip += g_delta;
  return x;
}

TEST(ScanVerifyMutation, OffByOneSkipIsCaught) {
  for (int i = 0; i < kScanAlgorithmCount; ++i) {
    g_base = &kScanAlgorithms[i];
    ScanAlgorithm broken = *g_base;
    broken.rule = off_by_one_rule;
    for (g_round = 0; g_round < scan_rounds(*g_base, 300); ++g_round)
      for (int delta : {-1, +1}) {
        g_delta = delta;
        EXPECT_TRUE(sweep_scan(plan_of(broken), first_p(broken), 300).failure)
            << broken.name << " k=" << g_round << " delta=" << g_delta;
        EXPECT_TRUE(exact_scan(plan_of(broken), 100, 100, nullptr).failure || g_round >= scan_rounds(*g_base, 100))
            << broken.name << " k=" << g_round << " delta=" << g_delta;
      }
  }
}

// A send nobody receives (the receiver's side unchanged) is caught.
TEST(ScanVerifyMutation, UnmatchedSendIsCaught) {
  const ScanPlan plan = mutated(algo("123-doubling"), [](int64_t p, int64_t r, int k, ScanRound& x) {
    if (r == 0 && k == 2) x.send_to = p - 1;  // rank 0 is done after round 1
  });
  const ScanSweep s = exact_scan(plan, 12, 12, nullptr);
  ASSERT_TRUE(s.failure);
  EXPECT_EQ(s.failure->condition, "unmatched send");
}

// Each rule of the checker made to fail once, by one change to one rank's
// round of hillis-steele (inclusive: W starts as [r, r]; in round k rank r
// sends W to r + 2^k and receives from r − 2^k, left) at p = 8, or to the
// round counts; the failure names the rule (and the rank).
ScanSweep broken_at(int64_t rank, int round, const std::function<void(ScanRound&)>& change, bool sweep = false) {
  const ScanPlan plan = mutated(algo("hillis-steele"), [=](int64_t, int64_t r, int k, ScanRound& x) {
    if (r == rank && k == round) change(x);
  });
  return sweep ? sweep_scan(plan, 2, 8) : exact_scan(plan, 8, 8, nullptr);
}

TEST(ScanVerifyMutation, EveryRuleFailsOnce) {
  struct Case {
    const char* rule;
    int64_t rank;
    int round;
    std::function<void(ScanRound&)> change;
    bool sweep;
  };
  const Case cases[] = {
      {"partner out of range", 3, 0, [](ScanRound& x) { x.send_to = 8; }, false},
      {"partner out of range", 3, 0, [](ScanRound& x) { x.recv_from = 3; }, false},
      // Rank 0 receives nothing in round 0; a combine there has no data.
      {"combine without receive", 0, 0, [](ScanRound& x) { x.combine = ScanCombine::left; }, false},
      // The range sweep's truncation argument needs upward messages.
      {"message to a lower rank", 5, 1, [](ScanRound& x) { x.send_to = 2; }, true},
      // W = [4, 4] cannot be joined with V = [4]: W ⊕ V needs W to end at r − 1.
      {"non-adjacent W+V", 4, 0, [](ScanRound& x) { x.send = ScanValue::W_op_V; }, false},
      // Rank 0 receives from 3, which sends to 4.
      {"unmatched receive", 0, 0, [](ScanRound& x) { x.recv_from = 3, x.combine = ScanCombine::store; }, false},
      {"unmatched send", 6, 1, [](ScanRound& x) { x.send_to = 7; }, false},
  };
  for (const Case& c : cases) {
    const ScanSweep s = broken_at(c.rank, c.round, c.change, c.sweep);
    ASSERT_TRUE(s.failure) << c.rule;
    EXPECT_EQ(s.failure->condition, c.rule) << describe(*s.failure);
    EXPECT_EQ(s.failure->rank, c.rank) << describe(*s.failure);
  }
  // Exscan's W starts empty: sending it in round 0 sends nothing defined.
  const ScanPlan undefined = mutated(algo("1-doubling"), [](int64_t, int64_t r, int k, ScanRound& x) {
    if (r == 2 && k == 0) x.send = ScanValue::W;
  });
  const ScanSweep u = exact_scan(undefined, 8, 8, nullptr);
  ASSERT_TRUE(u.failure);
  EXPECT_EQ(u.failure->condition, "undefined send") << describe(*u.failure);

  // Every round valid and matched, but one round short: W is no prefix.
  ScanPlan short_by_one = plan_of(algo("hillis-steele"));
  short_by_one.rounds = [base = short_by_one.rounds](int64_t p) { return base(p) - 1; };
  const ScanSweep w = exact_scan(short_by_one, 8, 8, nullptr);
  ASSERT_TRUE(w.failure);
  EXPECT_EQ(w.failure->condition, "wrong result") << describe(*w.failure);

  // Round counts: more than the 63 a run records, and fewer at p than at p − 1.
  ScanPlan too_many = plan_of(algo("hillis-steele"));
  too_many.rounds = [](int64_t) { return 64; };
  ScanSweep r = sweep_scan(too_many, 2, 8);
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->condition, "round count");
  EXPECT_EQ(r.failure->detail, "64 rounds (0..63 supported)");
  ScanPlan shrinking = plan_of(algo("hillis-steele"));
  shrinking.rounds = [base = shrinking.rounds](int64_t p) { return p == 6 ? base(5) - 1 : base(p); };
  r = sweep_scan(shrinking, 2, 8);
  ASSERT_TRUE(r.failure);
  EXPECT_EQ(r.failure->condition, "round count");
  EXPECT_EQ(r.failure->p, 6);
}

// --- command line ------------------------------------------------------------

TEST(ScanVerifyCli, AllAlgorithmsPassAndReportBothCounts) {
  const auto r = test::run_collsim("verify exscan --algo all --p 2:100000");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("OK: verify exscan --algo all --p 2:100000"), std::string::npos) << r.out;
  // 35 p <= 100000 of the form {2,3,4} or 3*2^j + 2, 3*2^j + 3 (j <= 15).
  EXPECT_NE(r.out.find("into W + send values <= q - 1: holds for 35 of 99999 p (first exceeded at p=7)"),
            std::string::npos)
      << r.out;
  const auto s = test::run_collsim("verify scan --algo hillis-steele --p 1:4096");
  EXPECT_EQ(s.status, 0) << s.out;
}

TEST(ScanVerifyCli, BadInputIsOneLineAndExitTwo) {
  for (const char* args : {"verify exscan --algo nope --p 2:9", "verify exscan --algo hillis-steele --p 2:9",
                           "verify scan --algo 123-doubling --p 2:9", "verify exscan --algo all --p 1:9",
                           "verify scan --algo all --p 0:9", "verify exscan --algo all --p 9:2",
                           "verify exscan --p 2:9"}) {
    const auto r = test::run_collsim(args, true);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << args << ": " << r.out;
  }
}

}  // namespace
}  // namespace collsim
