// Command-line helpers shared by every subcommand: strict number parsing (no
// silent clamping), ranges "A:B", lists "a,b,c", Boost.Program_options glue
// and a progress line on stderr for long runs.
#pragma once

#include <boost/program_options.hpp>

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace collsim::cli {

namespace po = boost::program_options;

// Bad input from the user: reported as one line, exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Whole decimal integer in [lo, hi]; `what` names the option in errors.
int64_t parse_int(const std::string& text, const std::string& what, int64_t lo, int64_t hi);

struct Range {
  int64_t lo, hi;
};
// "A:B" (inclusive) or a single "A"; both ends in [lo, hi] and A <= B.
Range parse_range(const std::string& text, const std::string& what, int64_t lo, int64_t hi);

// "a,b,c", each in [lo, hi].
std::vector<int64_t> parse_list(const std::string& text, const std::string& what, int64_t lo, int64_t hi);

// Parses argv[1..] (argv[0] names the subcommand) into `vm`. Prints
// `usage` and the options and returns false on --help.
bool parse_options(int argc, char** argv, const po::options_description& options, po::variables_map& vm,
                   const std::string& usage, const po::positional_options_description* positional = nullptr);

// Throws UsageError unless `value` is one of `allowed`.
void require_one_of(const std::string& value, const std::string& what, const std::vector<std::string>& allowed);

// A table row that selects what to run by name: subcommands, schedule kinds.
struct Entry {
  const char* name;
  int (*run)(int argc, char** argv);
  const char* summary;
};

// Runs the entry named argv[1] with (argc - 1, argv + 1). With no name or
// --help, lists the entries (exit 2 or 0); an unknown name is a UsageError
// that lists the known ones.
int dispatch(const std::string& command, const Entry* entries, size_t count, int argc, char** argv);
template <size_t N>
int dispatch(const std::string& command, const Entry (&entries)[N], int argc, char** argv) {
  return dispatch(command, entries, N, argc, argv);
}

// Rate-limited progress on stderr: silent for the first two seconds, then a
// line at most every two seconds, so short runs stay quiet.
class Progress {
 public:
  explicit Progress(std::string label);
  void update(double fraction, const std::string& detail);
  double elapsed_seconds() const;
  ~Progress();

 private:
  std::string label_;
  std::chrono::steady_clock::time_point start_, last_;
  bool printed_ = false;
};

}  // namespace collsim::cli
