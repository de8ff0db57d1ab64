#include "values.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <set>

#include <unistd.h>

namespace collsim::cli {

namespace {

// "a,b,c" as its words, empty ones kept (the parsers reject them).
std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    words.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return words;
    start = comma + 1;
  }
}

std::string format_real(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

}  // namespace

int64_t parse_int(const std::string& text, const std::string& what, int64_t lo, int64_t hi) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec == std::errc::invalid_argument || ptr != end)
    throw UsageError(what + ": '" + text + "' is not an integer");
  if (ec == std::errc::result_out_of_range || value < lo || value > hi)
    throw UsageError(what + ": " + text + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return value;
}

double parse_real(const std::string& text, const std::string& what, double lo, double hi) {
  double value = 0;
  size_t used = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size() || !std::isfinite(value))
    throw UsageError(what + ": '" + text + "' is not a number");
  if (value < lo || value > hi)
    throw UsageError(what + ": " + text + " is out of range [" + format_real(lo) + ", " + format_real(hi) + "]");
  return value;
}

std::vector<double> parse_real_list(const std::string& text, const std::string& what, double lo, double hi) {
  std::vector<double> values;
  for (const std::string& word : split_words(text)) values.push_back(parse_real(word, what, lo, hi));
  return values;
}

Range parse_range(const std::string& text, const std::string& what, int64_t lo, int64_t hi) {
  const auto colon = text.find(':');
  if (colon == std::string::npos) {
    const int64_t v = parse_int(text, what, lo, hi);
    return {v, v};
  }
  Range r{parse_int(text.substr(0, colon), what, lo, hi), parse_int(text.substr(colon + 1), what, lo, hi)};
  if (r.lo > r.hi) throw UsageError(what + ": empty range '" + text + "'");
  return r;
}

std::vector<int64_t> parse_list(const std::string& text, const std::string& what, int64_t lo, int64_t hi) {
  std::vector<int64_t> values;
  for (const std::string& word : split_words(text)) values.push_back(parse_int(word, what, lo, hi));
  return values;
}

std::vector<std::string> parse_names(const std::string& text, const std::string& what) {
  const std::vector<std::string> names = split_words(text);
  for (auto name = names.begin(); name != names.end(); ++name) {
    if (name->empty()) throw UsageError(what + ": empty name in '" + text + "'");
    // A repeated name would run (and write) the same case twice.
    if (std::find(names.begin(), name, *name) != name)
      throw UsageError(what + ": '" + *name + "' given twice in '" + text + "'");
  }
  return names;
}

// "A:B": powers of two, 3·2^k and 2^k + 1 within [A, B], and A and B;
// "A:B:S": A, A + S, .. B; "a,b,c": the list.
std::vector<int64_t> parse_p_set(const std::string& text, int64_t kMax) {
  std::set<int64_t> ps;
  const auto colon = text.find(':');
  if (colon == std::string::npos) {
    size_t start = 0;
    for (size_t comma; (comma = text.find(',', start)) != std::string::npos; start = comma + 1)
      ps.insert(cli::parse_int(text.substr(start, comma - start), "--p", 1, kMax));
    ps.insert(cli::parse_int(text.substr(start), "--p", 1, kMax));
    return {ps.begin(), ps.end()};
  }
  const auto second = text.find(':', colon + 1);
  const int64_t lo = cli::parse_int(text.substr(0, colon), "--p", 1, kMax);
  const int64_t hi = cli::parse_int(text.substr(colon + 1, second - colon - 1), "--p", lo, kMax);
  if (second != std::string::npos) {
    const int64_t step = cli::parse_int(text.substr(second + 1), "--p step", 1, kMax);
    for (int64_t p = lo; p <= hi; p += step) ps.insert(p);
  } else {
    for (int64_t k = 1; k <= hi; k *= 2)
      for (int64_t p : {k, 3 * k / 2, k + 1})
        if (p >= lo && p <= hi) ps.insert(p);
  }
  ps.insert(lo);
  ps.insert(hi);
  return {ps.begin(), ps.end()};
}

int64_t parse_bytes(const std::string& text, const std::string& what) {
  static const std::pair<const char*, int64_t> units[] = {{"GiB", int64_t{1} << 30}, {"MiB", int64_t{1} << 20},
                                                          {"KiB", int64_t{1} << 10}, {"B", 1}};
  std::string digits = text;
  int64_t unit = 1;
  for (const auto& [suffix, factor] : units) {
    const size_t len = std::char_traits<char>::length(suffix);
    if (text.size() > len && text.compare(text.size() - len, len, suffix) == 0) {
      digits = text.substr(0, text.size() - len);
      unit = factor;
      break;
    }
  }
  const int64_t v = cli::parse_int(digits, what, 0, INT64_MAX / unit);
  if (v * unit > INT_MAX)
    throw UsageError(what + ": " + text + " exceeds " + std::to_string(INT_MAX) + " bytes (one MPI count)");
  return v * unit;
}

std::vector<int64_t> parse_sizes(const std::string& text, const std::string& what) {
  std::vector<int64_t> sizes;
  const auto colon = text.find(':');
  if (colon == std::string::npos) {
    size_t start = 0;
    for (size_t comma; (comma = text.find(',', start)) != std::string::npos; start = comma + 1)
      sizes.push_back(parse_bytes(text.substr(start, comma - start), what));
    sizes.push_back(parse_bytes(text.substr(start), what));
    return sizes;
  }
  const int64_t lo = parse_bytes(text.substr(0, colon), what), hi = parse_bytes(text.substr(colon + 1), what);
  if (lo < 1 || lo > hi) throw UsageError(what + ": range '" + text + "' needs 1 <= A <= B");
  for (int64_t s = lo; s <= hi; s *= 2) sizes.push_back(s);  // s <= INT_MAX, so 2s cannot overflow
  if (sizes.back() != hi) sizes.push_back(hi);
  return sizes;
}

void require_one_of(const std::string& value, const std::string& what, const std::vector<std::string>& allowed) {
  std::string known;
  for (const auto& a : allowed) {
    if (a == value) return;
    known += (known.empty() ? "" : ", ") + a;
  }
  throw UsageError("unknown " + what + " '" + value + "'; known: " + known);
}

Progress::Progress(std::string label, int interval_s)
    : label_(std::move(label)), start_(std::chrono::steady_clock::now()), last_(start_), interval_(interval_s) {}

double Progress::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::update(double fraction, const std::string& detail) {
  const auto now = std::chrono::steady_clock::now();
  if (now - start_ < interval_ || now - last_ < interval_) return;
  last_ = now;
  printed_ = true;
  // Rewrite one line on a terminal; one line per update in a log file.
  const bool terminal = isatty(fileno(stderr));
  std::fprintf(stderr, "%s%s: %5.1f%% %s, %.0f s elapsed%s", terminal ? "\r" : "", label_.c_str(), 100.0 * fraction,
               detail.c_str(), elapsed_seconds(), terminal ? "   " : "\n");
  std::fflush(stderr);
}

Progress::~Progress() {
  if (printed_ && isatty(fileno(stderr))) std::fputc('\n', stderr);
}

}  // namespace collsim::cli
