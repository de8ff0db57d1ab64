// Cross-checked against LogGOPSim itself (issue 16, item 4): Schedgen's
// schedules at p = 64 and 1024 through txt2bin and `LogGOPSim -L 5000 -o 1000
// -g 2000 -G 1` against `collsim run --plan s.goal --engine loggp --rules
// loggopsim --L 5e-6 --o 1e-6 --g 2e-6 --G 1e-9 --gamma 1e-9`, equal to the
// ns: binomialtreebcast -d 1000: 47994 / 79990 ns, -d 100000: 641994 /
// 1069990; dissemination the same; nwaydissemination --nway 3 -d 100000:
// 1532991 / 2759985; allreduce_recdoub -d 1000, p = 64: 85916; scatter -d
// 100000: 6430937 / 104349977; binomialtreebcast -d 1000 --nb 50000 --cpu 1
// (calcs on CPU 1): 50000 / 79990; pipelinedring, doublering, gather,
// linbarrier, binarytreebcast, random_bisect, linear_alltoall likewise.
#include "goal_sim.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "loggops_clocks.hpp"

namespace collsim::engine {

namespace {

using goal::kAny;
using goal::Op;
using goal::OpKind;

struct Event {
  int64_t time;
  int64_t seq;  // EventQueue's
  int64_t op;   // the operation; a message: its send
  int64_t rank;  // where it runs (a message: its receiver)
  int64_t from;  // a message's sender, else -1
};

// A receive's source and tag against a message's: -1 on either side matches.
bool matches(uint32_t src, uint32_t tag, uint32_t msg_src, uint32_t msg_tag) {
  return (src == kAny || msg_src == kAny || src == msg_src) && (tag == kAny || msg_tag == kAny || tag == msg_tag);
}

std::string describe(const Op& op) {
  const auto num = [](uint32_t v) { return v == kAny ? std::string("-1") : std::to_string(v); };
  if (op.kind == OpKind::calc) return "calc " + std::to_string(op.size);
  return std::string(op.kind == OpKind::send ? "send to " : "recv from ") + num(op.peer) + " tag " + num(op.tag);
}

class Simulator {
 public:
  Simulator(const goal::Schedule& s, const LogGOPS& par)
      : s_(s), clocks_(par, s.ranks, s.cpus, s.nics), waits_(s.waits), state_(s.ops.size(), State::waiting),
        posted_(size_t(s.ranks)), unexpected_(size_t(s.ranks)) {
    for (int64_t r = 0; r < s.ranks; ++r)
      for (int64_t i = s.first_op[size_t(r)]; i < s.first_op[size_t(r) + 1]; ++i)
        if (waits_[size_t(i)] == 0) ready_.push_back({r, i});
    queue_ready();
  }

  Result run(bool per_rank) {
    while (!queue_.empty()) {
      handle(queue_.pop());
      queue_ready();
    }
    check_finished();
    Result res;
    res.messages = messages_;
    for (int64_t r = 0; r < s_.ranks; ++r) {
      const double finish = double(clocks_.finish(r)) * 1e-12;
      res.time = std::max(res.time, finish);
      if (per_rank) res.finish.push_back(finish);
    }
    return res;
  }

 private:
  enum class State : uint8_t { waiting, started, done };
  struct Ready {
    int64_t rank, op;
  };
  struct Arrived {
    int64_t from, send;
  };

  const Op& op(int64_t i) const { return s_.ops[size_t(i)]; }

  // Queues what the last event made ready: rank by rank, each rank's in the
  // order it became ready, std::sort'ed by kind (not stable: LogGOPSim's
  // order of equal kinds is the one std::sort leaves).
  void queue_ready() {
    std::stable_sort(ready_.begin(), ready_.end(), [](const Ready& a, const Ready& b) { return a.rank < b.rank; });
    for (auto run = ready_.begin(); run != ready_.end();) {
      const auto end = std::find_if(run, ready_.end(), [&](const Ready& x) { return x.rank != run->rank; });
      std::sort(run, end, [this](const Ready& a, const Ready& b) { return op(a.op).kind < op(b.op).kind; });
      run = end;
    }
    for (const Ready& x : ready_) {
      const Op& o = op(x.op);
      const int64_t t = o.kind == OpKind::send ? clocks_.send_free(x.rank, o.cpu, o.nic) : clocks_.cpu_free(x.rank, o.cpu);
      queue_.push(Event{t, 0, x.op, x.rank, -1});
    }
    ready_.clear();
  }

  void release(int64_t rank, const goal::Dependents& d, int64_t i) {
    for (const int64_t* t = d.first(i); t != d.last(i); ++t)
      if (--waits_[size_t(*t)] == 0) ready_.push_back({rank, *t});
  }
  void started(int64_t rank, int64_t i) {
    state_[size_t(i)] = State::started;
    release(rank, s_.after_start, i);
  }
  void done(int64_t rank, int64_t i) {
    state_[size_t(i)] = State::done;
    release(rank, s_.after_done, i);
  }

