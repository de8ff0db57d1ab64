// GOAL schedules (schedules/goal_read.hpp) through the engine's DAG
// evaluator (engine/goal_sim.hpp): (a) our plans' GOAL export read back
// takes exactly the plan evaluator's time; (b) small hand-written files
// whose times are worked out in their comments from the LogGOPS rules
// (engine/loggopsim.hpp), with L = 5 µs, o = 1 µs, g = 2 µs, G = 1 ns/B,
// γ = 1 ns per calc unit, S = 65535 B, in ns; (c) malformed files: one
// error naming the line; (d) `collsim run --plan F.goal`.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "goal_read.hpp"
#include "goal_sim.hpp"
#include "plan_builders.hpp"
#include "plan_goal.hpp"
#include "protocol.hpp"
#include "run_cli.hpp"

namespace collsim::engine {
namespace {

const LogGOPS kParams{5'000'000, 1'000'000, 2'000'000, 1'000, 1'000, 65535};

goal::Schedule parse(const std::string& text) {
  std::istringstream in(text);
  return goal::read_goal(in);
}

std::vector<double> finish_ns(const std::string& text) {
  const Result res = evaluate(parse(text), kParams, true);
  std::vector<double> ns;
  for (double t : res.finish) ns.push_back(t * 1e9);
  return ns;
}

void expect_ns(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t r = 0; r < got.size(); ++r) EXPECT_NEAR(got[r], want[r], 1e-6) << "rank " << r;
}

// (a) `collsim plan --format goal` read back: the same time, rank by rank,
// as the plan evaluator gives the plan, eager (32 KiB) and rendezvous.
TEST(EngineGoal, PlanExportsTakeThePlansTime) {
  struct Case {
    Collective c;
    const char* name;
  };
  int checked = 0;
  for (const Case& k : {Case{Collective::bcast, "binomial"}, Case{Collective::bcast, "two-tree"},
                        Case{Collective::bcast, "circulant"}, Case{Collective::allreduce, "ring"},
                        Case{Collective::allreduce, "recursive-doubling"}, Case{Collective::allreduce, "halving-doubling"}}) {
    const plan::PlanAlgorithm& a = plan::find_plan_algorithm(k.c, k.name);
    for (int64_t p : {7, 64}) {
      const int64_t blocks = a.cut == plan::Cut::pipelined ? 6 : plan::cut_blocks(a.cut, p);
      const int64_t root = k.c == Collective::bcast && p == 7 ? 3 : 0;
      const plan::Plan pl = plan::build_plan(k.c, k.name, p, root, blocks);
      for (int64_t bytes : {int64_t{32768}, int64_t{1} << 20}) {
        std::stringstream text;
        plan::write_goal(text, pl, bytes, "round trip");
        const Result want = evaluate(pl, goal_blocks(pl.header, bytes), kParams, true);
        const Result got = evaluate(goal::read_goal(text), kParams, true);
        EXPECT_EQ(got.time, want.time) << k.name << " p=" << p << " bytes=" << bytes;
        EXPECT_EQ(got.finish, want.finish) << k.name << " p=" << p << " bytes=" << bytes;
        EXPECT_EQ(got.messages, want.messages) << k.name << " p=" << p << " bytes=" << bytes;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 6 * 2 * 2);
}

// (b) irequires against requires. Rank 0 sends at 0 (CPU to o = 1000); the
// message arrives at o + L = 6000. Rank 1's receive is queued at 0 and
// starts then, so l2 (irequires l1) runs at once, 0 .. 500. The message
// finds the CPU free at 6000 and holds it o + (s − 1)G = 1999, to 7999,
// matching the posted receive: done, so l3 (requires l1) runs 7999 .. 8699.
const char* const kIrequires = R"(num_ranks 2
rank 0 {
l1: send 1000b to 1 tag 5
}
rank 1 {
l1: recv 1000b from 0 tag 5
l2: calc 500
l2 irequires l1
l3: calc 700
l3 requires l1
}
)";
TEST(EngineGoal, IrequiresWaitsForTheStartRequiresForTheEnd) { expect_ns(finish_ns(kIrequires), {1000, 8699}); }

// Rendezvous (100000 B > S). Rank 1 calcs 0 .. 20000 (a calc is done when it
// starts, so its receive is queued at once, at the CPU's 20000). The
// message, there at 6000, waits for the CPU until 20000 and, queued before
// the receive, is charged first: 20000 + o + (s − 1)G = 120999. The receive
// then matches it at 20000, which is when rank 0's send is done: its CPU
// clock, o = 1000 after the send's start, is pushed to 20000, and its calc
// 10 runs 20000 .. 20010.
const char* const kRendezvous = R"(num_ranks 2
rank 0 {
l1: send 100000b to 1 tag 0
l2: calc 10
l2 requires l1
}
rank 1 {
l1: calc 20000
l2: recv 100000b from 0 tag 0
l2 requires l1
}
)";
TEST(EngineGoal, RendezvousSendEndsAtTheMatch) { expect_ns(finish_ns(kRendezvous), {20010, 120999}); }

// The same with 1000 B, eager: the send is done when it starts, so rank 0's
// calc runs at its CPU's o = 1000, to 1010; rank 1's message is charged at
// 20000: 20000 + o + 999 = 21999.
TEST(EngineGoal, EagerSendEndsAtItsStart) {
  std::string text = kRendezvous;
  for (size_t at; (at = text.find("100000b")) != std::string::npos;) text.replace(at, 7, "1000b");
  expect_ns(finish_ns(text), {1010, 21999});
}

// Two CPUs and NICs: rank 0's sends both start at 0, one per CPU and NIC
// (on one they would be max(o, g + (s − 1)G) = 2999 apart). Each message
// arrives at 6000 and is charged o + 999 on the receiver's CPU of the
// send's index: rank 1's CPU 0, rank 2's CPU 1, both to 7999. A rank's
// finish is its latest CPU: rank 0 1000 (both CPUs). Rank 2's receive
// takes any source and tag.
const char* const kTwoCpus = R"(num_ranks 3
// a comment line
rank 0 {
l1: send 1000b to 1 tag 0 cpu 0 nic 0
l2: send 1000b to 2 tag 7 cpu 1 nic 1  /* and a comment here */
}
rank 1 {
l1: recv 1000b from 0 tag 0
}
rank 2 {
l1: recv 1000b from -1 tag -1
}
)";
TEST(EngineGoal, CpusAndNicsWorkInParallel) {
  const goal::Schedule s = parse(kTwoCpus);
  EXPECT_EQ(s.cpus, 2);
  EXPECT_EQ(s.nics, 2);
  expect_ns(finish_ns(kTwoCpus), {1000, 7999, 7999});
}

