#include "graph_links.hpp"

#include <functional>
#include <queue>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "due_queue.hpp"
#include "errors.hpp"
#include "fluid.hpp"
#include "routes.hpp"
#include "shared_links.hpp"
#include "step_costs.hpp"

namespace collsim::engine {

namespace {

struct GraphStep {
  StepCost cost;
  bool started = false, sent = true, arrived = true, applied = false, done = false;
  bool eager_in = false;  // its message came eagerly (its request costs o)
  int64_t posted_in = 0;  // the sub-round of its receive's MPI_Irecv at the start (1, 2, ..)
};

// A ⊕ (an execution) or a sleep (an overhead) of a rank on its node's CPU:
// when it started and ended, in which order it was charged (`seq`).
struct CpuAction {
  double start = -1, end = -1;
  uint64_t seq = 0;
  bool sleep = false;
};

// Where a rank resumes among those that run at one instant (GraphEvaluator::
// place): woken by a message or not, when its CPU action was last stamped,
// a sleep (0) or an execution (1), its node, minus its start, the order the
// actions or messages came in.
using Place = std::tuple<int, double, int, int64_t, double, uint64_t>;

// One rank: its steps and the state of plan_executor.cpp's run_graph.
struct Actor {
  std::vector<GraphStep> steps;
  plan::StepWaits waits;
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<>> ready;
  std::set<int64_t> detached;   // finished eager sends' requests, not yet returned by Waitany
  std::set<int64_t> completed;  // other finished requests, not yet returned
  std::unordered_map<int64_t, std::vector<int64_t>> receives;  // peer -> its receive steps, plan order
  std::unordered_map<int64_t, size_t> sends;                   // peer -> sends posted to it so far
  double clock = 0;
  size_t complete = 0;
  bool blocked = false;  // in Waitany with nothing finished
  CpuAction cpu;         // its latest ⊕ or sleep
  // Its MPI calls at instant `calls_at` so far: SimGrid runs an instant
  // in sub-rounds, each actor up to its next simcall (see take_instant).
  double calls_at = 0;
  int64_t calls = 0;
  // Where it resumes among the ranks that run at instant `placed_at`.
  double placed_at = -1;
  Place place;
  bool waking = false;    // woken from Waitany, not yet returned
  int64_t woken_by = -1;  // the request Waitany returns then
};

// A message in flight: its send and receive steps, and whether it is eager.
struct Flight {
  int64_t from, from_step, to, to_step;
  bool eager;
};

class GraphEvaluator {
 public:
  GraphEvaluator(const plan::Plan& plan, const BlockBytes& bytes, const Machine& pf, bool shared)
      : p_(plan.header.p),
        shared_(shared),
        routes_(pf),
        eager_below_(pf.eager_below()),
        sub_rounds_(!(pf.has_overheads() && pf.eager_below() > 0)),
        send_call_(pf.has_overheads() ? pf.send_overhead() : 0),
        send_byte_(platforms::bytes_on_links(pf) ? 0 : pf.beta),
        recv_call_(pf.recv_overhead()),
        envelope_(static_cast<double>(pf.envelope)),
        actors_(static_cast<size_t>(p_)),
        cpu_changes_(static_cast<size_t>(routes_.nodes())) {
    net_.solve_every_message();  // MPI_Waitany's order: see the header
    add_links(routes_, net_);
    PlanSteps costs(plan, bytes, pf.gamma);
    for (int64_t r = 0; r < p_; ++r) load(plan, costs, r);
    for (int64_t r = 0; r < p_; ++r) drain(r);
  }

  Result run(bool per_rank) {
    std::vector<FluidNetwork::Finished> finished;
    for (;;) {
      const double next_own = events_.empty() ? FluidNetwork::kNever : events_.top().time;
      const double next_flow = net_.next_event();
      if (next_own == FluidNetwork::kNever && next_flow == FluidNetwork::kNever) break;
      finished.clear();
      net_.advance_to(std::min(next_own, next_flow), finished);
      for (const FluidNetwork::Finished& f : finished) arrive(f.flow);
      const double now = net_.now();
      if (next_own <= next_flow) take_instant(now);
    }
    return result(per_rank);
  }

