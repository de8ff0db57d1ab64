// Cross-checked against LogGOPSim itself (issue 16, item 1): for each bcast
// and allreduce plan builder at p = 64 and 1024, 32 KiB (eager) and 1 MiB
// (rendezvous), `collsim plan --format goal` went through txt2bin and
// `LogGOPSim -L 5000 -o 1000 -g 2000 -G 1` (its maximum finishing time, ns)
// and was compared with `collsim run --engine loggp --rules loggopsim --L 5e-6
// --o 1e-6 --g 2e-6 --G 1e-9 --gamma 1e-9` on the same blocks.
#include "loggopsim.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "loggops_clocks.hpp"
#include "step_costs.hpp"
#include "plan_goal.hpp"

namespace collsim::engine {

namespace {

// In LogGOPSim's order of operation types: operations made ready together
// are queued sends first, then receives, then calcs.
enum class Kind : uint8_t { send, recv, calc, message };
// What a calc is for.
enum class Calc : uint8_t { before_send, after_recv, fold };

struct Event {
  int64_t time;
  int64_t seq;  // EventQueue's
  Kind kind;
  Calc calc;
  int64_t rank;   // where it runs (a message: its receiver)
  int64_t peer;   // send: the receiver; receive and message: the sender
  int64_t bytes;  // calc: the bytes it combines
};

struct Arrived {
  int64_t from, bytes;
};

// A rank's state while it runs: the current step and its progress.
struct RankState {
  plan::StepSource source;
  plan::Step step;
  int64_t steps_done = 0;
  bool running = false;
  bool send_open = false, recv_open = false;  // the step's halves not yet ended
  bool recv_posted = false;                   // its receive waits for its message
  std::vector<Arrived> unexpected;            // messages before their receive, in arrival order
};

class Simulator {
 public:
  Simulator(const plan::Plan& plan, const BlockBytes& bytes, const LogGOPS& par)
      : header_(plan.header), bytes_(bytes), ranks_(static_cast<size_t>(plan.header.p)), clocks_(par, plan.header.p) {
    const size_t p = ranks_.size();
    for (size_t r = 0; r < p; ++r) {
      ranks_[r].source = plan.source(static_cast<int64_t>(r));
      next_step(static_cast<int64_t>(r));
      queue_ready();
    }
  }

  Result run(bool per_rank) {
    while (!queue_.empty()) {
      handle(queue_.pop());
      queue_ready();
    }
    Result res;
    res.messages = messages_;
    for (size_t r = 0; r < ranks_.size(); ++r) {
      const RankState& s = ranks_[r];
      if (s.running || !s.unexpected.empty())
        throw std::invalid_argument("the plan does not run to its end (rank " + std::to_string(r) + " waits at step " +
                                    std::to_string(s.steps_done) + "); collsim verify plan says why");
      res.time = std::max(res.time, seconds(clocks_.finish(int64_t(r))));
      if (per_rank) res.finish.push_back(seconds(clocks_.finish(int64_t(r))));
    }
    return res;
  }

 private:
  static double seconds(int64_t ps) { return static_cast<double>(ps) * 1e-12; }
  RankState& at(int64_t r) { return ranks_[static_cast<size_t>(r)]; }

  int64_t message_bytes(const plan::BlockList& blocks) const { return list_bytes(bytes_, blocks); }

  void ready(Kind kind, int64_t r, int64_t peer, int64_t bytes, Calc why = Calc::fold) {
    ready_.push_back(Event{0, 0, kind, why, r, peer, bytes});
  }

  // Queues the operations the last event made ready, by rank and kind, each
  // at the time its clocks allow (LogGOPSim's order; see the header). A
  // rank's operations made ready at once are of distinct kinds (one step's
  // first ones), so the order is total.
  void queue_ready() {
    std::sort(ready_.begin(), ready_.end(), [](const Event& a, const Event& b) {
      return a.rank != b.rank ? a.rank < b.rank : a.kind < b.kind;
    });
    for (Event& e : ready_) {
      e.time = e.kind == Kind::send ? clocks_.send_free(e.rank) : clocks_.cpu_free(e.rank);
      queue_.push(e);
    }
    ready_.clear();
  }

  // Makes rank r's next step's first operations ready, or finishes r.
  void next_step(int64_t r) {
    RankState& s = at(r);
    plan::Step& step = s.step;
    do {
      s.running = s.source(step);
      if (s.running) plan::drop_empty_halves(header_, step, [this](const plan::BlockList& b) { return message_bytes(b); });
    } while (s.running && step.send_to < 0 && step.recv_from < 0 && step.fold_blocks.empty());
    if (!s.running) {
      s.source = nullptr;  // released as the rank finishes
      s.step = {};
      return;
    }
    s.send_open = step.send_to >= 0;
    s.recv_open = step.recv_from >= 0;
    if (!step.fold_blocks.empty()) ready(Kind::calc, r, -1, message_bytes(step.fold_blocks));
    if (plan::send_ops(step.send_value) > 0 && s.send_open)
      ready(Kind::calc, r, -1, plan::send_ops(step.send_value) * message_bytes(step.send_blocks), Calc::before_send);
    else if (s.send_open)
      ready(Kind::send, r, step.send_to, message_bytes(step.send_blocks));
    if (s.recv_open) ready(Kind::recv, r, step.recv_from, message_bytes(step.recv_blocks));
  }

