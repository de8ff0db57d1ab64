#include "shared_links.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "due_queue.hpp"
#include "errors.hpp"
#include "fluid.hpp"
#include "routes.hpp"
#include "step_costs.hpp"
#include "work_estimate.hpp"

namespace collsim::engine {

namespace {

constexpr int64_t kNone = -1;

// A rank's current step.
struct Rank {
  double call = 0;   // when its step calls MPI (the step's start plus ⊕)
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

constexpr uint32_t kNil = UINT32_MAX;

// An eager message not yet received, in its receiver's inbox (a list in
// send order): its sender, its arrival (kNever while in flight) and the
// next message of the inbox.
struct Unreceived {
  int64_t from;
  double arrival;
  uint32_t next;
};

// A message in flight, by its flow; an eager one's place in the inbox pool.
// Ranks as 32 bits (p < 2^31): 12 bytes, read once a message in the order
// messages end, which scatters them.
struct Message {
  int32_t from = 0, to = 0;
  uint32_t eager = kNil;
};

class SharedEvaluator {
 public:
  SharedEvaluator(const plan::Plan& plan, const BlockBytes& bytes, const Machine& pf, bool shared, EventSink* sink,
                  const SolveBudget& budget)
      : p_(plan.header.p),
        shared_(shared),
        steps_(plan, bytes, pf.gamma),
        routes_(pf),
        eager_below_(pf.eager_below()),
        send_call_(pf.has_overheads() ? pf.send_overhead() : 0),
        recv_call_(pf.recv_overhead()),
        envelope_(static_cast<double>(pf.envelope)),
        ranks_(static_cast<size_t>(p_)),
        inbox_(eager_below_ > 0 ? static_cast<size_t>(p_) : 0, {kNil, kNil}),
        max_solved_hops_(budget.max_solved_hops),
        sink_(sink) {
    add_links(routes_, net_);
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
      check_budget();
      for (const FluidNetwork::Finished& f : finished) arrive(f.flow, f.time);
      const double now = net_.now();
      alone_.drain([now](const Arrival& a) { return a.time <= now; },
                   [this](const Arrival& a) {
                     free_ids_.push_back(a.id);
                     arrive(a.id, a.time);
                   });
      if (next_post <= next_flow)
        posts_.drain([now](const PostEvent& e) { return e.time <= now; }, [this](const PostEvent& e) { post(e.rank); });
    }
    return result(per_rank);
  }

 private:
  struct PostEvent {
    double time;
    int64_t rank;
    bool operator>(const PostEvent& o) const { return time > o.time || (time == o.time && rank > o.rank); }
    uint64_t order_key() const { return static_cast<uint64_t>(rank); }
  };
  // A message timed alone (--contention off): its arrival.
  struct Arrival {
    double time;
    uint32_t id;
    bool operator>(const Arrival& o) const { return time > o.time || (time == o.time && id > o.id); }
    uint64_t order_key() const { return id; }
  };

  // SolveBudget: the solver's work so far against the limit's.
  void check_budget() {
    const double hops = static_cast<double>(net_.solved_hops());
    if (hops <= max_solved_hops_) return;
    throw LimitError("the bandwidth solves passed the " + count_text(max_solved_hops_) +
                     " (message, link) pairs (about " + duration_text(max_solved_hops_ * kSecondsPerSolvedHop) +
                     ") that --max-messages allows: the plan's messages fall out of step on these links and each "
                     "event re-solves all those in flight (--max-messages N raises the limit)");
  }

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
      s.call = t + c.before;
      s.post = s.ready = s.call + (pays_send_call(s) ? send_call_ : 0);
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

  // Is a message of `bytes` sent eagerly (Machine::eager_below)?
  bool eager(int64_t bytes) const { return bytes < eager_below_; }

  // Does rank r's step spend max(o, g) in a send call before its halves
  // are posted? An eager send: always (SMPI sleeps smpi/os or smpi/ois
  // before a detached one). A rendezvous one: in a step with both halves
  // (MPI_Isend's smpi/ois; a blocking rendezvous MPI_Send sleeps nothing).
  bool pays_send_call(const Rank& s) const {
    return s.send_to != kNone && (s.halves == 2 || eager(s.send_bytes));
  }

  // Rank r's halves are posted now. An eager send starts its message at
  // once and is done (detached); a rendezvous one starts it where the
  // receiver's current step holds the receive, already posted. The receive
  // takes the pair's oldest eager message if one was sent (once it has
  // arrived), else matches the sender's rendezvous send in the same way.
  void post(int64_t r) {
    Rank& s = at(r);
    s.posted = true;
    const bool receives = s.recv_from != kNone;
    if (s.send_to != kNone) {
      if (eager(s.send_bytes))
        send_eagerly(r);  // may end the step where it has no receive
      else
        match(r, s.send_to);
    }
    if (receives) {
      if (unreceived(s.recv_from, r))
        receive_eagerly(r);
      else
        match(s.recv_from, r);
    }
  }

  // Has `from` sent `to` an eager message that `to` has not received?
  bool unreceived(int64_t from, int64_t to) const { return eager_below_ > 0 && oldest(from, to).at != kNil; }

