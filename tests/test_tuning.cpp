// Decision tables (issue 21): the collsim rules file that libcollsim-pmpi.so
// reads (sim/catalog/tuning_rules.hpp): reading, writing, lookup, and the
// rows it refuses because their algorithm cannot take them; `collsim tune`
// end to end: each table gives the sweep's fastest candidate at every swept
// point, our PMPI library follows a collsim table, and real Open MPI 4.1.4
// runs the algorithms an ompi table names (tests/under_mpirun/ompi_spy.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "run_cli.hpp"
#include "tuning_rules.hpp"

namespace collsim::sim {
namespace {

std::vector<TuningRule> read(const std::string& text) {
  std::istringstream in(text);
  return read_tuning_rules(in);
}

// The first line's error for a one-row file.
std::string error_of(const std::string& row) {
  try {
    read("collsim-rules 1\n" + row + "\n");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

const std::string kTable =
    "collsim-rules 1\n"
    "# a comment, then rows\n"
    "bcast 2:7 0:1023 any binomial 1\n"
    "bcast 2:7 1024:max any circulant 6\n"
    "\n"
    "allreduce 1:max 0:max commutative circulant 0\n"
    "allreduce 1:max 0:max non-commutative recursive-doubling 1\n";

TEST(TuningRules, FirstMatchingRowByRanksBytesAndOperator) {
  const auto rules = read(kTable);
  ASSERT_EQ(rules.size(), 4u);
  const TuningRule* small = find_rule(rules, Collective::bcast, 7, 1023, true);
  ASSERT_NE(small, nullptr);
  EXPECT_STREQ(small->algorithm->name, "binomial");
  EXPECT_EQ(small->line, 3);
  const TuningRule* large = find_rule(rules, Collective::bcast, 2, 1024, false);
  ASSERT_NE(large, nullptr);
  EXPECT_STREQ(large->algorithm->name, "circulant");
  EXPECT_EQ(large->blocks, 6);
  EXPECT_EQ(find_rule(rules, Collective::bcast, 8, 10, true), nullptr);  // no row for 8 ranks
  EXPECT_EQ(find_rule(rules, Collective::bcast, 1, 10, true), nullptr);
  EXPECT_STREQ(find_rule(rules, Collective::allreduce, 5, 8, true)->algorithm->name, "circulant");
  EXPECT_STREQ(find_rule(rules, Collective::allreduce, 5, 8, false)->algorithm->name, "recursive-doubling");
  EXPECT_EQ(find_rule(rules, Collective::reduce, 5, 8, true), nullptr);
}

TEST(TuningRules, WrittenTableReadsBack) {
  const auto rules = read(kTable);
  std::ostringstream out;
  write_tuning_rules(out, rules, "tuned for a test\nsecond line");
  EXPECT_EQ(out.str(),
            "collsim-rules 1\n"
            "# tuned for a test\n"
            "# second line\n"
            "# collective ranks bytes operator algorithm blocks (0: the block policy)\n"
            "bcast 2:7 0:1023 any binomial 1\n"
            "bcast 2:7 1024:max any circulant 6\n"
            "allreduce 1:max 0:max commutative circulant 0\n"
            "allreduce 1:max 0:max non-commutative recursive-doubling 1\n");
  std::istringstream again(out.str());
  EXPECT_EQ(read_tuning_rules(again).size(), 4u);
}

// Restrictions are checked on every row, read or written.
TEST(TuningRules, RowsTheAlgorithmCannotTakeAreRefused) {
  EXPECT_EQ(error_of("allreduce 1:max 0:max any circulant 1"),
            "line 2: circulant needs a commutative operator: write commutative");
  EXPECT_EQ(error_of("allreduce 1:max 0:max non-commutative circulant 1"),
            "line 2: circulant needs a commutative operator: write commutative");
  EXPECT_EQ(error_of("bcast 1:max 0:max any binomial 4"), "line 2: binomial takes no blocks: write 1");
  EXPECT_EQ(error_of("bcast 1:max 0:max commutative binomial 1"), "line 2: bcast has no operator: write any");
  EXPECT_EQ(error_of("bcast 1:max 0:max any smpi:ompi 1"), "line 2: smpi:ompi is SimGrid's, not ours");
  std::vector<TuningRule> rules = read(kTable);
  rules[2].op = OperatorClass::any;
  std::ostringstream out;
  EXPECT_THROW(write_tuning_rules(out, rules, ""), std::invalid_argument);
}

TEST(TuningRules, MalformedInputNamesTheLine) {
  EXPECT_EQ(error_of("bcast 1:max 0:max any binomial"),
            "line 2: expected 6 fields: collective ranks bytes operator algorithm blocks");
  EXPECT_EQ(error_of("bcast 0:4 0:max any binomial 1"), "line 2: ranks: '0:4' needs 1 <= A <= B");
  EXPECT_EQ(error_of("bcast 5:4 0:max any binomial 1"), "line 2: ranks: '5:4' needs 1 <= A <= B");
  EXPECT_EQ(error_of("bcast 1:2147483648 0:max any binomial 1"),
            "line 2: ranks: '2147483648' is not a number in [0, 2147483647] or max");
  EXPECT_EQ(error_of("bcast 1:max 0:-1 any binomial 1"),
            "line 2: bytes: '-1' is not a number in [0, 9223372036854775807] or max");
  EXPECT_EQ(error_of("bcast 1:max 7 any binomial 1"), "line 2: bytes: '7' is not A:B");
  EXPECT_EQ(error_of("bcast 1:max 0:max some binomial 1"),
            "line 2: operator: 'some' is not any, commutative or non-commutative");
  EXPECT_NE(error_of("bcast 1:max 0:max any nosuch 1").find("line 2: unknown bcast algorithm 'nosuch'"),
            std::string::npos);
  EXPECT_NE(error_of("gather 1:max 0:max any binomial 1").find("line 2: "), std::string::npos);
  EXPECT_THROW(read("bcast 1:max 0:max any binomial 1\n"), std::invalid_argument);  // no header
  EXPECT_THROW(read(""), std::invalid_argument);
  EXPECT_THROW(read("collsim-rules 2\n"), std::invalid_argument);
}

// The sweep CSV: rows by (collective, operator, p, bytes).
struct SweepRow {
  std::string algorithm, ompi_algorithm;
  int64_t segsize = 0, blocks = 0;
  double time_us = 0;
};
using Point = std::tuple<std::string, std::string, int64_t, int64_t>;
std::map<Point, std::vector<SweepRow>> read_sweep(const std::string& path) {
  std::istringstream in(test::read_file(path));
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line,
            "collective,operator,p,bytes,algorithm,ompi_algorithm,segsize_bytes,fanout,blocks,time_us,chosen,"
            "time_over_chosen");
  std::map<Point, std::vector<SweepRow>> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::istringstream fields(line);
    for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
    if (f.size() < 12) {
      ADD_FAILURE() << line;
      continue;
    }
    rows[{f[0], f[1], std::stoll(f[2]), std::stoll(f[3])}].push_back(
        {f[4], f[5], std::stoll(f[6]), std::stoll(f[8]), std::stod(f[9])});
  }
  return rows;
}

double fastest(const std::vector<SweepRow>& rows) {
  double best = INFINITY;
  for (const SweepRow& r : rows) best = std::min(best, r.time_us);
  return best;
}

const char* const kSizes = "32,1024,65536,1048576";

// The collsim table gives, at every swept point, an algorithm whose
// simulated time there is the fastest of all candidates (so no single
// algorithm is faster anywhere), with the block count it ran with; the
// pictures are drawn.
TEST(Tune, CollsimTableGivesTheFastestAtEverySweptPoint) {
  const std::string dir = test::fresh_path("tune_collsim");
  const auto r = test::run_collsim_argv({"tune", "--collective", "bcast,allreduce", "--p", "3,8", "--sizes", kSizes,
                                         "--target", "collsim", "--out", dir + "/t.rules"});
  ASSERT_EQ(r.status, 0) << r.out;
  std::ifstream in(dir + "/t.rules");
  const auto rules = read_tuning_rules(in);
  const auto sweep = read_sweep(dir + "/t.csv");
  EXPECT_EQ(sweep.size(), 3u * 2 * 4);  // bcast, allreduce twice; 2 p; 4 sizes
  for (const auto& [point, rows] : sweep) {
    const auto& [collective, op, p, bytes] = point;
    const TuningRule* rule = find_rule(rules, parse_collective(collective), p, bytes, op != "non-commutative");
    ASSERT_NE(rule, nullptr) << collective << " " << op << " " << p << " " << bytes;
    EXPECT_EQ(rule->op == OperatorClass::any ? "any" : operator_class_name(rule->op), op);
    bool found = false;
    for (const SweepRow& row : rows)
      if (row.algorithm == rule->algorithm->name && (!rule->algorithm->has(kBlocks) || row.blocks == rule->blocks)) {
        EXPECT_EQ(row.time_us, fastest(rows)) << collective << " " << p << " " << bytes;
        found = true;
      }
    EXPECT_TRUE(found) << rule->algorithm->name << " at " << collective << " " << p << " " << bytes;
  }
  for (const char* png : {"t-bcast-any.png", "t-allreduce-commutative.png", "t-allreduce-non-commutative.png"})
    EXPECT_GT(std::filesystem::file_size(dir + "/" + png), 1000u) << png;

  // Our PMPI library under that table: Open MPI's results (the program
  // checks a non-commutative operator), each call run by the rule that
  // covers it.
  for (int p : {3, 8}) {
    const std::string mpirun = std::string(MPIRUN_SH) + " " + std::to_string(p);
    const auto plain = test::run_words(mpirun + " " + MPI_PROGRAM);
    const auto tuned = test::run_argv({"env", "COLLSIM_VERBOSE=1", "COLLSIM_RULES=" + dir + "/t.rules", MPIRUN_SH,
                                       std::to_string(p), "-x", std::string("LD_PRELOAD=") + PMPI_LIB, MPI_PROGRAM},
                                      true);
    ASSERT_EQ(tuned.status, 0) << tuned.out;
    std::string digests;  // the program's lines, without the library's
    std::istringstream lines(tuned.out);
    size_t followed = 0;
    static const std::regex said(
        "libcollsim-pmpi: MPI_(Bcast|Allreduce): ([a-z-]+), n=([0-9]+), ([0-9]+) bytes "
        "\\(COLLSIM_RULES line ([0-9]+)\\)");
    for (std::string line; std::getline(lines, line);) {
      std::smatch m;
      if (line.rfind("libcollsim-pmpi: ", 0) != 0) {
        digests += line + "\n";
      } else if (std::regex_match(line, m, said)) {
        const TuningRule* rule = nullptr;
        for (const TuningRule& x : rules)
          if (x.line == std::stoi(m[5])) rule = &x;
        ASSERT_NE(rule, nullptr) << line;
        const int64_t bytes = std::stoll(m[4]);
        EXPECT_STREQ(rule->algorithm->name, m[2].str().c_str()) << line;
        EXPECT_TRUE(p >= rule->ranks_min && p <= rule->ranks_max && bytes >= rule->bytes_min &&
                    bytes <= rule->bytes_max)
            << line;
        if (rule->blocks > 0 && rule->algorithm->has(kBlocks)) {
          EXPECT_EQ(std::stoll(m[3]), rule->blocks) << line;
        }
        ++followed;
      }
    }
    EXPECT_EQ(digests, plain.out);
    EXPECT_GE(followed, 10u) << tuned.out;  // 9 bcasts and 3 allreduces
  }
}

// An Open MPI 4.1 classic rules file, read independently of the writer:
// integers, '#' to the end of a line.
struct OmpiRule {
  int64_t bytes, algorithm, fanout, segsize;
};
std::map<int64_t, std::map<int64_t, std::vector<OmpiRule>>> read_ompi(const std::string& path) {
  std::istringstream in(test::read_file(path));
  std::vector<int64_t> numbers;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line.substr(0, line.find('#')));
    for (int64_t v; words >> v;) numbers.push_back(v);
  }
  size_t at = 0;
  auto next = [&] { return at < numbers.size() ? numbers[at++] : -1; };
  std::map<int64_t, std::map<int64_t, std::vector<OmpiRule>>> rules;  // collective id -> comm size -> rules
  for (int64_t n = next(); n > 0; --n) {
    const int64_t id = next();
    for (int64_t comms = next(); comms > 0; --comms) {
      const int64_t ranks = next();
      auto& list = rules[id][ranks];
      for (int64_t msgs = next(); msgs > 0; --msgs) {
        const int64_t bytes = next(), alg = next(), fan = next(), seg = next();
        list.push_back({bytes, alg, fan, seg});
      }
    }
  }
  EXPECT_EQ(at, numbers.size()) << "trailing numbers in " << path;
  return rules;
}
// Open MPI's lookup: the last communicator size <= p (else the first), the
// last message size <= bytes.
OmpiRule lookup(const std::map<int64_t, std::vector<OmpiRule>>& comms, int64_t p, int64_t bytes) {
  auto comm = comms.begin();
  for (auto it = comms.begin(); it != comms.end() && it->first <= p; ++it) comm = it;
  OmpiRule rule = comm->second.front();
  for (const OmpiRule& r : comm->second)
    if (r.bytes <= bytes) rule = r;
  return rule;
}

