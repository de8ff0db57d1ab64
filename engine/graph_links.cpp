#include "graph_links.hpp"

#include <functional>
#include <queue>
#include <set>
#include <stdexcept>
#include <string>
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
};

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
        send_call_(pf.has_overheads() ? pf.send_overhead() : 0),
        send_byte_(platforms::bytes_on_links(pf) ? 0 : pf.beta),
        recv_call_(pf.recv_overhead()),
        envelope_(static_cast<double>(pf.envelope)),
        actors_(static_cast<size_t>(p_)) {
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
      if (next_own <= next_flow)
        events_.drain([now](const Event& e) { return e.time <= now; },
                      [this](const Event& e) { e.step >= 0 ? post(e.rank, e.step) : wait_any(e.rank); });
    }
    return result(per_rank);
  }

 private:
  // A send posted (step >= 0) or an actor reaching MPI_Waitany (step -1),
  // at `time`; at one time posts come first (a Waitany sees the detached
  // send its actor has just posted), then in the order queued.
  struct Event {
    double time;
    int64_t rank, step;
    uint64_t seq;
    bool operator>(const Event& o) const {
      if (time != o.time) return time > o.time;
      if ((step < 0) != (o.step < 0)) return step < 0;
      return seq > o.seq;
    }
  };

  Actor& at(int64_t r) { return actors_[static_cast<size_t>(r)]; }

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
      }
      if (a.waits.waiting[k] == 0) a.ready.push(static_cast<int64_t>(k));
    }
  }

  void queue(double time, int64_t rank, int64_t step) { events_.push({time, rank, step, seq_++}); }

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
    if (a.complete < a.steps.size()) queue(a.clock, r, -1);
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
    a.clock += s.cost.before;
    if (s.cost.send_to >= 0) {
      if (eager(s.cost.send_bytes)) a.clock += send_call_ + send_byte_ * static_cast<double>(s.cost.send_bytes);
      queue(a.clock, r, k);
    }
    if (s.cost.recv_from < 0) {
      a.clock += s.cost.after;
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
      a.clock += s.cost.after;
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
  void post(int64_t r, int64_t k) {
    const GraphStep& s = at(r).steps[static_cast<size_t>(k)];
    const int64_t to = s.cost.send_to;
    const std::vector<int64_t>& receives = at(to).receives[r];
    const size_t nth = at(r).sends[to]++;
    if (nth >= receives.size())
      throw std::invalid_argument("rank " + std::to_string(r) + " sends to " + std::to_string(to) +
                                  " more messages than it receives from it; collsim verify plan says why");
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
      queue(net_.now(), r, -1);
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
      if (s.eager_in) a.clock += recv_call_;
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
  double send_call_;  // an eager send's sleep: max(o, g) with overheads
  double send_byte_;  // and a byte's, where the sender pays the bytes (G; smpi/ois's per-byte factor)
  double recv_call_;  // an eager receive's: o
  double envelope_;
  std::vector<Actor> actors_;
  FluidNetwork net_;
  DueQueue<Event> events_;
  uint64_t seq_ = 0;
  std::vector<Flight> flights_;  // by flow id
  std::vector<int64_t> route_;
  std::vector<FluidNetwork::LinkId> hops_;
  int64_t messages_ = 0;
};

}  // namespace

namespace {

// Every rank's steps are held at once: counted first, a rank at a time, and
// refused past `max_steps` (about 128 bytes each with their requirements
// and costs) before any is kept.
void check_graph_size(const plan::Plan& plan, int64_t max_steps) {
  int64_t total = 0;
  for (int64_t r = 0; r < plan.header.p; ++r) {
    total += static_cast<int64_t>(plan.steps(r).size());
    if (total > max_steps)
      throw LimitError("a graph plan of more than " + std::to_string(max_steps) + " steps in all (about " +
                       std::to_string((max_steps * 128) >> 20) +
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
