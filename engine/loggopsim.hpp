// The plan engine's second rule set (issue 16): a plan's time as LogGOPSim
// (Hoefler, Schneider, Lumsdaine) gives it for the plan's GOAL export
// (schedules/plan_goal.hpp), in the LogGOPS model with O = 0 and no noise:
//
//   - each rank has one CPU clock (o is charged on it by sends and
//     receives, and calcs run on it), one send gap clock and one receive
//     gap clock; an operation starts when its dependencies are done and
//     the clocks it needs are free;
//   - a send of s bytes starts when CPU and send gap are free, holds the
//     CPU for o and the send gap for g + (s − 1)·G; its message reaches
//     the receiver o + L later;
//   - there it waits for CPU and receive gap, then holds the CPU for
//     o + (s − 1)·G and the receive gap for g + (s − 1)·G, posted receive
//     or not (an unexpected message is charged on arrival); a receive is
//     done when the message has been charged and the receive was posted;
//   - a send of at most S bytes is done when it starts (eager); a larger
//     one when the receiver matches it (rendezvous), which also pushes the
//     sender's CPU and send gap clocks to the matching time;
//   - a calc of c bytes (the ⊕ before an acc+input send, after a
//     combining receive, or a fold) holds the CPU for γ·c;
//   - a rank's finish is its CPU clock at the end.
// The GOAL chains a rank's steps: a step's operations wait for every
// operation the step before ended with. Events at one time run in the
// order they were first queued, as LogGOPSim's do; so do the operations
// a step makes ready at once (sends, then receives, then calcs, by rank).
//
// Times are 64-bit integer picoseconds: LogGOPSim counts whole units (ns),
// and with parameters in whole ns the arithmetic here is LogGOPSim's
// scaled by 1000 (exact), while sub-ns β of real platforms still fit.
//
// Cost: O(events · log(events queued)); memory O(p) plus the messages in
// flight (a rank's steps come one at a time from Plan::source and its state
// is released when it finishes).
#pragma once

#include <cstdint>

#include "loggp.hpp"

namespace collsim::engine {

struct LogGOPS {
  int64_t L = 5'000'000;  // picoseconds
  int64_t o = 0;          // picoseconds
  int64_t g = 0;          // picoseconds
  int64_t G = 1'000;      // picoseconds per byte
  int64_t gamma = 1'000;  // picoseconds per byte of a calc (⊕)
  int64_t S = 65535;      // bytes: larger messages use rendezvous (LogGOPSim's default)
  // LogGOPSim's parameters of a machine (L = alpha, G = beta, its o, g, γ),
  // in whole picoseconds; S LogGOPSim's default.
  static LogGOPS of(const Machine& m);
};

// Seconds (or seconds per byte) as whole picoseconds, rounded.
int64_t picoseconds(double seconds);

// Each block's bytes as the GOAL export cuts them (plan::block_units on
// bytes, as plan_goal.cpp does).
BlockBytes goal_blocks(const plan::Header& h, int64_t bytes);

// Throws std::invalid_argument on a plan that cannot run to its end.
Result evaluate(const plan::Plan& plan, const BlockBytes& block_bytes, const LogGOPS& params, bool per_rank = false);

}  // namespace collsim::engine
