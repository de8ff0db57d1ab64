// Reading schedules from the CSV that `collsim schedule KIND --format csv`
// writes. For circulant: header `root,rank,k,recvblock,sendblock`, one row
// per rank and round, ranks numbered as in the machine (not from the root),
// the root the same on every row. p is the number of ranks in the file; a
// header with no rows is the p = 1 schedule (q = 0 rounds). The older header
// `rank,k,recvblock,sendblock` (no root column) is read too: its root is
// whatever the caller is told, root 0 by default.
#pragma once

#include <istream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "circulant_table.hpp"

namespace collsim {

// A file that is not a schedule at all: bad header, non-integers, missing or
// duplicate rows, values out of range. The message names what and where.
struct MalformedInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A CSV of integers: the first line must be exactly one of `headers`; every
// row has as many fields as that header. One trailing blank line is allowed.
struct CsvRow {
  std::vector<int64_t> values;
  int64_t line;  // 1-based line number in the file
};
struct IntCsv {
  size_t header;  // index into `headers` of the file's header
  std::vector<CsvRow> rows;
};
IntCsv read_int_csv(std::istream& in, const std::vector<std::string>& headers, const std::string& source_name);

struct CirculantCsv {
  CirculantTable table;         // ranks as the file numbers them
  std::optional<int64_t> root;  // the root column; none with the old header or without rows
};
CirculantCsv read_circulant_csv(std::istream& in, const std::string& source_name);

// `t` renumbered so that rank v is rank (v + root) mod p of `t`: the checks
// (circulant_check.hpp) take the root to be rank 0.
CirculantTable counted_from_root(CirculantTable t, int64_t root);

}  // namespace collsim
