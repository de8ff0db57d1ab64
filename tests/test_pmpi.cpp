// libcollsim-pmpi.so end to end: unmodified MPI programs print the same
// digests of their results under Open MPI alone and with the library
// preloaded and our algorithms named for every collective that has one (each
// of ours in turn); COLLSIM_VERBOSE shows that our algorithms ran.
//   mpi_program.cpp    the standard collectives, typical arguments
//   pmpi_layouts.cpp   what a per-rank choice of algorithm would hang on:
//                      different layouts of one signature on different
//                      ranks, allgatherv displacements in any order, in
//                      place, zero counts, split communicators, ... (each
//                      case also checked against a local computation)
// Bad settings stop the program in MPI_Init.
#include <gtest/gtest.h>
#include <unistd.h>


#include <algorithm>
#include <filesystem>
#include <cctype>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>
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
  std::string out;
  std::string err;     // the ranks' stderr, rank after rank
  std::string mpirun;  // mpirun's own stderr (with the ranks' forwarded)
};

std::string contents(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// `command` (a program and its arguments, plain words) on p ranks; `env`
// are VAR=value words, set for mpirun, `preload` adds the library. The
// ranks' stderr is read from the files mpirun's --output-filename keeps per
// rank: mpirun's forwarded copy can cut a line of one rank by another's (the
// rank 0s of split communicators print at once).
ProgramRun program(int p, const std::string& env, bool preload, const std::string& command = MPI_PROGRAM) {
  // ctest runs tests in parallel, each test in a process of its own.
  const std::filesystem::path ranks = std::string(TEST_TMPDIR) + "/pmpi_output_" + std::to_string(getpid());
  std::filesystem::remove_all(ranks);
  test::Child mpirun;
  mpirun.argv = {MPIRUN_SH, std::to_string(p), "--output-filename", ranks.string()};
  if (preload) mpirun.argv.insert(mpirun.argv.end(), {"-x", std::string("LD_PRELOAD=") + PMPI_LIB});
  for (const std::string& word : test::split_words(command)) mpirun.argv.push_back(word);
  for (const std::string& word : test::split_words(env)) {
    const size_t eq = word.find('=');
    EXPECT_NE(eq, std::string::npos) << "not VAR=value: " << word;
    mpirun.env.emplace_back(word.substr(0, eq), word.substr(eq + 1));
  }
  mpirun.stderr_to = test::Stderr::err;
  const auto r = test::run_child(mpirun);
  std::string err;
  for (int rank = 0; rank < p; ++rank) err += contents(ranks / "1" / ("rank." + std::to_string(rank)) / "stderr");
  return {r.status, r.out, err, r.err};
}

// Runs with the library cycle through our algorithms: run i names the i-th
// of each collective's (modulo their number), so every row runs once all
// runs are done.
size_t runs() {
  size_t n = 0;
  for (Collective c : kCollectives) n = std::max(n, our_algorithms(c).size());
  return n;
}
const Algorithm* algorithm(Collective c, size_t run) {
  const auto ours = our_algorithms(c);
  return ours.empty() ? nullptr : ours[run % ours.size()];
}
// COLLSIM_VERBOSE=1 and run i's variables; COLLSIM_BLOCKS=3 on odd runs.
std::string settings(size_t run) {
  // Node sizes 2 and 3: full and short nodes for the node-aware algorithms at p = 3 and 8.
  std::string env = "COLLSIM_VERBOSE=1" + std::string(run % 2 ? " COLLSIM_BLOCKS=3" : "") +
                    " COLLSIM_NODE_SIZE=" + std::to_string(2 + run % 2);
  for (Collective c : kCollectives)
    if (const Algorithm* a = algorithm(c, run)) env += " " + env_name(c) + "=" + a->name;
  return env;
}

// The reasons verbose mode gives for calls left to Open MPI.
std::set<std::string> fallbacks(const std::string& err) {
  static const std::regex reason("libcollsim-pmpi: [A-Za-z_]+: Open MPI's \\(([^)\n]*)\\)");
  std::set<std::string> found;
  for (std::sregex_iterator m(err.begin(), err.end(), reason), end; m != end; ++m) found.insert((*m)[1]);
  return found;
}

class Pmpi : public testing::TestWithParam<int> {};

TEST_P(Pmpi, SameResultsWithOurAlgorithms) {
  const int p = GetParam();
  const ProgramRun plain = program(p, "", false);
  ASSERT_EQ(plain.status, 0) << plain.out << plain.mpirun;
  ASSERT_NE(plain.out.find("MPI_Bcast(bytes) "), std::string::npos) << plain.out;
  for (Collective c : kCollectives)
    if (our_algorithms(c).empty()) std::cout << "no algorithm of ours for " << collective_name(c) << ": its calls stay Open MPI's\n";
  ASSERT_GT(runs(), 0u);
  for (size_t i = 0; i < runs(); ++i) {
    const std::string env = settings(i);
    const ProgramRun lib = program(p, env, true);
    EXPECT_EQ(lib.status, 0) << env << "\n" << lib.mpirun;
    EXPECT_EQ(lib.out, plain.out) << env << "\n" << lib.err;
    for (Collective c : kCollectives) {
      const Algorithm* algo = algorithm(c, i);
      if (!algo) continue;
      for (const std::string& call : calls_of(c)) {
        // Each call either ran the algorithm or says why not (kCommutative with matmul).
        const std::string used = "libcollsim-pmpi: " + call + ": " + algo->name + ", n=";
        EXPECT_NE(lib.err.find(used), std::string::npos) << env << ": no '" << used << "' in\n" << lib.err;
      }
    }
    // The strided vector broadcast is packed, not left to Open MPI.
    for (const std::string& why : fallbacks(lib.err)) EXPECT_EQ(why, "non-commutative operator") << env;
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, Pmpi, testing::Values(3, 8));

// A hang is killed by tests/mpirun.sh after this many seconds and fails.
const std::string kTimeout = "COLLSIM_MPI_TIMEOUT=60";

// pmpi_layouts under Open MPI and with every algorithm of ours: the same
// lines, all checks passed, and only the fallbacks that MPI's agreed facts
// decide (pmpi_layouts has an intercommunicator, non-commutative operators
// and a predefined operator on an int+double struct). With the library the program also runs its cases that Open
// MPI rejects (predefined operators on derived datatypes), checked locally.
class PmpiLayouts : public testing::TestWithParam<int> {};

TEST_P(PmpiLayouts, SameResultsInEveryLayout) {
  const int p = GetParam();
  const ProgramRun plain = program(p, kTimeout, false, PMPI_LAYOUTS);
  ASSERT_EQ(plain.status, 0) << plain.out << plain.mpirun;
  ASSERT_EQ(plain.out.find("FAILED"), std::string::npos) << plain.out;
  ASSERT_NE(plain.out.find("reduce_scatter matmul on split in place "), std::string::npos) << plain.out;
  const std::set<std::string> agreed = {"intercommunicator", "non-commutative operator",
                                        "predefined operator on mixed basic types"};
  for (size_t i = 0; i < runs(); ++i) {
    const std::string env = kTimeout + " " + settings(i);
    const ProgramRun lib = program(p, env, true, std::string(PMPI_LAYOUTS) + " all");
    EXPECT_EQ(lib.status, 0) << env << "\n" << lib.out << lib.mpirun;
    EXPECT_EQ(lib.out.substr(0, plain.out.size()), plain.out) << env << "\n" << lib.err;
    const std::string beyond = lib.out.substr(std::min(plain.out.size(), lib.out.size()));
    EXPECT_NE(beyond.find("allreduce 5 sum on world in place "), std::string::npos) << env << "\n" << lib.out;
    EXPECT_EQ(beyond.find("FAILED"), std::string::npos) << env << "\n" << beyond;
    const std::set<std::string> reasons = fallbacks(lib.err);
    for (const std::string& why : reasons) EXPECT_EQ(agreed.count(why), 1u) << env << ": " << why;
    EXPECT_EQ(reasons.count("intercommunicator"), 1u) << env << "\n" << lib.err;
    EXPECT_EQ(reasons.count("predefined operator on mixed basic types"), 1u) << env << "\n" << lib.err;
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, PmpiLayouts, testing::Values(2, 3, 4, 5, 8));

// Issue 20's reproducers, which hung: the root broadcasts 2 contiguous ints
// while the others receive one strided vector of 2 ints, and an allgatherv
// in which rank 1 receives in reversed displacement order. Every broadcast
// algorithm of ours (and allgatherv's) at p = 2..8.
class PmpiReproducers : public testing::TestWithParam<int> {};

TEST_P(PmpiReproducers, NoHangWithAnyAlgorithm) {
  const int p = GetParam();
  const std::string command = std::string(PMPI_LAYOUTS) + " reproducers";
  const ProgramRun plain = program(p, kTimeout, false, command);
  ASSERT_EQ(plain.status, 0) << plain.out << plain.mpirun;
  ASSERT_EQ(plain.out.find("FAILED"), std::string::npos) << plain.out;
  const auto bcasts = our_algorithms(Collective::bcast);
  ASSERT_FALSE(bcasts.empty());
  for (size_t i = 0; i < bcasts.size(); ++i) {
    const std::string env = kTimeout + " COLLSIM_VERBOSE=1 COLLSIM_BCAST=" + bcasts[i]->name +
                            " COLLSIM_ALLGATHERV=" + algorithm(Collective::allgatherv, i)->name;
    const ProgramRun lib = program(p, env, true, command);
    EXPECT_EQ(lib.status, 0) << env << "\n" << lib.out << lib.mpirun;
    EXPECT_EQ(lib.out, plain.out) << env << "\n" << lib.err;
    EXPECT_NE(lib.err.find(std::string("MPI_Bcast: ") + bcasts[i]->name + ", n="), std::string::npos) << lib.err;
    EXPECT_NE(lib.err.find(std::string("MPI_Allgatherv: ") + algorithm(Collective::allgatherv, i)->name + ", n="),
              std::string::npos)
        << lib.err;
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, PmpiReproducers, testing::Range(2, 9));

// One error line, from one rank, then exit before the program's first output.
TEST(PmpiErrors, BadSettingStopsAtInit) {
  const std::pair<const char*, const char*> cases[] = {
      {"COLLSIM_BCAST=nosuch", "COLLSIM_BCAST: unknown bcast algorithm 'nosuch'; ours: "},
      {"COLLSIM_BCAST=smpi:default", "COLLSIM_BCAST: unknown bcast algorithm 'smpi:default'; ours: "},
      {"COLLSIM_EXSCAN=nosuch", "COLLSIM_EXSCAN: unknown exscan algorithm 'nosuch'; ours: "},
      {"COLLSIM_BLOCKS=0", "COLLSIM_BLOCKS: not a whole number >= 1: '0'"},
      {"COLLSIM_NODE_SIZE=4x", "COLLSIM_NODE_SIZE: not a whole number >= 1: '4x'"},
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

// COLLSIM_RULES: an unmodified program, the algorithm per call from a
// table (written here by hand: by communicator size, message size and the
// operator's commutativity), the same results as Open MPI's, and verbose
// mode names the chosen algorithm and the table's line per call.
TEST(PmpiRules, TheTableChoosesPerCall) {
  const std::string rules = std::string(TEST_TMPDIR) + "/pmpi_rules.txt";
  std::ofstream(rules) << "collsim-rules 1\n"
                          "bcast 1:4 0:999 any binomial 1\n"                              // line 2
                          "bcast 1:max 1000:max any circulant 3\n"                        // line 3
                          "allreduce 1:max 0:max commutative circulant 2\n"               // line 4
                          "allreduce 1:max 0:max non-commutative recursive-doubling 1\n"  // line 5
                          "reduce 5:max 0:max any binary-tree 1\n";                       // line 6
  for (int p : {3, 8}) {
    const ProgramRun plain = program(p, "", false);
    const ProgramRun lib = program(p, "COLLSIM_VERBOSE=1 COLLSIM_RULES=" + rules, true);
    ASSERT_EQ(lib.status, 0) << lib.mpirun;
    EXPECT_EQ(lib.out, plain.out) << lib.err;
    auto has = [&](const std::string& line) { return lib.err.find("libcollsim-pmpi: " + line) != std::string::npos; };
    EXPECT_EQ(has("MPI_Bcast: binomial, n=1, 1 bytes (COLLSIM_RULES line 2)"), p <= 4) << lib.err;
    EXPECT_TRUE(has("MPI_Bcast: circulant, n=3, 100003 bytes (COLLSIM_RULES line 3)")) << lib.err;
    EXPECT_TRUE(has("MPI_Allreduce: circulant, n=2, 8000 bytes (COLLSIM_RULES line 4)")) << lib.err;
    EXPECT_TRUE(has("MPI_Allreduce: recursive-doubling, n=1, 2048 bytes (COLLSIM_RULES line 5)")) << lib.err;
    EXPECT_EQ(has("MPI_Reduce: binary-tree, n=1, 8000 bytes (COLLSIM_RULES line 6)"), p >= 5) << lib.err;
    EXPECT_EQ(lib.err.find("MPI_Scan:"), std::string::npos) << lib.err;  // no rule: Open MPI's, silently
  }
  const std::string bad = std::string(TEST_TMPDIR) + "/pmpi_rules_bad.txt";
  std::ofstream(bad) << "collsim-rules 1\nallreduce 1:max 0:max any circulant 2\n";
  const ProgramRun r = program(3, "COLLSIM_RULES=" + bad, true);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("libcollsim-pmpi: error: COLLSIM_RULES: '" + bad +
                       "', line 2: circulant needs a commutative operator: write commutative"),
            std::string::npos)
      << r.err;
}

// Ranks that named different algorithms would wait for each other forever:
// rank 0 says so and all stop. (Open MPI's MPMD syntax gives rank 0 other
// settings than ranks 1 and 2.)
TEST(PmpiErrors, SettingsThatDifferStopAtInit) {
  const std::string preload = std::string("env LD_PRELOAD=") + PMPI_LIB;
  for (const char* other : {"COLLSIM_BCAST=binomial", "COLLSIM_BCAST=circulant COLLSIM_BLOCKS=2"}) {
    const ProgramRun r = program(1, kTimeout, false,
                                 preload + " COLLSIM_BCAST=circulant " + MPI_PROGRAM + " : -np 2 " + preload + " " +
                                     other + " " + MPI_PROGRAM);
    EXPECT_NE(r.status, 0) << other;
    EXPECT_EQ(r.out, "") << other;
    EXPECT_NE(r.err.find("libcollsim-pmpi: error: COLLSIM_* settings differ between ranks"), std::string::npos)
        << other << "\n" << r.err;
  }
}

}  // namespace
}  // namespace collsim::sim
