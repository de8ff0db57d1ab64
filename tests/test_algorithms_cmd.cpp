// `collsim algorithms` against the catalog API (sim/catalog/catalog.hpp,
// algorithms/plan_builders.hpp), and the --help texts that point to it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "catalog.hpp"
#include "plan_builders.hpp"
#include "run_cli.hpp"

namespace collsim {
namespace {

using Fields = std::vector<std::string>;
using Key = std::pair<std::string, std::string>;  // collective, name

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// One CSV line (RFC 4180 quoting, no newlines inside fields).
Fields csv_fields(const std::string& line) {
  Fields fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted && ch == '"' && i + 1 < line.size() && line[i + 1] == '"')
      fields.back() += '"', ++i;
    else if (ch == '"')
      quoted = !quoted;
    else if (ch == ',' && !quoted)
      fields.emplace_back();
    else
      fields.back() += ch;
  }
  return fields;
}

// What the listing must hold, from the catalog: per collective in
// kCollectives order, ours in catalog order, then SimGrid's.
std::vector<const sim::Algorithm*> expected_order() {
  std::vector<const sim::Algorithm*> order;
  for (sim::Collective c : sim::kCollectives)
    for (bool builtin : {false, true})
      for (const sim::Algorithm* a : sim::algorithms_of(c))
        if (a->has(sim::kSmpiBuiltin) == builtin) order.push_back(a);
  return order;
}

std::vector<Key> expected_keys() {
  std::vector<Key> keys;
  for (const sim::Algorithm* a : expected_order()) keys.emplace_back(collective_name(a->collective), a->name);
  return keys;
}

struct Csv {
  Fields header;
  std::vector<Fields> rows;
};

Csv algorithms_csv(const std::vector<std::string>& extra = {}) {
  std::vector<std::string> words{COLLSIM_BIN, "algorithms", "--format", "csv"};
  words.insert(words.end(), extra.begin(), extra.end());
  const test::CliResult r = test::run_argv(words, false);
  EXPECT_EQ(r.status, 0);
  Csv csv;
  for (const std::string& line : lines_of(r.out)) {
    if (csv.header.empty())
      csv.header = csv_fields(line);
    else
      csv.rows.push_back(csv_fields(line));
  }
  return csv;
}

bool has_word(const std::string& list, const std::string& word) {
  std::istringstream in(list);
  for (std::string w; std::getline(in, w, ';');) {
    w.erase(0, w.find_first_not_of(' '));
    if (w == word) return true;
  }
  return false;
}

TEST(AlgorithmsCommand, CsvHeader) {
  const Csv csv = algorithms_csv();
  EXPECT_EQ(csv.header, (Fields{"collective", "name", "kind", "restrictions", "source", "description"}));
}

TEST(AlgorithmsCommand, EveryCatalogRowOnceOursFirst) {
  const Csv csv = algorithms_csv();
  std::vector<Key> listed;
  for (const Fields& row : csv.rows) {
    ASSERT_EQ(row.size(), 6u) << row[0];
    listed.emplace_back(row[0], row[1]);
  }
  EXPECT_EQ(listed, expected_keys());
  EXPECT_EQ(listed.size(), sim::algorithms().size());
}

TEST(AlgorithmsCommand, OneCollective) {
  for (sim::Collective c : sim::kCollectives) {
    const Csv csv = algorithms_csv({"--collective", collective_name(c)});
    std::vector<Key> listed, want;
    for (const Fields& row : csv.rows) listed.emplace_back(row[0], row[1]);
    for (const Key& k : expected_keys())
      if (k.first == collective_name(c)) want.push_back(k);
    EXPECT_EQ(listed, want) << collective_name(c);
  }
}

// Kind and restrictions from the row's limits; ours name files that exist,
// one file each, in its collective's folder, and every one of ours a plan.
TEST(AlgorithmsCommand, ColumnsFollowTheCatalog) {
  const Csv csv = algorithms_csv();
  const std::vector<const sim::Algorithm*> order = expected_order();
  ASSERT_EQ(csv.rows.size(), order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const sim::Algorithm& a = *order[i];
    const Fields& row = csv.rows[i];
    const std::string& kind = row[2], &restrictions = row[3], &source = row[4];
    SCOPED_TRACE(row[0] + " " + row[1]);
    EXPECT_EQ(kind, a.has(sim::kSmpiBuiltin) ? "smpi" : a.has(sim::kPlan) ? "plan" : "mpi-code");
    EXPECT_EQ(has_word(restrictions, "blocks"), a.has(sim::kBlocks));
    EXPECT_EQ(has_word(restrictions, "commutative-only"), a.has(sim::kCommutative));
    EXPECT_EQ(has_word(restrictions, "exact-model"), a.has(sim::kExactModel));
    EXPECT_FALSE(row[5].empty());
    if (a.has(sim::kSmpiBuiltin)) {
      EXPECT_EQ(source, "");
      continue;
    }
    std::istringstream files(source);
    std::string file, more;
    files >> file >> more;
    const std::string folder = "algorithms/" + std::string(collective_name(a.collective)) + "/";
    EXPECT_EQ(file.rfind(folder, 0), 0u) << file;
    EXPECT_TRUE(std::filesystem::is_regular_file(std::string(COLLSIM_SOURCE_DIR) + "/" + file)) << file;
    const std::vector<std::string> plans = plan::plan_algorithms(a.collective);
    EXPECT_NE(std::find(plans.begin(), plans.end(), a.name), plans.end());  // every one of ours has a plan
    EXPECT_EQ(more, "");
  }
}

