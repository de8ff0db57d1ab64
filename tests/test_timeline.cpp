// `collsim timeline` (issue 35, item 4): its CSV from the plan engine and
// from SimGrid's Paje trace, the critical path, and the two agreeing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "run_cli.hpp"

namespace collsim::test {
namespace {

using Row = std::map<std::string, std::string>;

// The CSV's rows as column -> value.
std::vector<Row> read_csv(const std::string& path) {
  std::stringstream in(read_file(path));
  std::string line;
  std::vector<std::string> header;
  std::getline(in, line);
  for (std::stringstream h(line); std::getline(h, line, ',');) header.push_back(line);
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    Row row;
    std::stringstream cells(line + ",");
    for (const std::string& column : header) std::getline(cells, row[column], ',');
    rows.push_back(row);
  }
  return rows;
}

// Runs `collsim timeline ARGS --out DIR` (DIR fresh) and returns the
// message rows of its CSV; `out` gets its standard output.
std::vector<Row> timeline(const std::string& dir_name, std::vector<std::string> args, std::string* out = nullptr) {
  const std::string dir = fresh_path(dir_name);
  args.insert(args.begin(), "timeline");
  args.insert(args.end(), {"--out", dir});
  const CliResult r = run_collsim_argv(args);
  EXPECT_EQ(r.status, 0) << r.out;
  if (out) *out = r.out;
  std::vector<Row> messages;
  for (Row& row : read_csv(dir + "/timeline.csv"))
    if (row["kind"] == "send") messages.push_back(row);
  return messages;
}

// The number after `label` in `text` (NAN if absent).
double number_after(const std::string& text, const std::string& label) {
  const size_t at = text.find(label);
  return at == std::string::npos ? NAN : std::strtod(text.c_str() + at + label.size(), nullptr);
}

// `collsim run`'s time_us for the same case: the reference, from another command.
double run_time_us(std::vector<std::string> args) {
  args.insert(args.begin(), "run");
  args.insert(args.end(), {"--format", "csv"});
  const CliResult r = run_collsim_argv(args);
  EXPECT_EQ(r.status, 0) << r.out;
  std::stringstream lines(r.out);
  std::string header, row;
  while (std::getline(lines, header) && header.rfind("collective,", 0) != 0) {
  }
  std::getline(lines, row);
  std::stringstream h(header), v(row);
  for (std::string name, value; std::getline(h, name, ',') && std::getline(v, value, ',');)
    if (name == "time_us") return std::stod(value);
  ADD_FAILURE() << "no time_us in " << r.out;
  return NAN;
}

const std::vector<std::string> kEngines[] = {{"--engine", "loggp"}, {"--engine", "smpi"}};

TEST(Timeline, BinomialBcastAtEightRanksHasSevenMessagesOnePerReceiver) {
  for (const auto& engine : kEngines) {
    std::vector<std::string> args{"--algo", "binomial", "--p", "8", "--size", "4KiB"};
    args.insert(args.end(), engine.begin(), engine.end());
    const std::vector<Row> messages = timeline("timeline-binomial-" + engine[1], args);
    ASSERT_EQ(messages.size(), 7u) << engine[1];
    std::map<std::string, int> received;
    for (const Row& m : messages) ++received[m.at("peer")];
    for (int r = 1; r < 8; ++r) EXPECT_EQ(received[std::to_string(r)], 1) << engine[1] << " rank " << r;
  }
}

TEST(Timeline, CriticalPathOfCirculantBcastIsTheSimulatedTime) {
  for (const auto& engine : kEngines) {
    std::vector<std::string> args{"--algo", "circulant", "--p", "17", "--size", "64KiB", "--blocks", "3"};
    args.insert(args.end(), engine.begin(), engine.end());
    std::string out;
    const std::vector<Row> messages = timeline("timeline-circulant17-" + engine[1], args, &out);
    const double time = run_time_us(args), length = number_after(out, "length ");
    // run prints 3 decimals; the trace has picoseconds.
    EXPECT_NEAR(length, time, 1e-3 + 1e-6 * time) << engine[1] << "\n" << out;
    EXPECT_NEAR(number_after(out, "us, "), 0, 1e-3) << "time between the path's events\n" << out;
    EXPECT_GT(messages.size(), 16u);
  }
}

TEST(Timeline, SmpiAndEngineAgreePerMessageOnFlatLoggp) {
  const std::vector<std::string> args{"--algo", "circulant", "--p", "64", "--size", "64KiB", "--platform", "loggp"};
  // The k-th message from a to b in order of posting, in each.
  auto keyed = [](const std::vector<Row>& rows) {
    std::map<std::pair<std::string, std::string>, std::vector<Row>> by;
    for (const Row& r : rows) by[{r.at("rank"), r.at("peer")}].push_back(r);
    for (auto& [key, list] : by)
      std::stable_sort(list.begin(), list.end(),
                       [](const Row& a, const Row& b) { return std::stod(a.at("post_us")) < std::stod(b.at("post_us")); });
    return by;
  };
  std::vector<std::string> engine = args, smpi = args;
  engine.insert(engine.end(), {"--engine", "loggp"});
  const auto e = keyed(timeline("timeline-agree-engine", engine)), s = keyed(timeline("timeline-agree-smpi", smpi));
  ASSERT_EQ(e.size(), s.size());
  size_t compared = 0;
  for (const auto& [key, list] : e) {
    const auto other = s.find(key);
    ASSERT_NE(other, s.end()) << key.first << " -> " << key.second;
    ASSERT_EQ(list.size(), other->second.size());
    for (size_t k = 0; k < list.size(); ++k) {
      for (const char* column : {"start_us", "end_us"}) {
        const double a = std::stod(list[k].at(column)), b = std::stod(other->second[k].at(column));
        EXPECT_LE(std::fabs(a - b), 1e-3 * std::max(std::fabs(a), std::fabs(b)) + 1e-5)
            << column << " of message " << k << " from " << key.first << " to " << key.second;
      }
      ++compared;
    }
  }
  EXPECT_GE(compared, 63u);  // every rank receives
}

TEST(Timeline, RefusesWhatItCannotTrace) {
  const std::string dir = fresh_path("timeline-refused");
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{"--size", "1KiB,2KiB"}, {"--size", "1KiB", "--engine", "loggp", "--rules", "loggopsim"},
        {"--size", "1KiB", "--reps", "3"}}) {
    std::vector<std::string> args{"timeline", "--algo", "binomial", "--p", "4", "--out", dir};
    args.insert(args.end(), extra.begin(), extra.end());
    const CliResult r = run_collsim_argv(args);
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  }
}

}  // namespace
}  // namespace collsim::test