 private:
  static constexpr int64_t kWaitany = -1;
  // A send posted (step >= 0) or an actor calling MPI_Waitany, at `time`,
  // in SimGrid's sub-round `round` of that instant, by the MPI call of rank
  // `by` (the sender's MPI_Start; at the start, the receiver's MPI_Irecv
  // where that comes later).
  struct Event {
    double time;
    int64_t rank, step;
    uint64_t seq;
    int64_t round, by;
    CpuAction cpu;  // the rank resumes from it at `time`; start -1: from nothing on the CPU
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };
  // The order of an instant's events: by sub-round, then as their ranks
  // resume (place), then as queued.
  struct InInstant {
    int64_t round;
    Place place;
    Event e;
    bool operator>(const InInstant& o) const {
      return std::tie(round, place, e.seq) > std::tie(o.round, o.place, o.e.seq);
    }
  };

  Actor& at(int64_t r) { return actors_[static_cast<size_t>(r)]; }

  // The events of instant `now` as SimGrid runs them. It wakes the ranks
  // whose CPU actions end now, then those whose messages end now, and runs
  // them in sub-rounds: in each, every rank runs up to its next MPI call
  // that is a simcall (MPI_Irecv, MPI_Start, MPI_Waitany; an ⊕ or a sleep
  // ends its instant), and the calls are then handled in the order the
  // ranks ran; a rank whose call is answered at once runs again in the next
  // sub-round, in the same order. So two messages posted at one instant
  // start in the order of (sub-round, rank's place), which decides which of
  // them SimGrid finishes first when they end together (fluid.hpp), and so
  // what MPI_Waitany returns (at p = 6 on two nodes of 3 cores, a rank
  // that posts its 4 receives before its first send starts it after a
  // peer that posts 2).
  void take_instant(double now) {
    in_instant_ = true;
    events_.drain([now](const Event& e) { return e.time <= now; }, [this, now](const Event& e) { enter_instant(e, now); });
    while (!instant_.empty()) {
      const Event e = instant_.top().e;
      instant_.pop();
      e.step >= 0 ? post(e) : wait_any(e.rank);
    }
    in_instant_ = false;
  }

  void enter_instant(const Event& e, double now) {
    if (sub_rounds_)
      instant_.push({e.round, place(e.by, e.by == e.rank ? e.cpu : CpuAction{}, e.seq, now), e});
    else  // posts first, then Waitany calls, each in the order queued
      instant_.push({e.step >= 0 ? 0 : 1, {1, 0, 0, 0, 0, e.seq}, e});
  }

  // Where rank r resumes at instant `now` (its first event there decides):
  // SimGrid ends the CPU model's actions before the network's, each model's
  // in its heap's order, by date, then by when the action was last stamped
  // (a stable heap, re-stamped on update). A sleep is stamped once, in the
  // step it starts, ahead of that step's executions and the last started
  // first (Model's modified set, pushed to its front: CpuCas01::sleep). An
  // execution is re-stamped at each solve of its node's CPU, so in the last
  // step before `now` in which an action started or ended there; a node's
  // executions newest first (the constraint's enabled elements), nodes
  // stamped in one step in the order of their numbers (SimGrid's is the
  // order in which their CPUs changed in that step: not followed). Ranks
  // woken by messages come last, in the order the messages ended; at the
  // start, every rank wakes from the harness's sleep in rank order.
  Place place(int64_t r, const CpuAction& cpu, uint64_t seq, double now) {
    Actor& a = at(r);
    if (a.placed_at == now) return a.place;
    a.placed_at = now;
    if (cpu.start >= 0 && cpu.end == now && cpu.sleep)
      a.place = {0, cpu.start, 0, 0, 0, ~cpu.seq};
    else if (cpu.start >= 0 && cpu.end == now)
      a.place = {0, last_cpu_change(routes_.node_of(r), now), 1, routes_.node_of(r), -cpu.start, ~cpu.seq};
    else
      a.place = {1, 0, 0, 0, 0, now == 0 ? static_cast<uint64_t>(r) : seq};
    return a.place;
  }

