// Hostile names (issue 31): a name the user gives (plan file, platform file,
// output path, host) is data, never code or an option of another program.
// Every attack here once ran a command through gnuplot's backquotes or gave
// neato, mpirun or gnuplot an option; each test runs collsim in a scratch
// folder of its own and checks the exit status, that the marker file the
// attack would create exists nowhere, and where the name is legal that the
// picture was drawn.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "output.hpp"
#include "run_cli.hpp"

namespace collsim {
namespace {

namespace fs = std::filesystem;

// What the attacks run: `touch${IFS}PWNED` (no blank, so that the name is a
// single word everywhere else) creates PWNED in the shell's folder, which
// for gnuplot is the output folder.
const std::string kMarker = "PWNED";
const std::string kRun = "`touch${IFS}" + kMarker + "`";

// A fresh scratch folder for one test.
fs::path scratch(const std::string& name) {
  const fs::path dir = test::fresh_path("hostile_names/" + name);
  fs::create_directories(dir);
  return dir;
}

// collsim with `args`, run in `dir` (its temporary folder inside too);
// stdout and stderr together.
test::CliResult run_in(const fs::path& dir, const std::vector<std::string>& args) {
  test::Child c;
  c.argv = {COLLSIM_BIN};
  c.argv.insert(c.argv.end(), args.begin(), args.end());
  c.dir = dir.string();
  c.env = {{"TMPDIR", dir.string()}};
  c.stderr_to = test::Stderr::out;
  return test::run_child(c);
}

// No marker anywhere under `dir` (the cwd, the output folders inside it).
void expect_no_marker(const fs::path& dir) {
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    EXPECT_NE(entry.path().filename(), kMarker) << "the attack ran: " << entry.path();
}

void expect_picture(const fs::path& png) {
  EXPECT_TRUE(fs::is_regular_file(png) && fs::file_size(png) > 0) << "no picture " << png;
}

// A refusal is one line on stderr (stdout is empty then).
void expect_one_line(const test::CliResult& r) {
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

std::string loggp_platform_text() {
  return "collsim-platform 1\nalpha 2.5e-6\nbeta 1e-10\ngamma 1e-10\no 1.5e-6\ng 1e-6\n";
}

std::string cluster_xml() {
  return "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
         "<platform version=\"4.1\">\n"
         "  <cluster id=\"c\" prefix=\"node-\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"10GBps\" lat=\"1us\"/>\n"
         "</platform>\n";
}

void write(const fs::path& path, const std::string& text) { sim::write_file(path, text); }

const std::vector<std::string> kTinyCompare = {"compare", "--collective", "bcast", "--p", "4", "--sizes", "1KiB"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// ---- gnuplot_quote ----

TEST(GnuplotQuote, PlainTextInSingleQuotes) {
  EXPECT_EQ(sim::gnuplot_quote("binomial"), "'binomial'");
  EXPECT_EQ(sim::gnuplot_quote(""), "''");
  // Backquotes, macros, dollars, double quotes and backslashes mean nothing
  // in single quotes.
  EXPECT_EQ(sim::gnuplot_quote("`touch X`@m$1\"\\n"), "'`touch X`@m$1\"\\n'");
}

// ' and control characters as octal escapes in double quotes (gnuplot 5.4
// misreads '' at a string's start, and two of them in a row).
TEST(GnuplotQuote, QuotesAndControlCharactersAsOctalEscapes) {
  EXPECT_EQ(sim::gnuplot_quote("g'x''"), "'g' . \"\\047\" . 'x' . \"\\047\\047\"");
  EXPECT_EQ(sim::gnuplot_quote("a\nb"), "'a' . \"\\012\" . 'b'");
  EXPECT_EQ(sim::gnuplot_quote("\n\x01"), "\"\\012\\001\"");
  EXPECT_EQ(sim::gnuplot_quote("x\r"), "'x' . \"\\015\"");
}

TEST(GnuplotQuote, ArrayOfQuotedItems) {
  EXPECT_EQ(sim::gnuplot_array("ours", {"a", "b'c"}), "array ours[2] = ['a', 'b' . \"\\047\" . 'c']\n");
  EXPECT_THROW(sim::gnuplot_array("ours", {}), std::logic_error);
}

// gnuplot itself reads each quoted name back byte for byte and runs nothing.
TEST(GnuplotQuote, GnuplotPrintsTheNameItWasGiven) {
  const fs::path dir = scratch("quote_roundtrip");
  const std::vector<std::string> names = {"g'" + kRun + "'.plan", "c\"" + kRun + "\"d",
                                          "@x $(touch${IFS}" + kMarker + ") {_^}", "two\nlines\ttab",
                                          "'", "''", "'''a'", "\\", ""};
  std::string script = "set print 'printed.txt'\n", expected;
  for (const std::string& n : names) {
    script += "print " + sim::gnuplot_quote(n) + "\n";
    expected += n + "\n";
  }
  write(dir / "quote.gp", script);
  sim::run_gnuplot(dir, "quote.gp");
  EXPECT_EQ(test::read_file((dir / "printed.txt").string()), expected);
  expect_no_marker(dir);
}

// ---- names inside gnuplot scripts ----

TEST(HostileNames, PlanFileNameInCompareIsNotRun) {
  const fs::path dir = scratch("compare_plan");
  const std::string plan = "g'" + kRun + "'.plan";
  const auto made = run_in(dir, {"plan", "--collective", "bcast", "--algo", "binomial", "--p", "4", "--size", "1KiB",
                                 "--out", plan});
  ASSERT_EQ(made.status, 0) << made.out;
  const auto r = run_in(dir, with(kTinyCompare, {"--algos", "plan:" + plan + ",binomial", "--out", "out"}));
  EXPECT_EQ(r.status, 0) << r.out;
  expect_picture(dir / "out" / "bcast.png");
  EXPECT_NE(test::read_file((dir / "out" / "results.csv").string()).find("plan:" + plan), std::string::npos);
  expect_no_marker(dir);
}

TEST(HostileNames, PlatformFileNamesInCompareAreNotRun) {
  const fs::path dir = scratch("compare_platform");
  const std::string measured = "h'" + kRun + "'_{@x}^2.platform", xml = "h'" + kRun + "'.xml";
  write(dir / measured, loggp_platform_text());
  write(dir / xml, cluster_xml());
  for (const std::string& platform : {measured, xml}) {
    const auto r = run_in(dir, with(kTinyCompare, {"--algos", "binomial", "--platform", platform, "--out", "out"}));
    EXPECT_EQ(r.status, 0) << platform << ": " << r.out;
    expect_picture(dir / "out" / "bcast.png");
    expect_no_marker(dir);
    fs::remove_all(dir / "out");
  }
}

TEST(HostileNames, PlatformFileNameInMapIsNotRun) {
  const fs::path dir = scratch("map_platform");
  const std::string platform = "h'" + kRun + "'.platform";
  write(dir / platform, loggp_platform_text());
  const auto r = run_in(dir, {"map", "--collective", "bcast", "--p", "4", "--sizes", "1KiB", "--algos",
                              "binomial,smpi:binomial_tree", "--platform", platform, "--out", "out"});
  EXPECT_EQ(r.status, 0) << r.out;
  expect_picture(dir / "out" / "map.png");
  expect_picture(dir / "out" / "ratio.png");
  expect_no_marker(dir);
}

TEST(HostileNames, TuneOutputAndPlatformNamesAreNotRun) {
  const fs::path dir = scratch("tune");
  const std::string platform = "h'" + kRun + "'.platform", stem = "t'" + kRun + "'";
  write(dir / platform, loggp_platform_text());
  const auto r = run_in(dir, {"tune", "--collective", "bcast", "--p", "4", "--sizes", "1KiB", "--target", "collsim",
                              "--platform", platform, "--out", stem + ".rules"});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(fs::is_regular_file(dir / (stem + ".rules")));
  expect_picture(dir / (stem + "-bcast-any.png"));
  expect_no_marker(dir);
}

// A leading '-' in tune's file: its script is named after it, and gnuplot
// must read "./-t.gp" as a file, not "-t.gp" as options.
TEST(HostileNames, TuneOutputWithLeadingDash) {
  const fs::path dir = scratch("tune_dash");
  const auto r = run_in(dir, {"tune", "--collective", "bcast", "--p", "4", "--sizes", "1KiB", "--target", "collsim",
                              "--out=-t.rules"});
  EXPECT_EQ(r.status, 0) << r.out;
  expect_picture(dir / "-t-bcast-any.png");
}

// Output folders with quotes, backquotes, `$(...)`, blanks and a leading
// '-': gnuplot runs inside them and names its files relative to them.
TEST(HostileNames, OddOutputFoldersForCompareAndMap) {
  const fs::path dir = scratch("odd_out");
  const std::string out = "-o '" + kRun + "' \"$(touch " + kMarker + ")\" dir";
  const auto c = run_in(dir, with(kTinyCompare, {"--algos", "binomial", "--out=" + out}));
  EXPECT_EQ(c.status, 0) << c.out;
  expect_picture(dir / out / "bcast.png");
  const auto m = run_in(dir, {"map", "--collective", "bcast", "--p", "4", "--sizes", "1KiB", "--algos", "binomial",
                              "--out=" + out + "-map"});
  EXPECT_EQ(m.status, 0) << m.out;
  expect_picture(dir / (out + "-map") / "map.png");
  expect_no_marker(dir);
}

// ---- our arguments are never another program's options ----

TEST(HostileNames, VizOutputWithLeadingDashIsAFile) {
  const fs::path dir = scratch("viz_dash");
  const auto a = run_in(dir, {"viz", "two-tree", "--p", "4", "--out", "-x.svg"});
  EXPECT_EQ(a.status, 0) << a.out;
  expect_picture(dir / "-x.svg");
  const auto b = run_in(dir, {"viz", "circulant", "--p", "5", "--out=-V.png"});
  EXPECT_EQ(b.status, 0) << b.out;
  expect_picture(dir / "-V.png");
}

TEST(HostileNames, CalibrateTakesOnlyHostNames) {
  const fs::path dir = scratch("calibrate_host");
  const std::vector<std::string> attacks = {"-oProxyCommand=touch${IFS}" + kMarker, "a,b c", "a,-b",
                                            "a,b;touch${IFS}" + kMarker, "a\nb", "a,,b"};
  for (const std::string& hosts : attacks) {
    const auto r = run_in(dir, {"calibrate", "--out", "c.platform", "--host", hosts});
    EXPECT_EQ(r.status, 2) << hosts << ": " << r.out;
    expect_one_line(r);
    EXPECT_NE(r.out.find("--host"), std::string::npos) << r.out;
  }
  EXPECT_FALSE(fs::exists(dir / "c.platform"));
  expect_no_marker(dir);
}

// --out is checked before the measurement starts: no mpirun line, exit 1.
// The hosts are legal names: the refusal is --out's.
TEST(HostileNames, CalibrateChecksOutBeforeMeasuring) {
  const fs::path dir = scratch("calibrate_out");
  fs::create_directories(dir / "folder.platform");
  for (const std::string& out : {std::string("missing/c.platform"), std::string("folder.platform")}) {
    const auto r = run_in(dir, {"calibrate", "--out", out, "--host", "node-1,node2.example.org"});
    EXPECT_EQ(r.status, 1) << out << ": " << r.out;
    expect_one_line(r);
    EXPECT_NE(r.out.find("cannot write"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("mpirun"), std::string::npos) << "measured before checking --out: " << r.out;
  }
}

// A measurement that fails leaves no empty platform file behind.
TEST(HostileNames, CalibrateLeavesNoEmptyFileOnFailure) {
  const fs::path dir = scratch("calibrate_fail");
  const auto r = run_in(dir, {"calibrate", "--out", "c.platform", "--reps", "1", "--max-size", "1KiB", "--host",
                              "a.invalid,b.invalid"});
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_FALSE(fs::exists(dir / "c.platform"));
}

}  // namespace
}  // namespace collsim
