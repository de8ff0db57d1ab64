// `collsim verify plan --file F.goal`: a GOAL schedule (schedules/
// goal_read.hpp; LogGOPSim's dependency graphs, as Schedgen and `collsim
// plan --format goal` write them) checked without running it, for every
// order its dependencies allow (issue 34, item 3, for what GOAL says: sizes
// and dependencies, no data).
//
// Rules, in the order they are checked; the first broken one is the answer,
// naming the rank, the operation (its place in the rank's block, from 1)
// and the rule:
//   wildcard     a receive from -1 or with tag -1: which send it matches
//                depends on timing, which this check does not model.
//   unmatched    on a channel (sender, receiver, tag) the sends and the
//                receives differ in number.
//   overtaking   MPI's non-overtaking rule matches a channel's sends and
//                receives in posting order; two sends (or two receives) of
//                one channel that the rank's dependencies leave unordered
//                (neither reaches the other through requires/irequires)
//                and that differ in size may be matched either way.
//   truncation   the k-th send of a channel is larger than its k-th
//                receive (MPI_ERR_TRUNCATE).
//   deadlock     a cycle of waits: each operation's start and end, an end
//                after its start, `X requires Y` X's start after Y's end,
//                `X irequires Y` X's start after Y's start, a receive's end
//                after its send's start, and a send's end after its
//                receive's start (MPI lets any standard send wait for its
//                receive, so a schedule that needs buffering to finish is
//                unsafe, as in MPI). Acyclic means no order the
//                dependencies allow deadlocks.
//
//   rank 0 { r: recv 8b from 1 tag 0   s: send 8b to 1 tag 0   s requires r }
//   rank 1 { r: recv 8b from 0 tag 0   s: send 8b to 0 tag 0   s requires r }
//   deadlock: rank 0's receive waits for rank 1's send, which waits for
//   rank 1's receive, which waits for rank 0's send, which waits for rank
//   0's receive.
//
// Cost: O(operations + dependencies) for the graph, plus a search within
// the rank for each pair of consecutive sends (receives) of a channel:
// O(rank's operations) each at worst. Memory: the graph, ~40 bytes an
// operation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "goal_read.hpp"

namespace collsim {

struct GoalFailure {
  int64_t rank = 0;
  int64_t op = 0;  // its place in the rank's block, from 1
  std::string rule, detail;
};

struct GoalReport {
  std::optional<GoalFailure> failure;
  int64_t operations = 0, messages = 0;
};

GoalReport check_goal(const goal::Schedule& schedule);

// "rank R operation K: RULE: DETAIL".
std::string describe(const GoalFailure& f);

}  // namespace collsim
