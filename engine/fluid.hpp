// Links shared by flows as SimGrid 3.32's CM02 network model shares them
// under the flags collsim gives smpirun (sim/driver/launch.cpp:
// network/model:CM02, network/crosstraffic:0, network/TCP-gamma:1e30): a
// fluid event simulation of messages on links, exact to SimGrid's
// arithmetic up to rounding (tests/test_fluid_simgrid.cpp checks it against
// SimGrid itself).
//
// SimGrid's rules, as read in its source at tag v3.32:
//  - A message (an "action") from src to dst crosses the links of the route
//    SimGrid gives (a SPLITDUPLEX link is two SHARED links, ..._UP and
//    ..._DOWN; the route names one of them) and waits `latency` = the sum of
//    the route's link latencies first (src/surf/network_cm02.cpp,
//    NetworkCm02Model::communicate; latency-factor and bandwidth-factor are
//    1 under CM02: surf_network_model_init_CM02).
//  - Its sharing penalty is that latency (weight-S is 0 under CM02, so no
//    S/bandwidth terms). During the latency the lmm variable has penalty 0,
//    i.e. is disabled and uses no bandwidth (comm_action_set_variable); the
//    latency ends at start + latency (a heap event of type "latency",
//    NetworkCm02Model::update_actions_state_lazy), and only then does the
//    message take bandwidth, at penalty = latency. A route of latency 0
//    starts at once with penalty 1.0 (variable_new(action, 1.0, ...)):
//    against messages of microsecond latencies it gets a 10^-6-fold share.
//    NetworkAction::sharing_penalty_ shadows Action::sharing_penalty_
//    (src/kernel/resource/NetworkModel.hpp, Action.hpp), so the lazy heap's
//    "bogus priority" skip never drops such a message.
//  - Every link of the route is one constraint with consumption weight 1
//    (a link named twice: weight 2 on a SHARED link, 1 on a FATPIPE;
//    System::expand_add_to_elem, src/kernel/lmm/System.cpp); crosstraffic 0
//    adds no backward weights (comm_action_expand_constraints).
//  - Bound: min(bandwidth of the route's slowest link, TCP-gamma / (2 ·
//    latency)) (comm_action_set_bounds, comm_action_set_variable); with
//    gamma 1e30 that is the slowest link.
//  - The solver (src/kernel/lmm/maxmin.cpp, MaxMin::maxmin_solve) works in
//    "levels" x: a message of penalty p on a saturated constraint gets rate
//    x / p. A SHARED constraint's level is remaining / Σ(weight / p) over
//    its unfixed messages; a FATPIPE's is bandwidth / max(1 / p), its
//    remaining never decreasing. Each round the constraint(s) of least
//    level x saturate. If some of their unfixed messages have bound · p < x
//    (in doubles), only the least such (within sg_maxmin_precision 1e-5)
//    are fixed, at their bound, and the round ends; otherwise all their
//    unfixed messages are fixed at x / p. Fixed rates are taken off every
//    other SHARED constraint the message crosses. On a FATPIPE this makes
//    a message of larger latency get less than the bandwidth while one of
//    smaller latency is there, unless that one wins the rounding race
//    bandwidth · p < bandwidth / (1 / p) and is fixed at its bound first
//    (p = 3.8e-6 wins, 1e-6 loses: tests/test_fluid.cpp).
//  - Selective update (network/maxmin-selective-update, on with the default
//    network/optim:Lazy, src/simgrid/sg_config.cpp): only the constraints in
//    the "modified set" are solved, and a message's constraints outside it
//    are ignored in that solve. A link enters the set when a message is
//    expanded onto it (start), and from a message's FIRST link when it
//    starts transmitting (enable_var) or is freed (var_free); entering
//    pulls in, depth first, every link reachable through transmitting
//    messages, but a link already in the set is not entered again
//    (System::update_modified_cnst_set, update_modified_cnst_set_rec). So
//    when two messages whose first link is the same end their latency in
//    one step, the second one's other links are left out unless reached
//    otherwise: SimGrid then solves it without them (and may exceed their
//    bandwidth) until the next change there. This is copied exactly, with
//    SimGrid's orders: links' messages newest first (enabled_element_set_),
//    events by date then by when set (a stable boost heap, re-stamped on
//    update), messages re-dated in the set's order. The set is cleared at
//    each solve; each message on it has remains -= old rate · elapsed, then
//    completion date = now + remains / rate (Model::next_occurring_event_lazy,
//    NetworkCm02Action::update_remains_lazy); others keep their dates.
//    Hence results depend on the order in which simultaneous messages are
//    started: start them in the order SimGrid's actors would.
//  - Time: the engine moves to the earliest event of any model (EngineImpl::
//    solve) and then handles every network event whose date is within
//    sg_surf_precision = 1e-9 s of that time, at that time
//    (update_actions_state_lazy: double_equals(top_date, now, 1e-9)); a
//    message so finished is done at that now, not at its own date.
//
// Precision (SimGrid's own, sg_maxmin_precision 1e-5, sg_surf_precision
// 1e-9, src/kernel/lmm/System.cpp): remains snaps to 0 below 1e-14 bytes
// (Action::update_remains); times are doubles in seconds, dates are
// now + remains / rate. Where rounding differs (the order of the sums) the
// two agree to about 1e-15 relative (measured: at most 1.7e-15 over 10^4
// random transfers); the test asks 1e-9. Two of SimGrid's
// guards are not copied, as they only act where SimGrid cannot go: it drops
// a SHARED constraint whose remaining falls below 1e-5 of its bandwidth or
// whose usage Σ(1/p) falls below 1e-5 while messages on it are unfixed
// (then those get a rate from their other links, or 0 and SimGrid aborts);
// that needs ~10^5 messages on one link. Here a constraint is done when its
// last message is fixed, whatever its remaining.
//
// Cost: each step solves the modified set only (at most the connected
// components of what changed): O(E log E) for its E (message, link) pairs,
// each link's level pushed once a round of the solver, not once a message
// fixed; events go through one indexed 4-ary heap of all messages
// (O(log n)), re-dated one by one after a small solve and heapified at
// once (O(n)) after one that covers a quarter of them or more. A message
// alone on one FATPIPE link among messages of its latency (a node's
// loopback) is not solved at all: its rate is the one every solve would
// give it (FluidNetwork::may_go_solo), which took circulant bcast at 2^17
// ranks on a fat tree of 128-core nodes from 35.0 s to 25.7 s; it can
// change the order of messages finishing at one instant, so graph plans
// turn it off (solve_every_message). Messages started at one instant
// with one route, latency and size (a lock-step plan's ranks of one node,
// stepping together to the same node, or on its loopback) are one flow to
// the solver, a group whose weight on a SHARED link is their number
// (FluidNetwork::join_group, exact: SimGrid gives each the same rate at
// every solve, so they end in one step; to rounding, the sums taken as one
// product: FluidSimGrid.IdenticalFlowsStartedTogether); this too only
// where the order of messages ending at one instant is not read. So are
// classes (FluidNetwork::join_class): messages transmitting at once on one
// route, however they started, are one flow to the solver, their remains
// kept as keys against the bytes the class has moved, ending one by one
// (FluidSimGrid.TransfersOutOfStepOnOneRoute); a plan whose ranks fall out
// of step (circulant allreduce when its segments hold 0 or 1 element)
// then solves a few classes a step instead of ~170 messages. The number
// of solves is SimGrid's: one a distinct event time. On a dragonfly or a
// fat tree at p = 2^14 (128 cores a node) one component holds all the
// messages in flight, and a circulant allreduce solves each message ~70
// times (dragonfly; ~8 on the fat tree): that product, not the
// solver's constant, bounds the shared evaluator (engine/work_estimate.hpp). Measured
// (tests/fluid_bench.cpp, this 2-core machine): 10^6 messages in 10^5
// independent pairs of links, 3.5 s and 118 MiB; 10^4 messages through one
// shared link (one component all along, each start, latency end and
// completion re-solving it), 40 s and 8 MiB. Memory: ~90 bytes a message
// plus 32 a hop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace collsim::engine {

