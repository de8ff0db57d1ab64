// The GOAL schedule check (verify/goal_check.hpp): every rule rejects a
// hand-written schedule that breaks it, and our plans' GOAL exports pass.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "collectives.hpp"
#include "goal_check.hpp"
#include "goal_read.hpp"
#include "plan_builders.hpp"
#include "plan_goal.hpp"
#include "run_cli.hpp"

namespace collsim {
namespace {

GoalReport check(const std::string& text) {
  std::istringstream in(text);
  return check_goal(goal::read_goal(in));
}

// The rule a schedule breaks, with the rank and operation it names.
void expect_failure(const std::string& text, const std::string& rule, int64_t rank, int64_t op) {
  const GoalReport rep = check(text);
  ASSERT_TRUE(rep.failure) << "accepted:\n" << text;
  EXPECT_EQ(rep.failure->rule, rule) << describe(*rep.failure);
  EXPECT_EQ(rep.failure->rank, rank) << describe(*rep.failure);
  EXPECT_EQ(rep.failure->op, op) << describe(*rep.failure);
}

TEST(GoalVerify, ACorrectExchangePasses) {
  const GoalReport rep = check(
      "num_ranks 2\n"
      "rank 0 { s: send 8b to 1 tag 0\n r: recv 8b from 1 tag 0\n }\n"
      "rank 1 { s: send 8b to 0 tag 0\n r: recv 8b from 0 tag 0\n }\n");
  EXPECT_FALSE(rep.failure) << describe(*rep.failure);
  EXPECT_EQ(rep.operations, 4);
  EXPECT_EQ(rep.messages, 2);
}

// Each rank receives before it sends: neither receive can ever match.
TEST(GoalVerify, ADependencyCycleAcrossTwoRanksIsADeadlock) {
  expect_failure(
      "num_ranks 2\n"
      "rank 0 { r: recv 8b from 1 tag 0\n s: send 8b to 1 tag 0\n s requires r\n }\n"
      "rank 1 { r: recv 8b from 0 tag 0\n s: send 8b to 0 tag 0\n s requires r\n }\n",
      "deadlock", 0, 1);
}

// Both send first and receive after: it finishes only if MPI buffers a
// send, which a standard send need not do.
TEST(GoalVerify, SendsThatNeedBufferingAreADeadlock) {
  expect_failure(
      "num_ranks 2\n"
      "rank 0 { s: send 8b to 1 tag 0\n r: recv 8b from 1 tag 0\n r requires s\n }\n"
      "rank 1 { s: send 8b to 0 tag 0\n r: recv 8b from 0 tag 0\n r requires s\n }\n",
      "deadlock", 0, 1);
}

// Two sends of one channel that nothing orders: the 200-byte one may be
// posted first and meet the 100-byte receive.
TEST(GoalVerify, AReceiveThatCanBeOvertakenIsRejected) {
  const std::string recvs = "rank 1 { x: recv 100b from 0 tag 0\n y: recv 200b from 0 tag 0\n y requires x\n }\n";
  expect_failure("num_ranks 2\nrank 0 { a: send 100b to 1 tag 0\n b: send 200b to 1 tag 0\n }\n" + recvs,
                 "overtaking", 0, 2);
  // Ordered by the sender, irequires or requires, it is fine.
  EXPECT_FALSE(check("num_ranks 2\nrank 0 { a: send 100b to 1 tag 0\n b: send 200b to 1 tag 0\n b irequires a\n }\n" +
                     recvs)
                   .failure);
  // Another tag is another channel.
  EXPECT_FALSE(check("num_ranks 2\nrank 0 { a: send 100b to 1 tag 0\n b: send 200b to 1 tag 1\n }\n"
                     "rank 1 { x: recv 100b from 0 tag 0\n y: recv 200b from 0 tag 1\n }\n")
                   .failure);
}

TEST(GoalVerify, UnorderedReceivesOfOneChannelAreRejected) {
  expect_failure(
      "num_ranks 2\n"
      "rank 0 { a: send 100b to 1 tag 0\n b: send 200b to 1 tag 0\n b requires a\n }\n"
      "rank 1 { x: recv 100b from 0 tag 0\n y: recv 200b from 0 tag 0\n }\n",
      "overtaking", 1, 2);
}

TEST(GoalVerify, CountsSizesAndWildcards) {
  expect_failure("num_ranks 2\nrank 0 { send 8b to 1 tag 0\n send 8b to 1 tag 0\n }\nrank 1 { recv 8b from 0 tag 0\n }\n",
                 "unmatched", 0, 2);
  expect_failure("num_ranks 2\nrank 0 { send 16b to 1 tag 0\n }\nrank 1 { recv 8b from 0 tag 0\n }\n", "truncation", 1,
                 1);
  expect_failure("num_ranks 2\nrank 0 { send 8b to 1 tag 0\n }\nrank 1 { recv 8b from -1 tag 0\n }\n", "wildcard", 1,
                 1);
  // A smaller message into a larger receive is MPI's business as usual.
  EXPECT_FALSE(check("num_ranks 2\nrank 0 { send 8b to 1 tag 0\n }\nrank 1 { recv 16b from 0 tag 0\n }\n").failure);
}

// Every plan of ours, exported as GOAL, passes (sendrecv steps are a send
// and a receive that wait only for the step before).
TEST(GoalVerify, OurPlansGoalExportsPass) {
  for (Collective c : {Collective::bcast, Collective::reduce, Collective::allreduce, Collective::scan,
                       Collective::exscan, Collective::allgatherv, Collective::reduce_scatter})
    for (const std::string& name : plan::plan_algorithms(c)) {
      const plan::PlanAlgorithm& a = plan::find_plan_algorithm(c, name);
      for (int64_t p : {1, 2, 7, 16, 33}) {
        const int64_t blocks = a.cut == plan::Cut::pipelined ? 3 : plan::cut_blocks(a.cut, p);
        std::stringstream text;
        plan::write_goal(text, plan::build_plan(c, name, p, 0, blocks, {2, 3.736}), 4096, "test");
        const GoalReport rep = check_goal(goal::read_goal(text));
        EXPECT_FALSE(rep.failure) << collective_name(c) << " " << name << " p=" << p << ": "
                                  << describe(*rep.failure);
      }
    }
}

// The command (stdout and stderr together): FAIL and exit 1 on a broken rule, one line and exit 2 on a
// malformed file, --collective refused (GOAL has none).
TEST(GoalVerify, CommandLine) {
  const std::string dir = std::string(TEST_TMPDIR) + "/goal_verify";
  std::filesystem::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name) << text;
    return dir + "/" + name;
  };
  const std::string cycle = write("cycle.goal",
                                  "num_ranks 2\n"
                                  "rank 0 { r: recv 8b from 1 tag 0\n s: send 8b to 1 tag 0\n s requires r\n }\n"
                                  "rank 1 { r: recv 8b from 0 tag 0\n s: send 8b to 0 tag 0\n s requires r\n }\n");
  test::CliResult r = test::run_collsim_argv({"verify", "plan", "--file", cycle});
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_EQ(r.out.rfind("FAIL rank 0 operation 1: deadlock: a cycle of waits: ", 0), 0u) << r.out;
  r = test::run_collsim_argv({"verify", "plan", "--file", write("bad.goal", "num_ranks 2\nrank 0 {\n")});
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("malformed GOAL schedule"), std::string::npos) << r.out;
  r = test::run_collsim_argv({"verify", "plan", "--file", cycle, "--collective", "bcast"});
  EXPECT_EQ(r.status, 2) << r.out;
}

}  // namespace
}  // namespace collsim
