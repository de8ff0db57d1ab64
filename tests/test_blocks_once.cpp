// Decided once (issue 32, deliverable 3): the block count of a case comes
// from one function (resolve_blocks, sim/catalog/block_policy.hpp) whoever
// runs it, so a row's `blocks` is the same under `--engine smpi` and
// `--engine loggp`: n for a pipelined algorithm, 1 for one that cuts its data
// itself (ring's p pieces are its own cut). And a plan file is read and
// checked once in the driver, which hands the engine and smpirun what it read.
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "protocol.hpp"
#include "run_cli.hpp"

namespace collsim::sim {
namespace {

// The rows of `collsim run ARGS --format csv` (the header skipped); none
// when the run fails.
std::vector<Row> rows_of(std::vector<std::string> args) {
  args.insert(args.begin(), "run");
  args.insert(args.end(), {"--format", "csv"});
  const test::CliResult r = test::run_collsim_argv(args);
  EXPECT_EQ(r.status, 0) << r.out;
  std::vector<Row> rows;
  std::stringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line))
    if (!line.empty()) rows.push_back(parse_row(line));
  return rows;
}

// The rows of one case list under SMPI and under the engine.
struct BothEngines {
  std::vector<Row> smpi, loggp;
};
BothEngines both_engines(std::vector<std::string> args) {
  BothEngines out{rows_of(args), {}};
  args.insert(args.end(), {"--engine", "loggp"});
  out.loggp = rows_of(args);
  return out;
}

// The acceptance line: ring reports one block under both engines (the
// engine said p = 8 before). So do the other algorithms that cut their data
// themselves: into p pieces (scatter-allgather) or 2^floor(log2 p).
TEST(BlocksOnce, AlgorithmsThatCutTheirOwnDataReportOneBlockUnderBothEngines) {
  const std::vector<std::pair<std::string, std::string>> cases = {{"allreduce", "ring"},
                                                                  {"reduce", "ring"},
                                                                  {"allreduce", "halving-doubling"},
                                                                  {"reduce", "binary-blocks"},
                                                                  {"bcast", "scatter-allgather"}};
  for (const auto& [collective, algo] : cases) {
    const BothEngines rows =
        both_engines({"--collective", collective, "--algo", algo, "--p", "8", "--size", "64KiB"});
    ASSERT_EQ(rows.smpi.size(), 1u) << collective << " " << algo;
    ASSERT_EQ(rows.loggp.size(), 1u) << collective << " " << algo;
    EXPECT_EQ(rows.smpi[0].blocks, 1) << collective << " " << algo;
    EXPECT_EQ(rows.loggp[0].blocks, 1) << collective << " " << algo;
    EXPECT_EQ(rows.loggp[0].engine, "loggp");
    // The same cut runs under both: the same time.
    EXPECT_NEAR(rows.loggp[0].time_us, rows.smpi[0].time_us, 1e-3 * rows.smpi[0].time_us) << collective << " " << algo;
  }
}

// A pipelined algorithm's n, picked by the block policy, is the same under
// both engines at every size: circulant bcast at p = 64, 1 KiB to 1 MiB, on
// the default and the loggp platform (whose per-message overheads the
// policy sees under both), where n grows with the size (so the comparison
// is not of ones alone); two-tree reduce at p = 24; the segmented circulant
// allgatherv at p = 16 (n = 1 on even segments, block_policy.hpp).
TEST(BlocksOnce, PolicyBlocksAgreeUnderBothEnginesAtEverySize) {
  struct Case {
    std::vector<std::string> args;
    bool grows;
  };
  const std::vector<Case> cases = {
      {{"--collective", "bcast", "--algo", "circulant", "--p", "64", "--size", "1KiB:1MiB"}, true},
      {{"--collective", "bcast", "--algo", "circulant", "--p", "64", "--size", "1KiB:1MiB", "--platform", "loggp"}, true},
      {{"--collective", "reduce", "--algo", "two-tree", "--p", "24", "--size", "4KiB:1MiB"}, true},
      {{"--collective", "allgatherv", "--algo", "circulant", "--p", "16", "--size", "4KiB:1MiB"}, false}};
  for (const auto& [args, grows] : cases) {
    const std::string what = args[1] + " " + args[3] + (args.size() > 8 ? " on " + args[9] : "");
    const BothEngines rows = both_engines(args);
    ASSERT_EQ(rows.smpi.size(), rows.loggp.size()) << what;
    ASSERT_GE(rows.smpi.size(), 8u) << what;
    for (size_t i = 0; i < rows.smpi.size(); ++i) {
      EXPECT_EQ(rows.smpi[i].bytes, rows.loggp[i].bytes);
      EXPECT_EQ(rows.smpi[i].blocks, rows.loggp[i].blocks) << what << " at " << rows.smpi[i].bytes << " bytes";
    }
    if (grows) {
      EXPECT_GT(rows.smpi.back().blocks, rows.smpi.front().blocks) << what;
    }
  }
}

