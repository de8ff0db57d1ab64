// `verify circulant` over MPI ranks (collsim-verify-mpi, and `collsim verify
// circulant` under mpirun, which becomes it): the same summary as one
// process, the time aside, whether ranks get many p, one or none.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "run_cli.hpp"

namespace collsim {
namespace {

std::string mpirun(int ranks) { return std::string(MPIRUN_SH) + " " + std::to_string(ranks) + " "; }

// The summary without the one thing that differs between runs.
std::string without_time(const std::string& out) { return std::regex_replace(out, std::regex(" in [0-9.]+ s"), ""); }

TEST(VerifyMpi, SameSummaryAsOneProcess) {
  for (const char* args : {"--p 1:300 --blocks 1,3", "--p 2:2", "--p 1:2", "--p 100:140 --threads 2"}) {
    const auto one = test::run_collsim(std::string("verify circulant ") + args);
    ASSERT_EQ(one.status, 0) << args << "\n" << one.out;
    for (int ranks : {3, 4}) {
      const auto split = test::run_words(mpirun(ranks) + COLLSIM_VERIFY_MPI + " circulant " + args);
      EXPECT_EQ(split.status, 0) << args;
      EXPECT_EQ(without_time(split.out), without_time(one.out)) << args << " on " << ranks << " ranks";
    }
  }
}

TEST(VerifyMpi, CollsimUnderMpirunSplitsTheRange) {
  const auto one = test::run_collsim("verify circulant --p 1:200");
  const auto split = test::run_words(mpirun(3) + COLLSIM_BIN + " verify circulant --p 1:200", true);
  EXPECT_EQ(split.status, 0);
  EXPECT_NE(split.out.find("collsim-verify-mpi: p = 1..200 over 3 ranks"), std::string::npos) << split.out;
  const auto summary = test::run_words(mpirun(3) + COLLSIM_BIN + " verify circulant --p 1:200");
  EXPECT_EQ(without_time(summary.out), without_time(one.out));
}

TEST(VerifyMpi, BadInputGivesOneErrorLine) {
  const auto r = test::run_words(mpirun(3) + COLLSIM_VERIFY_MPI + " circulant --p 5:1", true);
  EXPECT_EQ(r.status, 2);
  const size_t first = r.out.find("collsim-verify-mpi: error: --p: empty range '5:1'");
  EXPECT_NE(first, std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("collsim-verify-mpi: error:", first + 1), std::string::npos) << r.out;
}

}  // namespace
}  // namespace collsim
