// Values on the command line without the command-line library: strict
// number parsing (no silent clamping), ranges "A:B", lists "a,b,c", sizes "4KiB", the
// error type for bad input, and a progress line on stderr for long runs.
// Library code (verify/, the driver) includes this; only the command layer
// includes args.hpp and so Boost.Program_options.
#pragma once

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace collsim::cli {

// Bad input from the user: reported as one line, exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Whole decimal integer in [lo, hi]; `what` names the option in errors.
int64_t parse_int(const std::string& text, const std::string& what, int64_t lo, int64_t hi);

// A finite decimal number in [lo, hi].
double parse_real(const std::string& text, const std::string& what, double lo, double hi);
// "a,b,c", each a finite number in [lo, hi].
std::vector<double> parse_real_list(const std::string& text, const std::string& what, double lo, double hi);

struct Range {
  int64_t lo, hi;
};
// "A:B" (inclusive) or a single "A"; both ends in [lo, hi] and A <= B.
Range parse_range(const std::string& text, const std::string& what, int64_t lo, int64_t hi);

// "a,b,c", each in [lo, hi].
std::vector<int64_t> parse_list(const std::string& text, const std::string& what, int64_t lo, int64_t hi);

// "a,b,c" as its words; an empty or repeated word is a UsageError naming
// `what`.
std::vector<std::string> parse_names(const std::string& text, const std::string& what);

// "4096", "4KiB", "16MiB", "1GiB", "100B": bytes, checked for overflow and
// against [0, INT_MAX] (one MPI count).
int64_t parse_bytes(const std::string& text, const std::string& what);
// A set of p for `map` and `tune`: "A:B" (powers of two, 3·2^k and 2^k + 1
// within [A, B], and A and B), "A:B:S" (A, A + S, .. B) or "a,b,c"; each in
// [1, max]. Sorted, without repeats.
std::vector<int64_t> parse_p_set(const std::string& text, int64_t max);
// "A:B" (A, 2A, 4A, ... up to B, and B itself) or "a,b,c".
std::vector<int64_t> parse_sizes(const std::string& text, const std::string& what);

// Throws UsageError unless `value` is one of `allowed`.
void require_one_of(const std::string& value, const std::string& what, const std::vector<std::string>& allowed);

// Rate-limited progress on stderr: silent for the first two seconds, then a
// line at most every two seconds, so short runs stay quiet.
class Progress {
 public:
  // A line at most every `interval_s` seconds, the first after that long.
  explicit Progress(std::string label, int interval_s = 2);
  void update(double fraction, const std::string& detail);
  double elapsed_seconds() const;
  ~Progress();

 private:
  std::string label_;
  std::chrono::steady_clock::time_point start_, last_;
  std::chrono::seconds interval_;
  bool printed_ = false;
};

}  // namespace collsim::cli
