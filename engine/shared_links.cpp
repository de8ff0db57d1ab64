#include "shared_links.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <stdexcept>
#include <string>
#include <vector>

#include "fluid.hpp"
#include "routes.hpp"
#include "step_costs.hpp"

namespace collsim::engine {

namespace {

constexpr int64_t kNone = -1;

// A rank's current step.
struct Rank {
  double post = 0;   // when its halves are posted (the step's start plus ⊕ and
                     // send call); finished: the finish
  double ready = 0;  // the latest of post and its halves' ends so far
  double after = 0;  // its ⊕ after the halves
  int64_t send_to = kNone, recv_from = kNone, send_bytes = 0;
  int64_t steps_done = 0;
  int64_t after_bytes = 0;  // with a sink
  bool posted = false, finished = false;
  int halves = 0;  // halves not yet ended
};

// A message in flight, by its flow.
struct Message {
  int64_t from = 0, to = 0;
  double start = 0;
};

class SharedEvaluator {
 public:
  SharedEvaluator(const plan::Plan& plan, const BlockBytes& bytes, const Machine& pf, bool shared, EventSink* sink)
      : p_(plan.header.p),
        shared_(shared),
        steps_(plan, bytes, pf.gamma),
        routes_(pf),
        send_call_(pf.has_overheads() ? pf.send_overhead() : 0),
        envelope_(static_cast<double>(pf.envelope)),
        ranks_(static_cast<size_t>(p_)),
        sink_(sink) {
    for (int64_t l = 0; l < routes_.links(); ++l) {
      const platforms::Link link = routes_.link(l);
      net_.add_link(link.bandwidth, link.sharing == platforms::Link::Sharing::fatpipe ? FluidNetwork::Sharing::fatpipe
                                                                                      : FluidNetwork::Sharing::shared);
    }
    for (int64_t r = 0; r < p_; ++r) start_step(r, 0);
  }

  Result run(bool per_rank) {
    std::vector<FluidNetwork::Finished> finished;
    for (;;) {
      const double next_post = posts_.empty() ? FluidNetwork::kNever : posts_.top().time;
      const double next_flow = std::min(net_.next_event(), alone_.empty() ? FluidNetwork::kNever : alone_.top().time);
      if (next_post == FluidNetwork::kNever && next_flow == FluidNetwork::kNever) break;
      finished.clear();
      net_.advance_to(std::min(next_post, next_flow), finished);
      for (const FluidNetwork::Finished& f : finished) arrive(f.flow, f.time);
      while (!alone_.empty() && alone_.top().time <= net_.now()) {
        const Arrival a = alone_.top();
        alone_.pop();
        free_ids_.push_back(a.id);
        arrive(a.id, a.time);
      }
      if (next_post <= next_flow)
        while (!posts_.empty() && posts_.top().time <= net_.now()) {
          const int64_t r = posts_.top().rank;
          posts_.pop();
          post(r);
        }
    }
    return result(per_rank);
  }

 private:
  struct PostEvent {
    double time;
    int64_t rank;
    bool operator>(const PostEvent& o) const { return time > o.time || (time == o.time && rank > o.rank); }
  };
  // A message timed alone (--contention off): its arrival.
  struct Arrival {
    double time;
    uint32_t id;
    bool operator>(const Arrival& o) const { return time > o.time || (time == o.time && id > o.id); }
  };

  Rank& at(int64_t r) { return ranks_[static_cast<size_t>(r)]; }
  int64_t peer(int64_t rank) const {
    if (rank >= p_)
      throw std::invalid_argument("the plan names rank " + std::to_string(rank) + " of " + std::to_string(p_) +
                                  "; collsim verify plan says why");
    return rank < 0 ? kNone : rank;
  }

  // Takes rank r's next step at time t (its previous one complete and its
  // ⊕ done) and schedules its posting; finishes r at t when none is left.
  // Steps without halves (a fold, a join) complete at their posting.
  void start_step(int64_t r, double t) {
    Rank& s = at(r);
    for (;;) {
      StepCost c;
      if (!steps_.next(r, c)) {
        s.finished = true;
        s.post = t;
        return;
      }
      s.send_to = peer(c.send_to), s.recv_from = peer(c.recv_from), s.send_bytes = c.send_bytes;
      if (sink_ && c.before_bytes > 0) sink_->combine({r, c.before_bytes, s.steps_done, t, t + c.before});
      s.after = c.after, s.after_bytes = c.after_bytes;
      s.halves = (s.send_to != kNone ? 1 : 0) + (s.recv_from != kNone ? 1 : 0);
      s.posted = false;
      s.post = s.ready = t + c.before + (s.halves == 2 ? send_call_ : 0);
      if (s.halves > 0) {
        posts_.push({s.post, r});
        return;
      }
      t = complete(r);
    }
  }