class FluidNetwork {
 public:
  enum class Sharing : uint8_t { shared, fatpipe };
  using LinkId = uint32_t;
  using FlowId = uint32_t;
  struct Finished {
    FlowId flow;
    double time;  // seconds
  };
  // sg_surf_precision: events this close to the current time happen at it.
  static constexpr double kTimePrecision = 1e-9;
  static constexpr double kNever = std::numeric_limits<double>::infinity();

  // A link of `bandwidth` bytes/s (> 0, finite).
  LinkId add_link(double bandwidth, Sharing sharing);

  // A message of `bytes` starting now() over `route` (links in SimGrid's
  // route order: the first one matters to the selective update; one named
  // twice counts twice on a shared link), after `latency` seconds
  // (the sum of the route's link latencies, >= 0). An empty route is a pure
  // delay (latency > 0) as in SimGrid. Its id is reused once the message
  // has been reported finished.
  FlowId start(const LinkId* route, size_t hops, double latency, double bytes);
  FlowId start(const std::vector<LinkId>& route, double latency, double bytes) {
    return start(route.data(), route.size(), latency, bytes);
  }

  // The date of the next network event (a latency end or a completion),
  // kNever if none. Solves what changed since time last moved.
  double next_event();
  // Moves the clock to t (>= now()) as SimGrid's engine does when the
  // caller's next event is at t: one step at each network event before t,
  // then one at t; a step handles the network events within kTimePrecision
  // of its time, at that time (so one up to 1e-9 s after t happens at t).
  // Appends the messages finished, with their times. Calling it again with
  // the same t is SimGrid's zero-length step (a flow of 0 bytes whose
  // latency just ended completes in it). A caller whose own event lies
  // within 1e-9 s after next_event() would, in SimGrid, have it handled at
  // next_event(): the caller's concern.
  void advance_to(double t, std::vector<Finished>& finished);