  // The oldest unreceived eager message from `from` in the inbox of `to`,
  // and the one before it in the list (kNil: it is the first). Inboxes are
  // short: a plan's rank has few eager messages waiting at once.
  struct Found {
    uint32_t at, before;
  };
  Found oldest(int64_t from, int64_t to) const {
    uint32_t before = kNil;
    for (uint32_t i = inbox_[static_cast<size_t>(to)].head; i != kNil; before = i, i = pool_[i].next)
      if (pool_[i].from == from) return {i, before};
    return {kNil, kNil};
  }

  // Starts the flow of `bytes` from rank `from` to rank `to` now; returns
  // its id, with messages_ sized for it.
  FluidNetwork::FlowId start_flow(int64_t from, int64_t to, int64_t bytes) {
    const int64_t src = routes_.node_of(from), dst = routes_.node_of(to);
    const double size = static_cast<double>(bytes) + envelope_;
    FluidNetwork::FlowId f;
    if (shared_) {
      const CachedRoute& route = cached_route(src, dst);
      f = net_.start(route.hops, route.latency, size);
    } else {
      f = start_alone(routes_.route(src, dst, route_), size);
    }
    if (messages_.size() <= f) messages_.resize(f + 1);
    ++count_;
    return f;
  }

  // The route between two nodes, from a small direct-mapped cache: a
  // lock-step plan's ranks of one node send to the same few nodes at once.
  struct CachedRoute {
    int64_t src = kNone, dst = kNone;
    double latency = 0;
    std::vector<FluidNetwork::LinkId> hops;
  };
  static constexpr size_t kRouteSlots = 256;
  const CachedRoute& cached_route(int64_t src, int64_t dst) {
    const uint64_t key = static_cast<uint64_t>(src) * 0x9E3779B97F4A7C15ULL ^ static_cast<uint64_t>(dst);
    CachedRoute& slot = route_cache_[(key * 0x9E3779B97F4A7C15ULL) >> 56];
    if (slot.src != src || slot.dst != dst) {
      slot.latency = routes_.route(src, dst, route_);
      slot.hops.assign(route_.begin(), route_.end());
      slot.src = src, slot.dst = dst;
    }
    return slot;
  }

  // Rank r's eager send: its message leaves now, queued at the receiver
  // behind the pair's earlier ones (a receive matches the pair's oldest
  // send, as MPI's non-overtaking rule says, whichever arrives first).
  void send_eagerly(int64_t r) {
    Rank& s = at(r);
    const int64_t to = s.send_to;
    const FluidNetwork::FlowId f = start_flow(r, to, s.send_bytes);
    const uint32_t i = append_to_inbox(r, to);
    // Traced as loggp.hpp's eager messages: started at the call, the sender's overhead first.
    if (sink_) pool_traced_[i] = {r, to, s.send_bytes, s.steps_done, s.call, s.call, 0, net_.now(), 0};
    messages_[f] = {static_cast<int32_t>(r), static_cast<int32_t>(to), i};
    s.send_to = kNone;
    end_half(r, net_.now());
  }

  // Rank r's eager receive, if the pair's oldest message has arrived: done
  // at the later of the arrival and the posting, plus o (smpi/or).
  void receive_eagerly(int64_t r) {
    Rank& s = at(r);
    const Found found = oldest(s.recv_from, r);
    if (found.at == kNil || pool_[found.at].arrival == FluidNetwork::kNever) return;
    const double taken = std::max(pool_[found.at].arrival, s.post);
    take_from_inbox(r, found);
    if (sink_) {
      MessageEvent e = pool_traced_[found.at];
      e.end = taken, e.receiver_done = taken + recv_call_;
      sink_->message(e);
    }
    s.recv_from = kNone;
    end_half(r, taken + recv_call_);
  }

  // A new unreceived message from `from` at the end of the inbox of `to`:
  // its index in the pool (a freed one where there is one).
  uint32_t append_to_inbox(int64_t from, int64_t to) {
    uint32_t i = static_cast<uint32_t>(pool_.size());
    if (!free_pool_.empty()) {
      i = free_pool_.back(), free_pool_.pop_back();
    } else {
      pool_.emplace_back();
      if (sink_) pool_traced_.emplace_back();
    }
    pool_[i] = {from, FluidNetwork::kNever, kNil};
    Inbox& box = inbox_[static_cast<size_t>(to)];
    (box.head == kNil ? box.head : pool_[box.tail].next) = i;
    box.tail = i;
    return i;
  }

  // Unlinks `found` from the inbox of `to` and frees its pool entry (its
  // fields stay readable until the next append).
  void take_from_inbox(int64_t to, Found found) {
    Inbox& box = inbox_[static_cast<size_t>(to)];
    const uint32_t next = pool_[found.at].next;
    (found.before == kNil ? box.head : pool_[found.before].next) = next;
    if (box.tail == found.at) box.tail = found.before;
    free_pool_.push_back(found.at);
  }

