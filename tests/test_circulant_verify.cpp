// The circulant verifier: passes every p <= 2048, and catches broken
// schedules (mutation tests) and malformed files (exit 2).
#include <gtest/gtest.h>

#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "circulant_check.hpp"
#include "circulant_sweep.hpp"
#include "run_cli.hpp"
#include "schedule_csv.hpp"

namespace collsim {
namespace {

TEST(CirculantVerify, EveryPUpTo2048Passes) {
  for (int64_t p = 1; p <= 2048; ++p) {
    CirculantBatchStats stats;
    const auto failure = verify_circulant_p(p, {}, stats);
    ASSERT_FALSE(failure) << describe(*failure);
  }
}

CirculantTable table(int64_t p) { return compute_all_ranks(CirculantSchedule(p)); }

void swap_recv(CirculantTable& t, int64_t r, int k1, int k2) {
  std::swap(t.recv[t.cell(r, k1)], t.recv[t.cell(r, k2)]);
}

TEST(CirculantVerifyMutation, SwappedReceiveBlocksAreCaught) {
  for (int64_t p : {9, 17, 18, 100, 1000}) {
    const int q = table(p).q;
    for (int64_t r : {int64_t{1}, p / 2, p - 1})
      for (int k = 0; k + 1 < q; ++k) {
        CirculantTable t = table(p);
        if (t.recv_at(r, k) == t.recv_at(r, k + 1)) continue;
        swap_recv(t, r, k, k + 1);
        EXPECT_TRUE(check_table(t, {})) << "p=" << p << " r=" << r << " k=" << k;
      }
  }
}

TEST(CirculantVerifyMutation, ChangedSendBlockIsCaught) {
  for (int64_t p : {9, 17, 33, 257}) {
    const CirculantTable good = table(p);
    for (int64_t r = 0; r < p; r += 3)
      for (int k = 0; k < good.q; ++k) {
        CirculantTable t = good;
        int8_t& v = t.send[t.cell(r, k)];
        v = static_cast<int8_t>(v == t.q - 1 ? -t.q : v + 1);
        const auto c = check_conditions(t);
        ASSERT_TRUE(c) << "p=" << p << " r=" << r << " k=" << k;
      }
  }
}

// The construction's own facts (check_construction), each broken once on
// an otherwise good p: a listing that disagrees with Algorithm 3 at one
// rank, a rank that took q recursive ALLBLOCKS calls (Lemma 5 allows
// q − 1), a rank with 5 send-schedule violations (Theorem 3 allows 4).
// Each failure names its rule, its rank and its numbers; the good
// construction passes.
TEST(CirculantVerifyMutation, ConstructionFactsAreCheckedEach) {
  for (int64_t p : {11, 100, 1000}) {
    const CirculantSchedule s(p);
    CirculantBatchStats good_stats;
    CirculantTable t;
    compute_all_ranks_into(s, t, &good_stats);
    const std::vector<int8_t> searched = baseblocks_by_algorithm3(s);
    ASSERT_FALSE(check_construction(t, searched, good_stats)) << "p=" << p;

    std::vector<int8_t> wrong_listing = searched;
    const int64_t r = p / 3;
    wrong_listing[static_cast<size_t>(r)] = static_cast<int8_t>((searched[static_cast<size_t>(r)] + 1) % (t.q + 1));
    auto c = check_construction(t, wrong_listing, good_stats);
    ASSERT_TRUE(c) << "p=" << p;
    EXPECT_EQ(c->condition, "baseblock listing (Lemma 3 proof)");
    EXPECT_EQ(c->rank, r);

    CirculantBatchStats recursion = good_stats;
    recursion.max_recursive_calls = t.q;
    recursion.rank_of_max_recursion = 7;
    c = check_construction(t, searched, recursion);
    ASSERT_TRUE(c) << "p=" << p;
    EXPECT_EQ(c->condition, "Lemma 5 (at most q-1 recursive ALLBLOCKS calls)");
    EXPECT_EQ(c->rank, 7);
    EXPECT_EQ(c->detail, std::to_string(t.q) + " calls");

    CirculantBatchStats violations = good_stats;
    violations.max_violations = 5;
    violations.rank_of_max_violations = 5;
    c = check_construction(t, searched, violations);
    ASSERT_TRUE(c) << "p=" << p;
    EXPECT_EQ(c->condition, "Theorem 3 (at most 4 send-schedule violations)");
    EXPECT_EQ(c->detail, "5 violations");
  }
}

// collsim-verify-mpi's gathering: every rank's slice goes through
// pack_sweep/unpack_sweep and is merged in rank order (increasing p). With
// counterexamples in two slices the smallest failing p wins, whichever
// slice holds it, its condition and a detail of two lines arrive intact,
// and the processors, worst cases and histogram add up.
TEST(CirculantVerifyMpiGather, SmallestFailingPAcrossSlicesIsReported) {
  auto slice = [](int64_t processors, int calls, int64_t at_p, std::optional<Counterexample> failure) {
    CirculantSweep s;
    s.processors = processors;
    s.worst.max_recursive_calls = calls;
    s.worst.rank_of_max_recursion = 3;
    s.p_of_max_recursion = at_p;
    s.worst.violation_histogram[1] = processors;
    s.failure = std::move(failure);
    return s;
  };
  const Counterexample early{150, 7, 2, "condition 4 (send only what was received before)", "first line\nsecond line"};
  const Counterexample late{190, 1, -1, "Lemma 5 (at most q-1 recursive ALLBLOCKS calls)", "9 calls"};
  for (const auto& failures : {std::vector<std::optional<Counterexample>>{std::nullopt, early, late},
                               std::vector<std::optional<Counterexample>>{std::nullopt, early, std::nullopt},
                               std::vector<std::optional<Counterexample>>{std::nullopt, std::nullopt, late}}) {
    CirculantSweep total;
    const int64_t processors[] = {5000, 7000, 9000};
    for (size_t rank = 0; rank < 3; ++rank)
      total.merge(
          unpack_sweep(pack_sweep(slice(processors[rank], 4 + int(rank), 100 + 40 * int64_t(rank), failures[rank]))));
    const std::optional<Counterexample>& want = failures[1] ? failures[1] : failures[2];
    ASSERT_TRUE(total.failure);
    EXPECT_EQ(total.failure->p, want->p);
    EXPECT_EQ(total.failure->rank, want->rank);
    EXPECT_EQ(total.failure->k, want->k);
    EXPECT_EQ(total.failure->condition, want->condition);
    EXPECT_EQ(total.failure->detail, want->detail);
    EXPECT_EQ(total.processors, 21000);
    EXPECT_EQ(total.worst.max_recursive_calls, 6);
    EXPECT_EQ(total.p_of_max_recursion, 180);
    EXPECT_EQ(total.worst.violation_histogram[1], 21000);
  }
  EXPECT_FALSE(unpack_sweep(pack_sweep(slice(1, 1, 1, std::nullopt))).failure);
}

// Conditions 1 and 2 by name: one changed send of rank r in round k breaks
// the pair (r, t = r + skip[k]); the scan meets the lower rank of the two
// first: r itself when t > r (condition 2: r's send is not what t
// receives), t when the pair wraps around (condition 1: t receives what r
// no longer sends).
TEST(CirculantVerifyMutation, ConditionsOneAndTwoNameTheirRank) {
  const int64_t p = 17;
  const CirculantSchedule s(p);
  auto changed_send = [&](int64_t r, int k) {
    CirculantTable t = table(p);
    int8_t& v = t.send[t.cell(r, k)];
    v = static_cast<int8_t>(v == t.q - 1 ? -t.q : v + 1);
    return check_conditions(t);
  };
  auto c = changed_send(3, 1);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->condition, "condition 2 (sendblock[k]_r = recvblock[k]_t)");
  EXPECT_EQ(c->rank, 3);
  EXPECT_EQ(c->k, 1);
  c = changed_send(p - 1, 2);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->condition, "condition 1 (recvblock[k]_r = sendblock[k]_f)");
  EXPECT_EQ(c->rank, s.to(p - 1, 2));
  EXPECT_EQ(c->k, 2);
}

