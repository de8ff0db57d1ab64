// Pictures and messages that say what the table says (issue 35): wrong
// results grey and titled so, never in a correct series' colour; each
// series its own look; one warning per algorithm; the engine's compare
// prints the SMPI table per p; titles and the platform line name what
// differs from the preset, and only that.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "compare_report.hpp"
#include "platform.hpp"
#include "run_cli.hpp"

namespace collsim {
namespace {

constexpr const char* kGrey = "#8c8c8c";

sim::Row row(const std::string& name, int64_t p, int64_t bytes, double us, bool correct) {
  sim::Row r;
  r.collective = "bcast";
  r.algorithm = name;
  r.p = p;
  r.bytes = bytes;
  r.time_us = us;
  r.correct = correct;
  if (name.compare(0, 5, "smpi:") != 0) r.model_us = us;
  return r;
}

// A plot clause of the script: which names[] entry it draws, whether it
// selects correct = 1 or 0 rows, its colour, point type and title.
struct Clause {
  int name = 0;
  bool correct = false, titled = false, line = false;
  std::string colour;
  int point = -1;
};

std::vector<Clause> clauses_of(const std::string& script) {
  // "... names[3] && $12 == 1) ? ...  with linespoints lc rgb '#e6194b' pt 7 ..."
  static const std::regex clause(
      R"(names\[(\d+)\] && \$(\d+) == ([01])\)[^,]*? with (linespoints|lines|points) lc rgb '(#[0-9a-f]{6})'( pt (\d+))?[^,\n]*?(notitle|title))");
  std::vector<Clause> out;
  for (std::sregex_iterator it(script.begin(), script.end(), clause), end; it != end; ++it) {
    const std::smatch& m = *it;
    EXPECT_EQ(m[2].str(), "12") << "the correct column of kCsvHeader";
    out.push_back({std::stoi(m[1]), m[3] == "1", m[8] == "title", m[4] != "points", m[5],
                   m[7].matched ? std::stoi(m[7]) : -1});
  }
  return out;
}

// The names array of a script, in order.
std::vector<std::string> names_of(const std::string& script) {
  std::smatch m;
  if (!std::regex_search(script, m, std::regex(R"(array names\[\d+\] = \[([^\]]*)\])"))) return {};
  const std::string list = m[1];
  static const std::regex quoted("'([^']*)'");
  std::vector<std::string> names;
  for (std::sregex_iterator it(list.begin(), list.end(), quoted), end; it != end; ++it) names.push_back((*it)[1]);
  return names;
}

// A compare with a correct series, one wrong at some sizes and one wrong
// at all: the wrong rows only grey, titled "(wrong result)"; the correct
// series each in their own colour, none grey; the all-wrong one in no colour.
TEST(Pictures, WrongRowsAreGreyAndCorrectSeriesDistinct) {
  std::vector<sim::Row> rows;
  for (int64_t bytes : {1024, 2048, 4096}) {
    rows.push_back(row("circulant", 64, bytes, 30, true));
    rows.push_back(row("binomial", 64, bytes, 40, true));
    rows.push_back(row("smpi:ompi", 64, bytes, 35, true));
    rows.push_back(row("smpi:ompi_split_bintree", 64, bytes, 5, bytes == 1024));
    rows.push_back(row("smpi:SMP_linear", 64, bytes, 4, false));
  }
  sim::PlotSpec spec;
  spec.heading = "bcast, p = 64";
  spec.platform = "loggp";
  spec.ours = {"circulant", "binomial"};
  spec.theirs = {"smpi:ompi", "smpi:ompi_split_bintree", "smpi:SMP_linear"};
  spec.xs = {1024, 2048, 4096};
  spec.csv = "results.csv";
  spec.png = "bcast.png";
  const std::string script = sim::size_plot_script(spec, rows);
  const std::vector<std::string> names = names_of(script);
  ASSERT_EQ(names.size(), 5u);
  auto named = [&](const Clause& c) { return names.at(size_t(c.name - 1)); };

  std::map<std::string, std::string> colour_of;  // correct series, measured line
  std::set<std::string> wrong_titled;
  int wrong_clauses = 0;
  for (const Clause& c : clauses_of(script)) {
    if (!c.correct) {
      ++wrong_clauses;
      EXPECT_EQ(c.colour, kGrey) << named(c);
      EXPECT_FALSE(c.line) << named(c) << ": wrong results are points, not joined";
      if (c.titled) wrong_titled.insert(named(c));
      continue;
    }
    EXPECT_NE(c.colour, kGrey) << named(c);
    if (c.line && c.point >= 0) {
      auto [it, fresh] = colour_of.insert({named(c), c.colour});
      EXPECT_EQ(it->second, c.colour) << named(c) << " drawn in two colours";
    }
  }
  EXPECT_EQ(wrong_clauses, 4);  // two wrong series, two panels
  EXPECT_EQ(wrong_titled, (std::set<std::string>{"smpi:ompi_split_bintree", "smpi:SMP_linear"}));
  EXPECT_NE(script.find("title names[5] . ' (wrong result)'"), std::string::npos);
  // Four series with a correct row, four colours; SMP_linear has none.
  EXPECT_EQ(colour_of.size(), 4u);
  EXPECT_EQ(colour_of.count("smpi:SMP_linear"), 0u);
  std::set<std::string> colours;
  for (const auto& [name, colour] : colour_of) colours.insert(colour);
  EXPECT_EQ(colours.size(), colour_of.size());
  // Ours solid, SimGrid's dashed.
  EXPECT_NE(script.find("lc rgb '" + colour_of["circulant"] + "' pt 7 ps 1.1 lw 2.5 dt 1"), std::string::npos);
  EXPECT_NE(script.find("lc rgb '" + colour_of["smpi:ompi"] + "' pt"), std::string::npos);
  // The x axis spans the sizes run, no more (gnuplot's own rounding went
  // to the next power of ten).
  std::smatch range;
  ASSERT_TRUE(std::regex_search(script, range, std::regex(R"(set xrange \[([0-9.e+-]+):([0-9.e+-]+)\])")));
  EXPECT_NEAR(std::stod(range[1]), 1024, 1e-3);
  EXPECT_NEAR(std::stod(range[2]), 4096, 1e-3);
}

// Up to 40 series (and further): no two share colour and point type, none
// is grey, and neighbours differ in colour.
TEST(Pictures, FortySeriesLookDistinct) {
  std::set<std::pair<std::string, int>> looks;
  for (size_t k = 0; k < 40; ++k) {
    const sim::SeriesStyle s = sim::series_style(k);
    EXPECT_TRUE(looks.insert({s.colour, s.point_type}).second) << "series " << k;
    EXPECT_NE(s.colour, kGrey);
    EXPECT_NE(s.colour, sim::series_style(k + 1).colour);
    if (k >= 19) {
      EXPECT_NE(s.point_type, sim::series_style(k - 19).point_type) << "series " << k;
    }
  }
}

// One line per algorithm, its sizes as a doubling range, per p where
// there are several (p with the same sizes together).
TEST(Pictures, OneWarningPerAlgorithm) {
  std::vector<sim::Row> rows;
  for (int64_t bytes = 1024; bytes <= 2 << 20; bytes *= 2) {
    rows.push_back(row("smpi:SMP_linear", 64, bytes, 4, false));
    rows.push_back(row("smpi:ompi_split_bintree", 64, bytes, 5, bytes == 2048));
    rows.push_back(row("circulant", 64, bytes, 30, true));
  }
  const auto lines = sim::wrong_result_warnings(rows, "left out of the table");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "collsim: warning: smpi:SMP_linear gave wrong results at 1KiB:2MiB (12 cases); left out of the table");
  EXPECT_EQ(lines[1],
            "collsim: warning: smpi:ompi_split_bintree gave wrong results at 1KiB, 4KiB:2MiB (11 cases); left out of "
            "the table");