  // One of rank r's halves has ended at time t (now or, after a receive's
  // overhead, later): when it was the last, the step's ⊕ and the next step.
  void end_half(int64_t r, double t) {
    Rank& s = at(r);
    s.ready = std::max(s.ready, t);
    if (--s.halves == 0) start_step(r, complete(r));
  }

  // The rendezvous message from `from` to `to`, if both current steps hold
  // its halves, posted (and the receive is not the pair's eager message's).
  void match(int64_t from, int64_t to) {
    Rank &sender = at(from), &receiver = at(to);
    if (!sender.posted || !receiver.posted || sender.send_to != to || receiver.recv_from != from) return;
    if (unreceived(from, to)) return;
    const FluidNetwork::FlowId f = start_flow(from, to, sender.send_bytes);
    messages_[f] = {static_cast<int32_t>(from), static_cast<int32_t>(to)};
    if (sink_)
      traced_.resize(messages_.size()),
          traced_[f] = {from, to, sender.send_bytes, sender.steps_done, sender.post, net_.now(), 0, 0, 0};
    sender.send_to = receiver.recv_from = kNone;
  }

  // A message on the route in route_ as if no other shared its links
  // (alone_seconds). Returns its id (a freed one where there is one).
  uint32_t start_alone(double latency, double bytes) {
    uint32_t id = static_cast<uint32_t>(messages_.size());
    if (!free_ids_.empty()) id = free_ids_.back(), free_ids_.pop_back();
    alone_.push({net_.now() + alone_seconds(routes_, route_, latency, bytes), id});
    return id;
  }

  // The message of flow f has arrived at time t. Rendezvous: both of its
  // halves end. Eager: it waits for its receive, or ends one that waits.
  void arrive(FluidNetwork::FlowId f, double t) {
    const Message m = messages_[f];
    if (m.eager != kNil) {
      pool_[m.eager].arrival = t;
      const Rank& receiver = at(m.to);
      if (receiver.posted && receiver.recv_from == m.from) receive_eagerly(m.to);
      return;
    }
    if (sink_) {
      MessageEvent e = traced_[f];
      e.end = e.sender_done = e.receiver_done = t;
      sink_->message(e);
    }
    for (const int64_t r : {int64_t{m.from}, int64_t{m.to}}) end_half(r, t);
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
  int64_t eager_below_;  // messages of fewer bytes are eager (Machine::eager_below)
  double send_call_;  // seconds in a send call before its message is posted:
                      // max(o, g) with overheads
  double recv_call_;  // seconds after an eager receive completes: o
  double envelope_;
  std::vector<Rank> ranks_;
  FluidNetwork net_;
  DueQueue<PostEvent> posts_;
  DueQueue<Arrival> alone_;
  std::vector<uint32_t> free_ids_;    // alone messages' ids to reuse
  std::vector<Message> messages_;     // by flow id
  std::vector<MessageEvent> traced_;  // by flow id, with a sink (rendezvous)
  // Eager: each rank's inbox of messages sent to it and not yet received,
  // in send order, as lists in one pool.
  struct Inbox {
    uint32_t head, tail;
  };
  std::vector<Inbox> inbox_;  // by rank
  std::vector<Unreceived> pool_;
  std::vector<MessageEvent> pool_traced_;  // by pool index, with a sink
  std::vector<uint32_t> free_pool_;
  std::vector<int64_t> route_;
  std::vector<CachedRoute> route_cache_ = std::vector<CachedRoute>(kRouteSlots);
  int64_t count_ = 0;       // messages started
  double max_solved_hops_;  // SolveBudget
  EventSink* sink_;
};

}  // namespace

void add_links(const platforms::Routes& routes, FluidNetwork& net) {
  for (int64_t l = 0; l < routes.links(); ++l) {
    const platforms::Link link = routes.link(l);
    net.add_link(link.bandwidth, link.sharing == platforms::Link::Sharing::fatpipe ? FluidNetwork::Sharing::fatpipe
                                                                                   : FluidNetwork::Sharing::shared);
  }
}

double alone_seconds(const platforms::Routes& routes, const std::vector<int64_t>& route, double latency, double bytes) {
  double bandwidth = FluidNetwork::kNever;
  for (int64_t l : route) bandwidth = std::min(bandwidth, routes.link(l).bandwidth);
  return latency + (route.empty() ? 0 : bytes / bandwidth);
}

bool shares_links(const Machine& pf) {
  return platforms::bytes_on_links(pf) && (pf.cores_per_node > 1 || pf.topology.kind != platforms::Topology::Kind::flat ||
                                           !pf.full_duplex || pf.eager_below() > 0);
}

Result evaluate_shared(const plan::Plan& plan, const BlockBytes& block_bytes, const Machine& pf, bool per_rank,
                       EventSink* sink, bool shared, const SolveBudget& budget) {
  require_lock_step(plan.header);
  if (!platforms::bytes_on_links(pf))
    throw std::invalid_argument("a flat LogGP platform's senders pay the bytes: its links share nothing");
  return SharedEvaluator(plan, block_bytes, pf, shared, sink, budget).run(per_rank);
}

}  // namespace collsim::engine