  // The last instant before `now` at which an action started or ended on
  // `node`'s CPU (those before it are no longer needed).
  double last_cpu_change(int64_t node, double now) {
    std::set<double>& changes = cpu_changes_[static_cast<size_t>(node)];
    auto last = changes.lower_bound(now);
    if (last == changes.begin()) throw std::logic_error("an execution ending now that did not start before");
    --last;
    changes.erase(changes.begin(), last);
    return *last;
  }

  // Rank r's steps: their costs in plan order (PlanSteps keeps the
  // holdings as the executor does; the requirements order every two writes
  // of a block, so any order they allow sees the same holdings), their
  // requirements, and its receives by peer.
  void load(const plan::Plan& plan, PlanSteps& costs, int64_t r) {
    Actor& a = at(r);
    const std::vector<plan::Step> steps = plan.steps(r);
    a.waits = plan::step_waits(plan.header, steps);
    a.steps.resize(steps.size());
    for (size_t k = 0; k < steps.size(); ++k) {
      GraphStep& s = a.steps[k];
      if (!costs.next(r, s.cost)) throw std::logic_error("a rank's step costs end before its steps");
      if (s.cost.recv_from >= p_ || s.cost.send_to >= p_)
        throw std::invalid_argument("the plan names a rank past p; collsim verify plan says why");
      if (s.cost.recv_from >= 0) {
        a.receives[s.cost.recv_from].push_back(static_cast<int64_t>(k));
        s.arrived = false;
        s.posted_in = ++a.calls;  // run_graph posts every receive first, in plan order
      }
      if (a.waits.waiting[k] == 0) a.ready.push(static_cast<int64_t>(k));
    }
    // The call past the last step releases r's step source, which holds
    // the rank's steps whole for an overlapped plan (plan::overlapped):
    // kept, every rank's stayed, about 135 bytes a step (kGraphStepBytes).
    StepCost past_last;
    if (costs.next(r, past_last)) throw std::logic_error("a rank's step costs outlast its steps");
  }

  // Rank r's next simcall at its clock: its sub-round there.
  int64_t next_call(Actor& a) {
    if (a.calls_at != a.clock) {
      a.calls_at = a.clock;
      a.calls = 0;
    }
    return ++a.calls;
  }

  // An event of rank r at its clock, its next simcall.
  void queue(int64_t r, int64_t step) {
    Actor& a = at(r);
    push({a.clock, r, step, seq_++, next_call(a), r, a.cpu.end == a.clock ? a.cpu : CpuAction{}});
  }

  void push(const Event& e) {
    if (in_instant_ && e.time == net_.now())
      enter_instant(e, e.time);
    else
      events_.push(e);
  }

  // Rank r spends `seconds` on its node's CPU from its clock: a ⊕ (an
  // execution) or, with `sleep`, an overhead (SMPI sleeps smpi/os, smpi/or).
  void compute(int64_t r, double seconds, bool sleep) {
    if (seconds <= 0) return;
    Actor& a = at(r);
    a.cpu = {a.clock, a.clock + seconds, seq_++, sleep};
    std::set<double>& changes = cpu_changes_[static_cast<size_t>(routes_.node_of(r))];
    changes.insert(a.cpu.start);
    changes.insert(a.cpu.end);
    a.clock = a.cpu.end;
  }

  // Starts rank r's ready steps, lowest index first, then calls Waitany
  // (an event at its clock) unless the rank is done.
  void drain(int64_t r) {
    Actor& a = at(r);
    while (!a.ready.empty()) {
      const int64_t k = a.ready.top();
      a.ready.pop();
      start(r, k);
      settle(r, k);
    }
    if (a.complete < a.steps.size()) queue(r, kWaitany);
  }

  // The executor's start(): the ⊕ before a send, MPI_Start's sleep (an
  // eager send's max(o, g); a rendezvous one sleeps nothing) and the send's
  // posting (an event at that time); a step without a receive does its ⊕
  // (a fold or join) now.
  void start(int64_t r, int64_t k) {
    Actor& a = at(r);
    GraphStep& s = a.steps[static_cast<size_t>(k)];
    s.started = true;
    s.sent = s.cost.send_to < 0;
    compute(r, s.cost.before, false);
    if (s.cost.send_to >= 0) {
      if (eager(s.cost.send_bytes)) compute(r, send_call_ + send_byte_ * static_cast<double>(s.cost.send_bytes), true);
      queue(r, k);
    }
    if (s.cost.recv_from < 0) {
      compute(r, s.cost.after, false);
      s.applied = true;
    }
  }

