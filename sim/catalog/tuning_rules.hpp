// Decision rules for libcollsim-pmpi.so (COLLSIM_RULES=FILE), as `collsim
// tune --target collsim` writes them: which of our algorithms, with how
// many blocks, runs a call of a collective, by communicator size, message
// size and (for reductions) whether the operator is commutative. MPI-free:
// the driver writes the file, each rank reads it.
//
//   collsim-rules 1
//   # collective  ranks      bytes            operator         algorithm           blocks
//   allreduce     2:7        0:1023           any              recursive-doubling  1
//   allreduce     2:7        1024:max         commutative      ring                1
//   allreduce     2:7        1024:max         non-commutative  halving-doubling    1
//   bcast         8:max      0:max            any              circulant           12
//
// A call takes the first row of its collective whose ranks and bytes
// ranges hold it and whose operator class matches ("any" matches both);
// no row: Open MPI's own collective. Message bytes are count x type size
// (allgatherv: the sum over the ranks, as the library's decision reads
// them). Blocks 0 leaves n to the block policy. Every row is checked
// against the algorithm's restrictions when read (Restrictions declared
// once, in the catalog): a kCommutative algorithm only on "commutative"
// rows, blocks only for pipelined (kBlocks) algorithms, SimGrid's built-ins
// never (they do not exist under real MPI).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "catalog.hpp"

namespace collsim::sim {

enum class OperatorClass { any, commutative, non_commutative };
const char* operator_class_name(OperatorClass o);

struct TuningRule {
  Collective collective = Collective::bcast;
  int64_t ranks_min = 1, ranks_max = INT32_MAX;  // communicator sizes, inclusive
  int64_t bytes_min = 0, bytes_max = INT64_MAX;  // message bytes, inclusive; INT64_MAX prints "max"
  OperatorClass op = OperatorClass::any;
  const Algorithm* algorithm = nullptr;
  int64_t blocks = 0;  // 0: the block policy
  int line = 0;        // where it was read (0: built in memory)
};

// Throws std::invalid_argument "line N: why" (or "not a collsim-rules 1
// file") on malformed input or a row its algorithm cannot take.
std::vector<TuningRule> read_tuning_rules(std::istream& in);
// The inverse; `comment` lines are written after the header as "# ...".
void write_tuning_rules(std::ostream& out, const std::vector<TuningRule>& rules, const std::string& comment);

// The first rule that takes a call, or nullptr.
const TuningRule* find_rule(const std::vector<TuningRule>& rules, Collective c, int64_t ranks, int64_t bytes,
                            bool commutative);

}  // namespace collsim::sim
