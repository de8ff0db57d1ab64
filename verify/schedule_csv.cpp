#include "schedule_csv.hpp"

#include <charconv>
#include <algorithm>
#include <vector>

namespace collsim {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

// "file:line", the prefix of every message about one line.
std::string where(const std::string& source_name, int64_t line) { return source_name + ":" + str(line); }

int64_t parse_field(const std::string& text, const std::string& where) {
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
    throw MalformedInput(where + ": '" + text + "' is not an integer");
  return v;
}

std::vector<int64_t> parse_row(const std::string& line, size_t count, const std::string& where) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1)
    fields.push_back(line.substr(start, comma - start));
  fields.push_back(line.substr(start));
  if (fields.size() != count)
    throw MalformedInput(where + ": expected " + std::to_string(count) + " fields, found " +
                         std::to_string(fields.size()));
  std::vector<int64_t> values;
  for (const auto& f : fields) values.push_back(parse_field(f, where));
  return values;
}

// "'a'" or "'a' or 'b'", for the bad-header message.
std::string quoted_alternatives(const std::vector<std::string>& headers) {
  std::string text;
  for (const std::string& h : headers) text += (text.empty() ? "'" : " or '") + h + "'";
  return text;
}

}  // namespace

IntCsv read_int_csv(std::istream& in, const std::vector<std::string>& headers, const std::string& source_name) {
  std::string line;
  int64_t line_no = 1;
  auto chomp = [&] {
    if (!line.empty() && line.back() == '\r') line.pop_back();
  };
  if (!std::getline(in, line))
    throw MalformedInput(where(source_name, 1) + ": empty file, expected header " + quoted_alternatives(headers));
  chomp();
  const auto header = std::find(headers.begin(), headers.end(), line);
  if (header == headers.end())
    throw MalformedInput(where(source_name, 1) + ": bad header '" + line + "', expected " +
                         quoted_alternatives(headers));
  const size_t count = static_cast<size_t>(std::count(header->begin(), header->end(), ',')) + 1;
  IntCsv csv{static_cast<size_t>(header - headers.begin()), {}};
  while (std::getline(in, line)) {
    ++line_no;
    chomp();
    if (line.empty()) {
      if (in.peek() == std::char_traits<char>::eof()) break;  // one trailing blank line is fine
      throw MalformedInput(where(source_name, line_no) + ": empty line");
    }
    csv.rows.push_back({parse_row(line, count, where(source_name, line_no)), line_no});
  }
  return csv;
}