  // The executor's settle(): a started step's message takes effect (its ⊕
  // after) once arrived; a step whose halves are done completes.
  void settle(int64_t r, int64_t k) {
    Actor& a = at(r);
    GraphStep& s = a.steps[static_cast<size_t>(k)];
    if (!s.started || s.done) return;
    if (s.arrived && !s.applied) {
      compute(r, s.cost.after, false);
      s.applied = true;
    }
    if (!s.sent || !s.applied) return;
    s.done = true;
    ++a.complete;
    for (int64_t d : a.waits.dependents[static_cast<size_t>(k)])
      if (--a.waits.waiting[static_cast<size_t>(d)] == 0) a.ready.push(d);
  }

  bool eager(int64_t bytes) const { return bytes < eager_below_; }

  // Rank r posts step k's send now: it meets the receiver's next receive
  // from r; an eager send's request is done at once (detached).
  void post(const Event& e) {
    const int64_t r = e.rank, k = e.step;
    const GraphStep& s = at(r).steps[static_cast<size_t>(k)];
    const int64_t to = s.cost.send_to;
    const std::vector<int64_t>& receives = at(to).receives[r];
    const size_t nth = at(r).sends[to];
    if (nth >= receives.size())
      throw std::invalid_argument("rank " + std::to_string(r) + " sends to " + std::to_string(to) +
                                  " more messages than it receives from it; collsim verify plan says why");
    // At the start the receive may be posted in a later sub-round: the
    // message starts then, by the receiver's MPI_Irecv.
    const int64_t posted_in = at(to).steps[static_cast<size_t>(receives[nth])].posted_in;
    if (sub_rounds_ && net_.now() == 0 && posted_in > e.round) {
      Event later = e;
      later.round = posted_in;
      later.by = to;
      return enter_instant(later, 0);
    }
    ++at(r).sends[to];
    const double latency = routes_.route(routes_.node_of(r), routes_.node_of(to), route_);
    const double size = static_cast<double>(s.cost.send_bytes) + envelope_;
    FluidNetwork::FlowId f;
    if (shared_) {
      hops_.assign(route_.begin(), route_.end());
      f = net_.start(hops_, latency, size);
    } else {  // --contention off: a pure delay of the message's time alone
      f = net_.start(nullptr, 0, alone_seconds(routes_, route_, latency, size), size);
    }
    if (flights_.size() <= f) flights_.resize(f + 1);
    flights_[f] = {r, k, to, receives[nth], eager(s.cost.send_bytes)};
    ++messages_;
    if (flights_[f].eager) finish(r, 2 * k, true);
  }

  // A message has arrived: its receive's request is done, and a
  // rendezvous send's.
  void arrive(FluidNetwork::FlowId f) {
    const Flight m = flights_[f];
    at(m.to).steps[static_cast<size_t>(m.to_step)].eager_in = m.eager;
    finish(m.to, 2 * m.to_step + 1, false);
    if (!m.eager) finish(m.from, 2 * m.from_step, false);
  }

  // Request `index` of rank r is done now; a rank blocked in Waitany wakes.
  void finish(int64_t r, int64_t index, bool detached) {
    Actor& a = at(r);
    (detached ? a.detached : a.completed).insert(index);
    if (a.blocked) {
      a.blocked = false;
      a.waking = true;
      // Answered as the instant begins: the rank runs in its first sub-round.
      a.calls_at = net_.now();
      a.calls = 0;
      push({net_.now(), r, kWaitany, seq_++, 0, r, CpuAction{}});
    }
    if (a.waking && a.woken_by < 0) a.woken_by = index;
  }

