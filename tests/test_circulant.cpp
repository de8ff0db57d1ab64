// Circulant schedules against the paper's Tables 1-3 (typed in from seed 003,
// not produced by this code), the O(p) listing against Algorithm 3, the batch
// against the per-rank computation, and 64-bit safety near p = 2^31 - 1.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "circulant.hpp"
#include "circulant_batch.hpp"
#include "circulant_table.hpp"
#include "run_cli.hpp"

namespace collsim {
namespace {

struct PaperTable {
  int64_t p;
  std::vector<int> b;
  std::vector<std::vector<int>> recv, send;  // [k][r]
};

// Table 1, p = 17.
const PaperTable kTable1{
    17,
    {5, 0, 1, 2, 0, 3, 0, 1, 2, 4, 0, 1, 2, 0, 3, 0, 1},
    {{-4, 0, -5, -4, -3, -5, -2, -5, -4, -3, -1, -5, -4, -3, -5, -2, -5},
     {-5, -4, 1, -5, -4, -3, -3, -2, -5, -4, -3, -1, -5, -4, -3, -3, -2},
     {-2, -2, -2, 2, 0, -4, -4, -3, -2, -2, -4, -3, -1, -1, -4, -4, -3},
     {-1, -3, -3, -2, -2, 3, 0, 1, 2, -5, -2, -2, -2, -2, -1, -1, -1},
     {-3, -1, -1, -1, -1, -1, -1, -1, -1, 4, 0, 1, 2, 0, 3, 0, 1}},
    {{0, -5, -4, -3, -5, -2, -5, -4, -3, -1, -5, -4, -3, -5, -2, -5, -4},
     {1, -5, -4, -3, -3, -2, -5, -4, -3, -1, -5, -4, -3, -3, -2, -5, -4},
     {2, 0, -4, -4, -3, -2, -2, -4, -3, -1, -1, -4, -4, -3, -2, -2, -2},
     {3, 0, 1, 2, -5, -2, -2, -2, -2, -1, -1, -1, -1, -3, -3, -2, -2},
     {4, 0, 1, 2, 0, 3, 0, 1, -3, -1, -1, -1, -1, -1, -1, -1, -1}}};

// Table 2, p = 9.
const PaperTable kTable2{9,
                         {4, 0, 1, 2, 0, 3, 0, 1, 2},
                         {{-2, 0, -4, -3, -2, -4, -1, -4, -3},
                          {-3, -2, 1, -4, -3, -2, -2, -1, -4},
                          {-1, -3, -2, 2, 0, -3, -3, -2, -1},
                          {-4, -1, -1, -1, -1, 3, 0, 1, 2}},
                         {{0, -4, -3, -2, -4, -1, -4, -3, -2},
                          {1, -4, -3, -2, -2, -1, -4, -3, -2},
                          {2, 0, -3, -3, -2, -1, -1, -3, -2},
                          {3, 0, 1, 2, -4, -1, -1, -1, -1}}};

// Table 3, p = 18.
const PaperTable kTable3{
    18,
    {5, 0, 1, 2, 0, 3, 0, 1, 2, 4, 0, 1, 2, 0, 3, 0, 1, 2},
    {{-3, 0, -5, -4, -3, -5, -2, -5, -4, -3, -1, -5, -4, -3, -5, -2, -5, -4},
     {-4, -3, 1, -5, -4, -3, -3, -2, -5, -4, -3, -1, -5, -4, -3, -3, -2, -5},
     {-2, -4, -3, 2, 0, -4, -4, -3, -2, -2, -4, -3, -1, -1, -4, -4, -3, -2},
     {-5, -2, -2, -2, -2, 3, 0, 1, 2, -5, -2, -2, -2, -2, -1, -1, -1, -1},
     {-1, -1, -1, -1, -1, -1, -1, -1, -1, 4, 0, 1, 2, 0, 3, 0, 1, 2}},
    {{0, -5, -4, -3, -5, -2, -5, -4, -3, -1, -5, -4, -3, -5, -2, -5, -4, -3},
     {1, -5, -4, -3, -3, -2, -5, -4, -3, -1, -5, -4, -3, -3, -2, -5, -4, -3},
     {2, 0, -4, -4, -3, -2, -2, -4, -3, -1, -1, -4, -4, -3, -2, -2, -4, -3},
     {3, 0, 1, 2, -5, -2, -2, -2, -2, -1, -1, -1, -1, -5, -2, -2, -2, -2},
     {4, 0, 1, 2, 0, 3, 0, 1, 2, -1, -1, -1, -1, -1, -1, -1, -1, -1}}};

void PrintTo(const PaperTable& t, std::ostream* os) { *os << "p=" << t.p; }

class PaperTables : public ::testing::TestWithParam<PaperTable> {};

TEST_P(PaperTables, ReproducedExactly) {
  const PaperTable& want = GetParam();
  const CirculantSchedule s(want.p);
  ASSERT_EQ(static_cast<size_t>(s.q()), want.recv.size());
  int recv[kMaxRounds], send[kMaxRounds];
  for (int64_t r = 0; r < want.p; ++r) {
    EXPECT_EQ(s.baseblock(r), want.b[r]) << "r=" << r;
    s.recv(r, recv);
    s.send(r, send);
    for (int k = 0; k < s.q(); ++k) {
      EXPECT_EQ(recv[k], want.recv[k][r]) << "recvblock[" << k << "] r=" << r;
      EXPECT_EQ(send[k], want.send[k][r]) << "sendblock[" << k << "] r=" << r;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seed003, PaperTables, ::testing::Values(kTable1, kTable2, kTable3),
                         [](const auto& info) { return "p" + std::to_string(info.param.p); });

TEST(CirculantSkips, HalvingWithRoundingUp) {
  const CirculantSchedule s(11);  // the paper's listing example
  EXPECT_EQ(s.q(), 4);
  std::vector<int64_t> skips;
  for (int k = 0; k <= s.q(); ++k) skips.push_back(s.skip(k));
  EXPECT_EQ(skips, (std::vector<int64_t>{1, 2, 3, 6, 11}));
  EXPECT_EQ(CirculantSchedule(1).q(), 0);
  EXPECT_EQ(CirculantSchedule(kMaxProcs).q(), 31);
}

TEST(CirculantSkips, RejectsOutOfRangeP) {
  EXPECT_THROW(CirculantSchedule(0), std::invalid_argument);
  EXPECT_THROW(CirculantSchedule(-5), std::invalid_argument);
  EXPECT_THROW(CirculantSchedule(kMaxProcs + 1), std::invalid_argument);
}

TEST(CirculantBaseblocks, ListingOfLemma3ProofMatchesAlgorithm3) {
  const auto listing = all_baseblocks(CirculantSchedule(11));
  EXPECT_EQ(std::vector<int>(listing.begin(), listing.end()), (std::vector<int>{4, 0, 1, 2, 0, 1, 3, 0, 1, 2, 0}));
  for (int64_t p = 1; p <= 600; ++p) {
    const CirculantSchedule s(p);
    const auto b = all_baseblocks(s);
    for (int64_t r = 0; r < p; ++r) ASSERT_EQ(b[r], s.baseblock(r)) << "p=" << p << " r=" << r;
  }
}

TEST(CirculantBatch, EqualsPerRankComputation) {
  int recv[kMaxRounds], send[kMaxRounds];
  for (int64_t p = 1; p <= 300; ++p) {
    const CirculantSchedule s(p);
    const CirculantTable t = compute_all_ranks(s);
    for (int64_t r = 0; r < p; ++r) {
      s.recv(r, recv);
      s.send(r, send);
      for (int k = 0; k < s.q(); ++k) {
        ASSERT_EQ(t.recv_at(r, k), recv[k]) << "p=" << p << " r=" << r << " k=" << k;
        ASSERT_EQ(t.send_at(r, k), send[k]) << "p=" << p << " r=" << r << " k=" << k;
      }
    }
  }
}

// Algorithm 6 and §2.2's definition sendblock[k]_r = recvblock[k]_t agree.
TEST(CirculantBatch, Algorithm6SendsEqualReceiveLookup) {
  for (int64_t p = 1; p <= 1500; ++p) {
    const CirculantSchedule s(p);
    ASSERT_EQ(compute_all_ranks(s, nullptr, SendRule::algorithm6).send,
              compute_all_ranks(s, nullptr, SendRule::lookup).send)
        << "p=" << p;
  }
}

#ifdef COLLSIM_X86
// The 16-lane kernels (circulant_batch.hpp) against the per-rank loops: same
// tables, same statistics (the first ranks to reach each maximum) and the
// same Algorithm 3 answers, for every p up to 2000 and for some of the verify
// sweep's largest p (q = 17, full and partial last chunks of sixteen).
TEST(CirculantBatch, VectorKernelsEqualPerRankLoops) {
  if (!batch16::usable(2)) GTEST_SKIP() << "this CPU lacks the AVX-512 subsets the kernels use";
  EXPECT_TRUE(batch16::usable(batch16::kMaxProcs));
  EXPECT_FALSE(batch16::usable(batch16::kMaxProcs + 1));
  std::vector<int64_t> ps;
  for (int64_t p = 1; p <= 2000; ++p) ps.push_back(p);
  for (int64_t p : {65537, 99999, 131071, 131072}) ps.push_back(p);
  for (int64_t p : ps) {
    const CirculantSchedule s(p);
    CirculantBatchStats vec, ref;
    const CirculantTable a = compute_all_ranks(s, &vec, SendRule::algorithm6, BatchKernel::fastest);
    const CirculantTable b = compute_all_ranks(s, &ref, SendRule::algorithm6, BatchKernel::portable);
    ASSERT_EQ(a.recv, b.recv) << "p=" << p;
    ASSERT_EQ(a.send, b.send) << "p=" << p;
    ASSERT_EQ(vec.max_recursive_calls, ref.max_recursive_calls) << "p=" << p;
    ASSERT_EQ(vec.rank_of_max_recursion, ref.rank_of_max_recursion) << "p=" << p;
    ASSERT_EQ(vec.violation_histogram, ref.violation_histogram) << "p=" << p;
    ASSERT_EQ(vec.max_violations, ref.max_violations) << "p=" << p;
    ASSERT_EQ(vec.rank_of_max_violations, ref.rank_of_max_violations) << "p=" << p;
    ASSERT_EQ(baseblocks_by_algorithm3(s, BatchKernel::fastest), baseblocks_by_algorithm3(s, BatchKernel::portable))
        << "p=" << p;
  }
}
#endif

// Near p = 2^31 - 1, p + r overflows 32 bits. Sampled ranks must still meet
// conditions 2 and 3 (checked here directly from the definitions).
TEST(CirculantLargeP, SampledRanksConsistentNear2To31) {
  std::mt19937_64 rng(7);
  for (int64_t p : {kMaxProcs, kMaxProcs - 1, int64_t{1} << 30, (int64_t{1} << 30) + 1}) {
    const CirculantSchedule s(p);
    const int q = s.q();
    std::vector<int64_t> ranks = {0, 1, p - 1, p - 2, p / 2, s.skip(q - 1), s.skip(q - 1) - 1};
    for (int i = 0; i < 40; ++i) ranks.push_back(static_cast<int64_t>(rng() % static_cast<uint64_t>(p)));
    int recv[kMaxRounds], send[kMaxRounds], other[kMaxRounds];
    for (int64_t r : ranks) {
      s.recv(r, recv);
      s.send(r, send);
      std::set<int> blocks(recv, recv + q);
      EXPECT_EQ(blocks.size(), static_cast<size_t>(q)) << "p=" << p << " r=" << r;
      EXPECT_EQ(std::count_if(recv, recv + q, [](int v) { return v >= 0; }), r == 0 ? 0 : 1);
      for (int k = 0; k < q; ++k) {
        s.recv(s.to(r, k), other);
        EXPECT_EQ(send[k], other[k]) << "p=" << p << " r=" << r << " k=" << k;
      }
    }
  }
}

// Renumbering: with root R, real rank r follows virtual rank (r - R) mod p.
TEST(CirculantCli, RootRenumbersRanks) {
  const auto root0 = test::run_collsim("schedule circulant --p 13 --format csv");
  const auto root5 = test::run_collsim("schedule circulant --p 13 --root 5 --format csv");
  ASSERT_EQ(root0.status, 0);
  ASSERT_EQ(root5.status, 0);
  auto rows = [](const std::string& csv) {
    std::vector<std::string> lines;
    size_t start = csv.find('\n') + 1;
    for (size_t end; (end = csv.find('\n', start)) != std::string::npos; start = end + 1)
      lines.push_back(csv.substr(start, end - start));
    return lines;
  };
  const auto a = rows(root0.out), b = rows(root5.out);
  const int q = 4;
  ASSERT_EQ(a.size(), 13u * q);
  ASSERT_EQ(b.size(), 13u * q);
  for (int r = 0; r < 13; ++r)
    for (int k = 0; k < q; ++k) {
      const std::string va = a[((r - 5 + 13) % 13) * q + k], vb = b[r * q + k];
      // Rows are root,rank,k,...: from the third field on they must agree.
      auto from_k = [](const std::string& row) { return row.substr(row.find(',', row.find(',') + 1)); };
      EXPECT_EQ(from_k(va), from_k(vb)) << "r=" << r << " k=" << k;
    }
}

// p = 3 worked by hand from the four conditions: skips 1 2; b = 2 0 1; the
// root sends 0, 1; rank 1 gets block 0 from the root in round 0, rank 2
// block 1 in round 1; the negative blocks follow from conditions 2-4.
TEST(CirculantCli, CsvHeaderAndRowOrder) {
  const auto res = test::run_collsim("schedule circulant --p 3 --format csv");
  ASSERT_EQ(res.status, 0);
  EXPECT_EQ(res.out,
            "root,rank,k,recvblock,sendblock\n0,0,0,-1,0\n0,0,1,-2,1\n0,1,0,0,-2\n0,1,1,-1,-2\n0,2,0,-2,-1\n"
            "0,2,1,1,-1\n");
}

TEST(CirculantCli, BadInputIsOneLineAndExit2) {
  for (const char* args : {"schedule circulant --p 0", "schedule circulant --p 2147483648",
                           "schedule circulant --p 12x", "schedule circulant --p 5 --root 5",
                           "schedule circulant --p 5 --format xml", "schedule nosuch --p 5", "nosuch"}) {
    const auto res = test::run_collsim(args, true);
    EXPECT_EQ(res.status, 2) << args;
    EXPECT_EQ(std::count(res.out.begin(), res.out.end(), '\n'), 1) << args << ": " << res.out;
  }
}

}  // namespace
}  // namespace collsim