// Algorithm 1 with x off by one in the block numbering (the rounds still
// start at x) must break the data flow for some n of the default list, as
// `verify` runs it; the true x must pass for every n. (Moving the first round
// and the numbering together by one gave another valid broadcast in n-1+q
// rounds for these p, which the verifier rightly accepts.)
TEST(CirculantVerifyMutation, OffByOneInVirtualRoundsIsCaught) {
  for (int64_t p : {5, 9, 17, 64, 100, 1000}) {
    const CirculantTable t = table(p);
    for (int delta : {-1, +1}) {
      int caught = 0;
      for (int64_t n : default_block_counts(t.q)) {
        BroadcastRun run = algorithm1_run(n, t.q);
        EXPECT_FALSE(simulate_broadcast(t, run)) << "p=" << p << " n=" << n;
        run.block_shift += delta;
        caught += simulate_broadcast(t, run).has_value();
      }
      EXPECT_GT(caught, 0) << "p=" << p << " delta=" << delta;
    }
  }
}

// Breaks that keep conditions 1-2: rank x's receive block of round k and
// its sender's send block are changed together. `mutate(t, x)` makes the
// break; `check(x, c)` judges check_conditions' answer. Ranks inside the
// row checks' groups of eight and after them, for three p.
template <class Mutate, class Check>
void for_pair_keeping_breaks(Mutate mutate, Check check) {
  for (int64_t p : {17, 100, 1000})
    for (int64_t x = 1; x < p; x += p / 17) {
      CirculantTable t = table(p);
      mutate(t, x);
      const auto c = check_conditions(t);
      ASSERT_TRUE(c) << "p=" << p << " x=" << x;
      check(x, *c);
    }
}

