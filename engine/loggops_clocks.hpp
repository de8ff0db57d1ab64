// LogGOPSim's bookkeeping, shared by the engine's two evaluators under its
// rules (engine/loggopsim.hpp): plans (loggopsim.cpp) and GOAL schedules
// (goal_sim.cpp). Clocks holds when each rank's CPUs and NICs are free and
// charges them as LogGOPSim does (O = 0, no noise); EventQueue runs events
// in LogGOPSim's order: by time, ties by when each was first queued (a
// requeued event keeps its place among equal times).
//
// Cost: O(1) per charge, O(log events queued) per queue operation. Memory:
// three int64 per rank and CPU or NIC, plus the queued events.
#pragma once

#include <algorithm>
#include <cstdint>
#include <queue>
#include <vector>

#include "loggopsim.hpp"

namespace collsim::engine {

class Clocks {
 public:
  // `cpus` and `nics` per rank (LogGOPSim gives every rank the most any
  // operation names).
  Clocks(const LogGOPS& par, int64_t ranks, int64_t cpus = 1, int64_t nics = 1)
      : par_(par), cpus_(cpus), nics_(nics), cpu_(size_t(ranks * cpus), 0), send_gap_(size_t(ranks * nics), 0),
        recv_gap_(size_t(ranks * nics), 0) {}

  const LogGOPS& params() const { return par_; }
  bool eager(int64_t bytes) const { return bytes <= par_.S; }

  // When a calc or receive on CPU c of rank r may start; a send also waits
  // for its NIC's send gap, a message's charge for the receive gap.
  int64_t cpu_free(int64_t r, int64_t c = 0) const { return cpu_[slot(r, c, cpus_)]; }
  int64_t send_free(int64_t r, int64_t c = 0, int64_t n = 0) const {
    return std::max(cpu_free(r, c), send_gap_[slot(r, n, nics_)]);
  }
  int64_t message_free(int64_t r, int64_t c = 0, int64_t n = 0) const {
    return std::max(cpu_free(r, c), recv_gap_[slot(r, n, nics_)]);
  }

  // A send of `bytes` starting at t: CPU o, send gap g + (s − 1)·G. Returns
  // when its message reaches the receiver.
  int64_t send(int64_t r, int64_t c, int64_t n, int64_t t, int64_t bytes) {
    cpu_[slot(r, c, cpus_)] = t + par_.o;
    send_gap_[slot(r, n, nics_)] = t + par_.g + per_byte(bytes);
    return t + par_.o + par_.L;
  }
  // A message of `bytes` charged on its receiver at t: CPU o + (s − 1)·G,
  // receive gap g + (s − 1)·G.
  void take_message(int64_t r, int64_t c, int64_t n, int64_t t, int64_t bytes) {
    cpu_[slot(r, c, cpus_)] = t + par_.o + per_byte(bytes);
    recv_gap_[slot(r, n, nics_)] = t + par_.g + per_byte(bytes);
  }
  // A calc holding CPU c from t for `cost`.
  void calc(int64_t r, int64_t c, int64_t t, int64_t cost) { cpu_[slot(r, c, cpus_)] = t + cost; }
  // A rendezvous send matched at t: its sender waited until then.
  void rendezvous(int64_t r, int64_t c, int64_t n, int64_t t) {
    int64_t& cpu = cpu_[slot(r, c, cpus_)];
    int64_t& gap = send_gap_[slot(r, n, nics_)];
    cpu = std::max(cpu, t);
    gap = std::max(gap, t);
  }
  // A rank's finish: its latest CPU clock.
  int64_t finish(int64_t r) const {
    const auto first = cpu_.begin() + r * cpus_;
    return *std::max_element(first, first + cpus_);
  }

 private:
  static size_t slot(int64_t r, int64_t unit, int64_t per_rank) { return size_t(r * per_rank + unit); }
  // (s − 1)·G: LogGOPSim's per-byte charge, −G for an empty message as in
  // its unsigned arithmetic.
  int64_t per_byte(int64_t bytes) const { return (bytes - 1) * par_.G; }

  LogGOPS par_;
  int64_t cpus_, nics_;
  std::vector<int64_t> cpu_, send_gap_, recv_gap_;  // when each is free, picoseconds
};

// E has int64_t members `time` and `seq`.
template <class E>
class EventQueue {
 public:
  // Queues e at e.time, after every event queued before it at that time.
  void push(E e) {
    e.seq = seq_++;
    heap_.push(e);
  }
  // Puts e back at `time`, keeping its place among events of equal times.
  void requeue(E e, int64_t time) {
    e.time = time;
    heap_.push(e);
  }
  bool empty() const { return heap_.empty(); }
  E pop() {
    const E e = heap_.top();
    heap_.pop();
    return e;
  }

 private:
  struct Later {
    bool operator()(const E& a, const E& b) const { return a.time != b.time ? a.time > b.time : a.seq > b.seq; }
  };
  std::priority_queue<E, std::vector<E>, Later> heap_;
  int64_t seq_ = 0;
};

}  // namespace collsim::engine