  // Every message through the solver, none solo (see start() in
  // fluid.cpp): SimGrid's order of messages finishing at one instant,
  // which a graph plan's MPI_Waitany follows (graph_links.hpp); set before
  // the first start().
  void solve_every_message() { solo_allowed_ = groups_allowed_ = false; }

  double now() const { return now_; }
  // How many flows have joined a group so far (join_group in fluid.cpp),
  // and how many a class at their latency's end (join_class).
  size_t flows_grouped() const { return flows_grouped_; }
  size_t flows_classed() const { return flows_classed_; }
  // The (message, link) pairs the solves have set up so far: the solver's
  // work, which grows as solves times the messages of their component
  // (fluid.hpp's cost), where messages fall out of step.
  uint64_t solved_hops() const { return solved_hops_; }
  size_t in_flight() const { return flows_.size() - free_count_ - classes_in_use_; }
  // The current rate of a transmitting message (0 during its latency),
  // after next_event(); bytes/s.
  double rate(FlowId f) const { return flows_[leader_of_[f] == kNone ? f : leader_of_[f]].rate; }

 private:
  // member: transmitting inside a class (join_class), which the solver sees.
  enum class Phase : uint8_t { latency, transmitting, member, free };
  static constexpr uint32_t kNone = ~uint32_t{0};
  // One (flow, link) element (lmm::Element); a flow's hops are its distinct
  // links in route order (Variable::cnsts_). prev/next: the link's list of
  // transmitting hops, newest first (Constraint::enabled_element_set_).
  struct Hop {
    LinkId link;
    uint32_t prev, next;
    FlowId flow;
    double weight;  // a shared link named k times: k; a fatpipe: 1
  };
  struct Link {
    double bandwidth = 0;
    Sharing sharing = Sharing::shared;
    uint32_t head = kNone;     // transmitting hops on it, newest first
    uint32_t modified = 0;     // == epoch_: in the modified set
    // A fatpipe's flows in flight outside the solver (solo: see start())
    // and inside it, and the solo flows' penalty.
    uint32_t solo_head = kNone, solo = 0, solved = 0;
    double solo_penalty = 0;
    // Solver scratch.
    double remaining = 0, usage = 0;
    uint32_t unfixed = 0, version = 0, cursor = 0, fat_begin = 0, fat_count = 0;
    uint32_t touched = 0;  // == epoch_round_: its level changed this round
    bool done = false;
  };
  struct Flow {
    double remains = 0, rate = 0, last_update = 0, penalty = 0, bound = 0;
    uint32_t hop_begin = 0, visited = 0, mark = 0;
    // A group's leader (join_group): its last member (next_member_ chains
    // them from the leader in start order), the flows it stands for, and
    // the epoch its start marked its links in.
    FlowId last_member = kNone;
    uint32_t members = 1, start_epoch = 0;
    // A class (join_class): its index in classes_; kNone for a message.
    uint32_t cls = kNone;
    // The handle_events step in which its latency ended (or, a class, it
    // was formed): such a flow may be joined though it is not in the heap.
    uint64_t began = 0;
    uint8_t hops = 0;
    Phase phase = Phase::free;
    bool fixed = false;
    bool solo = false;  // alone on one fatpipe among equal penalties: never solved
  };
  // A link's level in the solver's heap (stale once its version moved on).
  struct Level {
    double level;
    LinkId link;
    uint32_t version;
    bool operator>(const Level& o) const { return level > o.level; }
  };
  struct Frame {  // update_modified_cnst_set_rec's recursion, unrolled
    LinkId link;
    uint32_t hop;  // the element being visited
    uint32_t next_cnst;
  };
  static constexpr size_t kMaxHops = 255;

