// Hostile inputs (issue 31): every case ends with its documented exit code
// and exactly one line on stderr, under a bound on the address space, so a
// reader that grows without bound or an allocation past a limit fails the
// test instead of the machine. Nothing here starts smpirun: each case is
// refused before a simulation would start.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "run_cli.hpp"

namespace collsim {
namespace {

namespace fs = std::filesystem;

constexpr rlim_t kAddressSpace = rlim_t{4} << 30;  // the bound every case runs under
constexpr unsigned kSecondsPerCase = 30;

using Outcome = test::CliResult;  // status, and stderr in err (stdout is dropped)

// collsim with `args`, its address space bounded by setrlimit in the child
// (no shell, no ulimit), killed by SIGALRM past kSecondsPerCase.
Outcome run_bounded(const std::vector<std::string>& args, const std::vector<std::pair<std::string, std::string>>& env = {}) {
  test::Child c;
  c.argv = {COLLSIM_BIN};
  c.argv.insert(c.argv.end(), args.begin(), args.end());
  c.env = env;
  c.stdout_to = "/dev/null";
  c.stderr_to = test::Stderr::err;
  c.address_space = kAddressSpace;
  c.wall_seconds = kSecondsPerCase;
  return test::run_child(c);
}

// One line on stderr holding `fragment`, and exit `status`.
void expect_refused(const std::vector<std::string>& args, int status, const std::string& fragment) {
  std::string line;
  for (const auto& a : args) line += a + " ";
  const Outcome o = run_bounded(args);
  EXPECT_EQ(o.status, status) << line << "\n" << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << line << "\n" << o.err;
  EXPECT_NE(o.err.find(fragment), std::string::npos) << line << "\n" << o.err;
  EXPECT_EQ(o.err.find("bad_alloc"), std::string::npos) << line << "\n" << o.err;
}

const std::string kBcastPlan =
    "collsim-plan 1\ncollective bcast\np 2\nroot 0\nblocks 1\ncommutative 0\n"
    "rank 0\nstep send 1 blocks 0\nrank 1\nstep recv 0 blocks 0\n";

// A folder of hostile files: a directory, a symlink loop, /dev/zero and a
// 2 GiB sparse file, each under the names the readers look at (.plan,
// .goal, .csv).
class HostileFiles : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // One folder per process: ctest -j runs each test in its own process.
    dir_ = test::fresh_path("hostile-" + std::to_string(getpid()));
    fs::create_directories(dir_ + "/a-directory");
    for (const char* ext : {".plan", ".goal", ".csv"}) {
      const std::string e = ext;
      fs::create_directory_symlink(dir_ + "/a-directory", dir_ + "/dir" + e);
      fs::create_symlink(dir_ + "/loop-b" + e, dir_ + "/loop" + e);
      fs::create_symlink(dir_ + "/loop" + e, dir_ + "/loop-b" + e);
      fs::create_symlink("/dev/zero", dir_ + "/zero" + e);
      const std::string sparse = dir_ + "/sparse" + e;
      const int fd = open(sparse.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ASSERT_GE(fd, 0);
      ASSERT_EQ(ftruncate(fd, off_t{2} << 30), 0);  // 2 GiB, no blocks on disk
      close(fd);
    }
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  // The four hostile files with extension `ext`, each with its exit code
  // and what its line says.
  static std::vector<std::tuple<std::string, int, std::string>> files(const std::string& ext) {
    return {{dir_ + "/dir" + ext, 2, "is a directory"},
            {dir_ + "/loop" + ext, 2, "Too many levels of symbolic links"},
            {dir_ + "/zero" + ext, 2, "is not a regular file or a pipe"},
            {dir_ + "/sparse" + ext, 4, "over the limit of "}};
  }
  static std::string dir_;
};
std::string HostileFiles::dir_;

TEST_F(HostileFiles, AsPlanFiles) {
  for (const auto& [path, status, says] : files(".plan")) {
    expect_refused({"verify", "plan", "--file", path}, status, says);
    expect_refused({"run", "--plan", path, "--p", "2", "--size", "1KiB"}, status, says);
    expect_refused({"run", "--engine", "loggp", "--plan", path, "--p", "2", "--size", "1KiB"}, status, says);
    expect_refused({"compare", "--algos", "plan:" + path + ",binomial", "--p", "2", "--sizes", "1KiB", "--out",
                    dir_ + "/cmp"},
                   status, says);
  }
}

TEST_F(HostileFiles, AsGoalFiles) {
  for (const auto& [path, status, says] : files(".goal"))
    expect_refused({"run", "--engine", "loggp", "--rules", "loggopsim", "--plan", path, "--p", "2"}, status, says);
}

TEST_F(HostileFiles, AsScheduleCsvFiles) {
  for (const auto& [path, status, says] : files(".csv")) {
    expect_refused({"verify", "circulant", "--file", path}, status, says);
    expect_refused({"verify", "two-tree", "--file", path}, status, says);
  }
}

TEST_F(HostileFiles, SymlinkLoopAsPlatformIsOneLine) {
  const std::string xml = dir_ + "/loop.xml";
  fs::create_symlink(dir_ + "/loop-b.xml", xml);
  fs::create_symlink(xml, dir_ + "/loop-b.xml");
  expect_refused({"run", "--algo", "binomial", "--p", "2", "--size", "1KiB", "--platform", xml}, 2,
                 "Too many levels of symbolic links");
}

// Values whose memory would pass any machine's: a limit in the message,
// exit 4, before anything is allocated.
TEST(HostileSizes, LimitsComeBeforeAllocation) {
  // (past the work estimate's limit too: raised, to reach the table's)
  expect_refused({"plan", "--collective", "allreduce", "--algo", "circulant", "--p", "8", "--size", "1MiB", "--blocks",
                  "2147483647", "--max-messages", "100000000000000"},
                 4, "limit of 2 GiB");
  expect_refused({"verify", "circulant", "--p", "2147483647:2147483647"}, 4, "limit of 2 GiB");
  expect_refused({"verify", "two-tree", "--p", "2147483647:2147483647", "--coloring", "log"}, 4, "limit of 2 GiB");
  expect_refused({"verify", "circulant", "--p", "8388608:8388671", "--threads", "64"}, 4, "fewer --threads");
  expect_refused({"run", "--collective", "allreduce", "--algo", "ring", "--p", "256", "--size", "16MiB"}, 4,
                 "over the 12 GiB of buffers");
}

// 2^40 blocks, the largest a plan may have: refused by the work estimate
// (about 7.7e12 messages), and with the limit raised the plan streams (no
// rank's steps are held at once), so it fails only on its full output.
TEST(HostileSizes, LargestBlockCountStreams) {
  const std::vector<std::string> plan = {"plan", "--collective", "bcast", "--algo", "circulant", "--p", "8",
                                         "--size", "1MiB", "--blocks", "1099511627776"};
  expect_refused(plan, 4, "--max-messages N raises it");
  for (const char* format : {"plan", "goal"}) {
    std::vector<std::string> words = plan;
    words.insert(words.end(), {"--format", format, "--out", "/dev/full", "--max-messages", "100000000000000"});
    expect_refused(words, 1, "cannot write '/dev/full'");
  }
}

TEST(HostileSizes, RunRefusesAPlanPastTheExecutorsHoldings) {
  const std::string path = test::write_temp("hostile-2p40.plan",
                                            "collsim-plan 1\ncollective bcast\np 2\nroot 0\nblocks 1099511627776\n"
                                            "commutative 0\nrank 0\nstep send 1 blocks 0\nrank 1\nstep recv 0 blocks 0\n");
  expect_refused({"run", "--plan", path, "--p", "2", "--size", "1MiB"}, 4, "over the limit of 2^32");
}

// Contradictions and options a mode would ignore: exit 2, the option named.
TEST(HostileOptions, ContradictionsAreErrors) {
  const std::string plan = test::write_temp("hostile-bcast.plan", kBcastPlan);
  expect_refused({"verify", "plan", "--collective", "allreduce", "--file", plan}, 2, "--collective allreduce contradicts");
  expect_refused({"verify", "plan", "--p", "2", "--file", plan}, 2, "--p is for --algo");
  expect_refused({"verify", "plan", "--root", "0", "--file", plan}, 2, "--root is for --algo");
  expect_refused({"verify", "plan", "--collective", "allreduce", "--algo", "ring", "--p", "2:4", "--root", "1"}, 2,
                 "--root is for bcast and reduce");
  expect_refused({"verify", "plan", "--collective", "allreduce", "--algo", "ring", "--p", "2:4", "--blocks", "3"}, 2,
                 "--blocks is for pipelined algorithms");
  expect_refused({"verify", "plan", "--collective", "bcast", "--algo", "binomial", "--p", "2:4", "--node-size", "2"},
                 2, "--node-size is for the node-aware algorithms");
  expect_refused({"plan", "--collective", "bcast", "--algo", "binomial", "--p", "4", "--size", "1", "--node-size", "2"},
                 2, "--node-size is for the node-aware algorithms");
  expect_refused({"verify", "circulant", "--file", plan, "--threads", "2"}, 2, "--threads is for --p");
  expect_refused({"verify", "two-tree", "--file", plan, "--threads", "2"}, 2, "--threads is for --p");
  const std::string out = test::fresh_path("hostile-tune") + "/t.rules";
  expect_refused({"tune", "--collective", "bcast,bcast", "--p", "4", "--target", "collsim", "--out", out}, 2,
                 "'bcast' given twice");
  expect_refused({"compare", "--algos", "binomial,binomial", "--p", "2", "--sizes", "1KiB", "--out",
                  test::fresh_path("hostile-cmp")},
                 2, "'binomial' given twice");
  EXPECT_FALSE(fs::exists(out));
  // Agreeing with the header is fine.
  const Outcome agree = run_bounded({"verify", "plan", "--collective", "bcast", "--file", plan});
  EXPECT_EQ(agree.status, 0) << agree.err;
}

TEST(HostileOptions, NegativeBlockInAPlanSaysSo) {
  std::string text = kBcastPlan;
  text.replace(text.find("send 1 blocks 0"), 15, "send 1 blocks -1");
  const std::string path = test::write_temp("hostile-negative.plan", text);
  expect_refused({"verify", "plan", "--file", path}, 2, "block '-1' is negative");
  text = kBcastPlan;
  text.replace(text.find("send 1 blocks 0"), 15, "send 1 blocks 0-");
  expect_refused({"verify", "plan", "--file", test::write_temp("hostile-open-range.plan", text)}, 2,
                 "block range '0-' lacks its last block");
}

}  // namespace
}  // namespace collsim