void set_pair(CirculantTable& t, int64_t x, int k, int8_t block) {
  t.recv[t.cell(x, k)] = block;
  t.send[t.cell(CirculantSchedule(t.p).from(x, k), k)] = block;
}

// x receives its round-0 block again in round q-1: condition 3 at x, and
// condition 4 at its sender if that never had the block; the lower rank of
// the two must be named.
TEST(CirculantVerifyMutation, BreaksThatKeepPairsAreNamedAtTheirRank) {
  int64_t sender = 0;
  for_pair_keeping_breaks(
      [&](CirculantTable& t, int64_t x) {
        sender = CirculantSchedule(t.p).from(x, t.q - 1);
        set_pair(t, x, t.q - 1, static_cast<int8_t>(t.recv_at(x, 0)));
      },
      [&](int64_t x, const Counterexample& c) {
        const bool at_x = c.rank == x;
        EXPECT_TRUE(at_x || (c.rank == sender && sender < x)) << describe(c);
        EXPECT_NE(c.condition.find(at_x ? "condition 3" : "condition 4"), std::string::npos) << describe(c);
      });
}

// x's receive blocks of rounds 0 and q-1 swapped (senders changed to match):
// conditions 1-3 hold everywhere, so only condition 4 (a rank sends a block
// before it has it) can catch it.
TEST(CirculantVerifyMutation, ReorderedReceivesBreakOnlyCondition4) {
  for_pair_keeping_breaks(
      [](CirculantTable& t, int64_t x) {
        const auto first = static_cast<int8_t>(t.recv_at(x, 0)), last = static_cast<int8_t>(t.recv_at(x, t.q - 1));
        set_pair(t, x, 0, last);
        set_pair(t, x, t.q - 1, first);
      },
      [](int64_t, const Counterexample& c) {
        EXPECT_NE(c.condition.find("condition 4"), std::string::npos) << describe(c);
      });
}

// Back to what the verifier uses, after a test switched builds.
void use_fastest_dataflow_kernel() {
  for (DataflowKernel k : {DataflowKernel::avx512, DataflowKernel::avx2, DataflowKernel::portable})
    if (use_dataflow_kernel(k)) return;
}