  // The step of rank r has ended its halves: its ⊕ after, then the next
  // step's start. Returns that start.
  double complete(int64_t r) {
    Rank& s = at(r);
    if (sink_ && s.after_bytes > 0) sink_->combine({r, s.after_bytes, s.steps_done, s.ready, s.ready + s.after});
    ++s.steps_done;
    return s.ready + s.after;
  }

  // Rank r's halves are posted now: each starts its message where the
  // peer's current step holds the other half, already posted.
  void post(int64_t r) {
    Rank& s = at(r);
    s.posted = true;
    if (s.send_to != kNone) match(r, s.send_to);
    if (s.recv_from != kNone) match(s.recv_from, r);
  }

  void match(int64_t from, int64_t to) {
    Rank &sender = at(from), &receiver = at(to);
    if (!sender.posted || !receiver.posted || sender.send_to != to || receiver.recv_from != from) return;
    const double latency = routes_.route(routes_.node_of(from), routes_.node_of(to), route_);
    const double bytes = static_cast<double>(sender.send_bytes) + envelope_;
    FluidNetwork::FlowId f;
    if (shared_) {
      hops_.assign(route_.begin(), route_.end());
      f = net_.start(hops_, latency, bytes);
    } else {
      f = start_alone(latency, bytes);
    }
    if (messages_.size() <= f) messages_.resize(f + 1);
    messages_[f] = {from, to, net_.now()};
    if (sink_)
      traced_.resize(messages_.size()),
          traced_[f] = {from, to, sender.send_bytes, sender.steps_done, sender.post, net_.now(), 0, 0, 0};
    sender.send_to = receiver.recv_from = kNone;
    ++count_;
  }

  // A message on the route in route_ as if no other shared its links: its
  // latency, then the slowest link's whole bandwidth (SimGrid's bound for a
  // flow alone). Returns its id (a freed one where there is one).
  uint32_t start_alone(double latency, double bytes) {
    double bandwidth = FluidNetwork::kNever;
    for (int64_t l : route_) bandwidth = std::min(bandwidth, routes_.link(l).bandwidth);
    uint32_t id = static_cast<uint32_t>(messages_.size());
    if (!free_ids_.empty()) id = free_ids_.back(), free_ids_.pop_back();
    alone_.push({net_.now() + latency + (route_.empty() ? 0 : bytes / bandwidth), id});
    return id;
  }

  // The message of flow f has arrived at time t: both of its halves end.
  void arrive(FluidNetwork::FlowId f, double t) {
    const Message m = messages_[f];
    if (sink_) {
      MessageEvent e = traced_[f];
      e.end = e.sender_done = e.receiver_done = t;
      sink_->message(e);
    }
    for (int64_t r : {m.from, m.to}) {
      Rank& s = at(r);
      s.ready = std::max(s.ready, t);
      if (--s.halves == 0) start_step(r, complete(r));
    }
  }

  Result result(bool per_rank) {
    Result res;
    res.messages = count_;
    for (int64_t r = 0; r < p_; ++r) {
      const Rank& s = at(r);
      if (!s.finished)
        throw std::invalid_argument("the plan does not run to its end (rank " + std::to_string(r) + " waits at step " +
                                    std::to_string(s.steps_done) + "); collsim verify plan says why");
      res.time = std::max(res.time, s.post);
      if (per_rank) res.finish.push_back(s.post);
    }
    return res;
  }

  int64_t p_;
  bool shared_;  // false: every message alone (--contention off)
  PlanSteps steps_;
  platforms::Routes routes_;
  double send_call_;  // seconds in a send call before its message is posted:
                      // max(o, g) with overheads
  double envelope_;
  std::vector<Rank> ranks_;
  FluidNetwork net_;
  std::priority_queue<PostEvent, std::vector<PostEvent>, std::greater<>> posts_;
  std::priority_queue<Arrival, std::vector<Arrival>, std::greater<>> alone_;
  std::vector<uint32_t> free_ids_;    // alone messages' ids to reuse
  std::vector<Message> messages_;     // by flow id
  std::vector<MessageEvent> traced_;  // by flow id, with a sink
  std::vector<int64_t> route_;
  std::vector<FluidNetwork::LinkId> hops_;
  int64_t count_ = 0;
  EventSink* sink_;
};

}  // namespace

bool shares_links(const Machine& pf) {
  return platforms::bytes_on_links(pf) &&
         (pf.cores_per_node > 1 || pf.topology.kind != platforms::Topology::Kind::flat || !pf.full_duplex);
}

Result evaluate_shared(const plan::Plan& plan, const BlockBytes& block_bytes, const Machine& pf, bool per_rank,
                       EventSink* sink, bool shared) {
  if (!platforms::bytes_on_links(pf))
    throw std::invalid_argument("a flat LogGP platform's senders pay the bytes: its links share nothing");
  return SharedEvaluator(plan, block_bytes, pf, shared, sink).run(per_rank);
}

}  // namespace collsim::engine