  void handle(const Event& e) {
    if (e.from >= 0) return arrive(e);
    switch (op(e.op).kind) {
      case OpKind::calc: return run_calc(e);
      case OpKind::send: return start_send(e);
      case OpKind::recv: return post_recv(e);
    }
  }

  void run_calc(const Event& e) {
    const Op& c = op(e.op);
    if (clocks_.cpu_free(e.rank, c.cpu) > e.time) return queue_.requeue(e, clocks_.cpu_free(e.rank, c.cpu));
    int64_t cost = 0;
    if (__builtin_mul_overflow(c.size, clocks_.params().gamma, &cost))
      throw std::invalid_argument("rank " + std::to_string(e.rank) + "'s " + describe(c) + " overflows 64-bit picoseconds");
    clocks_.calc(e.rank, c.cpu, e.time, cost);
    started(e.rank, e.op);
    done(e.rank, e.op);
  }

  void start_send(const Event& e) {
    const Op& s = op(e.op);
    const int64_t free = clocks_.send_free(e.rank, s.cpu, s.nic);
    if (free > e.time) return queue_.requeue(e, free);
    started(e.rank, e.op);
    const int64_t arrival = clocks_.send(e.rank, s.cpu, s.nic, e.time, s.size);
    ++messages_;
    queue_.push(Event{arrival, 0, e.op, int64_t(s.peer), e.rank});
    if (clocks_.eager(s.size)) done(e.rank, e.op);
  }

  // A receive takes the first unexpected message it matches, else waits.
  // A rendezvous is judged by the receive's size here and by the message's
  // in arrive(), as LogGOPSim judges it.
  void post_recv(const Event& e) {
    const Op& q = op(e.op);
    started(e.rank, e.op);
    std::vector<Arrived>& waiting = unexpected_[size_t(e.rank)];
    const auto m = std::find_if(waiting.begin(), waiting.end(), [&](const Arrived& a) {
      return matches(q.peer, q.tag, uint32_t(a.from), op(a.send).tag);
    });
    if (m == waiting.end()) return posted_[size_t(e.rank)].push_back(e.op);
    const Arrived msg = *m;
    waiting.erase(m);
    if (!clocks_.eager(q.size)) rendezvous(msg.from, msg.send, q, e.time);
    done(e.rank, e.op);
  }

  void arrive(const Event& e) {
    const Op& s = op(e.op);
    const int64_t free = clocks_.message_free(e.rank, s.cpu, s.nic);
    if (free > e.time) return queue_.requeue(e, free);
    clocks_.take_message(e.rank, s.cpu, s.nic, e.time, s.size);
    std::vector<int64_t>& posted = posted_[size_t(e.rank)];
    const auto m = std::find_if(posted.begin(), posted.end(), [&](int64_t q) {
      return matches(op(q).peer, op(q).tag, uint32_t(e.from), s.tag);
    });
    if (m == posted.end()) return unexpected_[size_t(e.rank)].push_back({e.from, e.op});
    const int64_t recv = *m;
    posted.erase(m);
    if (!clocks_.eager(s.size)) rendezvous(e.from, e.op, s, e.time);
    done(e.rank, recv);
  }

  // The rendezvous send `send` of rank `from` is matched at t: done, its
  // rank's clocks of `by`'s CPU and NIC indices pushed to t.
  void rendezvous(int64_t from, int64_t send, const Op& by, int64_t t) {
    done(from, send);
    clocks_.rendezvous(from, by.cpu, by.nic, t);
  }

  void check_finished() const {
    for (int64_t r = 0; r < s_.ranks; ++r) {
      for (int64_t i = s_.first_op[size_t(r)]; i < s_.first_op[size_t(r) + 1]; ++i)
        if (state_[size_t(i)] != State::done)
          throw std::invalid_argument("the schedule does not run to its end: rank " + std::to_string(r) + "'s " +
                                      describe(op(i)) + (state_[size_t(i)] == State::waiting ? " never starts" : " never completes"));
      if (!unexpected_[size_t(r)].empty()) {
        const Arrived& a = unexpected_[size_t(r)].front();
        throw std::invalid_argument("the schedule does not run to its end: rank " + std::to_string(r) +
                                    " gets a message from rank " + std::to_string(a.from) + " (its " +
                                    describe(op(a.send)) + ") that no receive matches");
      }
    }
  }

  const goal::Schedule& s_;
  Clocks clocks_;
  std::vector<uint32_t> waits_;  // per operation: dependencies not yet met
  std::vector<State> state_;
  std::vector<std::vector<int64_t>> posted_;       // per rank: receives waiting for their message
  std::vector<std::vector<Arrived>> unexpected_;   // per rank: messages before their receive
  EventQueue<Event> queue_;
  std::vector<Ready> ready_;  // operations the current event made ready
  int64_t messages_ = 0;
};

}  // namespace

Result evaluate(const goal::Schedule& schedule, const LogGOPS& params, bool per_rank) {
  return Simulator(schedule, params).run(per_rank);
}

}  // namespace collsim::engine
