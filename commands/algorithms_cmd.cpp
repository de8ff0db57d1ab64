// `collsim algorithms [--collective C] [--format table|csv|markdown]`: the
// catalog (sim/catalog/algorithms.def) as a reader wants it: per collective,
// our algorithms first, then SimGrid's built-ins, each with how it runs, its
// restrictions, its source files and its description. Scripts read the csv
// form (columns by header name); docs/algorithms.md is the markdown form.
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

#include "algorithm_sources.hpp"
#include "args.hpp"
#include "catalog.hpp"
#include "commands.hpp"

namespace collsim {

namespace {

using cli::po::value;

constexpr const char* kColumns[] = {"collective", "name", "kind", "restrictions", "source", "description"};
constexpr size_t kColumnCount = std::size(kColumns);
using Row = std::vector<std::string>;  // one field per column of kColumns

// The catalog prefixes every built-in's description with this; the kind
// column says it instead.
constexpr const char kBuiltinPrefix[] = "SimGrid built-in: ";

std::string join(const std::vector<std::string>& words, const char* separator) {
  std::string text;
  for (const std::string& w : words) text += (text.empty() ? "" : separator) + w;
  return text;
}

// "a; b; c" as {"a", "b", "c"}.
std::vector<std::string> split_notes(const std::string& text) {
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    const size_t end = text.find("; ", start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string::npos) return parts;
    start = end + 2;
  }
}

// The limits a reader must know before choosing the row, as words.
std::vector<std::string> limit_words(const sim::Algorithm& a) {
  static const struct {
    sim::Limit limit;
    const char* word;
  } kWords[] = {{sim::kBlocks, "blocks"},
                {sim::kSegments, "segments"},
                {sim::kCommutative, "commutative-only"},
                {sim::kExactModel, "exact-model"},
                {sim::kGraph, "graph"}};
  std::vector<std::string> words;
  for (const auto& w : kWords)
    if (a.has(w.limit)) words.emplace_back(w.word);
  return words;
}

// Our row's one file.
std::string source_files(const sim::Algorithm& a) {
  for (const generated::AlgorithmSource& s : generated::kAlgorithmSources)
    if (s.collective == a.collective && a.name == std::string(s.name))
      return s.file;
  return "";  // test_algorithms_cmd checks that every row of ours has one
}

Row ours(const sim::Algorithm& a) {
  return {collective_name(a.collective), a.name, a.has(sim::kPlan) ? "plan" : "mpi-code",
          join(limit_words(a), "; "), source_files(a), a.description};
}

// A built-in's description is "what it is; known fault; ...": the faults
// go with its restrictions.
Row builtin(const sim::Algorithm& a) {
  std::string text = a.description;
  if (text.rfind(kBuiltinPrefix, 0) == 0) text.erase(0, std::size(kBuiltinPrefix) - 1);
  std::vector<std::string> notes = split_notes(text), restrictions = limit_words(a);
  restrictions.insert(restrictions.end(), notes.begin() + 1, notes.end());
  return {collective_name(a.collective), a.name, "smpi", join(restrictions, "; "), "", notes.front()};
}

// The rows of c: ours in catalog order, then SimGrid's.
std::vector<Row> rows_of(sim::Collective c) {
  std::vector<Row> rows;
  for (const sim::Algorithm* a : sim::our_algorithms(c)) rows.push_back(ours(*a));
  for (const sim::Algorithm* a : sim::algorithms_of(c))
    if (a->has(sim::kSmpiBuiltin)) rows.push_back(builtin(*a));
  return rows;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char ch : text) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return quoted + "\"";
}

std::string markdown_cell(const std::string& text) {
  std::string cell;
  for (char ch : text) cell += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return cell;
}

void print_csv(const std::vector<std::vector<Row>>& groups) {
  std::printf("%s\n", join({std::begin(kColumns), std::end(kColumns)}, ",").c_str());
  for (const auto& rows : groups)
    for (const Row& row : rows) {
      std::vector<std::string> fields;
      for (const std::string& f : row) fields.push_back(csv_field(f));
      std::printf("%s\n", join(fields, ",").c_str());
    }
}

// One table per collective, without the collective column.
void print_markdown(const std::vector<std::vector<Row>>& groups) {
  const std::vector<std::string> header(std::begin(kColumns) + 1, std::end(kColumns));
  std::string rule = "|";
  for (size_t i = 0; i < header.size(); ++i) rule += "---|";
  for (size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].empty()) continue;
    std::printf("%s## %s\n\n| %s |\n%s\n", g ? "\n" : "", groups[g].front()[0].c_str(),
                join(header, " | ").c_str(), rule.c_str());
    for (const Row& row : groups[g]) {
      std::vector<std::string> cells;
      for (size_t i = 1; i < row.size(); ++i) cells.push_back(markdown_cell(row[i]));
      std::printf("| %s |\n", join(cells, " | ").c_str());
    }
  }
}

