// Real Open MPI end to end: every algorithm of ours (each catalog row that
// is not SimGrid's, so algorithms added later are covered too), for every
// collective, runs as collsim-mpi under mpirun (tests/mpirun.sh) on p = 2, 3,
// 4, 7, 8 ranks of this machine. The harness checks every rank's whole
// result, so every case must come back as a row that says correct = 1.
// mpirun not working here is a failure, not a skip.
#include <gtest/gtest.h>

#include <ostream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "launch.hpp"
#include "catalog.hpp"
#include "run_cli.hpp"

namespace collsim::sim {

// Test names and values by name, not as bytes.
void PrintTo(Collective c, std::ostream* os) { *os << collective_name(c); }

namespace {

std::string mpirun(int p) { return std::string(MPIRUN_SH) + " " + std::to_string(p) + " " + COLLSIM_MPI_BIN; }

// One mpirun of collsim-mpi over `algos`; returns its rows (failing the test
// on a bad exit or missing rows).
std::vector<Row> run_case(const std::vector<const Algorithm*>& algos, int p, Operator op, Layout layout,
                          int64_t blocks) {
  const Collective c = algos.front()->collective;
  const int64_t e = element_bytes(c, op);
  const std::vector<int64_t> sizes = {0, e, 37 * e, 1000 * e};
  std::string names, size_list;
  for (const Algorithm* a : algos) names += (names.empty() ? "" : ",") + std::string(a->name);
  for (int64_t s : sizes) size_list += (size_list.empty() ? "" : ",") + std::to_string(s);
  std::ostringstream cmd;
  cmd << mpirun(p) << " --collective " << collective_name(c) << " --algos " << names << " --sizes " << size_list
      << " --roots 0," << p - 1 << " --blocks " << blocks << " --op "
      << operator_name(op) << " --layout " << layout_name(layout) << " --reps 1 --warmup 0";
  const auto result = test::run_words(cmd.str(), true);
  std::vector<Row> rows;
  std::istringstream lines(result.out);
  const std::string prefix = std::string(collective_name(c)) + ",";
  for (std::string line; std::getline(lines, line);)
    if (line.compare(0, prefix.size(), prefix) == 0) rows.push_back(parse_row(line));
  EXPECT_EQ(result.status, 0) << cmd.str() << "\n" << result.out;
  EXPECT_EQ(rows.size(), algos.size() * sizes.size() * 2) << cmd.str() << "\n" << result.out;
  return rows;
}

class OpenMpi : public testing::TestWithParam<std::tuple<Collective, int>> {};

// Both operators for reductions (matmul, which catches any reordering of ⊕,
// for the algorithms not flagged kCommutative), every layout where ranks'
// shares differ, block counts from the policy and n = 5.
TEST_P(OpenMpi, EveryAlgorithmOfOursIsCorrect) {
  const auto [c, p] = GetParam();
  const auto algos = our_algorithms(c);
  if (algos.empty()) GTEST_SKIP() << "the catalog has no algorithm of ours for " << collective_name(c);
  const bool shares = c == Collective::reduce_scatter || c == Collective::allgatherv;
  for (Operator op : {Operator::bxor, Operator::matmul}) {
    if (!reduces(c) && op == Operator::matmul) continue;
    // kCommutative algorithms are wrong for matmul by their own flag.
    std::vector<const Algorithm*> fit;
    for (const Algorithm* a : algos)
      if (op == Operator::bxor || !a->has(kCommutative)) fit.push_back(a);
    if (fit.empty()) continue;
    for (Layout layout : {Layout::even, Layout::ramp, Layout::single}) {
      if (!shares && layout != Layout::even) continue;
      for (int64_t blocks : {0, 5})
        for (const Row& r : run_case(fit, p, op, layout, blocks))
          EXPECT_TRUE(r.correct) << r.algorithm << " p=" << p << " bytes=" << r.bytes << " blocks=" << r.blocks
                                 << " root=" << r.root << " op=" << r.op << " layout=" << r.layout;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Collectives, OpenMpi,
                         testing::Combine(testing::ValuesIn(kCollectives), testing::Values(2, 3, 4, 7, 8)),
                         [](const auto& info) {
                           return std::string(collective_name(std::get<0>(info.param))) + "_p" +
                                  std::to_string(std::get<1>(info.param));
                         });

// A GOAL schedule (here our recursive-doubling allreduce's export, with its
// calcs) runs through the GOAL executor under Open MPI: one row, collective
// goal, nothing checked.
TEST(OpenMpiGoal, RunsAGoalScheduleThroughTheExecutor) {
  const std::string file = std::string(TEST_TMPDIR) + "/openmpi_rd4.goal";
  const auto made = test::run_collsim("plan --collective allreduce --algo recursive-doubling --p 4 --size 4KiB "
                                      "--format goal --out " + file);
  ASSERT_EQ(made.status, 0) << made.out;
  const auto r = test::run_words(mpirun(4) + " --collective bcast --sizes 0 --plan " + file + " --reps 1 --warmup 0",
                                 true);
  EXPECT_EQ(r.status, 0) << r.out;
  std::istringstream lines(r.out);
  std::vector<Row> rows;
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("goal,", 0) == 0) rows.push_back(parse_row(line));
  ASSERT_EQ(rows.size(), 1u) << r.out;
  EXPECT_EQ(rows[0].algorithm, "plan:openmpi_rd4.goal");
  EXPECT_EQ(rows[0].p, 4);
  EXPECT_GT(rows[0].time_us, 0);
  EXPECT_EQ(rows[0].engine, "openmpi");
}

// Bad input: one error line (from rank 0 only), non-zero exit; SimGrid's
// built-ins are refused outside the simulator.
TEST(OpenMpiErrors, BadInputGivesOneErrorLine) {
  for (const char* args :
       {"--collective bcast --algos nosuch --sizes 8", "--collective bcast --algos smpi:default --sizes 8"}) {
    const auto r = test::run_words(mpirun(2) + " " + args, true);
    EXPECT_NE(r.status, 0) << args;
    const std::string tag = "collsim-mpi: error: ";
    const size_t first = r.out.find(tag);
    EXPECT_NE(first, std::string::npos) << r.out;
    EXPECT_EQ(r.out.find(tag, first + 1), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace collsim::sim