// The data-flow simulation alone, in each build of its inner loop this CPU
// has, with one-word (n <= 32) and several-word holdings: every correct
// table passes; a swapped pair of receive blocks, a changed send block and
// blocks numbered one round early fail, with the same counterexamples from
// every build.
TEST(CirculantDataflow, EveryKernelPassesGoodAndCatchesBrokenTables) {
  std::vector<DataflowKernel> kernels;
  for (DataflowKernel k : {DataflowKernel::portable, DataflowKernel::avx2, DataflowKernel::avx512})
    if (use_dataflow_kernel(k)) kernels.push_back(k);
  ASSERT_FALSE(kernels.empty());
  std::cerr << kernels.size() << " of 3 kernel builds run on this CPU\n";
  for (int64_t p : {9, 17, 100, 1000}) {
    const CirculantTable good = table(p);
    std::vector<BroadcastRun> runs;
    for (int64_t n : default_block_counts(good.q)) runs.push_back(algorithm1_run(n, good.q));
    for (int64_t n : {32, 33, 64, 65, 130}) runs.push_back(algorithm1_run(n, good.q));
    const int64_t r = p / 2 + 1;
    CirculantTable swapped = good, changed = good;
    swap_recv(swapped, r, 0, good.q - 1);
    int8_t& v = changed.send[changed.cell(r, good.q - 1)];
    v = static_cast<int8_t>(v == good.q - 1 ? -good.q : v + 1);
    std::vector<std::string> found;  // per kernel: both counterexamples
    for (DataflowKernel k : kernels) {
      ASSERT_TRUE(use_dataflow_kernel(k));
      const auto ok = simulate_broadcasts(good, runs);
      EXPECT_FALSE(ok) << "p=" << p << ": " << describe(*ok);
      const auto a = simulate_broadcasts(swapped, runs), b = simulate_broadcasts(changed, runs);
      ASSERT_TRUE(a && b) << "p=" << p << " kernel " << static_cast<int>(k);
      std::string early;  // blocks numbered one round early: sends before holding (n > 1)
      for (BroadcastRun run : runs) {
        run.block_shift -= 1;
        if (auto c = simulate_broadcast(good, run)) early += describe(*c) + "; ";
      }
      EXPECT_NE(early.find("before holding"), std::string::npos) << "p=" << p << ": " << early;
      found.push_back(describe(*a) + " | " + describe(*b) + " | " + early);
      EXPECT_EQ(found.front(), found.back()) << "p=" << p;
    }
  }
  use_fastest_dataflow_kernel();
}

// A rank that forwards, in round k, the block it receives in that same round
// sends before holding it, though its receiver agrees on the block. Rounds
// are updated in place, so each pass must read every sender as it was before
// the round: the pass over receivers skip..p-1 (to = p - 1) and the one over
// the wrap-around receivers 1..skip-1 (to = 1), in every kernel build. The
// scan that names the rank replays the rounds before, so no earlier, legal
// forward of a block received the round before is named instead.
TEST(CirculantDataflow, ForwardingInTheRoundOfReceiptIsNamed) {
  for (DataflowKernel kernel : {DataflowKernel::portable, DataflowKernel::avx2, DataflowKernel::avx512}) {
    if (!use_dataflow_kernel(kernel)) continue;
    for (int64_t p : {17, 100, 1000}) {
      const CirculantTable good = table(p);
      const int q = good.q, k = q - 1;
      const int64_t skip = CirculantSchedule(p).skip(k);
      for (int64_t to : {int64_t{1}, p - 1}) {
        const int64_t from = (to - skip + p) % p;
        CirculantTable t = good;
        const int8_t block = t.recv[t.cell(from, k)];
        t.send[t.cell(from, k)] = block;
        t.recv[t.cell(to, k)] = block;
        const auto c = simulate_broadcast(t, algorithm1_run(3 * q + 2, q));
        ASSERT_TRUE(c) << "p=" << p << " to=" << to << " kernel " << static_cast<int>(kernel);
        EXPECT_EQ(c->rank, from) << describe(*c);
        EXPECT_NE(c->detail.find(" to " + std::to_string(to) + " before holding"), std::string::npos)
            << describe(*c);
      }
    }
  }
  use_fastest_dataflow_kernel();
}

// A rank whose baseblock round delivers "no block" instead (receiver and
// sender agree on value -q, so every move checks out) never gets its
// baseblock: the end-of-run check must say which block it lacks.
TEST(CirculantDataflow, RankThatNeverGetsItsBaseblockIsCaughtAtTheEnd) {
  for (int64_t p : {9, 17, 100}) {
    CirculantTable t = table(p);
    const int q = t.q;
    const int64_t r = p - 1;
    int k = 0;
    while (t.recv_at(r, k) < 0) ++k;
    set_pair(t, r, k, static_cast<int8_t>(-q));
    std::string found;
    for (int64_t n : default_block_counts(q))
      if (auto c = simulate_broadcast(t, algorithm1_run(n, q))) found += describe(*c) + "; ";
    EXPECT_NE(found.find("rank=" + std::to_string(r)), std::string::npos) << found;
    EXPECT_NE(found.find("still lacks block"), std::string::npos) << "p=" << p << ": " << found;
  }
}