// `text` in lines of at most `width` characters, broken at blanks (a longer
// word keeps its own line); width 0: one line.
std::vector<std::string> wrap(const std::string& text, size_t width) {
  std::vector<std::string> lines(1);
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find(' ', start), text.size());
    const std::string word = text.substr(start, end - start);
    if (width && !lines.back().empty() && lines.back().size() + 1 + word.size() > width) lines.emplace_back();
    lines.back() += (lines.back().empty() ? "" : " ") + word;
    start = end + 1;
  }
  return lines;
}

// Aligned columns, a blank line between collectives. The long cells wrap
// within their column (a source file a line), so that a row stays in its
// columns on a terminal; the first line of a row holds its name.
void print_table(const std::vector<std::vector<Row>>& groups) {
  // Per column of kColumns: the width it wraps at (0: never).
  constexpr size_t kWrap[kColumnCount] = {0, 0, 0, 36, 1, 64};
  using Cells = std::vector<std::vector<std::string>>;  // a row's lines, per column
  const auto cells_of = [&](const Row& row) {
    Cells cells;
    for (size_t i = 0; i < kColumnCount; ++i) cells.push_back(wrap(row[i], kWrap[i]));
    return cells;
  };
  const Cells header = cells_of(Row(std::begin(kColumns), std::end(kColumns)));
  std::vector<std::vector<Cells>> table;
  std::vector<size_t> width(kColumnCount, 0);
  for (const auto& rows : groups) {
    table.emplace_back();
    for (const Row& row : rows) table.back().push_back(cells_of(row));
  }
  for (const auto& rows : table)
    for (const Cells& cells : rows)
      for (size_t i = 0; i < kColumnCount; ++i)
        for (const std::string& line : cells[i]) width[i] = std::max({width[i], line.size(), header[i][0].size()});
  const auto print_row = [&](const Cells& cells) {
    size_t height = 0;
    for (const auto& lines : cells) height = std::max(height, lines.size());
    for (size_t l = 0; l < height; ++l) {
      std::string line;
      for (size_t i = 0; i < kColumnCount; ++i) {
        const std::string cell = l < cells[i].size() ? cells[i][l] : "";
        line += i + 1 < kColumnCount ? cell + std::string(width[i] - cell.size() + 2, ' ') : cell;
      }
      line.erase(line.find_last_not_of(' ') + 1);
      std::printf("%s\n", line.c_str());
    }
  };
  print_row(header);
  for (size_t g = 0; g < table.size(); ++g) {
    if (g) std::printf("\n");
    for (const Cells& cells : table[g]) print_row(cells);
  }
}

}  // namespace

int algorithms_command(int argc, char** argv) {
  cli::po::options_description opts("algorithms options");
  opts.add_options()("collective", value<std::string>(), "only this collective (bcast, reduce, allreduce, ...)")(
      "format", value<std::string>()->default_value("table"),
      "table (aligned columns), csv (a header line, then one row per algorithm) or markdown (one table per "
      "collective)");
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm,
                          "usage: collsim algorithms [--collective C] [--format table|csv|markdown]\n\n"
                          "Every algorithm --algo and --algos accept, per collective: ours first, then SimGrid's\n"
                          "built-ins (smpi:NAME). Columns:\n"
                          "  collective    the collective (--collective)\n"
                          "  name          the name --algo takes\n"
                          "  kind          plan (SMPI runs its plan through the plan executor), mpi-code\n"
                          "                (SMPI runs its own MPI code), smpi (a SimGrid built-in)\n"
                          "  restrictions  blocks (takes --blocks), segments (n blocks per rank's segment),\n"
                          "                commutative-only (refused with --op matmul), exact-model (its model\n"
                          "                equals the simulation on full-duplex alphabeta); for SimGrid's, the\n"
                          "                faults seen in SimGrid 3.32\n"
                          "  source        ours: its one file (algorithms/<collective>/): description,\n"
                          "                limits, model, plan builder (--engine loggp runs it), MPI code\n"
                          "  description   what it does and its cost\n"))
    return 0;
  const std::string format = vm["format"].as<std::string>();
  cli::require_one_of(format, "format", {"table", "csv", "markdown"});
  std::vector<std::vector<Row>> groups;
  if (vm.count("collective"))
    groups.push_back(rows_of(sim::parse_collective(vm["collective"].as<std::string>())));
  else
    for (sim::Collective c : sim::kCollectives) groups.push_back(rows_of(c));
  if (format == "csv")
    print_csv(groups);
  else if (format == "markdown")
    print_markdown(groups);
  else
    print_table(groups);
  return 0;
}

}  // namespace collsim
