// Plans: a collective's schedule as data, apart from whatever runs it (the
// idea of LogGOPSim's GOAL). For a collective, p ranks, a root and a cut of
// the data into blocks, a plan gives each rank its ordered steps; a step
// sends some blocks to one peer and/or receives some blocks from one peer
// (both at once, as MPI_Sendrecv), and says what a received block does. The
// verifier (verify/plan_check.hpp), the plan writers (text and GOAL) and the
// executors read the same steps. Pure C++17, no MPI.
//
// Blocks. The data is cut into `blocks` blocks B (block_span of blocks.hpp):
//   bcast, reduce, allreduce, scan, exscan
//       B blocks of the vector; every rank has its own input of each
//       (bcast: only the root's counts).
//   allgatherv, reduce_scatter
//       B = p·n: rank r's segment (its counts[r]) cut into n blocks,
//       r·n .. r·n + n − 1 (allgatherv: r's own data; reduce_scatter: the
//       blocks of the result that r ends with).
// Segments. A plan of the first kind may cut the vector into K = `segments`
// segments first (block_span into K) and each segment into B/K blocks, block
// s·(B/K) + b being block b of segment s: the nested cut of circulant
// allreduce (p segments of n blocks), which differs from a flat cut into
// p·n blocks. K = 1 (the default) is the flat cut; block_units says where a
// block lies.
// Each rank keeps, per block, one accumulator `acc` (the result buffer)
// and its own input. A send sends a block's acc, its input, or acc ⊕ input
// (the doubling scans' W ⊕ V); a receive stores the block into acc or
// combines it: left means acc = received ⊕ acc (the received data comes
// from lower ranks), right means acc = acc ⊕ received.
//
// Where every rank ends (what the verifier checks; [a, b] is the ⊕ of the
// inputs of ranks a..b in rank order):
//   bcast, allgatherv  every block's data from its origin, on every rank
//   reduce             [0, p − 1] of every block at the root
//   allreduce          [0, p − 1] of every block on every rank
//   reduce_scatter     [0, p − 1] of blocks r·n .. r·n + n − 1 on rank r
//   scan / exscan      [0, r] / [0, r − 1] of every block on rank r
//                      (exscan: rank 0 ends with nothing)
// Initially acc holds the rank's input (bcast: the root's data,
// allgatherv: r's own blocks), except for exscan, where acc starts empty.
//
// Plans are produced per rank on demand (Plan::steps), so one for
// p = 2^20 never has to exist whole in memory.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "blocks.hpp"
#include "collectives.hpp"

namespace collsim::plan {

// The most blocks a plan may have (B <= 2^40).
inline constexpr int64_t kMaxBlocks = int64_t{1} << 40;

// What a send carries of each of its blocks.
enum class Value { acc, input, acc_op_input };
// What a received block does to acc.
enum class Combine { store, left, right };

struct Step {
  int64_t send_to = -1;  // -1: no send
  std::vector<int64_t> send_blocks;
  Value send_value = Value::acc;
  int64_t recv_from = -1;  // -1: no receive
  std::vector<int64_t> recv_blocks;
  Combine combine = Combine::store;
};

struct Header {
  Collective collective = Collective::bcast;
  int64_t p = 1;
  int64_t root = 0;     // bcast, reduce; 0 elsewhere
  int64_t blocks = 1;   // B (allgatherv, reduce_scatter: a multiple of p)
  // ⊕ may be reordered: joins need not be adjacent, left and right mean the
  // same. An algorithm that needs this is declared commutative-only.
  bool commutative = false;
  // K: the vector is cut into K segments of B/K blocks each (see "Segments"
  // above); 1 <= K <= B, B a multiple of K; 1 for allgatherv and
  // reduce_scatter, whose segments are the ranks' counts.
  int64_t segments = 1;
};

struct Plan {
  Header header;
  // Rank r's steps in order, for 0 <= r < p.
  std::function<std::vector<Step>(int64_t rank)> steps;
};

// Is the data cut per rank's segment (allgatherv, reduce_scatter: B = p·n)?
bool per_segment(Collective c);
// Blocks per rank segment (allgatherv, reduce_scatter), else B.
int64_t segment_blocks(const Header& h);
// The rank a block originates at (allgatherv) or ends at (reduce_scatter).
int64_t block_owner(const Header& h, int64_t block);

// Block `block`'s units (elements; bytes for bcast) when a vector of
// `count` units is cut as h says (segments, then blocks; block_span of
// blocks.hpp). For the collectives cut as one vector, not per_segment: the
// executor, the engine and the GOAL writer all cut with this.
sim::Span block_units(const Header& h, int64_t count, int64_t block);

const char* value_name(Value v);
const char* combine_name(Combine c);

// The text format (README, "Plan files"):
//   # comments and blank lines anywhere
//   collsim-plan 1
//   collective bcast
//   p 4
//   root 0
//   blocks 2
//   commutative 0
//   segments 1          (optional; written only when not 1)
//   rank 0
//   step send 2 blocks 0 recv - 
//   ...
// A step line is `step` followed by `send PEER BLOCKS [value acc|input|acc+input]`
// and/or `recv PEER BLOCKS [combine store|left|right]`; BLOCKS is a
// comma-separated list of blocks or ranges a-b. `rank R` lines start rank R's
// steps; ranks may come in any order, each once; a rank without a line has
// no steps.
//
// Writes the header and every rank's steps, one rank at a time.
void write_plan(std::ostream& out, const Plan& plan);
// Reads a whole plan; malformed input throws std::invalid_argument naming
// the line ("line 7: unknown word 'sned'"). Checks syntax and ranges
// (peers and blocks in range, p >= 1); whether the plan is right is the
// verifier's business.
Plan read_plan(std::istream& in);

}  // namespace collsim::plan
