// Hostile names against smpirun (issue 31): smpirun is a shell script that
// expands its arguments unquoted, so the driver hands it fixed names only
// (common/scratch_dir.hpp). Each case runs a tiny simulation (p = 4,
// 1 KiB, a binomial bcast plan) under a plan file, output folder or TMPDIR
// whose name a shell would split, glob or take as an option, and asserts
// the exit code, the row, and that nothing was left or created beside it.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "errors.hpp"
#include "protocol.hpp"
#include "run_cli.hpp"
#include "scratch_dir.hpp"

namespace collsim {
namespace {

namespace fs = std::filesystem;
using sim::Row;

// A fresh folder per test with its own TMPDIR inside (set for the collsim
// processes the test starts), so that scratch folders left behind and
// files created by a name run as code are seen.
class HostileSmpirun : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = test::fresh_path(std::string("hostile-smpirun-") + info->name());
    fs::create_directories(dir_);
    set_tmpdir(dir_ / "tmp");
  }
  void TearDown() override { unsetenv("TMPDIR"); }

  void set_tmpdir(const fs::path& tmp) {
    fs::create_directories(tmp);
    tmp_ = tmp;
    setenv("TMPDIR", tmp.c_str(), 1);
  }

  // The binomial bcast plan of p ranks at `name` in the test's folder.
  fs::path plan(const std::string& name, int p = 4) {
    const fs::path path = dir_ / name;
    const auto r = test::run_collsim_argv({"plan", "--collective", "bcast", "--algo", "binomial", "--p",
                                           std::to_string(p), "--size", "1KiB", "--out", path.string()});
    EXPECT_EQ(r.status, 0) << r.out;
    return path;
  }

  // Everything in the test's folder and its TMPDIR (names only).
  std::vector<std::string> listing() const {
    std::vector<std::string> names;
    for (const auto& e : fs::recursive_directory_iterator(dir_)) names.push_back(e.path().lexically_relative(dir_).string());
    std::sort(names.begin(), names.end());
    return names;
  }

  bool tmp_empty() const { return fs::is_empty(tmp_); }

  fs::path dir_, tmp_;
};

std::vector<Row> rows_of(const std::string& out) {
  std::vector<Row> rows;
  std::stringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("bcast,", 0) == 0) rows.push_back(sim::parse_row(line));
  return rows;
}

// `run --plan PATH` gives exit 0 and one correct row named `shown`.
void expect_plan_runs(const fs::path& path, const std::string& shown) {
  const auto r = test::run_collsim_argv({"run", "--plan=" + path.string(), "--p", "4", "--size", "1KiB", "--format", "csv"});
  ASSERT_EQ(r.status, 0) << r.out;
  const std::vector<Row> rows = rows_of(r.out);
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_EQ(rows[0].algorithm, shown);
  EXPECT_EQ(rows[0].p, 4);
  EXPECT_EQ(rows[0].bytes, 1024);
  EXPECT_TRUE(rows[0].correct);
  EXPECT_GT(rows[0].time_us, 0);
}

TEST_F(HostileSmpirun, PlanNamesWithBlanksGlobsOptionsAndCodeRunAsFiles) {
  // The decoy matches the glob x[ab].plan; it is for p = 5, so running it
  // instead fails.
  const fs::path decoy = plan("xa.plan", 5);
  struct Case {
    std::string file, shown;
  };
  const std::vector<Case> cases = {
      {"my plan.plan", "plan:my_plan.plan"},
      {"x[ab].plan", "plan:x[ab].plan"},
      {"a --log=root.fmt:X.plan", "plan:a_--log=root.fmt:X.plan"},
      {"q$(touch X)`touch Y`.plan", "plan:q$(touch_X)`touch_Y`.plan"},
      {"-lead.plan", "plan:-lead.plan"},
      {"new\nline.plan", "plan:new_line.plan"},
      {"it's \"q\",c.plan", "plan:it's__q__c.plan"},
      {"*.plan", "plan:*.plan"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    const fs::path path = plan(c.file);
    const std::vector<std::string> before = listing();
    expect_plan_runs(path, c.shown);
    EXPECT_EQ(listing(), before) << "a file created, or a scratch folder left";
    EXPECT_TRUE(tmp_empty());
  }
  EXPECT_FALSE(fs::exists("X") || fs::exists("Y")) << "a name ran as code in " << fs::current_path();
}

TEST_F(HostileSmpirun, CompareTakesAPlanWithABlankBesideOurAlgorithm) {
  plan("my plan.plan");
  const fs::path out = dir_ / "out dir";
  const auto r = test::run_collsim_argv({"compare", "--collective", "bcast", "--p", "4", "--sizes", "1KiB", "--algos",
                                         "plan:" + (dir_ / "my plan.plan").string() + ",binomial", "--out",
                                         out.string()});
  ASSERT_EQ(r.status, 0) << r.out;
  const std::vector<Row> rows = rows_of(test::read_file((out / "results.csv").string()));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].algorithm, "binomial");
  EXPECT_EQ(rows[1].algorithm, "plan:my_plan.plan");
  EXPECT_TRUE(rows[0].correct && rows[1].correct);
  EXPECT_EQ(rows[0].time_us, rows[1].time_us) << "the plan is binomial's";
  EXPECT_TRUE(tmp_empty());
}

