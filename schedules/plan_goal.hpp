// A plan as LogGOPSim's GOAL text (Hoefler, Schneider, Lumsdaine: "LogGOPSim
// - Simulating Large-Scale Applications in the LogGOPS Model"), which its
// txt2bin turns into the simulator's input unmodified:
//
//   // a comment
//   num_ranks 4
//
//   rank 0 {
//   l1: send 1024b to 2 tag 0
//   l2: send 1024b to 1 tag 0
//   l2 requires l1
//   }
//   ... every rank 0 .. p − 1 in order, empty ones as `rank R {` `}`
//
// Per step, in this order: `calc` for a sent acc ⊕ input, the `send`, the
// `recv`, and `calc` after the receive for a left or right combine. A calc
// of c units models the ⊕ over c bytes: γ = 1 time unit per byte. A step's
// send and receive (and the calc before its send) each require every
// operation the steps it requires ended with (its send and its receive or
// the calc after it): in a lock-step plan the step before, so a rank runs
// its steps in plan order and a step's send and receive overlap
// (MPI_Sendrecv); in a graph plan those its `after` lists. The calc after
// a receive requires that receive. Message sizes: the bytes of the step's blocks
// when `bytes` is cut as the header says (block_units of plan.hpp; for
// allgatherv and reduce_scatter a flat cut into B = p·n blocks, the even
// layout up to rounding). Tags: the k-th
// message from s to d has tag k (k = 0, 1, ..): LogGOPSim matches a
// receive by peer and tag, and the plan's messages between a pair match in
// order, as MPI's do. A fold step is one `calc` of its blocks' bytes that
// requires what the step before ended with, and ends the step. Where the
// plan says `empty-messages skip`, a half of 0 bytes is not written (a step
// left with none writes nothing).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "goal_read.hpp"
#include "plan.hpp"

namespace collsim::plan {

// Writes `comment` as a `//` line (newlines in it start new comment lines),
// then the plan for a vector of `bytes` bytes.
void write_goal(std::ostream& out, const Plan& plan, int64_t bytes, const std::string& comment);

// The same operations as a Schedule in memory: what read_goal makes of
// write_goal's text, without the text (the engine's loggopsim rules for a
// graph plan). Memory: goal_read.hpp's 44 bytes an operation and 8 a
// dependency, for every rank at once.
goal::Schedule goal_schedule(const Plan& plan, int64_t bytes);

}  // namespace collsim::plan