  Hop* hops_of(const Flow& f) { return hop_pool_.data() + f.hop_begin; }
  const Hop* hops_of(const Flow& f) const { return hop_pool_.data() + f.hop_begin; }
  FlowId new_flow();
  void free_flow(FlowId id);
  static uint64_t group_key(const LinkId* route, size_t hops, double latency, double bytes);
  FlowId find_group(uint64_t key, const LinkId* route, size_t hops, double latency, double bytes) const;
  bool same_route(const Flow& leader, const LinkId* route, size_t hops) const;
  FlowId join_group(FlowId leader, const LinkId* route, size_t hops);
  void finish_group(FlowId leader, std::vector<Finished>& finished);
  void rescale(Flow& f, uint32_t members);
  static uint64_t class_key(const Flow& f, const Hop* hops);
  bool same_class(const Flow& a, const Flow& b) const;
  bool may_be_joined(FlowId c) const;
  bool join_class(FlowId id);
  FlowId promote(FlowId c);
  void bring_up_to_date(Flow& f);
  void add_members(FlowId cls_flow, FlowId id);
  void finish_members(FlowId cls_flow, std::vector<Finished>& finished);
  void leave_solver(const Flow& f);
  void mark_first_link(const Flow& f);
  void enlist(FlowId cls_flow, FlowId first, double key);
  double member_date(const Flow& cls_flow, double ahead) const;
  uint32_t alloc_hops(size_t n);
  void release(FlowId f);
  void enable(uint32_t hop);
  void disable(uint32_t hop);
  void push_front(uint32_t& head, uint32_t hop);
  void unlink(uint32_t& head, uint32_t hop);
  bool may_go_solo(LinkId l, double penalty) const;
  void join_fatpipes(FlowId id, bool solo);
  void leave_fatpipes(FlowId id);
  void unsolo(LinkId l);
  double solo_rate(const Flow& f) const;
  double completion_date(const Flow& f) const;
  void mark_modified(LinkId l);
  void solve_modified();
  void init_link(LinkId l);
  bool pop_level(Level& top);
  void saturate_least();
  void fix(FlowId f, double rate);
  void push_level(LinkId l);
  void touch(LinkId l);
  void push_touched();
  double fatpipe_usage(Link& link);
  void handle_events(std::vector<Finished>& finished);
  void pop_due();
  void take_due_by_scan();
  void next_epoch();