TEST_F(HostileSmpirun, ATmpdirWithABlankWorks) {
  set_tmpdir(dir_ / "tmp dir $(touch Z)");
  const fs::path path = plan("p.plan");
  expect_plan_runs(path, "plan:p.plan");
  const auto r = test::run_collsim_argv({"run", "--algo", "binomial", "--p", "4", "--size", "1KiB", "--format", "csv"});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(rows_of(r.out).size(), 1u) << r.out;
  EXPECT_TRUE(tmp_empty());
  EXPECT_FALSE(fs::exists("Z"));
}

TEST_F(HostileSmpirun, AMissingTmpdirIsOneLine) {
  setenv("TMPDIR", (dir_ / "nowhere").c_str(), 1);
  const auto r = test::run_collsim_argv({"run", "--algo", "binomial", "--p", "4", "--size", "1KiB"});
  EXPECT_EQ(r.status, kExitBadInput) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_NE(r.out.find("TMPDIR"), std::string::npos) << r.out;
}

// Rank 0 receives from rank 2 where it should send: every rank waits.
std::string deadlocking(const std::string& plan_text) {
  const std::string from = "step send 2 blocks 0", to = "step recv 2 blocks 0";
  std::string text = plan_text;
  text.replace(text.find(from), from.size(), to);
  return text;
}

TEST_F(HostileSmpirun, ADeadlockExitsThreeAndNamesTheKeptFolder) {
  const fs::path good = plan("good.plan");
  const fs::path dead = dir_ / "dead lock.plan";
  std::ofstream(dead) << deadlocking(test::read_file(good.string()));
  const auto r =
      test::run_collsim_argv({"run", "--plan", dead.string(), "--p", "4", "--size", "1KiB", "--format", "csv"});
  EXPECT_EQ(r.status, kExitDeadlock) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_NE(r.out.find("deadlock"), std::string::npos) << r.out;
  // The one folder left is the one the line names.
  std::vector<fs::path> kept(fs::directory_iterator(tmp_), fs::directory_iterator{});
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_NE(r.out.find("files kept in " + kept[0].string() + "; rerun: cd "), std::string::npos) << r.out;

  // compare goes on with the others and exits 3 as well.
  fs::remove_all(kept[0]);
  const fs::path out = dir_ / "out";
  const auto c = test::run_collsim_argv({"compare", "--collective", "bcast", "--p", "4", "--sizes", "1KiB", "--algos",
                                         "plan:" + dead.string() + ",binomial", "--out", out.string()});
  EXPECT_EQ(c.status, kExitDeadlock) << c.out;
  const std::vector<Row> rows = rows_of(test::read_file((out / "results.csv").string()));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].algorithm, "binomial");
  kept.assign(fs::directory_iterator(tmp_), fs::directory_iterator{});
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_NE(c.out.find("warning: smpirun failed for plan:dead_lock.plan (deadlock"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("files kept in " + kept[0].string()), std::string::npos) << c.out;
}

TEST(SmpirunWords, OnlyFixedWordsPassTheGuard) {
  const std::vector<std::string> ok = {"smpirun", "-no-privatize", "-np", "4", "-platform", "platform.xml",
                                       "-hostfile", "hosts.txt", "--cfg=smpi/bcast:binomial_tree",
                                       "--log=root.thres:warning", "./libcollsim-smpi.so", "--collective", "bcast",
                                       "--alpha", "5.4999999999999999e-06", "--plan", "plan-0.plan"};
  EXPECT_NO_THROW(sim::check_smpirun_words(ok));
  auto with = [&](size_t at, const std::string& word) {
    std::vector<std::string> argv = ok;
    argv[at] = word;
    return argv;
  };
  for (const char* word : {"my plan.plan", "x[ab].plan", "*.plan", "a\nb", "q$(touch X)", "it's", ""})
    EXPECT_THROW(sim::check_smpirun_words(with(16, word)), std::logic_error) << word;
  EXPECT_THROW(sim::check_smpirun_words(with(16, "-lead.plan")), std::logic_error) << "a value like an option";
  EXPECT_THROW(sim::check_smpirun_words(with(15, "--log=root.fmt:X")), std::logic_error) << "SimGrid's, after the program";
  EXPECT_THROW(sim::check_smpirun_words(with(5, "-x.xml")), std::logic_error);
  EXPECT_THROW(sim::check_smpirun_words(with(10, "-program.so")), std::logic_error);
  std::vector<std::string> odd = ok;
  odd.pop_back();
  EXPECT_THROW(sim::check_smpirun_words(odd), std::logic_error) << "a key without its value";
}

TEST(PlanRowName, IsOneCsvFieldAndOneWord) {
  EXPECT_EQ(sim::plan_row_name("/a b/c d,\"e\"\tf\r\ng.plan"), "plan:c_d__e__f__g.plan");
  EXPECT_EQ(sim::plan_row_name("x[ab]'$(y)`z`.plan"), "plan:x[ab]'$(y)`z`.plan");
}

}  // namespace
}  // namespace collsim