namespace {

struct CirculantRow {
  int64_t root;  // -1 without a root column
  int64_t rank, k, recv, send;
  int64_t line;
};

// The rows, ranks range-checked, and whether the file has the root column.
std::pair<std::vector<CirculantRow>, bool> circulant_rows(std::istream& in, const std::string& source_name) {
  // The header `schedule circulant` writes first; files from before the root
  // column are still read (their root comes from the caller).
  const IntCsv csv = read_int_csv(in, {"root,rank,k,recvblock,sendblock", "rank,k,recvblock,sendblock"}, source_name);
  const bool root_column = csv.header == 0;
  std::vector<CirculantRow> rows;
  for (const CsvRow& row : csv.rows) {
    const int64_t* v = row.values.data() + (root_column ? 1 : 0);
    rows.push_back({root_column ? row.values[0] : -1, v[0], v[1], v[2], v[3], row.line});
    if (v[0] < 0 || v[0] >= kMaxProcs) throw MalformedInput(where(source_name, row.line) + ": rank out of range");
  }
  return {std::move(rows), root_column};
}

// The root column's value: one rank, the same on every row.
int64_t root_of(const std::vector<CirculantRow>& rows, int64_t p, const std::string& source_name) {
  const CirculantRow& first = rows.front();
  for (const CirculantRow& r : rows)
    if (r.root != first.root)
      throw MalformedInput(where(source_name, r.line) + ": root " + str(r.root) + " differs from root " +
                           str(first.root) + " at line " + str(first.line) + " (one root per file)");
  if (first.root < 0 || first.root >= p)
    throw MalformedInput(where(source_name, first.line) + ": root " + str(first.root) + " out of range [0," + str(p) +
                         ") for p=" + str(p));
  return first.root;
}

void check_value_ranges(const std::vector<CirculantRow>& rows, int64_t p, int64_t q, const std::string& source_name) {
  for (const CirculantRow& r : rows) {
    if (r.k < 0 || r.k >= q)
      throw MalformedInput(where(source_name, r.line) + ": k=" + str(r.k) + " out of range [0," + str(q) +
                           ") for p=" + str(p));
    for (int64_t v : {r.recv, r.send})
      if (v < -q || v >= q)
        throw MalformedInput(where(source_name, r.line) + ": block " + str(v) + " out of range [" + str(-q) + "," +
                             str(q - 1) + "]");
  }
}

// Rows in (rank, k) order must be exactly (0,0), (0,1), ..., (p-1,q-1).
// Sorting first keeps memory bounded by the file, not by the largest rank.
void sort_and_check_complete(std::vector<CirculantRow>& rows, int64_t p, int64_t q, const std::string& source_name) {
  std::stable_sort(rows.begin(), rows.end(), [](const CirculantRow& a, const CirculantRow& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.k < b.k;
  });
  auto cell_name = [](int64_t rank, int64_t k) { return "rank=" + str(rank) + " k=" + str(k); };
  for (int64_t i = 0; i < static_cast<int64_t>(rows.size()); ++i) {
    const CirculantRow& r = rows[static_cast<size_t>(i)];
    if (i > 0 && r.rank == rows[i - 1].rank && r.k == rows[i - 1].k)
      throw MalformedInput(where(source_name, r.line) + ": duplicate row for " + cell_name(r.rank, r.k) +
                           " (first at line " + str(rows[i - 1].line) + ")");
    if (r.rank * q + r.k != i)
      throw MalformedInput(source_name + ": missing row for " + cell_name(i / q, i % q) + " (p=" + str(p) +
                           " from the largest rank)");
  }
  if (static_cast<int64_t>(rows.size()) != p * q)
    throw MalformedInput(source_name + ": missing row for " + cell_name(rows.size() / q, rows.size() % q));
}

CirculantTable table_of(const std::vector<CirculantRow>& rows, int64_t p, int q) {
  CirculantTable t;
  t.p = p;
  t.q = q;
  t.recv.resize(rows.size());
  t.send.resize(rows.size());
  for (const CirculantRow& r : rows) {
    t.recv[t.cell(r.rank, static_cast<int>(r.k))] = static_cast<int8_t>(r.recv);
    t.send[t.cell(r.rank, static_cast<int>(r.k))] = static_cast<int8_t>(r.send);
  }
  t.base.assign(static_cast<size_t>(p), static_cast<int8_t>(q));
  for (int64_t r = 0; r < p; ++r)
    for (int k = 0; k < q; ++k)
      if (t.recv_at(r, k) >= 0) t.base[static_cast<size_t>(r)] = static_cast<int8_t>(t.recv_at(r, k));
  return t;
}

}  // namespace

CirculantCsv read_circulant_csv(std::istream& in, const std::string& source_name) {
  auto [rows, root_column] = circulant_rows(in, source_name);
  int64_t max_rank = -1;
  for (const CirculantRow& r : rows) max_rank = std::max(max_rank, r.rank);
  const int64_t p = rows.empty() ? 1 : max_rank + 1;
  const int q = ceil_log2(p);
  CirculantCsv file;
  if (root_column && !rows.empty()) file.root = root_of(rows, p, source_name);
  check_value_ranges(rows, p, q, source_name);
  sort_and_check_complete(rows, p, q, source_name);
  file.table = table_of(rows, p, q);
  return file;
}

CirculantTable counted_from_root(CirculantTable t, int64_t root) {
  // Each round's row, and the baseblocks, rotate left by `root`.
  const auto p = static_cast<std::ptrdiff_t>(t.p);
  for (std::vector<int8_t>* cells : {&t.recv, &t.send, &t.base})
    for (auto row = cells->begin(); row != cells->end(); row += p) std::rotate(row, row + root, row + p);
  return t;
}

}  // namespace collsim
