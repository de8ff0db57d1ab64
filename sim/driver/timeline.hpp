// `collsim timeline`'s data: every message and ⊕ of one collective, from the
// plan engine (its event sink) or from SMPI (SimGrid's Paje trace,
// paje_trace.hpp), the critical path through them, and the CSV and picture
// made of them. Times are microseconds from the collective's start.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace collsim::sim {

struct TimelineEvent {
  enum class Kind { message, combine };
  Kind kind = Kind::message;
  int64_t rank = 0;   // the sender; the rank of a ⊕
  int64_t peer = -1;  // the receiver; -1 for a ⊕
  int64_t bytes = 0;
  int64_t step = 0;  // the rank's step (engine) or MPI call (SMPI), 0-based
  double post = 0, start = 0, end = 0;  // a ⊕: post = start
  // A message: when each side is free of it (see engine::MessageEvent); a
  // ⊕: both its end.
  double sender_done = 0, receiver_done = 0;
  // When the event lets `r` (one of its ranks) go on.
  double release(int64_t r) const { return kind == Kind::combine ? end : r == rank ? sender_done : receiver_done; }
};

struct Timeline {
  int64_t p = 0;
  std::vector<TimelineEvent> events;
  std::vector<double> finish;  // per rank: when its part of the collective ended
  double time_us() const;      // the last finish
};

// The chain of events ending at the last release, each event's predecessor
// the event of one of its ranks released last no later than its start (the
// message that arrived, or the rank's previous operation). `events` from
// the first to the last; `length_us` sums the events' own spans along the
// chain (an event's start to its release on the rank the chain goes on
// from); `gaps_us` the time between them that no event covers (the start
// of the first, a receive overhead the trace shows no event for). length +
// gaps = the last release.
struct CriticalPath {
  std::vector<size_t> events;  // indices into Timeline::events
  std::vector<int64_t> via;    // per event, the rank the chain goes on from
  double length_us = 0, gaps_us = 0;
};
CriticalPath critical_path(const Timeline& t);

// The CSV (header timeline_csv_header), events in order of start.
extern const char* const kTimelineCsvHeader;
std::string timeline_csv(const Timeline& t, const CriticalPath& path);

// Writes `dir`/timeline.png (gnuplot, through timeline.gp and
// timeline.dat there): a Gantt chart (ranks down, time across: sends,
// receives, ⊕, idle time, the critical path over them) up to
// kGanttMaxRanks ranks, a heat view of ranks in bins beyond.
inline constexpr int64_t kGanttMaxRanks = 64;
void plot_timeline(const std::filesystem::path& dir, const Timeline& t, const CriticalPath& path,
                   const std::string& title);

}  // namespace collsim::sim