  std::vector<sim::Row> map_rows;
  for (int64_t p : {4, 8, 16})
    for (int64_t bytes : {1024, 2048, 4096}) map_rows.push_back(row("smpi:x", p, bytes, 1, p == 16 && bytes == 1024));
  const auto by_p = sim::wrong_result_warnings(map_rows, "no contender there");
  ASSERT_EQ(by_p.size(), 1u);
  EXPECT_EQ(by_p[0],
            "collsim: warning: smpi:x gave wrong results at p = 4, 8: 1KiB:4KiB; p = 16: 2KiB, 4KiB (8 cases); no "
            "contender there");
}

// The table of one p: '-' where SimGrid has no row (the engine's case).
TEST(Pictures, TableMarksMissingSide) {
  std::vector<sim::Row> rows = {row("circulant", 8, 1024, 20, true), row("binomial", 8, 1024, 25, true),
                                row("circulant", 16, 1024, 30, true)};
  const std::string table = sim::best_table(rows, 8);
  std::istringstream lines(table);
  std::string heading, header, first, extra;
  std::getline(lines, heading);
  std::getline(lines, header);
  std::getline(lines, first);
  EXPECT_EQ(heading, "p = 8");
  EXPECT_EQ(test::split_words(header),
            (std::vector<std::string>{"size", "ours_best", "time_us", "simgrid_best", "time_us", "speedup"}));
  EXPECT_EQ(test::split_words(first), (std::vector<std::string>{"1KiB", "circulant", "20.00", "-", "-", "-"}));
  EXPECT_FALSE(std::getline(lines, extra)) << "only p = 8's rows";
}

// The platform line: what differs from the preset at this p, nothing else.
TEST(Pictures, PlatformLineNamesChangesOnly) {
  platforms::Platform pf = *platforms::find_preset("loggp");
  pf.nodes = 16;  // what compare makes of loggp at p = 16
  EXPECT_EQ(platforms::describe(pf, 16), platforms::summary(pf));
  pf.nodes = 4;
  pf.cores_per_node = 4;
  pf.intra_beta = 1e-10;
  const std::string line = platforms::describe(pf, 16);
  EXPECT_NE(line.find("changed: 4 cores per node, intra-node beta = 0.1 ns/B"), std::string::npos) << line;
  EXPECT_EQ(line.find("intra-node alpha"), std::string::npos) << line;
  EXPECT_EQ(line.find("4 nodes"), std::string::npos) << line;  // 16 ranks at 4 a node: as the preset makes it
  pf.intra_alpha = 5e-7;
  pf.o = 2e-6;
  EXPECT_EQ(platforms::changes(pf, 16), (std::vector<std::string>{"o = 2 us", "4 cores per node",
                                                                  "intra-node alpha = 0.5 us",
                                                                  "intra-node beta = 0.1 ns/B"}));

  platforms::Platform cluster = *platforms::find_preset("omnipath36x32");
  EXPECT_EQ(platforms::changes(cluster, 64), std::vector<std::string>{});
  cluster.nodes = 2;
  cluster.topology = platforms::parse_topology("fat-tree:2");
  EXPECT_EQ(platforms::changes(cluster, 64), (std::vector<std::string>{"2 nodes", "topology fat-tree:2"}));
}

// The whole path: collsim compare with two SimGrid built-ins that give
// wrong results at p = 4 (SMP_linear from 2 KiB on, ompi_split_bintree
// from 4 KiB on) and one changed parameter (--nodes 8).
TEST(PicturesCli, CompareWithWrongResults) {
  const std::string dir = test::fresh_path("pictures_wrong");
  test::Child run;
  run.argv = {COLLSIM_BIN, "compare", "--collective", "bcast", "--p", "4", "--sizes", "2KiB:16KiB", "--algos",
              "binomial,circulant,smpi:binomial_tree,smpi:ompi_split_bintree,smpi:SMP_linear", "--nodes", "8", "--out",
              dir};
  run.stderr_to = test::Stderr::err;
  const test::CliResult r = test::run_child(run);
  ASSERT_EQ(r.status, 0) << r.out << r.err;

  // Which rows were wrong, from the harness's CSV.
  std::map<std::string, int> wrong;
  std::istringstream csv(test::read_file(dir + "/results.csv"));
  std::string line;
  std::getline(csv, line);
  while (std::getline(csv, line)) {
    std::vector<std::string> f;
    std::stringstream fields(line);
    for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
    ASSERT_GE(f.size(), 12u);
    if (f[11] == "0") ++wrong[f[1]];
  }
  ASSERT_FALSE(wrong.empty()) << "no wrong result to draw: pick another built-in";

  // One warning per wrong algorithm, naming it.
  std::vector<std::string> warnings;
  std::istringstream err(r.err);
  while (std::getline(err, line))
    if (line.find("gave wrong results") != std::string::npos) warnings.push_back(line);
  EXPECT_EQ(warnings.size(), wrong.size()) << r.err;
  for (const auto& [name, count] : wrong)
    EXPECT_EQ(std::count_if(warnings.begin(), warnings.end(),
                            [&](const std::string& w) { return w.find(" " + name + " gave") != std::string::npos; }),
              1)
        << name;

  // stdout: the platform line with the change, then the table.
  const size_t platform = r.out.find("platform: loggp ("), table = r.out.find("p = 4\nsize");
  ASSERT_NE(platform, std::string::npos) << r.out;
  EXPECT_LT(platform, table);
  const std::string platform_line = r.out.substr(platform, r.out.find('\n', platform) - platform);
  EXPECT_NE(platform_line.find("changed: 8 nodes"), std::string::npos) << platform_line;
  EXPECT_EQ(platform_line.find("intra-node"), std::string::npos) << platform_line;

  // The script: grey for every wrong algorithm, never for a correct row.
  const std::string script = test::read_file(dir + "/plot.gp");
  const std::vector<std::string> names = names_of(script);
  std::set<std::string> grey;
  for (const Clause& c : clauses_of(script)) {
    const std::string name = names.at(size_t(c.name - 1));
    if (c.correct) {
      EXPECT_NE(c.colour, kGrey) << name;
    } else {
      EXPECT_EQ(c.colour, kGrey) << name;
      grey.insert(name);
    }
  }
  std::set<std::string> expected;
  for (const auto& [name, count] : wrong) expected.insert(name);
  EXPECT_EQ(grey, expected);
  EXPECT_NE(script.find("changed: 8 nodes"), std::string::npos);
  EXPECT_FALSE(test::read_file(dir + "/bcast.png").empty());
}

// The engine's compare over a list of p: the SMPI table per p, with p in
// its heading and '-' for SimGrid.
TEST(PicturesCli, EngineCompareTablePerP) {
  const std::string dir = test::fresh_path("pictures_engine");
  const auto r = test::run_collsim_argv({"compare", "--engine", "loggp", "--collective", "bcast", "--p", "8,16",
                                          "--sizes", "1KiB", "--algos", "binomial,circulant", "--out", dir});
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* p : {"8", "16"}) {
    const size_t at = r.out.find(std::string("p = ") + p + "\nsize");
    ASSERT_NE(at, std::string::npos) << r.out;
    std::istringstream block(r.out.substr(at));
    std::string heading, header, first;
    std::getline(block, heading);
    std::getline(block, header);
    std::getline(block, first);
    const std::vector<std::string> cells = test::split_words(first);
    ASSERT_EQ(cells.size(), 6u) << first;
    EXPECT_EQ(cells[0], "1KiB");
    EXPECT_TRUE(cells[1] == "binomial" || cells[1] == "circulant") << first;
    EXPECT_EQ((std::vector<std::string>{cells[3], cells[4], cells[5]}), (std::vector<std::string>{"-", "-", "-"}));
  }
  EXPECT_LT(r.out.find("platform: loggp"), r.out.find("p = 8\n"));
}

}  // namespace
}  // namespace collsim