  void end_step(int64_t r) {
    ++at(r).steps_done;
    next_step(r);
  }
  void send_done(int64_t r) {
    RankState& s = at(r);
    s.send_open = false;
    if (!s.recv_open) end_step(r);
  }
  void recv_half_done(int64_t r) {
    RankState& s = at(r);
    s.recv_open = false;
    if (!s.send_open) end_step(r);
  }

  void handle(const Event& e) {
    switch (e.kind) {
      case Kind::calc: return run_calc(e);
      case Kind::send: return start_send(e);
      case Kind::recv: return post_recv(e);
      case Kind::message: return arrive(e);
    }
  }

  void run_calc(const Event& e) {
    if (clocks_.cpu_free(e.rank) > e.time) return queue_.requeue(e, clocks_.cpu_free(e.rank));
    clocks_.calc(e.rank, 0, e.time, e.bytes * clocks_.params().gamma);
    if (e.calc == Calc::before_send)
      ready(Kind::send, e.rank, at(e.rank).step.send_to, e.bytes);
    else if (e.calc == Calc::after_recv)
      recv_half_done(e.rank);
    else
      end_step(e.rank);
  }

  void start_send(const Event& e) {
    const int64_t free = clocks_.send_free(e.rank);
    if (free > e.time) return queue_.requeue(e, free);
    const int64_t arrival = clocks_.send(e.rank, 0, 0, e.time, e.bytes);
    ++messages_;
    queue_.push(Event{arrival, 0, Kind::message, Calc::fold, e.peer, e.rank, e.bytes});
    if (clocks_.eager(e.bytes)) send_done(e.rank);
  }

  // A posted receive takes the first message from its sender that arrived
  // before it, else waits for one.
  void post_recv(const Event& e) {
    std::vector<Arrived>& q = at(e.rank).unexpected;
    const auto m = std::find_if(q.begin(), q.end(), [&](const Arrived& a) { return a.from == e.peer; });
    if (m == q.end()) {
      at(e.rank).recv_posted = true;
      return;
    }
    const int64_t bytes = m->bytes;
    q.erase(m);
    matched(e.rank, e.peer, bytes, e.time);
  }

  void arrive(const Event& e) {
    const int64_t free = clocks_.message_free(e.rank);
    if (free > e.time) return queue_.requeue(e, free);
    clocks_.take_message(e.rank, 0, 0, e.time, e.bytes);
    RankState& s = at(e.rank);
    if (s.recv_posted && s.step.recv_from == e.peer) {
      s.recv_posted = false;
      matched(e.rank, e.peer, e.bytes, e.time);
    } else {
      s.unexpected.push_back({e.peer, e.bytes});
    }
  }

  // Receiver r's current receive meets the message from `from` at time t.
  void matched(int64_t r, int64_t from, int64_t bytes, int64_t t) {
    RankState& s = at(r);
    if (bytes != message_bytes(s.step.recv_blocks))
      throw std::invalid_argument("rank " + std::to_string(r) + " receives " + std::to_string(bytes) +
                                  " bytes from rank " + std::to_string(from) + " where its step expects " +
                                  std::to_string(message_bytes(s.step.recv_blocks)));
    if (!clocks_.eager(bytes)) {  // rendezvous: the sender waited for this match
      clocks_.rendezvous(from, 0, 0, t);
      send_done(from);
    }
    if (!plan::combines(s.step.combine))
      recv_half_done(r);
    else
      ready(Kind::calc, r, -1, bytes, Calc::after_recv);
  }

  const plan::Header header_;
  const BlockBytes& bytes_;
  std::vector<RankState> ranks_;
  Clocks clocks_;
  EventQueue<Event> queue_;
  std::vector<Event> ready_;  // operations the current event made ready
  int64_t messages_ = 0;
};

}  // namespace

int64_t picoseconds(double seconds) { return std::llround(seconds * 1e12); }

BlockBytes goal_blocks(const plan::Header& h, int64_t bytes) { return BlockBytes::units(h, bytes, 1); }

LogGOPS LogGOPS::of(const Machine& m) {
  LogGOPS par;
  par.L = picoseconds(m.alpha), par.o = picoseconds(m.o), par.g = picoseconds(m.g);
  par.G = picoseconds(m.beta), par.gamma = picoseconds(m.gamma);
  return par;
}

Result evaluate(const plan::Plan& plan, const BlockBytes& block_bytes, const LogGOPS& params, bool per_rank) {
  require_lock_step(plan.header);
  return Simulator(plan, block_bytes, params).run(per_rank);
}

}  // namespace collsim::engine