// Aligned: every row's name starts in the header's name column, after a
// blank, in the catalog's order.
TEST(AlgorithmsCommand, TableColumnsAlign) {
  const test::CliResult r = test::run_argv({COLLSIM_BIN, "algorithms"}, false);
  ASSERT_EQ(r.status, 0);
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_FALSE(lines.empty());
  const size_t name_at = lines[0].find("name"), kind_at = lines[0].find("kind");
  ASSERT_NE(name_at, std::string::npos);
  std::vector<Key> listed;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.empty() || line[0] == ' ') continue;  // between collectives; a wrapped cell
    ASSERT_GT(line.size(), kind_at) << line;
    EXPECT_EQ(line[name_at - 1], ' ') << line;
    EXPECT_EQ(line[kind_at - 1], ' ') << line;  // a long name does not run into the next column
    std::istringstream first(line.substr(0, name_at)), second(line.substr(name_at, kind_at - name_at));
    Key k;
    first >> k.first;
    second >> k.second;
    listed.push_back(k);
  }
  EXPECT_EQ(listed, expected_keys());
}

TEST(AlgorithmsCommand, MarkdownOneTablePerCollective) {
  const test::CliResult r = test::run_argv({COLLSIM_BIN, "algorithms", "--format", "markdown"}, false);
  ASSERT_EQ(r.status, 0);
  const std::vector<std::string> lines = lines_of(r.out);
  std::vector<std::string> headings;
  size_t rows = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.rfind("## ", 0) == 0) {
      headings.push_back(line.substr(3));
      ASSERT_LT(i + 3, lines.size());
      EXPECT_EQ(lines[i + 1], "");
      EXPECT_EQ(lines[i + 2], "| name | kind | restrictions | source | description |");
      EXPECT_EQ(lines[i + 3], "|---|---|---|---|---|");
      i += 3;
    } else if (!line.empty()) {
      EXPECT_EQ(line.rfind("| ", 0), 0u) << line;
      EXPECT_EQ(line.substr(line.size() - 2), " |") << line;
      // Five cells: six unescaped bars.
      size_t bars = 0;
      for (size_t j = 0; j < line.size(); ++j) bars += line[j] == '|' && (j == 0 || line[j - 1] != '\\');
      EXPECT_EQ(bars, 6u) << line;
      ++rows;
    }
  }
  std::vector<std::string> want;
  for (sim::Collective c : sim::kCollectives) want.emplace_back(collective_name(c));
  EXPECT_EQ(headings, want);
  EXPECT_EQ(rows, sim::algorithms().size());
}

// Bad input: one line on stderr, nothing on stdout, exit 2.
TEST(AlgorithmsCommand, UnknownCollectiveOrFormatIsOneLine) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--collective", "bcats"},
                                               std::vector<std::string>{"--format", "xml"}}) {
    std::vector<std::string> words{COLLSIM_BIN, "algorithms"};
    words.insert(words.end(), args.begin(), args.end());
    const test::CliResult both = test::run_argv(words, true), out = test::run_argv(words, false);
    EXPECT_EQ(both.status, 2);
    EXPECT_EQ(out.out, "");
    EXPECT_EQ(std::count(both.out.begin(), both.out.end(), '\n'), 1) << both.out;
    EXPECT_NE(both.out.find(args[1]), std::string::npos) << both.out;
  }
}

// run/compare --help point to `collsim algorithms` instead of listing every
// row; compare names its option --algos.
TEST(AlgorithmsCommand, HelpPointsToTheList) {
  for (const char* command : {"run", "compare"}) {
    const test::CliResult r = test::run_argv({COLLSIM_BIN, command, "--help"}, false);
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("collsim algorithms [--collective C]"), std::string::npos) << command;
    // The old list's rows: "  COLLECTIVE  NAME  description".
    size_t rows = 0;
    for (const std::string& line : lines_of(r.out))
      for (sim::Collective c : sim::kCollectives)
        rows += line.rfind("  " + std::string(collective_name(c)) + "  ", 0) == 0;
    EXPECT_EQ(rows, 0u) << command;
    size_t named = 0;
    for (const sim::Algorithm& a : sim::algorithms())
      named += a.has(sim::kSmpiBuiltin) && r.out.find(a.name) != std::string::npos;
    EXPECT_EQ(named, 0u) << command << " --help still lists SimGrid's algorithms";
  }
  const std::string compare = test::run_argv({COLLSIM_BIN, "compare", "--help"}, false).out;
  EXPECT_NE(compare.find("--algos"), std::string::npos);
  EXPECT_FALSE(std::regex_search(compare, std::regex("--algo([^s]|$)"))) << compare;
}

TEST(AlgorithmsCommand, VerifyHelpListsEveryKind) {
  const test::CliResult r = test::run_argv({COLLSIM_BIN, "verify", "--help"}, false);
  EXPECT_EQ(r.status, 0);
  for (const char* kind : {"circulant", "exscan", "plan", "scan", "two-tree"})
    EXPECT_TRUE(std::regex_search(r.out, std::regex(std::string("\n  ") + kind + " "))) << kind;
}

TEST(AlgorithmsCommand, ListedInCollsimHelp) {
  const test::CliResult r = test::run_argv({COLLSIM_BIN, "--help"}, false);
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\n  algorithms +")));
  EXPECT_EQ(test::run_argv({COLLSIM_BIN, "algorithms", "--help"}, false).status, 0);
}

}  // namespace
}  // namespace collsim
