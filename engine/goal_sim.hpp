// A GOAL schedule's time (schedules/goal_read.hpp) under LogGOPSim's rules,
// as LogGOPSim itself runs it (its LogGOPSim.cpp; O = 0, no noise, no
// network congestion). The charges and the event order are those of the
// engine's plan evaluator (engine/loggopsim.hpp, shared through
// loggops_clocks.hpp); what a GOAL file adds:
//
//   - an operation is ready when every operation it `requires` is done and
//     every one it `irequires` has started; ready ones are queued at once,
//     rank by rank, sends before receives before calcs (std::sort by kind,
//     as LogGOPSim sorts them), a send at max(its CPU, its NIC's send gap),
//     a receive or calc at its CPU's clock;
//   - a calc of c units holds its CPU for c·γ and is done when it starts;
//     an eager send (≤ S bytes) is done when it starts, a rendezvous one
//     when its receive matches it; a receive starts when it is dequeued
//     (it waits for no clock: LogGOPSim's) and is done when matched;
//   - a message is charged on the receiver's CPU and NIC of the sender's
//     indices (`cpu`, `nic` of the send), a rendezvous releases the sender's
//     clocks of the matching operation's indices: LogGOPSim's, exactly;
//   - matching is by source and tag, -1 matching anything, first come
//     first matched, posted receives and unexpected messages alike;
//   - a rank's finish is its latest CPU clock.
//
// Cost: O(operations + dependencies + events · log(events queued) + the
// matching queues' scans). Memory: the schedule, one byte per operation,
// the ranks' clocks and queues.
#pragma once

#include "goal_read.hpp"
#include "loggp.hpp"
#include "loggopsim.hpp"

namespace collsim::engine {

// Throws std::invalid_argument on a schedule that does not run to its end
// (a receive never matched, a message never received).
Result evaluate(const goal::Schedule& schedule, const LogGOPS& params, bool per_rank = false);

}  // namespace collsim::engine