  // Indexed 4-ary heap of flows by (date, stamp), the keys kept in the
  // heap's entries and the positions apart (heap_pos_) so that sifting
  // reads no Flow: a solve re-dates every flow it solved.
  static constexpr uint32_t kArity = 4;
  struct HeapEntry {
    double date;
    uint64_t stamp;  // tie order: SimGrid's heap is stable (boost stable<true>)
    FlowId flow;
    bool operator<(const HeapEntry& o) const { return date < o.date || (date == o.date && stamp < o.stamp); }
  };
  void heap_store(FlowId f, double date);
  void heap_set(FlowId f, double date);
  void heap_remove(FlowId f);
  void heap_place(uint32_t pos, const HeapEntry& e);
  void sift_up(uint32_t pos);
  void sift_down(uint32_t pos);
  void heapify();
  double heap_top_date() const { return heap_.empty() ? kNever : heap_[0].date; }

  double now_ = 0;
  std::vector<Link> links_;
  std::vector<Flow> flows_;
  // Free ids (new_flow): a bit each, the next-fit cursor (a word), the count.
  static constexpr size_t kFreeScan = 64;
  std::vector<uint64_t> free_bits_;
  size_t free_cursor_ = 0, free_count_ = 0;
  std::vector<Hop> hop_pool_;
  std::vector<std::vector<uint32_t>> free_hops_;  // by length
  std::vector<HeapEntry> heap_;
  std::vector<uint32_t> heap_pos_;  // by flow: its place in heap_, kNone if none
  // By flow, apart from Flow so that a group's end reads no member's Flow:
  // the next member of its group, and a member's leader (kNone: none).
  std::vector<FlowId> next_member_, leader_of_;
  uint64_t stamps_ = 0;
  bool solo_allowed_ = true;
  // Groups: a direct-mapped table of the flows started at now_ that others
  // may join, by group_key (a collision only forgoes a group).
  struct GroupSlot {
    double started = -1;
    uint64_t key = 0;
    FlowId leader = kNone;
  };
  static constexpr size_t kGroupSlots = 4096;
  bool groups_allowed_ = true;
  size_t flows_grouped_ = 0;
  uint64_t solved_hops_ = 0;
  std::vector<GroupSlot> group_slots_ = std::vector<GroupSlot>(kGroupSlots);
  // Classes (join_class): each one's members, a min-heap by key (remains
  // plus the class's progress when they joined) and join order; a
  // direct-mapped table of the flows a flow ending its latency may join,
  // by class_key.
  struct Member {
    double key;
    uint64_t seq;
    FlowId flow;
    bool operator>(const Member& o) const { return key > o.key || (key == o.key && seq > o.seq); }
  };
  std::vector<std::vector<Member>> classes_;
  std::vector<uint32_t> free_classes_;
  size_t classes_in_use_ = 0, flows_classed_ = 0;
  uint64_t member_seq_ = 0, step_ = 0;
  struct ClassSlot {
    uint64_t key = 0;
    FlowId flow = kNone;
  };
  static constexpr size_t kClassSlots = 4096;
  std::vector<ClassSlot> class_slots_ = std::vector<ClassSlot>(kClassSlots);
  // System::modified_constraint_set and visited_counter_.
  std::vector<LinkId> modified_links_;
  bool modified_ = false;
  uint32_t epoch_ = 1;
  // Scratch.
  std::vector<Frame> frames_;
  std::vector<FlowId> solved_flows_, finishing_, solo_transmitting_;
  std::vector<HeapEntry> due_;
  std::vector<Level> levels_;
  std::vector<LinkId> batch_;
  std::vector<uint32_t> unsolo_hops_;
  std::vector<LinkId> touched_;
  uint32_t epoch_round_ = 1;
  std::vector<FlowId> fat_order_;
};

}  // namespace collsim::engine
