#include "schedule_csv.hpp"

#include <charconv>
#include <algorithm>
#include <vector>

namespace collsim {

namespace {

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

}  // namespace

std::vector<CsvRow> read_int_csv(std::istream& in, const std::string& header, const std::string& source_name) {
  const size_t count = static_cast<size_t>(std::count(header.begin(), header.end(), ',')) + 1;
  std::string line;
  int64_t line_no = 1;
  auto at = [&](int64_t n) { return source_name + ":" + std::to_string(n); };
  auto chomp = [&] {
    if (!line.empty() && line.back() == '\r') line.pop_back();
  };
  if (!std::getline(in, line)) throw MalformedInput(at(1) + ": empty file, expected header '" + header + "'");
  chomp();
  if (line != header) throw MalformedInput(at(1) + ": bad header '" + line + "', expected '" + header + "'");
  std::vector<CsvRow> rows;
  while (std::getline(in, line)) {
    ++line_no;
    chomp();
    if (line.empty()) {
      if (in.peek() == std::char_traits<char>::eof()) break;  // one trailing blank line is fine
      throw MalformedInput(at(line_no) + ": empty line");
    }
    rows.push_back({parse_row(line, count, at(line_no)), line_no});
  }
  return rows;
}

CirculantTable read_circulant_csv(std::istream& in, const std::string& source_name) {
  struct Row {
    int64_t rank, k, recv, send;
    int64_t line;
  };
  auto at = [&](int64_t n) { return source_name + ":" + std::to_string(n); };
  std::vector<Row> rows;
  int64_t max_rank = -1;
  for (const CsvRow& csv : read_int_csv(in, "rank,k,recvblock,sendblock", source_name)) {
    const Row row{csv.values[0], csv.values[1], csv.values[2], csv.values[3], csv.line};
    if (row.rank < 0 || row.rank >= kMaxProcs) throw MalformedInput(at(row.line) + ": rank out of range");
    max_rank = std::max(max_rank, row.rank);
    rows.push_back(row);
  }

  CirculantTable t;
  t.p = rows.empty() ? 1 : max_rank + 1;
  t.q = ceil_log2(t.p);
  const int64_t q = t.q;
  for (const Row& r : rows) {
    if (r.k < 0 || r.k >= q)
      throw MalformedInput(at(r.line) + ": k=" + std::to_string(r.k) + " out of range [0," + std::to_string(q) +
                           ") for p=" + std::to_string(t.p));
    for (int64_t v : {r.recv, r.send})
      if (v < -q || v >= q)
        throw MalformedInput(at(r.line) + ": block " + std::to_string(v) + " out of range [" + std::to_string(-q) +
                             "," + std::to_string(q - 1) + "]");
  }
  // Rows in (rank, k) order must be exactly (0,0), (0,1), ..., (p-1,q-1).
  // Sorting first keeps memory bounded by the file, not by the largest rank.
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Row& a, const Row& b) { return a.rank != b.rank ? a.rank < b.rank : a.k < b.k; });
  auto cell_name = [](int64_t rank, int64_t k) { return "rank=" + std::to_string(rank) + " k=" + std::to_string(k); };
  const int64_t expected = t.p * q;
  for (int64_t i = 0; i < static_cast<int64_t>(rows.size()); ++i) {
    const Row& r = rows[static_cast<size_t>(i)];
    if (i > 0 && r.rank == rows[i - 1].rank && r.k == rows[i - 1].k)
      throw MalformedInput(at(r.line) + ": duplicate row for " + cell_name(r.rank, r.k) + " (first at line " +
                           std::to_string(rows[i - 1].line) + ")");
    if (r.rank * q + r.k != i)
      throw MalformedInput(source_name + ": missing row for " + cell_name(i / q, i % q) + " (p=" +
                           std::to_string(t.p) + " from the largest rank)");
  }
  if (static_cast<int64_t>(rows.size()) != expected)
    throw MalformedInput(source_name + ": missing row for " + cell_name(rows.size() / q, rows.size() % q));
  t.recv.resize(rows.size());
  t.send.resize(rows.size());
  for (const Row& r : rows) {
    t.recv[t.cell(r.rank, static_cast<int>(r.k))] = static_cast<int8_t>(r.recv);
    t.send[t.cell(r.rank, static_cast<int>(r.k))] = static_cast<int8_t>(r.send);
  }
  t.base.assign(static_cast<size_t>(t.p), static_cast<int8_t>(q));
  for (int64_t r = 0; r < t.p; ++r)
    for (int k = 0; k < q; ++k)
      if (t.recv_at(r, k) >= 0) t.base[static_cast<size_t>(r)] = static_cast<int8_t>(t.recv_at(r, k));
  return t;
}

}  // namespace collsim