// coll_tuned's algorithm numbers (ompi_info --param coll tuned --level 9,
// Open MPI 4.1.4) as the coll/base functions the spy names.
std::string base_function(const std::string& collective, int64_t number) {
  static const std::map<std::pair<std::string, int64_t>, std::string> names = {
      {{"bcast", 1}, "bcast_basic_linear"},
      {{"bcast", 3}, "bcast_pipeline"},
      {{"bcast", 4}, "bcast_split_bintree"},
      {{"bcast", 6}, "bcast_binomial"},
      {{"bcast", 8}, "bcast_scatter_allgather"},
      {{"bcast", 9}, "bcast_scatter_allgather_ring"},
      {{"reduce", 1}, "reduce_basic_linear"},
      {{"reduce", 2}, "reduce_chain"},
      {{"reduce", 3}, "reduce_pipeline"},
      {{"reduce", 4}, "reduce_binary"},
      {{"reduce", 5}, "reduce_binomial"},
      {{"reduce", 6}, "reduce_in_order_binary"},
      {{"allreduce", 2}, "allreduce_nonoverlapping"},
      {{"allreduce", 3}, "allreduce_recursivedoubling"},
      {{"allreduce", 4}, "allreduce_ring"},
      {{"allreduce", 5}, "allreduce_ring_segmented"},
      {{"allreduce", 6}, "allreduce_redscat_allgather"}};
  const auto it = names.find({collective, number});
  return it == names.end() ? "unknown " + collective + " " + std::to_string(number) : it->second;
}