  // MPI_Waitany at rank r now: a finished detached send first, else the
  // lowest finished request; an eager receive's costs o. Nothing finished:
  // the rank sleeps until a request finishes, and that one is returned
  // (SimGrid wakes the waiter with the first activity it finishes, which
  // need not be the lowest index of those finishing at one instant).
  void wait_any(int64_t r) {
    Actor& a = at(r);
    a.clock = std::max(a.clock, net_.now());
    std::set<int64_t>& from = !a.detached.empty() ? a.detached : a.completed;
    if (from.empty()) {
      a.blocked = true;
      return;
    }
    const int64_t index = a.waking ? a.woken_by : *from.begin();
    (a.detached.count(index) ? a.detached : a.completed).erase(index);
    a.waking = false;
    a.woken_by = -1;
    GraphStep& s = a.steps[static_cast<size_t>(index / 2)];
    if (index % 2 == 1) {
      s.arrived = true;
      if (s.eager_in) compute(r, recv_call_, true);
    } else {
      s.sent = true;
    }
    settle(r, index / 2);
    drain(r);
  }

  Result result(bool per_rank) {
    Result res;
    res.messages = messages_;
    for (int64_t r = 0; r < p_; ++r) {
      const Actor& a = at(r);
      if (a.complete < a.steps.size())
        throw std::invalid_argument("the plan does not run to its end (rank " + std::to_string(r) + " has " +
                                    std::to_string(a.steps.size() - a.complete) +
                                    " steps left); collsim verify plan says why");
      res.time = std::max(res.time, a.clock);
      if (per_rank) res.finish.push_back(a.clock);
    }
    return res;
  }

  int64_t p_;
  bool shared_;  // false: every message alone (--contention off)
  platforms::Routes routes_;
  int64_t eager_below_;
  // Whether SMPI posts a message in one simcall (MPI_Irecv, MPI_Start), so
  // that take_instant's sub-rounds say which message starts first. With an
  // eager limit (smpi/async-small-thresh: LogGP platforms) each posting
  // also locks the receiver's mailbox mutex and probes its mailboxes, 3 to 5
  // simcalls, the lock waiting while another rank holds it: not modelled,
  // so there an instant's posts come first, then its Waitany calls, each in
  // the order queued.
  bool sub_rounds_;
  double send_call_;  // an eager send's sleep: max(o, g) with overheads
  double send_byte_;  // and a byte's, where the sender pays the bytes (G; smpi/ois's per-byte factor)
  double recv_call_;  // an eager receive's: o
  double envelope_;
  std::vector<Actor> actors_;
  FluidNetwork net_;
  DueQueue<Event> events_;
  uint64_t seq_ = 0;
  bool in_instant_ = false;
  std::priority_queue<InInstant, std::vector<InInstant>, std::greater<>> instant_;
  std::vector<std::set<double>> cpu_changes_;  // by node: when an action started or ended
  std::vector<Flight> flights_;  // by flow id
  std::vector<int64_t> route_;
  std::vector<FluidNetwork::LinkId> hops_;
  int64_t messages_ = 0;
};

}  // namespace

namespace {

// Every rank's steps are held at once: counted first, a rank at a time, and
// refused past `max_steps` (kGraphStepBytes each) before any is kept.
void check_graph_size(const plan::Plan& plan, int64_t max_steps) {
  int64_t total = 0;
  for (int64_t r = 0; r < plan.header.p; ++r) {
    total += static_cast<int64_t>(plan.steps(r).size());
    if (total > max_steps)
      throw LimitError("a graph plan of more than " + std::to_string(max_steps) + " steps in all (about " +
                       std::to_string((max_steps * kGraphStepBytes) >> 20) +
                       " MiB held at once) is past the engine's limit for graphs; time it in SMPI");
  }
}

}  // namespace

Result evaluate_graph(const plan::Plan& plan, const BlockBytes& block_bytes, const Machine& pf, bool per_rank,
                      bool shared, int64_t max_steps) {
  if (!plan.header.graph) throw std::invalid_argument("a lock-step plan: evaluate or evaluate_shared time it");
  check_graph_size(plan, max_steps);
  return GraphEvaluator(plan, block_bytes, pf, shared).run(per_rank);
}

}  // namespace collsim::engine