// `t` (ranks counted from the root) as a schedule file: with a root column
// when `root` is given (file rank r is rank r - root of t), in the old format
// of root 0 otherwise. `skip_rank` (a file rank) gets no rows.
std::string csv_of(const CirculantTable& t, std::optional<int64_t> root = std::nullopt, int64_t skip_rank = -1) {
  std::ostringstream os;
  os << (root ? "root," : "") << "rank,k,recvblock,sendblock\n";
  for (int64_t r = 0; r < t.p; ++r) {
    const int64_t v = (r - root.value_or(0) + t.p) % t.p;
    for (int k = 0; k < t.q && r != skip_rank; ++k) {
      if (root) os << *root << ',';
      os << r << ',' << k << ',' << t.recv_at(v, k) << ',' << t.send_at(v, k) << '\n';
    }
  }
  return os.str();
}

TEST(CirculantVerifyFile, OwnScheduleRoundTrips) {
  const auto path = test::write_temp("p100.csv", csv_of(table(100)));
  const auto res = test::run_collsim("verify circulant --file " + path);
  EXPECT_EQ(res.status, 0) << res.out;
  const auto cli = test::run_collsim("schedule circulant --p 37 --format csv");
  const auto res37 = test::run_collsim("verify circulant --file " + test::write_temp("p37.csv", cli.out));
  EXPECT_EQ(res37.status, 0) << res37.out;
}

TEST(CirculantVerifyFile, WrongScheduleNamesConditionRankAndK) {
  CirculantTable t = table(17);
  swap_recv(t, 8, 3, 4);
  const auto res = test::run_collsim("verify circulant --file " + test::write_temp("bad17.csv", csv_of(t)));
  EXPECT_EQ(res.status, 1);
  EXPECT_NE(res.out.find("FAIL p=17 rank="), std::string::npos) << res.out;
  EXPECT_NE(res.out.find("condition"), std::string::npos) << res.out;
}

// The last rank of p = 18 dropped: a well-formed p = 17 file (same q), and
// wrong (Table 3 is not Table 1).
TEST(CirculantVerifyFile, MissingLastRankIsWrongSchedule) {
  const auto path = test::write_temp("miss.csv", csv_of(table(18), std::nullopt, 17));
  const auto res = test::run_collsim("verify circulant --file " + path);
  EXPECT_EQ(res.status, 1) << res.out;
}

// What `collsim schedule circulant --format csv` writes for p and root.
std::string schedule_csv(int64_t p, int64_t root) {
  return test::run_collsim("schedule circulant --format csv --p " + std::to_string(p) + " --root " +
                           std::to_string(root))
      .out;
}

// Each line of `csv` with its first field replaced: by `header` on the
// header line, by `value` on the rows; empty strings drop the field.
std::string with_first_field(const std::string& csv, const std::string& header, const std::string& value) {
  std::istringstream in(csv);
  std::string out;
  bool header_line = true;
  for (std::string line; std::getline(in, line); header_line = false) {
    const std::string& field = header_line ? header : value;
    out += (field.empty() ? "" : field + ",") + line.substr(line.find(',') + 1) + "\n";
  }
  return out;
}

// `csv` (with a root column) with every row's root set to `root`.
std::string with_root_column(const std::string& csv, int64_t root) {
  return with_first_field(csv, "root", std::to_string(root));
}

// Issue 22: `schedule circulant --root R --format csv | verify circulant
// --file /dev/stdin` failed condition 3 for every R != 0. The schedule's
// output is captured and fed to verify's stdin through a pipe.
TEST(CirculantVerifyFile, EveryRootRoundTripsThroughAPipe) {
  const std::string bin = COLLSIM_BIN;
  for (int64_t p : {9, 17, 18})
    for (int64_t root = 0; root < p; ++root) {
      const std::string args = "--p " + std::to_string(p) + " --root " + std::to_string(root);
      const auto csv = test::run_words(bin + " schedule circulant --format csv " + args);
      EXPECT_EQ(csv.status, 0) << args;
      test::Child verify;
      verify.argv = {bin, "verify", "circulant", "--file", "/dev/stdin"};
      verify.stdin_text = csv.out;
      const auto res = test::run_child(verify);
      EXPECT_EQ(res.status, 0) << args << ": " << res.out;
      EXPECT_NE(res.out.find("p=" + std::to_string(p) + " root=" + std::to_string(root) + ","), std::string::npos)
          << res.out;
    }
}

