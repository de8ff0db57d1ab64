// The driver side of the smpirun boundary (issue 22): the one protocol both
// sides share, processes started without a shell, outputs whose failure is
// an error, restrictions checked before anything starts, and the collsim
// binary free of SimGrid and MPI.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "catalog.hpp"
#include "plan_builders.hpp"
#include "protocol.hpp"
#include "run_cli.hpp"
#include "machines.hpp"
#include "platform.hpp"

namespace collsim::sim {
namespace {

namespace fs = std::filesystem;
using test::run_collsim_argv;

HarnessArgs from(const std::vector<std::string>& words) {
  std::vector<const char*> argv{"harness"};
  for (const auto& w : words) argv.push_back(w.c_str());
  return from_argv(static_cast<int>(argv.size()), argv.data());
}

TEST(Protocol, ArgumentsRoundTrip) {
  HarnessArgs a;
  a.collective = Collective::reduce_scatter;
  a.algos = {"circulant", "smpi:ompi"};
  a.sizes = {0, 4096, 2147483640};
  a.roots = {0, 3};
  a.blocks = 7;
  a.chosen_blocks = {{"circulant", 4096, 12}, {"circulant", 2147483640, 300}};
  a.net = Net(test::alpha_beta(1.5e-6, 1.0 / 3e9, 7e-11));
  a.net.full_duplex = false, a.net.o = 2e-7, a.net.g = 3e-7, a.net.cores_per_node = 5, a.net.round_robin = true;
  a.reps = 2;
  a.warmup = 0;
  a.op = Operator::matmul;
  a.layout = Layout::ramp;
  a.scale = true;
  a.ignore_restrictions = true;
  const HarnessArgs b = from(to_argv(a));
  EXPECT_EQ(b.collective, a.collective);
  EXPECT_EQ(b.algos, a.algos);
  EXPECT_EQ(b.sizes, a.sizes);
  EXPECT_EQ(b.roots, a.roots);
  EXPECT_EQ(b.blocks, a.blocks);
  ASSERT_EQ(b.chosen_blocks.size(), 2u);
  EXPECT_EQ(chosen_blocks(b, "circulant", 4096), 12);
  EXPECT_EQ(chosen_blocks(b, "circulant", 2147483640), 300);
  EXPECT_EQ(chosen_blocks(b, "circulant", 0), std::nullopt);
  EXPECT_EQ(b.net.alpha, a.net.alpha);  // exactly: %.17g
  EXPECT_EQ(b.net.beta, a.net.beta);
  EXPECT_EQ(b.net.gamma, a.net.gamma);
  EXPECT_EQ(b.net.full_duplex, a.net.full_duplex);
  EXPECT_EQ(b.net.o, a.net.o);
  EXPECT_EQ(b.net.g, a.net.g);
  EXPECT_EQ(b.net.cores_per_node, a.net.cores_per_node);
  EXPECT_EQ(b.net.round_robin, a.net.round_robin);
  EXPECT_EQ(b.reps, a.reps);
  EXPECT_EQ(b.warmup, a.warmup);
  EXPECT_EQ(b.op, a.op);
  EXPECT_EQ(b.layout, a.layout);
  EXPECT_EQ(b.scale, a.scale);
  EXPECT_EQ(b.ignore_restrictions, a.ignore_restrictions);
}

TEST(Protocol, MalformedArgumentsAreRefused) {
  const std::vector<std::string> good = {"--algos", "binomial", "--sizes", "8"};
  EXPECT_NO_THROW(from(good));
  for (const std::vector<std::string>& extra : {std::vector<std::string>{"--colour", "blue"},
                                                {"--blocks"},
                                                {"--blocks", "2x"},
                                                {"--duplex", "sideways"},
                                                {"--alpha", "inf"},
                                                {"--reps", "0"},
                                                {"--scale", "yes"},
                                                {"--sizes", "8,"},
                                                {"--chosen-blocks", "circulant:8"},
                                                {"--chosen-blocks", "circulant:8:0"},
                                                {"--chosen-blocks", ":8:2"}}) {
    std::vector<std::string> words = good;
    words.insert(words.end(), extra.begin(), extra.end());
    EXPECT_THROW(from(words), std::invalid_argument) << words.back();
  }
  EXPECT_THROW(from({"--sizes", "8"}), std::invalid_argument) << "no --algos";
}

TEST(Protocol, RowsRoundTripThroughTheOneHeader) {
  const Row ours{"allreduce", "ring", 64, 4096, 1, 123.456, 120.5, 0, 1, "matmul", "", true, 64, 1.25, 1.5, 33.5, "smpi"};
  const Row builtin{"bcast", "smpi:ompi", 7, 0, 1, 0.5, std::nullopt, 3, 3, "", "", false, 7, {}, {}, {}, "loggp"};
  for (const Row& r : {ours, builtin}) {
    const std::string line = csv_line(r);
    EXPECT_EQ(std::count(line.begin(), line.end(), ','),
              std::count(kCsvHeader, kCsvHeader + std::char_traits<char>::length(kCsvHeader), ','));
    const Row back = parse_row(line);
    EXPECT_EQ(csv_line(back), line);
    EXPECT_EQ(back.model_us.has_value(), r.model_us.has_value());
    EXPECT_EQ(back.wall_s.has_value(), r.wall_s.has_value());
    EXPECT_EQ(back.correct, r.correct);
  }
  EXPECT_THROW(parse_row("bcast,binomial,7,0,1,0.5,,0,1,,,1,7,,,"), std::runtime_error) << "16 columns";
  EXPECT_THROW(parse_row("bcast,binomial,7,0,1,0.5,,0,1,,,2,7,,,,smpi"), std::runtime_error) << "correct = 2";
  EXPECT_THROW(parse_row("bcast,binomial,seven,0,1,0.5,,0,1,,,1,7,,,,smpi"), std::runtime_error);
}

// A circulant round on nodes of 32 ranks (Net::shift_round), by hand:
// 1 us, 0.08 ns/B between nodes, 0.3 us, 0.1 ns/B within, 16-byte
// envelope, 1000 bytes (wire: 1016).
TEST(Models, CirculantRoundsShareTheNodesLink) {
  Net net(test::alpha_beta(1e-6, 0.08e-9, 0));
  net.cores_per_node = 32, net.intra_alpha = 0.3e-6, net.intra_beta = 0.1e-9;
  const double wire = 1016;
  // skip 64: every rank's partner is on another node, 32 flows share the link.
  EXPECT_DOUBLE_EQ(net.shift_round(1152, 64, 1000), 1e-6 + 32 * wire * 0.08e-9);
  // skip 4: 4 ranks of a node cross (4 x 81.3 ns + 1 us), 28 stay within (101.6 ns + 0.3 us).
  EXPECT_DOUBLE_EQ(net.shift_round(1152, 4, 1000), 1e-6 + 4 * wire * 0.08e-9);
  // skip 1148 = -4 mod 1152: the same 4.
  EXPECT_DOUBLE_EQ(net.shift_round(1152, 1148, 1000), 1e-6 + 4 * wire * 0.08e-9);
  // skip 1 with 1 MB: 1 crosses (80 us + 1 us), 31 stay within at 0.1 ns/B (100 us + 0.3 us): within is slower.
  EXPECT_DOUBLE_EQ(net.shift_round(1152, 1, 1e6), 0.3e-6 + (1e6 + 16) * 0.1e-9);
  // Half duplex doubles the wire bytes.
  EXPECT_DOUBLE_EQ(net.shift_round(1152, 64, 1000, 2), 1e-6 + 32 * 2 * wire * 0.08e-9);
  // One node: all within. One rank a node: the plain message.
  EXPECT_DOUBLE_EQ(net.shift_round(20, 8, 1000), 0.3e-6 + wire * 0.1e-9);
  EXPECT_DOUBLE_EQ(net.between_nodes().shift_round(36, 8, 1000), net.message(1000));
}

TEST(Driver, CollsimLinksNeitherSimGridNorMpi) {
  const auto ldd = test::run_argv({"ldd", COLLSIM_BIN}, false);
  ASSERT_EQ(ldd.status, 0);
  EXPECT_NE(ldd.out.find("libstdc++"), std::string::npos) << ldd.out;  // ldd did list the libraries
  EXPECT_EQ(ldd.out.find("simgrid"), std::string::npos) << ldd.out;
  EXPECT_EQ(ldd.out.find("mpi"), std::string::npos) << ldd.out;
}

int lines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

TEST(Driver, RunRefusesABrokenRestrictionInOneLine) {
  const auto r = run_collsim_argv(
      {"run", "--collective", "reduce", "--algo", "circulant", "--op", "matmul", "--p", "4", "--size", "128"});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_EQ(lines(r.out), 1) << r.out;
  EXPECT_NE(r.out.find("commutative"), std::string::npos) << r.out;
}

TEST(Driver, CompareSkipsABrokenRestrictionWithAWarning) {
  const std::string dir = test::fresh_path("compare-skip");
  const auto r = run_collsim_argv({"compare", "--collective", "reduce", "--op", "matmul", "--p", "4", "--sizes", "128",
                                   "--algos", "circulant,binary-tree", "--out", dir});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("warning: skipped: reduce 'circulant'"), std::string::npos) << r.out;
  const std::string csv = test::read_file(dir + "/results.csv");
  EXPECT_NE(csv.find("reduce,binary-tree,4,128,"), std::string::npos) << csv;
  EXPECT_EQ(csv.find("reduce,circulant,"), std::string::npos) << csv;
}

TEST(Driver, StrayWordsAreErrors) {
  const auto r = run_collsim_argv({"run", "--algo", "binomial", "--p", "4", "--size", "4KiB", "1MiB"});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_EQ(lines(r.out), 1) << r.out;
}

// compare and map write where --out says, whatever the path holds; a shell
// anywhere would run the `touch`.
TEST(Driver, OutputPathsWithQuotesAndDollarsReachNoShell) {
  const fs::path base = fs::path(TEST_TMPDIR) / "hostile";
  fs::remove_all(base);
  fs::create_directories(base);
  const fs::path out = base / "it's \"odd\" $(touch X) dir";
  const auto compare = run_collsim_argv(
      {"compare", "--collective", "bcast", "--p", "4", "--sizes", "4KiB", "--algos", "circulant", "--out", out.string()});
  EXPECT_EQ(compare.status, 0) << compare.out;
  EXPECT_TRUE(fs::is_regular_file(out / "results.csv"));
  EXPECT_TRUE(fs::is_regular_file(out / "bcast.png"));
  const fs::path map_out = out / "map $(touch X)";
  const auto map = run_collsim_argv({"map", "--collective", "allreduce", "--p", "2,3", "--sizes", "64", "--algos",
                                     "recursive-doubling,smpi:rdb", "--out", map_out.string()});
  EXPECT_EQ(map.status, 0) << map.out;
  for (const char* name : {"map.csv", "map.png", "ratio.png"}) EXPECT_TRUE(fs::is_regular_file(map_out / name)) << name;
  for (const fs::path& where : {fs::current_path(), base, out, map_out})
    EXPECT_FALSE(fs::exists(where / "X")) << where;
}

// --out relative to the current directory (as the README's first command
// gives it): gnuplot runs in the output directory, its log opened first.
TEST(Driver, RelativeOutputDirectoriesArePlotted) {
  const fs::path here = fs::current_path();
  fs::current_path(TEST_TMPDIR);
  fs::remove_all("relative-out");
  const auto r = run_collsim_argv({"compare", "--collective", "bcast", "--p", "4", "--sizes", "64", "--algos",
                                   "binomial", "--out", "relative-out/compare"});
  const bool drawn = fs::is_regular_file("relative-out/compare/bcast.png");
  fs::current_path(here);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(drawn) << r.out;
}

// A plot that gnuplot cannot draw is an error: compare and map exit 1 and
// name gnuplot and its log (a gnuplot that exits 3 stands first in PATH).
TEST(Driver, AFailedPlotIsAnError) {
  const std::string bin = test::fresh_path("broken-gnuplot");
  fs::create_directories(bin);
  std::ofstream(bin + "/gnuplot") << "#!/bin/sh\necho 'gnuplot: broken' >&2\nexit 3\n";
  fs::permissions(bin + "/gnuplot", fs::perms::owner_all);
  const std::string path = std::getenv("PATH");
  setenv("PATH", (bin + ":" + path).c_str(), 1);
  const auto compare = run_collsim_argv({"compare", "--collective", "bcast", "--p", "4", "--sizes", "64", "--algos",
                                         "binomial", "--out", test::fresh_path("plot-compare")});
  const auto map = run_collsim_argv({"map", "--collective", "bcast", "--p", "2,3", "--sizes", "64", "--algos",
                                     "binomial,circulant", "--out", test::fresh_path("plot-map")});
  setenv("PATH", path.c_str(), 1);
  for (const auto& r : {compare, map}) {
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find("error: gnuplot failed on"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("gnuplot.log"), std::string::npos) << r.out;
  }
}

TEST(Driver, FailedWritesAreErrors) {
  const auto unwritable = run_collsim_argv(
      {"compare", "--collective", "bcast", "--p", "2", "--sizes", "8", "--algos", "binomial", "--out", "/proc/self"});
  EXPECT_EQ(unwritable.status, 1) << unwritable.out;
  EXPECT_NE(unwritable.out.find("cannot write"), std::string::npos) << unwritable.out;
  EXPECT_EQ(unwritable.out.find("results:"), std::string::npos) << "no success line after a failed write";
  test::Child to_full;
  to_full.argv = {COLLSIM_BIN, "schedule", "circulant", "--p", "5", "--format", "csv"};
  to_full.stdout_to = "/dev/full";
  to_full.stderr_to = test::Stderr::out;
  const auto full = test::run_child(to_full);
  EXPECT_EQ(full.status, 1) << full.out;
  EXPECT_NE(full.out.find("standard output"), std::string::npos) << full.out;
}

TEST(Driver, AbsurdNetworkNumbersAreRefused) {
  const auto r = run_collsim_argv({"run", "--algo", "binomial", "--p", "4", "--size", "1KiB", "--alpha", "1e20"});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("alpha"), std::string::npos) << r.out;
}

