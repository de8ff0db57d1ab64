// Reads a GOAL schedule: LogGOPSim's text format (Hoefler, Schneider,
// Lumsdaine), as its Schedgen and `collsim plan --format goal` write it and
// as its txt2bin reads it:
//
//   num_ranks 2                       // first, before any rank block
//   rank 0 {                          // blocks for ranks 0 .. num_ranks − 1, in order
//   l1: send 1000b to 1 tag 0         // [tag T] [cpu C] [nic N], in this order
//   l2: calc 500 cpu 1                // time units; [cpu C]
//   l3: recv 1000b from -1 tag -1     // -1: any source, any tag
//   l3 requires l1                    // l3 starts after l1 completes
//   l2 irequires l3                   // l2 starts after l3 starts
//   }
//   /* comments like this, or // to the end of the line */
//
// An operation's label is optional; a dependency names labels of its own
// rank's block defined on earlier lines (as txt2bin requires); sizes, tags,
// CPUs and NICs are whole numbers (txt2bin's ranges: tags < 2^32 − 1,
// CPUs and NICs < 256; sizes here < 2^40). Unlike txt2bin, this reader
// also refuses a label defined twice in a block, a dependency cycle, a peer
// ≥ num_ranks and missing rank blocks, each in one line naming the line.
//
// Parsed into compact arrays: 44 bytes per operation (24 for the Op, 4 for
// its count of dependencies, 16 for where its dependents start) and 8 per
// dependency; labels live only while their block is read. Cost: O(file
// size), plus a hash lookup per label.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace collsim::goal {

// In LogGOPSim's order: operations made ready together are queued sends
// first, then receives, then calcs.
enum class OpKind : uint8_t { send = 1, recv = 2, calc = 3 };

inline constexpr uint32_t kAny = 0xffffffffu;  // `-1`: any source, any tag

struct Op {
  int64_t size = 0;   // bytes; a calc's time units
  uint32_t peer = 0;  // send: its receiver; recv: its sender or kAny; calc: 0
  uint32_t tag = 0;   // or kAny
  OpKind kind = OpKind::calc;
  uint8_t cpu = 0, nic = 0;
};

// Operation i's dependents in `to`[begin[i] .. begin[i + 1]), in the order
// of the dependency lines.
struct Dependents {
  std::vector<int64_t> begin{0};
  std::vector<int64_t> to;
  const int64_t* first(int64_t op) const { return to.data() + begin[size_t(op)]; }
  const int64_t* last(int64_t op) const { return to.data() + begin[size_t(op) + 1]; }
};

struct Schedule {
  int64_t ranks = 0;
  int64_t cpus = 1, nics = 1;     // per rank: the largest index named, plus one
  std::vector<int64_t> first_op;  // rank r's operations: [first_op[r], first_op[r + 1])
  std::vector<Op> ops;            // by rank, each rank's in file order
  std::vector<uint32_t> waits;    // per operation: its requires and irequires lines
  Dependents after_done;          // `X requires op`: X waits for op to complete
  Dependents after_start;         // `X irequires op`: X waits for op to start
};

// A dependency within one rank's block (indices from 0 in the block):
// `to` waits for `from` to complete (`to requires from`) or, with
// on_start, to start (`to irequires from`).
struct Edge {
  int64_t from, to;
  bool on_start;
};
// The dependents of a rank block whose `count` operations are the last of
// s.ops (their s.waits counted): appended to s.after_done and
// s.after_start, each operation's list in the order of `edges`, as
// read_goal lists them in the order of the dependency lines. Whoever
// builds a Schedule in memory (plan_goal.hpp) then ends the block with
// s.first_op.push_back(s.ops.size()).
void append_dependents(Schedule& s, int64_t count, const std::vector<Edge>& edges);

// Throws std::invalid_argument("line N: ...") on malformed input.
Schedule read_goal(std::istream& in);
// read_goal of the file at `path`, read within kMaxPlanFileBytes.
Schedule read_goal_file(const std::string& path);
// std::invalid_argument("num_ranks is N, " + whose + " P") unless the
// schedule is for `ranks` ranks.
void require_ranks(const Schedule& schedule, int64_t ranks, const std::string& whose);

// Whether a --plan file is a GOAL schedule: its name ends in ".goal", or
// its first word outside comments is num_ranks.
bool is_goal_file(const std::string& path);

}  // namespace collsim::goal