// What ompi_spy says for each "call C BYTES" of tuned_program, in order.
std::vector<std::string> spied(const std::string& out) {
  std::vector<std::string> first;
  std::istringstream lines(out);
  bool waiting = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("call ", 0) == 0) {
      if (waiting) first.push_back("(none)");
      waiting = true;
    } else if (waiting && line.rfind("ompi_spy: ", 0) == 0) {
      first.push_back(line.substr(10));
      waiting = false;
    }
  }
  if (waiting) first.push_back("(none)");
  return first;
}

// The ompi table gives the sweep's fastest Open MPI algorithm at every
// swept point (non-commutative sweep: order-keeping reductions only), and
// Open MPI 4.1.4 loaded with it runs, for each call at 4 ranks, the
// algorithm and segment size the file names, and prints nothing else.
TEST(Tune, OpenMpiRunsTheAlgorithmsTheFileNames) {
  const std::string dir = test::fresh_path("tune_ompi");
  const std::string file = dir + "/ompi.rules";
  const auto r = test::run_collsim_argv({"tune", "--collective", "bcast,reduce,allreduce", "--p", "4,8", "--sizes",
                                         kSizes, "--target", "ompi", "--out", file});
  ASSERT_EQ(r.status, 0) << r.out;
  const auto rules = read_ompi(file);
  const std::map<std::string, int64_t> ids = {{"bcast", 7}, {"reduce", 11}, {"allreduce", 2}};
  for (const auto& [point, rows] : read_sweep(dir + "/ompi.csv")) {
    const auto& [collective, op, p, bytes] = point;
    EXPECT_NE(op, "commutative");
    ASSERT_TRUE(rules.count(ids.at(collective))) << collective;
    const OmpiRule rule = lookup(rules.at(ids.at(collective)), p, bytes);
    bool found = false;
    for (const SweepRow& row : rows)
      if (row.ompi_algorithm == std::to_string(rule.algorithm)) {
        EXPECT_EQ(row.time_us, fastest(rows)) << collective << " " << p << " " << bytes;
        EXPECT_EQ(row.segsize, rule.segsize) << collective << " " << p << " " << bytes;
        found = true;
      }
    EXPECT_TRUE(found) << collective << " " << p << " " << bytes;
    // Rank order kept for any operator: reduce linear or in-order binary,
    // allreduce reduce + bcast or recursive doubling.
    if (collective == "reduce") {
      EXPECT_TRUE(rule.algorithm == 1 || rule.algorithm == 6) << rule.algorithm;
    }
    if (collective == "allreduce") {
      EXPECT_TRUE(rule.algorithm == 2 || rule.algorithm == 3) << rule.algorithm;
    }
  }

  std::vector<std::string> calls;
  for (const char* c : {"bcast", "reduce", "allreduce"})
    for (const char* bytes : {"32", "65536", "1048576"}) calls.push_back(std::string(c) + ":" + bytes);
  std::vector<std::string> with_file{MPIRUN_SH,
                                     "4",
                                     "-x",
                                     std::string("LD_PRELOAD=") + OMPI_SPY,
                                     "--mca",
                                     "coll_tuned_use_dynamic_rules",
                                     "1",
                                     "--mca",
                                     "coll_tuned_dynamic_rules_filename",
                                     file,
                                     TUNED_PROGRAM};
  with_file.insert(with_file.end(), calls.begin(), calls.end());
  const auto tuned = test::run_argv(with_file, true);
  ASSERT_EQ(tuned.status, 0) << tuned.out;
  const std::vector<std::string> seen = spied(tuned.out);
  ASSERT_EQ(seen.size(), calls.size()) << tuned.out;
  for (size_t i = 0; i < calls.size(); ++i) {
    const std::string collective = calls[i].substr(0, calls[i].find(':'));
    const int64_t bytes = std::stoll(calls[i].substr(calls[i].find(':') + 1));
    const OmpiRule rule = lookup(rules.at(ids.at(collective)), 4, bytes);
    EXPECT_EQ(seen[i], base_function(collective, rule.algorithm) + " segsize " + std::to_string(rule.segsize) +
                           " fanout " + std::to_string(rule.fanout))
        << calls[i] << "\n"
        << tuned.out;
  }
  std::istringstream lines(tuned.out);
  for (std::string line; std::getline(lines, line);)  // accepted without a word
    EXPECT_TRUE(line.rfind("call ", 0) == 0 || line.rfind("ompi_spy: ", 0) == 0) << line;

  // Without the file Open MPI's fixed rules choose otherwise somewhere: the
  // file, not chance, made the choices above.
  std::vector<std::string> without{MPIRUN_SH, "4", "-x", std::string("LD_PRELOAD=") + OMPI_SPY, TUNED_PROGRAM};
  without.insert(without.end(), calls.begin(), calls.end());
  const auto fixed = test::run_argv(without, true);
  ASSERT_EQ(fixed.status, 0) << fixed.out;
  EXPECT_NE(spied(fixed.out), seen) << fixed.out;
}