// --blocks is the row's blocks under both engines.
TEST(BlocksOnce, GivenBlocksAreTheRowsUnderBothEngines) {
  const BothEngines rows =
      both_engines({"--collective", "allreduce", "--algo", "circulant", "--p", "12", "--size", "96KiB", "--blocks", "7"});
  ASSERT_EQ(rows.smpi.size(), 1u);
  ASSERT_EQ(rows.loggp.size(), 1u);
  EXPECT_EQ(rows.smpi[0].blocks, 7);
  EXPECT_EQ(rows.loggp[0].blocks, 7);
}

// A plan file given as a named pipe can be read once only: the runs below
// work only if the driver reads it once and hands on what it read (the
// engine its parse, smpirun a copy written from it). Before, the engine
// path and the staging for smpirun each read the file again and found it
// empty ("empty plan").
TEST(BlocksOnce, APlanFileIsReadOnceByTheDriver) {
  const std::string file = test::fresh_path("once.plan");
  const test::CliResult made = test::run_collsim_argv(
      {"plan", "--collective", "bcast", "--algo", "binomial", "--p", "8", "--size", "1KiB", "--out", file});
  ASSERT_EQ(made.status, 0) << made.out;
  const std::string text = test::read_file(file);
  ASSERT_FALSE(text.empty());
  const std::string fifo = test::fresh_path("once.fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_LT(text.size(), 65536u);  // fits the pipe's buffer: written before collsim starts
  for (const char* engine : {"smpi", "loggp"}) {
    // We hold the pipe open (read-write: the open does not wait) and put
    // the plan in it once; when collsim has taken it all out, we close, and
    // its next read of the pipe ends there: a second reading finds nothing.
    const int fd = open(fifo.c_str(), O_RDWR | O_CLOEXEC);  // collsim must not hold it too
    ASSERT_GE(fd, 0);
    ASSERT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
    std::thread closer([fd] {
      int left = 1;
      for (int wait = 0; wait < 12000 && ioctl(fd, FIONREAD, &left) == 0 && left > 0; ++wait) usleep(10000);
      close(fd);
    });
    test::Child run;
    run.argv = {COLLSIM_BIN, "run", "--plan", fifo, "--p", "8", "--size", "1KiB", "--engine", engine, "--format", "csv"};
    run.stderr_to = test::Stderr::out;
    run.wall_seconds = 120;
    const test::CliResult r = test::run_child(run);
    closer.join();
    EXPECT_EQ(r.status, 0) << engine << ": " << r.out;
    EXPECT_NE(r.out.find("bcast,plan:once.fifo,8,1024,1,"), std::string::npos) << engine << ": " << r.out;
  }
}

// The three checks of a plan file against its case, one function and one
// wording for the driver and the harness.
TEST(BlocksOnce, PlanChecksHaveOneWording) {
  plan::Header h;
  h.collective = Collective::bcast, h.p = 8, h.root = 2;
  EXPECT_NO_THROW(check_plan_for_case(h, "x.plan", Collective::bcast, 8, {2}));
  auto message = [&](Collective c, int64_t p, std::vector<int64_t> roots) {
    try {
      check_plan_for_case(h, "x.plan", c, p, roots);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(Collective::reduce, 8, {2}), "plan file 'x.plan' is for bcast at p = 8, not reduce at p = 8");
  EXPECT_EQ(message(Collective::bcast, 7, {2}), "plan file 'x.plan' is for bcast at p = 8, not bcast at p = 7");
  EXPECT_EQ(message(Collective::bcast, 8, {2, 0}), "plan file 'x.plan' has root 2, not the case's root 0");
  h.collective = Collective::allreduce, h.root = 0;
  EXPECT_EQ(message(Collective::allreduce, 8, {0}), "no error");
  // The driver says the same, as its one error line.
  const std::string file = test::fresh_path("root0.plan");
  const test::CliResult made = test::run_collsim_argv(
      {"plan", "--collective", "bcast", "--algo", "binomial", "--p", "4", "--size", "8", "--out", file});
  ASSERT_EQ(made.status, 0) << made.out;
  const test::CliResult r = test::run_collsim_argv({"run", "--plan", file, "--p", "4", "--size", "8", "--root", "1"});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_EQ(r.out, "collsim: error: plan file '" + file + "' has root 0, not the case's root 1\n");
}

}  // namespace
}  // namespace collsim::sim