// A calc on CPU 1 is done when it starts (LogGOPSim's), so the send that
// requires it starts at 0 on CPU 0: rank 1 ends at 6000 + 1999 = 7999;
// rank 0's CPU 1 is busy to 3000, its finish.
TEST(EngineGoal, CalcOnAnotherCpu) {
  expect_ns(finish_ns("num_ranks 2\nrank 0 {\nl1: calc 3000 cpu 1\nl2: send 1000b to 1 tag 0\nl2 requires l1\n}\n"
                      "rank 1 {\nl1: recv 1000b from 0 tag 0\n}\n"),
            {3000, 7999});
}

// A message nobody receives, a receive nobody sends to.
TEST(EngineGoal, UnmatchedOperationsAreErrors) {
  EXPECT_THROW(evaluate(parse("num_ranks 2\nrank 0 {\nsend 8b to 1\n}\nrank 1 {\n}\n"), kParams), std::invalid_argument);
  EXPECT_THROW(evaluate(parse("num_ranks 2\nrank 0 {\n}\nrank 1 {\nrecv 8b from 0\n}\n"), kParams),
               std::invalid_argument);
}

TEST(GoalRead, CompactArrays) {
  const goal::Schedule s = parse(kIrequires);
  EXPECT_EQ(s.ranks, 2);
  EXPECT_EQ(s.first_op, (std::vector<int64_t>{0, 1, 4}));
  ASSERT_EQ(s.ops.size(), 4u);
  EXPECT_EQ(s.ops[2].kind, goal::OpKind::calc);
  EXPECT_EQ(s.ops[2].size, 500);
  EXPECT_EQ(s.ops[1].peer, 0u);
  EXPECT_EQ(s.ops[1].tag, 5u);
  EXPECT_EQ(s.waits, (std::vector<uint32_t>{0, 0, 1, 1}));
  EXPECT_EQ(std::vector<int64_t>(s.after_start.first(1), s.after_start.last(1)), std::vector<int64_t>{2});
  EXPECT_EQ(std::vector<int64_t>(s.after_done.first(1), s.after_done.last(1)), std::vector<int64_t>{3});
}

// (c) Malformed files: each error names its line.
struct Bad {
  const char* what;
  const char* text;
  int line;
};
const Bad kBad[] = {
    {"unknown keyword", "num_ranks 2\nrank 0 {\nl1: sned 10b to 1 tag 0\n}\nrank 1 {\n}\n", 3},
    {"send to a rank >= num_ranks", "num_ranks 2\nrank 0 {\nl1: send 10b to 2 tag 0\n}\nrank 1 {\n}\n", 3},
    {"unknown label", "num_ranks 1\nrank 0 {\nl1: calc 5\nl1 requires l2\n}\n", 4},
    {"dependency cycle", "num_ranks 1\nrank 0 {\nl1: calc 5\nl2: calc 5\nl3: calc 1\nl3 requires l1\nl1 requires l2\nl2 requires l1\n}\n",
     7},
    {"missing rank block", "num_ranks 3\nrank 0 {\n}\nrank 1 {\n}\n", 5},
    {"missing closing brace", "num_ranks 2\nrank 0 {\nl1: calc 5\nrank 1 {\n}\n", 4},
    {"missing closing brace at the end", "num_ranks 1\nrank 0 {\nl1: calc 5\n", 3},
    {"label defined twice", "num_ranks 1\nrank 0 {\nl1: calc 5\nl1: calc 6\n}\n", 4},
    {"no b after a size", "num_ranks 2\nrank 0 {\nsend 10 to 1\n}\nrank 1 {\n}\n", 3},
    {"rank blocks out of order", "num_ranks 2\nrank 1 {\n}\nrank 0 {\n}\n", 2},
    {"no num_ranks", "rank 0 {\n}\n", 1},
    {"send to -1", "num_ranks 2\nrank 0 {\nsend 10b to -1\n}\nrank 1 {\n}\n", 3},
    {"a stray character", "num_ranks 1\nrank 0 {\nl1: calc 5 @\n}\n", 3},
    {"a huge size", "num_ranks 1\nrank 0 {\ncalc 99999999999999999999999\n}\n", 3},
};