// A sweep past a simulation's buffers is refused before it starts: a limit
// (exit 4), one line.
TEST(Tune, BuffersPastTheLimitAreRefusedFirst) {
  const auto r = test::run_collsim_argv({"tune", "--out", test::fresh_path("tune_big") + "/t.rules", "--p", "1152",
                                         "--collective", "bcast", "--target", "collsim", "--sizes", "16MiB"});
  EXPECT_EQ(r.status, 4) << r.out;
  EXPECT_NE(r.out.find("over the 12 GiB of buffers"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

TEST(Tune, BadInputIsOneLine) {
  const std::string out = test::fresh_path("tune_bad") + "/t.rules";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--p", "4", "--collective", "scan", "--target", "ompi"},
       "no Open MPI algorithm that SimGrid ports is mapped for scan"},
      {{"--p", "4", "--collective", "reduce", "--target", "ompi", "--sizes", "8"},
       "8B is no whole number of 32-byte matmul elements (the non-commutative sweep)"},
      {{"--p", "4", "--collective", "bcast", "--target", "ompi2"}, "known: ompi, collsim"},
      {{"--p", "4", "--collective", "bcast", "--target", "collsim", "--commutative"}, "it is for --target ompi"},
      {{"--p", "4", "--collective", "bcast,", "--target", "collsim"}, "--collective: empty name"},
  };
  for (const auto& [args, message] : cases) {
    std::vector<std::string> argv{"tune", "--out", out};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto r = test::run_collsim_argv(argv);
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_NE(r.out.find(message), std::string::npos) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  }
}

}  // namespace
}  // namespace collsim::sim
