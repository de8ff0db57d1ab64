// Reading a circulant schedule from the CSV that `collsim schedule circulant
// --format csv` writes: header `rank,k,recvblock,sendblock`, one row per rank
// and round. p is the number of ranks in the file; a header with no rows is
// the p = 1 schedule (q = 0 rounds).
#pragma once

#include <istream>
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

// A CSV of integers: the first line must be exactly `header`; every row has
// as many fields as the header. One trailing blank line is allowed.
struct CsvRow {
  std::vector<int64_t> values;
  int64_t line;  // 1-based line number in the file
};
std::vector<CsvRow> read_int_csv(std::istream& in, const std::string& header, const std::string& source_name);

CirculantTable read_circulant_csv(std::istream& in, const std::string& source_name);

}  // namespace collsim
