// Decision tables (issue 21): the collsim rules file that libcollsim-pmpi.so
// reads (sim/catalog/tuning_rules.hpp): reading, writing, lookup, and the
// rows it refuses because their algorithm cannot take them.
#include <gtest/gtest.h>

#include <sstream>

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

}  // namespace
}  // namespace collsim::sim