TEST(GoalRead, MalformedInputNamesTheLine) {
  for (const Bad& b : kBad) {
    try {
      parse(b.text);
      ADD_FAILURE() << b.what << ": accepted";
    } catch (const std::invalid_argument& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.rfind("line " + std::to_string(b.line) + ": ", 0), 0u) << b.what << ": " << msg;
    }
  }
}

// (d) Through the command line, from an argument vector.
std::vector<std::string> run_args(const std::string& path, std::vector<std::string> more = {}) {
  std::vector<std::string> args{"run",  "--plan", path, "--engine", "loggp", "--rules", "loggopsim", "--L",
                                "5e-6", "--o",    "1e-6", "--g",     "2e-6",  "--G",     "1e-9",      "--gamma",
                                "1e-9", "--format", "csv"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

sim::Row last_row(const std::string& out) {
  std::stringstream lines(out);
  std::string line, last;
  while (std::getline(lines, line)) last = line;
  return sim::parse_row(last);
}

TEST(EngineGoal, RunAGoalFile) {
  const std::string path = test::write_temp("irequires.goal", kIrequires);
  const std::string per_rank = test::fresh_path("irequires_per_rank.csv");
  const auto out = test::run_collsim_argv(run_args(path, {"--p", "2", "--per-rank", per_rank}));
  ASSERT_EQ(out.status, 0) << out.out;
  const sim::Row row = last_row(out.out);
  EXPECT_EQ(row.collective, "goal");
  EXPECT_EQ(row.algorithm, "plan:irequires.goal");
  EXPECT_EQ(row.p, 2);
  EXPECT_NEAR(row.time_us, 8.699, 1e-9);
  EXPECT_EQ(row.engine, "loggopsim");
  EXPECT_FALSE(row.model_us.has_value());
  EXPECT_EQ(test::read_file(per_rank),
            "collective,algorithm,p,bytes,root,rank,finish_us\n"
            "goal,plan:irequires.goal,2,0,0,0,1.000\n"
            "goal,plan:irequires.goal,2,0,0,1,8.699\n");
}

// A file named otherwise is a GOAL schedule by its num_ranks line.
TEST(EngineGoal, RunAGoalFileByItsFirstWord) {
  const std::string path = test::write_temp("two_cpus.txt", kTwoCpus);
  const auto out = test::run_collsim_argv(run_args(path, {"--p", "3"}));
  ASSERT_EQ(out.status, 0) << out.out;
  EXPECT_NEAR(last_row(out.out).time_us, 7.999, 1e-9);
}

TEST(EngineGoal, RunRefusalsAreOneErrorLine) {
  const std::string good = test::write_temp("good.goal", kIrequires);
  const std::string cycle = test::write_temp("cycle.goal", kBad[3].text);
  const std::string stuck = test::write_temp("stuck.goal", "num_ranks 2\nrank 0 {\n}\nrank 1 {\nrecv 8b from 0\n}\n");
  const std::vector<std::vector<std::string>> bad = {
      {"run", "--plan", good, "--p", "3"},                                        // SMPI, p is not num_ranks
      {"run", "--plan", good, "--p", "2", "--engine", "loggp"},                   // the smpi rules
      run_args(good, {"--p", "3"}),                                               // p is not num_ranks
      run_args(good, {"--p", "2", "--size", "1KiB"}),                             // sizes are the file's
      run_args(good, {"--p", "2", "--root", "1"}),
      run_args(cycle, {"--p", "1"}),                                              // malformed
      run_args(stuck, {"--p", "2"}),                                              // does not run to its end
      run_args(test::fresh_path("no_such.goal"), {"--p", "2"}),
  };
  for (const auto& args : bad) {
    const auto out = test::run_collsim_argv(args);
    EXPECT_EQ(out.status, 2) << args[2] << ": " << out.out;
    EXPECT_EQ(std::count(out.out.begin(), out.out.end(), '\n'), 1) << out.out;
  }
  EXPECT_NE(test::run_collsim_argv(run_args(cycle, {"--p", "1"})).out.find("line 7"), std::string::npos);
}

}  // namespace
}  // namespace collsim::engine