// What `schedule` writes is the file the tests build from a table.
TEST(CirculantVerifyFile, CsvCarriesTheRootOnEveryRow) {
  for (int64_t p : {3, 9, 18}) EXPECT_EQ(schedule_csv(p, p - 1), csv_of(table(p), p - 1)) << "p=" << p;
}

// A schedule for one root claimed for another: the rank named as root
// receives a baseblock (condition 3 at the root).
TEST(CirculantVerifyFile, WrongRootColumnFailsCondition3) {
  for (int64_t p : {9, 17, 18})
    for (int64_t root : {int64_t{0}, p / 2, p - 1}) {
      const int64_t claimed = (root + 1) % p;
      const auto path = test::write_temp("wrong_root.csv", with_root_column(schedule_csv(p, root), claimed));
      const auto res = test::run_collsim("verify circulant --file " + path);
      EXPECT_EQ(res.status, 1) << res.out;
      EXPECT_NE(res.out.find("FAIL p=" + std::to_string(p) + " rank=" + std::to_string(claimed) +
                             ": condition 3 (root"),
                std::string::npos)
          << res.out;
    }
}

// The checks count ranks from the root; a failure names the rank the file
// has: virtual rank 3 is file rank 8 when the root is 5.
TEST(CirculantVerifyFile, FailureNamesTheFileRank) {
  CirculantTable t = table(17);
  swap_recv(t, 3, 3, 4);
  const auto res = test::run_collsim("verify circulant --file " + test::write_temp("bad17_root5.csv", csv_of(t, 5)));
  EXPECT_EQ(res.status, 1) << res.out;
  EXPECT_NE(res.out.find("FAIL p=17 rank=8 k="), std::string::npos) << res.out;
  EXPECT_NE(res.out.find("[root 5;"), std::string::npos) << res.out;
}

// A file without the root column is for root 0 unless --root says otherwise;
// --root and a root column must agree; --root must be a rank of the file.
TEST(CirculantVerifyFile, RootOptionForFilesWithoutTheColumn) {
  const std::string root0_old = test::write_temp("old_root0.csv", csv_of(table(9)));
  const std::string root4_old = test::write_temp("old_root4.csv", with_first_field(csv_of(table(9), 4), "", ""));
  const std::string with_column = test::write_temp("root4.csv", csv_of(table(9), 4));
  EXPECT_EQ(test::run_collsim("verify circulant --file " + root0_old).status, 0);
  EXPECT_EQ(test::run_collsim("verify circulant --file " + root4_old).status, 1);
  EXPECT_EQ(test::run_collsim("verify circulant --file " + root4_old + " --root 4").status, 0);
  EXPECT_EQ(test::run_collsim("verify circulant --file " + with_column + " --root 4").status, 0);
  for (const std::string& args : {"--file " + with_column + " --root 3", "--file " + root4_old + " --root 9",
                                  "--file " + root4_old + " --root -1", "--file " + root4_old + " --root x",
                                  std::string("--p 1:5 --root 0")}) {
    const auto res = test::run_collsim("verify circulant " + args, true);
    EXPECT_EQ(res.status, 2) << args << ": " << res.out;
    EXPECT_EQ(std::count(res.out.begin(), res.out.end(), '\n'), 1) << args << ": " << res.out;
  }
  const auto disagree = test::run_collsim("verify circulant --file " + with_column + " --root 3", true);
  EXPECT_NE(disagree.out.find("--root 3 disagrees with the root column"), std::string::npos) << disagree.out;
}

struct Malformed {
  const char* name;
  std::string text;
};

void PrintTo(const Malformed& m, std::ostream* os) { *os << m.name; }

class CirculantMalformed : public ::testing::TestWithParam<Malformed> {};

TEST_P(CirculantMalformed, Exit2WithOneLine) {
  const auto path = test::write_temp(std::string(GetParam().name) + ".csv", GetParam().text);
  const auto res = test::run_collsim("verify circulant --file " + path, true);
  EXPECT_EQ(res.status, 2) << res.out;
  EXPECT_EQ(std::count(res.out.begin(), res.out.end(), '\n'), 1) << res.out;
  EXPECT_NE(res.out.find("malformed"), std::string::npos) << res.out;
}