TEST(Driver, MapWithABrokenPlatformFileFails) {
  const std::string platform = test::write_temp("broken.xml", "<platform version=\"4.1\">\n");
  const std::string dir = test::fresh_path("map-broken");
  const auto r = run_collsim_argv({"map", "--collective", "allreduce", "--p", "2", "--sizes", "64", "--algos",
                                   "recursive-doubling", "--platform", platform, "--out", dir});
  // Refused before any simulation starts (platforms/platform_check.hpp).
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("not well-formed XML"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(fs::path(dir) / "map.csv")) << r.out;
}

// SimGrid 3.32's SMP_linear bcast deadlocks at p = 8: the error says so and
// keeps the files its rerun line names.
TEST(Driver, ADeadlockIsNamedAndItsFilesKept) {
  const auto r =
      run_collsim_argv({"run", "--algo", "smpi:SMP_linear", "--p", "8", "--size", "1KiB", "--platform", "alphabeta"});
  EXPECT_EQ(r.status, 3) << "a deadlock's own exit code: " << r.out;
  EXPECT_NE(r.out.find("deadlock"), std::string::npos) << r.out;
  const size_t at = r.out.find("files kept in ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string kept = r.out.substr(at + 14, r.out.find(';', at) - at - 14);
  EXPECT_TRUE(fs::is_regular_file(fs::path(kept) / "hosts.txt")) << kept;
  EXPECT_NE(r.out.find("rerun: cd " + kept), std::string::npos) << r.out;
  fs::remove_all(kept);
}

// COLLSIM_TIME_LIMIT bounds every smpirun (the suite runs under 600 s,
// tests/CMakeLists.txt): a batch past it is killed with its children and
// named; a malformed limit is one error line.
TEST(Driver, SmpirunPastTheTimeLimitIsKilledAndNamed) {
  const char* suite_limit = std::getenv("COLLSIM_TIME_LIMIT");
  const std::string restore = suite_limit ? suite_limit : "";
  setenv("COLLSIM_TIME_LIMIT", "0.2", 1);
  const auto slow = run_collsim_argv({"run", "--algo", "binomial", "--p", "2048", "--size", "1MiB"});
  setenv("COLLSIM_TIME_LIMIT", "ten", 1);
  const auto bad = run_collsim_argv({"run", "--algo", "binomial", "--p", "8", "--size", "1"});
  if (suite_limit)
    setenv("COLLSIM_TIME_LIMIT", restore.c_str(), 1);
  else
    unsetenv("COLLSIM_TIME_LIMIT");
  EXPECT_EQ(slow.status, 2) << slow.out;
  EXPECT_NE(slow.out.find("(killed at COLLSIM_TIME_LIMIT = 0.2 s)"), std::string::npos) << slow.out;
  const size_t at = slow.out.find("files kept in ");
  ASSERT_NE(at, std::string::npos) << slow.out;
  fs::remove_all(slow.out.substr(at + 14, slow.out.find(';', at) - at - 14));
  EXPECT_EQ(bad.status, 2) << bad.out;
  EXPECT_EQ(bad.out, "collsim: error: COLLSIM_TIME_LIMIT='ten' is not a number of seconds >= 0\n");
}

// collsim with `args` (plain words) under the 4 GB bound (`ulimit -v
// 4000000`, set in the child); stdout's first `lines` lines when nonzero (`|
// head`: the pipe is closed after them).
test::CliResult bounded(const std::string& args, size_t lines, test::Stderr stderr_to = test::Stderr::drop) {
  test::Child c;
  c.argv = test::split_words(std::string(COLLSIM_BIN) + " " + args);
  c.address_space = rlim_t{4000000} * 1024;
  c.head_lines = lines;
  c.stderr_to = stderr_to;
  return test::run_child(c);
}

// Issue 19's extremes: at p = 2^31 - 1 the CSV schedules stream under a
// 4 GB address-space limit; the whole-table forms are refused up front with
// the limit in one line, never run out of memory.
TEST(Limits, SchedulesAtTheLargestPStreamOrAreRefused) {
  const auto two_tree = bounded("schedule two-tree --p 2147483647 --coloring log --format csv", 1000);
  EXPECT_EQ(std::count(two_tree.out.begin(), two_tree.out.end(), '\n'), 1000) << two_tree.status;
  // q = 31 rounds; the root (rank 0) sends block k in round k and receives
  // exactly -1 .. -q (seed 003, conditions for the root; NOTES.md).
  const auto circulant = bounded("schedule circulant --p 2147483647 --format csv", 32);
  std::stringstream rows(circulant.out);
  std::string line;
  std::getline(rows, line);
  EXPECT_EQ(line, "root,rank,k,recvblock,sendblock");
  std::vector<bool> received(32, false);
  for (int k = 0; k < 31 && std::getline(rows, line); ++k) {
    long long root = -1, rank = -1, round = -1, recv = 0, send = -1;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lld,%lld,%lld,%lld,%lld", &root, &rank, &round, &recv, &send), 5) << line;
    EXPECT_EQ(rank, 0);
    EXPECT_EQ(round, k);
    EXPECT_EQ(send, k) << line;
    ASSERT_TRUE(recv >= -31 && recv <= -1) << line;
    EXPECT_FALSE(received[-recv]) << line;
    received[-recv] = true;
  }
  for (const char* refused : {"schedule two-tree --p 2147483647 --format csv",
                              "schedule two-tree --p 2147483647 --coloring log",
                              "schedule circulant --p 2147483647"}) {
    const auto r = bounded(refused, 0, test::Stderr::out);
    EXPECT_EQ(r.status, 2) << refused;
    EXPECT_NE(r.out.find("limited to p <="), std::string::npos) << r.out;
  }
}

// --- plan files through the plan executor (issue 15, deliverable 5) ---

const std::string kPlanHeader = "collsim-plan 1\n";

// The binomial broadcast written out by hand (p = 4, root 0, one block): the
// same messages in the same order as `binomial`, so the same times.
const std::string kBinomial4 = kPlanHeader +
                               "collective bcast\np 4\nroot 0\nblocks 1\n"
                               "rank 0\nstep send 2 blocks 0\nstep send 1 blocks 0\n"
                               "rank 1\nstep recv 0 blocks 0\n"
                               "rank 2\nstep recv 0 blocks 0\nstep send 3 blocks 0\n"
                               "rank 3\nstep recv 2 blocks 0\n";

// A chain reduce to root 0 at p = 3 in rank order: rank 1 forms [1] ⊕ [2]
// (combine right), rank 0 forms [0] ⊕ [1, 2].
std::string chain_reduce(const char* root_combine) {
  return kPlanHeader + "collective reduce\np 3\nroot 0\nblocks 1\n"
                       "rank 2\nstep send 1 blocks 0\n"
                       "rank 1\nstep recv 2 blocks 0 combine right\nstep send 0 blocks 0\n"
                       "rank 0\nstep recv 1 blocks 0 combine " + root_combine + "\n";
}

// A ring allgatherv at p = 3, one block per rank's segment.
const std::string kRing3 = kPlanHeader +
                           "collective allgatherv\np 3\nblocks 3\n"
                           "rank 0\nstep send 1 blocks 0 recv 2 blocks 2\nstep send 1 blocks 2 recv 2 blocks 1\n"
                           "rank 1\nstep send 2 blocks 1 recv 0 blocks 0\nstep send 2 blocks 0 recv 0 blocks 2\n"
                           "rank 2\nstep send 0 blocks 2 recv 1 blocks 1\nstep send 0 blocks 1 recv 1 blocks 0\n";

// CSV rows of `out` (header dropped).
std::vector<Row> rows_of(const std::string& out) {
  std::vector<Row> rows;
  std::stringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    if (line != kCsvHeader && line.find(',') != std::string::npos) rows.push_back(parse_row(line));
  return rows;
}

TEST(PlanFiles, AHandWrittenBinomialRunsExactlyAsTheAlgorithm) {
  const std::string file = test::write_temp("binomial4.plan", kBinomial4);
  const auto plan = run_collsim_argv({"run", "--plan", file, "--p", "4", "--size", "1KiB,1MiB", "--format", "csv"});
  const auto algo = run_collsim_argv({"run", "--algo", "binomial", "--p", "4", "--size", "1KiB,1MiB", "--format", "csv"});
  ASSERT_EQ(plan.status, 0) << plan.out;
  ASSERT_EQ(algo.status, 0) << algo.out;
  const auto from_plan = rows_of(plan.out), from_algo = rows_of(algo.out);
  ASSERT_EQ(from_plan.size(), 2u);
  ASSERT_EQ(from_algo.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(from_plan[i].algorithm, "plan:binomial4.plan");
    EXPECT_TRUE(from_plan[i].correct);
    EXPECT_EQ(from_plan[i].time_us, from_algo[i].time_us) << from_plan[i].bytes;
    EXPECT_EQ(from_algo[i].reps, 1) << "deterministic simulations run once unless --reps says otherwise";
  }
}

TEST(PlanFiles, OrderOfTheCombinesIsCheckedWithMatmul) {
  const std::string right = test::write_temp("chain-right.plan", chain_reduce("right"));
  const auto ok = run_collsim_argv(
      {"run", "--collective", "reduce", "--op", "matmul", "--plan", right, "--p", "3", "--size", "96,3200"});
  EXPECT_EQ(ok.status, 0) << ok.out;
  const std::string swapped = test::write_temp("chain-left.plan", chain_reduce("left"));
  const auto wrong = run_collsim_argv(
      {"run", "--collective", "reduce", "--op", "matmul", "--plan", swapped, "--p", "3", "--size", "96"});
  EXPECT_EQ(wrong.status, 1) << wrong.out;
  EXPECT_NE(wrong.out.find("wrong result"), std::string::npos) << wrong.out;
  const auto commutative = run_collsim_argv(
      {"run", "--collective", "reduce", "--op", "bxor", "--plan", swapped, "--p", "3", "--size", "96"});
  EXPECT_EQ(commutative.status, 0) << "bxor does not see the order: " << commutative.out;
}

TEST(PlanFiles, ARingAllgathervServesIrregularCountsInCompare) {
  const std::string file = test::write_temp("ring3.plan", kRing3);
  const std::string dir = test::fresh_path("compare-plan");
  const auto r = run_collsim_argv({"compare", "--collective", "allgatherv", "--layout", "ramp", "--p", "3", "--sizes",
                                   "7,6000", "--algos", "plan:" + file + ",circulant", "--out", dir});
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string csv = test::read_file(dir + "/results.csv");
  const auto rows = rows_of(csv);
  EXPECT_EQ(rows.size(), 4u) << csv;
  EXPECT_EQ(std::count_if(rows.begin(), rows.end(), [](const Row& row) { return row.algorithm == "plan:ring3.plan" && row.correct; }), 2)
      << csv;
}

// The plan-file round trip: every plan the builders write (`collsim plan`,
// algorithms/plan_builders.hpp), read back by `run --plan`, takes the time
// of `run --algo` to the nanosecond and gives a right result with matmul
// (bxor for a commutative plan). For the plan algorithms `--algo` runs the
// same builder through the same executor, so this checks the writer, the
// reader and the staging of the file, not that a builder is right (issue
// 36): that is verify plan's business and the closed forms' (test_sim.cpp:
// SimClosedForms, SimScans.DoublingTimes..., the exact-model loop).
// The LogP trees' --lag for `plan` (its default is 1) that `run` builds
// them with on the default platform for `bytes` in `blocks` (plan_params):
// 17 digits, the same double. Nothing for the other algorithms.
std::string lag_option(const plan::PlanAlgorithm& a, Collective c, Operator op, int64_t bytes, int64_t blocks) {
  if (!a.build_with_lag) return "";
  const Net net(*platforms::find_preset("loggp"), element_bytes(c, op));
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", plan_params(net, c, bytes, blocks).lag);
  return std::string(" --lag ") + text;
}

TEST(PlanFiles, EveryBuiltPlanSurvivesTheFileRoundTrip) {
  const std::string bin = COLLSIM_BIN;
  size_t checked = 0;
  for (Collective c : kCollectives) {
    for (const std::string& name : plan::plan_algorithms(c)) {
      const plan::PlanAlgorithm& a = plan::find_plan_algorithm(c, name);
      for (const int64_t p : {7, 12}) {
        const int64_t blocks = a.cut == plan::Cut::pipelined ? 5 : plan::cut_blocks(a.cut, p);
        const std::string file = test::fresh_path(std::string("built-") + collective_name(c) + "-" + name + ".plan");
        const std::string common = " --collective " + std::string(collective_name(c)) + " --p " + std::to_string(p) +
                                   " --size 64KiB";
        // A commutative plan (ring) is the MPI code's path for a commutative ⊕:
        // bxor; the others keep rank order: matmul.
        const bool commutative = plan::build_plan(c, name, p, 0, blocks).header.commutative;
        const std::string op = commutative ? " --op bxor" : " --op matmul";
        const auto made = test::run_words(bin + " plan" + common + " --algo " + name + " --blocks " +
                                              std::to_string(blocks) + " --out " + file +
                                              lag_option(a, c, commutative ? Operator::bxor : Operator::matmul,
                                                         65536, a.cut == plan::Cut::pipelined ? blocks : 1),
                                          true);
        ASSERT_EQ(made.status, 0) << made.out;
        const std::string run = bin + " run" + common + " --format csv" + (reduces(c) ? op : "");
        const auto from_plan = rows_of(test::run_words(run + " --plan " + file).out);
        const auto from_algo = rows_of(
            test::run_words(run + " --algo " + name + (a.cut == plan::Cut::pipelined ? " --blocks 5" : "")).out);
        ASSERT_EQ(from_plan.size(), 1u) << collective_name(c) << " " << name;
        ASSERT_EQ(from_algo.size(), 1u) << collective_name(c) << " " << name;
        EXPECT_TRUE(from_plan[0].correct) << collective_name(c) << " " << name << " p=" << p;
        EXPECT_EQ(from_plan[0].time_us, from_algo[0].time_us) << collective_name(c) << " " << name << " p=" << p;
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 2u * 21) << "every builder, two p each";
}

// The harness's result check catches a wrong bcast, allgatherv and
// reduce_scatter (issue 19): plans that run to the end without deadlock but
// leave a rank with the wrong data give correct = 0 and exit 1, while the
// same plans with the mistake mended pass.
TEST(PlanFiles, WrongResultsAreCaughtByTheHarness) {
  struct Case {
    const char* collective;
    const char* layout;
    std::string good, bad;
  };
  const std::string bcast = kPlanHeader + "collective bcast\np 3\nroot 0\nblocks 2\n"
                                          "rank 0\nstep send 1 blocks 0,1\nstep send 2 blocks 0\nstep send 2 blocks 1\n"
                                          "rank 1\nstep recv 0 blocks 0,1\n"
                                          "rank 2\nstep recv 0 blocks 0\nstep recv 0 blocks 1\n";
  std::string bcast_bad = bcast;  // rank 2 gets block 0 twice, never block 1
  bcast_bad.replace(bcast_bad.rfind("send 2 blocks 1"), 15, "send 2 blocks 0");
  bcast_bad.replace(bcast_bad.rfind("recv 0 blocks 1"), 15, "recv 0 blocks 0");
  std::string ring_bad = kRing3;  // rank 2 forwards its own block instead of rank 1's
  ring_bad.replace(ring_bad.rfind("step send 0 blocks 1 recv 1 blocks 0"), 36, "step send 0 blocks 2 recv 1 blocks 0");
  ring_bad.replace(ring_bad.find("step send 1 blocks 2 recv 2 blocks 1"), 36, "step send 1 blocks 2 recv 2 blocks 2");
  const std::string scatter = kPlanHeader + "collective reduce_scatter\np 2\nblocks 2\n"
                                            "rank 0\nstep send 1 blocks 1 recv 1 blocks 0 combine right\n"
                                            "rank 1\nstep send 0 blocks 0 recv 0 blocks 1 combine left\n";
  std::string scatter_bad = scatter;  // rank 1 stores rank 0's part instead of combining
  scatter_bad.replace(scatter_bad.rfind("combine left"), 12, "combine store");
  for (const Case& c : {Case{"bcast", "even", bcast, bcast_bad}, Case{"allgatherv", "ramp", kRing3, ring_bad},
                        Case{"reduce_scatter", "even", scatter, scatter_bad}}) {
    const std::string p = c.collective == std::string("reduce_scatter") ? "2" : "3";
    for (const auto& [plan, expect] : {std::pair{c.good, 0}, std::pair{c.bad, 1}}) {
      const std::string file = test::write_temp(std::string("check-") + c.collective + ".plan", plan);
      const auto r = run_collsim_argv({"run", "--collective", c.collective, "--layout", c.layout, "--op", "matmul",
                                       "--plan", file, "--p", p, "--size", "640", "--format", "csv"});
      EXPECT_EQ(r.status, expect) << c.collective << "\n" << plan << r.out;
      const auto rows = rows_of(r.out);
      ASSERT_EQ(rows.size(), 1u) << r.out;
      EXPECT_EQ(rows[0].correct, expect == 0) << c.collective;
    }
  }
}

TEST(PlanFiles, BadPlanFilesGiveOneErrorLine) {
  const std::string misspelt = test::write_temp("misspelt.plan", kPlanHeader + "collective bcast\np 4\nblocks 1\nrank 0\nstep sned 1 blocks 0\n");
  const auto r = run_collsim_argv({"run", "--plan", misspelt, "--p", "4", "--size", "8"});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_EQ(lines(r.out), 1) << r.out;
  EXPECT_NE(r.out.find("line 6: unexpected word 'sned'"), std::string::npos) << r.out;
  const std::string file = test::write_temp("binomial4.plan", kBinomial4);
  const auto wrong_p = run_collsim_argv({"run", "--plan", file, "--p", "5", "--size", "8"});
  EXPECT_EQ(wrong_p.status, 2) << wrong_p.out;
  EXPECT_NE(wrong_p.out.find("at p = 4"), std::string::npos) << wrong_p.out;
  const auto both = run_collsim_argv({"run", "--plan", file, "--algo", "binomial", "--p", "4", "--size", "8"});
  EXPECT_EQ(both.status, 2) << both.out;
}

}  // namespace
}  // namespace collsim::sim
