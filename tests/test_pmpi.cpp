// libcollsim-pmpi.so end to end: an unmodified MPI program (mpi_program.cpp,
// standard collectives only) prints the same digests of its results under
// Open MPI alone and with the library preloaded and our algorithms named for
// every collective that has one (each of ours in turn); COLLSIM_VERBOSE
// shows that our algorithms ran. Bad settings stop the program in MPI_Init.
#include <gtest/gtest.h>
#include <unistd.h>


#include <algorithm>
#include <cctype>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "catalog.hpp"
#include "run_cli.hpp"

namespace collsim::sim {
namespace {

std::string env_name(Collective c) {
  std::string name = std::string("COLLSIM_") + collective_name(c);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return std::toupper(ch); });
  return name;
}

// The MPI calls each variable routes.
std::vector<std::string> calls_of(Collective c) {
  switch (c) {
    case Collective::bcast: return {"MPI_Bcast"};
    case Collective::reduce: return {"MPI_Reduce"};
    case Collective::allreduce: return {"MPI_Allreduce"};
    case Collective::reduce_scatter: return {"MPI_Reduce_scatter", "MPI_Reduce_scatter_block"};
    case Collective::allgatherv: return {"MPI_Allgatherv", "MPI_Allgather"};
    case Collective::scan: return {"MPI_Scan"};
    case Collective::exscan: return {"MPI_Exscan"};
  }
  return {};
}

struct ProgramRun {
  int status;
  std::string out, err;
};

// mpi_program on p ranks; `env` are VAR=value words, `preload` adds the library.
ProgramRun program(int p, const std::string& env, bool preload) {
  // ctest runs tests in parallel, each test in a process of its own.
  const std::string err_file = std::string(TEST_TMPDIR) + "/pmpi_stderr_" + std::to_string(getpid()) + ".txt";
  const std::string cmd = "( env " + env + " " + MPIRUN_SH + " " + std::to_string(p) +
                          (preload ? std::string(" -x LD_PRELOAD=") + PMPI_LIB : "") + " " + MPI_PROGRAM + " 2>" +
                          err_file + " )";
  const auto r = test::run_command(cmd);
  std::ifstream in(err_file);
  std::stringstream err;
  err << in.rdbuf();
  return {r.status, r.out, err.str()};
}

class Pmpi : public testing::TestWithParam<int> {};

TEST_P(Pmpi, SameResultsWithOurAlgorithms) {
  const int p = GetParam();
  const ProgramRun plain = program(p, "", false);
  ASSERT_EQ(plain.status, 0) << plain.out << plain.err;
  ASSERT_NE(plain.out.find("MPI_Bcast(bytes) "), std::string::npos) << plain.out;
  size_t runs = 0;
  for (Collective c : kCollectives) {
    runs = std::max(runs, our_algorithms(c).size());
    if (our_algorithms(c).empty()) std::cout << "no algorithm of ours for " << collective_name(c) << ": its calls stay Open MPI's\n";
  }
  ASSERT_GT(runs, 0u);
  for (size_t i = 0; i < runs; ++i) {
    std::string env = "COLLSIM_VERBOSE=1" + std::string(i % 2 ? " COLLSIM_BLOCKS=3" : "");
    for (Collective c : kCollectives)
      if (!our_algorithms(c).empty()) env += " " + env_name(c) + "=" + our_algorithms(c)[i % our_algorithms(c).size()]->name;
    const ProgramRun lib = program(p, env, true);
    EXPECT_EQ(lib.status, 0) << env << "\n" << lib.err;
    EXPECT_EQ(lib.out, plain.out) << env << "\n" << lib.err;
    for (Collective c : kCollectives) {
      if (our_algorithms(c).empty()) continue;
      const Algorithm& algo = *our_algorithms(c)[i % our_algorithms(c).size()];
      for (const std::string& call : calls_of(c)) {
        // Each call either ran the algorithm or says why not (kCommutative with matmul).
        const std::string used = "libcollsim-pmpi: " + call + ": " + algo.name + ", n=";
        EXPECT_NE(lib.err.find(used), std::string::npos) << env << ": no '" << used << "' in\n" << lib.err;
      }
    }
    if (!our_algorithms(Collective::bcast).empty()) {
      const std::string fallback = "libcollsim-pmpi: MPI_Bcast: Open MPI's (non-contiguous datatype)";
      EXPECT_NE(lib.err.find(fallback), std::string::npos) << lib.err;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, Pmpi, testing::Values(3, 8));

// One error line, from one rank, then exit before the program's first output.
TEST(PmpiErrors, BadSettingStopsAtInit) {
  const std::pair<const char*, const char*> cases[] = {
      {"COLLSIM_BCAST=nosuch", "COLLSIM_BCAST: unknown bcast algorithm 'nosuch'; ours: "},
      {"COLLSIM_BCAST=smpi:default", "COLLSIM_BCAST: unknown bcast algorithm 'smpi:default'; ours: "},
      {"COLLSIM_EXSCAN=nosuch", "COLLSIM_EXSCAN: unknown exscan algorithm 'nosuch'; ours: "},
      {"COLLSIM_BLOCKS=0", "COLLSIM_BLOCKS: not a block count >= 1: '0'"},
  };
  for (const auto& [env, message] : cases) {
    const ProgramRun r = program(3, env, true);
    EXPECT_NE(r.status, 0) << env;
    EXPECT_EQ(r.out, "") << env;
    const std::string line = std::string("libcollsim-pmpi: error: ") + message;
    const size_t first = r.err.find(line);
    EXPECT_NE(first, std::string::npos) << env << "\n" << r.err;
    EXPECT_EQ(r.err.find("libcollsim-pmpi: error:", first + 1), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace collsim::sim