std::string p3(const std::string& rows) { return "rank,k,recvblock,sendblock\n" + rows; }
const std::string kGood3 = "0,0,-1,0\n0,1,-2,1\n1,0,0,-2\n1,1,-1,-2\n2,0,-2,-1\n2,1,1,-1\n";

// The p = 3 rows with a root column of `root` in front.
std::string rooted3(const std::string& root, const std::string& rows) {
  std::istringstream in(rows);
  std::string out = "root,rank,k,recvblock,sendblock\n";
  for (std::string line; std::getline(in, line);) out += root + "," + line + "\n";
  return out;
}

INSTANTIATE_TEST_SUITE_P(
    Files, CirculantMalformed,
    ::testing::Values(Malformed{"empty", ""}, Malformed{"bad_header", "rank,k,recv,send\n" + kGood3},
                      Malformed{"non_integer", p3("0,0,-1,0\n0,1,x,1\n1,0,0,-2\n1,1,-1,-2\n2,0,-2,-1\n2,1,1,-1\n")},
                      Malformed{"float", p3("0,0,-1,0\n0,1,-2,1.5\n1,0,0,-2\n1,1,-1,-2\n2,0,-2,-1\n2,1,1,-1\n")},
                      Malformed{"three_fields", p3("0,0,-1\n")},
                      Malformed{"missing_middle_rank", p3("0,0,-1,0\n0,1,-2,1\n2,0,-2,-1\n2,1,1,-1\n")},
                      Malformed{"missing_row", p3("0,0,-1,0\n0,1,-2,1\n1,0,0,-2\n2,0,-2,-1\n2,1,1,-1\n")},
                      Malformed{"duplicate_row", p3(kGood3 + "1,1,-1,-2\n")},
                      Malformed{"block_too_large", p3("0,0,-1,0\n0,1,-2,2\n1,0,0,-2\n1,1,-1,-2\n2,0,-2,-1\n2,1,1,-1\n")},
                      Malformed{"block_too_small", p3("0,0,-3,0\n0,1,-2,1\n1,0,0,-2\n1,1,-1,-2\n2,0,-2,-1\n2,1,1,-1\n")},
                      Malformed{"k_out_of_range", p3(kGood3 + "2,2,0,0\n")},
                      Malformed{"negative_rank", p3("-1,0,0,0\n" + kGood3)},
                      Malformed{"huge_rank", p3(kGood3 + "99999999999,0,0,0\n")},
                      Malformed{"root_column_empty", rooted3("", kGood3)},
                      Malformed{"root_not_integer", rooted3("r", kGood3)},
                      Malformed{"root_negative", rooted3("-1", kGood3)},
                      Malformed{"root_out_of_range", rooted3("3", kGood3)},
                      Malformed{"roots_differ",
                                rooted3("0", "0,0,-1,0\n0,1,-2,1\n1,0,0,-2\n1,1,-1,-2\n2,0,-2,-1\n") + "1,2,1,1,-1\n"},
                      Malformed{"root_header_without_column", "root,rank,k,recvblock,sendblock\n" + kGood3}),
    [](const auto& info) { return std::string(info.param.name); });

// Correct for root 0, in the old format and with the root column; the same
// rows claimed for root 1 are wrong.
TEST(CirculantVerifyFile, HandWorkedP3IsCorrect) {
  const std::pair<std::string, int> files[] = {{p3(kGood3), 0}, {rooted3("0", kGood3), 0}, {rooted3("1", kGood3), 1}};
  for (const auto& [text, status] : files) {
    const auto res = test::run_collsim("verify circulant --file " + test::write_temp("hand3.csv", text));
    EXPECT_EQ(res.status, status) << text << res.out;
  }
}

TEST(CirculantVerifyCli, RangeSummaryAndBadArguments) {
  const auto ok = test::run_collsim("verify circulant --p 1:100");
  EXPECT_EQ(ok.status, 0);
  EXPECT_NE(ok.out.find("5050 processors checked"), std::string::npos) << ok.out;
  for (const char* args : {"verify circulant --p 0:5", "verify circulant --p 9:3", "verify circulant",
                           "verify circulant --p 1:5 --blocks 0", "verify circulant --file /nonexistent.csv"})
    EXPECT_EQ(test::run_collsim(args).status, 2) << args;
}

}  // namespace
}  // namespace collsim
