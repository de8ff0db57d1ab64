#include "tuning_rules.hpp"

#include <charconv>
#include <istream>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace collsim::sim {

namespace {

constexpr const char* kHeader = "collsim-rules 1";
constexpr OperatorClass kClasses[] = {OperatorClass::any, OperatorClass::commutative, OperatorClass::non_commutative};

int64_t parse_count(const std::string& text, int64_t max_value, const char* what) {
  if (text == "max") return max_value;
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < 0 || v > max_value)
    throw std::invalid_argument(std::string(what) + ": '" + text + "' is not a number in [0, " +
                                std::to_string(max_value) + "] or max");
  return v;
}

// "A:B" (inclusive, A <= B; B may be "max").
void parse_range(const std::string& text, int64_t lowest, int64_t max_value, const char* what, int64_t& lo,
                 int64_t& hi) {
  const auto colon = text.find(':');
  if (colon == std::string::npos) throw std::invalid_argument(std::string(what) + ": '" + text + "' is not A:B");
  lo = parse_count(text.substr(0, colon), max_value, what);
  hi = parse_count(text.substr(colon + 1), max_value, what);
  if (lo < lowest || lo > hi)
    throw std::invalid_argument(std::string(what) + ": '" + text + "' needs " + std::to_string(lowest) + " <= A <= B");
}

std::string range_text(int64_t lo, int64_t hi, int64_t max_value) {
  return std::to_string(lo) + ":" + (hi == max_value ? "max" : std::to_string(hi));
}

OperatorClass parse_class(const std::string& text) {
  for (OperatorClass o : kClasses)
    if (text == operator_class_name(o)) return o;
  throw std::invalid_argument("operator: '" + text + "' is not any, commutative or non-commutative");
}

// The reason `r` cannot be run as written, or "".
std::string unmet(const TuningRule& r) {
  const Algorithm& a = *r.algorithm;
  if (a.has(kSmpiBuiltin)) return std::string(a.name) + " is SimGrid's, not ours";
  if (!reduces(r.collective) && r.op != OperatorClass::any)
    return std::string(collective_name(r.collective)) + " has no operator: write any";
  if (r.op != OperatorClass::commutative && !unmet_restriction(a, false).empty())
    return std::string(a.name) + " needs a commutative operator: write commutative";
  if (r.blocks != 1 && r.blocks != 0 && !a.has(kBlocks)) return std::string(a.name) + " takes no blocks: write 1";
  return "";
}

TuningRule parse_rule(const std::string& line) {
  std::istringstream words(line);
  std::string collective, ranks, bytes, op, algorithm, blocks, extra;
  if (!(words >> collective >> ranks >> bytes >> op >> algorithm >> blocks) || (words >> extra))
    throw std::invalid_argument("expected 6 fields: collective ranks bytes operator algorithm blocks");
  TuningRule r;
  r.collective = parse_collective(collective);
  parse_range(ranks, 1, INT32_MAX, "ranks", r.ranks_min, r.ranks_max);
  parse_range(bytes, 0, INT64_MAX, "bytes", r.bytes_min, r.bytes_max);
  r.op = parse_class(op);
  r.algorithm = &find_algorithm(r.collective, algorithm);
  r.blocks = parse_count(blocks, INT32_MAX, "blocks");
  if (const std::string why = unmet(r); !why.empty()) throw std::invalid_argument(why);
  return r;
}

}  // namespace

const char* operator_class_name(OperatorClass o) {
  switch (o) {
    case OperatorClass::any:
      return "any";
    case OperatorClass::commutative:
      return "commutative";
    case OperatorClass::non_commutative:
      return "non-commutative";
  }
  return "?";
}

std::vector<TuningRule> read_tuning_rules(std::istream& in) {
  std::vector<TuningRule> rules;
  std::string line;
  int number = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++number;
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    if (!header) {
      if (line.substr(first, line.find_last_not_of(" \t\r") + 1 - first) != kHeader)
        throw std::invalid_argument("line " + std::to_string(number) + ": not a '" + kHeader + "' file");
      header = true;
      continue;
    }
    try {
      rules.push_back(parse_rule(line));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("line " + std::to_string(number) + ": " + e.what());
    }
    rules.back().line = number;
  }
  if (!header) throw std::invalid_argument(std::string("empty: not a '") + kHeader + "' file");
  return rules;
}

void write_tuning_rules(std::ostream& out, const std::vector<TuningRule>& rules, const std::string& comment) {
  out << kHeader << "\n";
  std::istringstream lines(comment);
  for (std::string line; std::getline(lines, line);) out << "# " << line << "\n";
  out << "# collective ranks bytes operator algorithm blocks (0: the block policy)\n";
  for (const TuningRule& r : rules) {
    if (const std::string why = unmet(r); !why.empty()) throw std::invalid_argument("rule not written: " + why);
    out << collective_name(r.collective) << " " << range_text(r.ranks_min, r.ranks_max, INT32_MAX) << " "
        << range_text(r.bytes_min, r.bytes_max, INT64_MAX) << " " << operator_class_name(r.op) << " "
        << r.algorithm->name << " " << r.blocks << "\n";
  }
}

const TuningRule* find_rule(const std::vector<TuningRule>& rules, Collective c, int64_t ranks, int64_t bytes,
                            bool commutative) {
  const OperatorClass mine = commutative ? OperatorClass::commutative : OperatorClass::non_commutative;
  for (const TuningRule& r : rules)
    if (r.collective == c && ranks >= r.ranks_min && ranks <= r.ranks_max && bytes >= r.bytes_min &&
        bytes <= r.bytes_max && (r.op == OperatorClass::any || r.op == mine))
      return &r;
  return nullptr;
}

}  // namespace collsim::sim
