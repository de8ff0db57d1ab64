// SimGrid 3.32's CM02 link sharing; the rules and their sources are in
// fluid.hpp.
#include "fluid.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#include "due_queue.hpp"

namespace collsim::engine {

namespace {
// sg_maxmin_precision (src/kernel/lmm/System.cpp).
constexpr double kMaxminPrecision = 1e-5;
// Action::update_remains: double_update(remains, ..., sg_maxmin_precision * sg_surf_precision).
constexpr double kRemainsPrecision = kMaxminPrecision * FluidNetwork::kTimePrecision;

// One step of the hashes of group_key and class_key.
uint64_t hash_mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ULL + (h >> 29); }
}  // namespace

FluidNetwork::LinkId FluidNetwork::add_link(double bandwidth, Sharing sharing) {
  if (!(bandwidth > 0) || !std::isfinite(bandwidth))
    throw std::invalid_argument("link bandwidth must be positive and finite, not " + std::to_string(bandwidth));
  Link link;
  link.bandwidth = bandwidth;
  link.sharing = sharing;
  links_.push_back(std::move(link));
  return static_cast<LinkId>(links_.size() - 1);
}

uint32_t FluidNetwork::alloc_hops(size_t n) {
  if (free_hops_.size() <= n) free_hops_.resize(n + 1);
  if (!free_hops_[n].empty()) {
    const uint32_t at = free_hops_[n].back();
    free_hops_[n].pop_back();
    return at;
  }
  const size_t at = hop_pool_.size();
  if (at + n >= kNone) throw std::length_error("FluidNetwork: too many hops in flight");
  hop_pool_.resize(at + n);
  return static_cast<uint32_t>(at);
}

FluidNetwork::FlowId FluidNetwork::start(const LinkId* route, size_t hops, double latency, double bytes) {
  if (!(latency >= 0) || !std::isfinite(latency))
    throw std::invalid_argument("flow latency must be >= 0 and finite, not " + std::to_string(latency));
  if (!(bytes >= 0) || !std::isfinite(bytes))
    throw std::invalid_argument("flow size must be >= 0 and finite, not " + std::to_string(bytes));
  if (hops > kMaxHops) throw std::invalid_argument("route of " + std::to_string(hops) + " links, over 255");
  if (hops == 0 && latency == 0)
    throw std::invalid_argument("a flow with neither links nor latency (SimGrid refuses such a route)");
  for (size_t i = 0; i < hops; ++i)
    if (route[i] >= links_.size()) throw std::invalid_argument("no link " + std::to_string(route[i]));
  const bool may_group = groups_allowed_ && latency > 0;
  const uint64_t key = may_group ? group_key(route, hops, latency, bytes) : 0;
  if (may_group) {
    const FlowId leader = find_group(key, route, hops, latency, bytes);
    if (leader != kNone) return join_group(leader, route, hops);
  }
  // System::expand: a link named again adds weight 1 on a shared link, none on a fatpipe.
  size_t distinct = 0;
  for (size_t i = 0; i < hops; ++i) distinct += std::find(route, route + i, route[i]) == route + i;
  const FlowId id = new_flow();
  if (may_group) group_slots_[key % kGroupSlots] = GroupSlot{now_, key, id};
  Flow& f = flows_[id];
  f.last_member = next_member_[id] = leader_of_[id] = kNone;
  f.members = 1;
  f.cls = kNone;
  f.began = 0;
  f.start_epoch = epoch_;
  f.remains = bytes;
  f.rate = 0;
  f.last_update = now_;
  // comm_action_set_variable: penalty 0 (disabled) during the latency, then
  // the latency; a route without latency starts at once with penalty 1.0.
  f.penalty = latency > 0 ? latency : 1.0;
  f.solo = solo_allowed_ && distinct == 1 && may_go_solo(route[0], f.penalty);
  // comm_action_set_bounds: the slowest link's bandwidth (TCP-gamma 1e30
  // makes gamma / (2 · latency) larger than any bandwidth).
  f.bound = -1;
  for (size_t i = 0; i < hops; ++i)
    if (f.bound == -1 || links_[route[i]].bandwidth < f.bound) f.bound = links_[route[i]].bandwidth;
  f.hop_begin = alloc_hops(distinct);
  f.visited = 0;
  f.mark = 0;
  f.fixed = false;
  f.phase = latency > 0 ? Phase::latency : Phase::transmitting;
  // The latency event is in the heap before the links are expanded
  // (comm_action_set_variable, then comm_action_expand_constraints).
  if (latency > 0) heap_set(id, latency + now_);
  if (f.solo) {
    hops_of(f)[0] = Hop{route[0], kNone, kNone, id, 1.0};
    f.hops = 1;
    join_fatpipes(id, true);
    if (f.phase == Phase::transmitting) {
      f.rate = solo_rate(f);
      heap_set(id, completion_date(f));
    }
    return id;
  }
  f.hops = 0;
  for (size_t i = 0; i < hops; ++i) {
    Flow& g = flows_[id];
    Hop* h = hops_of(g);
    Hop* same = std::find_if(h, h + g.hops, [&](const Hop& x) { return x.link == route[i]; });
    if (same != h + g.hops) {
      if (links_[route[i]].sharing == Sharing::shared) same->weight += 1;
      continue;
    }
    // System::expand_create_elem, then update_modified_cnst_set: the flow
    // has only the links expanded so far.
    h[g.hops] = Hop{route[i], kNone, kNone, id, 1.0};
    ++g.hops;
    if (g.phase == Phase::transmitting) enable(g.hop_begin + g.hops - 1);
    mark_modified(route[i]);
  }
  join_fatpipes(id, false);
  modified_ = true;
  return id;
}

// Ids are taken next-fit from a bitmap of free ones: a cursor moves up
// through the ids and wraps, so the flows started one after another (a
// round's messages, in rank order) get ascending ids, mostly adjacent, and
// the arrays by id (here and the caller's) are read in order when they
// end, not at random as a stack of freed ids would hand them out (2^20
// ranks: most of the time went in such cache misses). A scan that finds
// none free within kFreeScan words takes a new id instead.
FluidNetwork::FlowId FluidNetwork::new_flow() {
  for (size_t scanned = 0; free_count_ > 0 && scanned < kFreeScan; ++scanned) {
    uint64_t& word = free_bits_[free_cursor_];
    if (word != 0) {
      const auto bit = static_cast<uint32_t>(__builtin_ctzll(word));
      word &= word - 1;
      --free_count_;
      return static_cast<FlowId>(free_cursor_ * 64 + bit);
    }
    if (++free_cursor_ == free_bits_.size()) free_cursor_ = 0;
  }
  if (flows_.size() >= kNone) throw std::length_error("FluidNetwork: too many flows in flight");
  flows_.emplace_back();
  heap_pos_.push_back(kNone);
  next_member_.push_back(kNone);
  leader_of_.push_back(kNone);
  if (free_bits_.size() * 64 < flows_.size()) free_bits_.push_back(0);
  return static_cast<FlowId>(flows_.size() - 1);
}

void FluidNetwork::free_flow(FlowId id) {
  free_bits_[id / 64] |= uint64_t{1} << (id % 64);
  ++free_count_;
}

// Groups. Flows started at one instant with one route, latency and size
// are one flow to the solver until they end, as SimGrid treats them: each
// gets x / p from every solve (same links, same penalty, same bound, so
// fixed in the same round: maxmin_solve has no other rule), so they end
// in one step, and the selective update marks the same links for each
// (the first one's latency end already brings in all of their links). So
// the first of them, the leader, stands for all: on a SHARED link its
// weight is theirs summed (Σ weight / p and Σ weight · rate are the
// solver's sums, taken in one product instead of k additions: the same
// to rounding), on a FATPIPE one flow's (the level is bandwidth / max(1/p));
// the members keep their ids and are reported finished with it. What
// changes is the order of messages ending at one instant (the members
// come right after their leader), which a lock-step sweep does not read
// and a graph plan does: solve_every_message turns groups off. A lock-step
// plan's ranks of one node step together, so a node's messages to
// another node (and its loopback messages) form a few groups: the
// solver's work drops by up to the cores a node.
uint64_t FluidNetwork::group_key(const LinkId* route, size_t hops, double latency, double bytes) {
  uint64_t h = 0xcbf29ce484222325ULL, bits;
  std::memcpy(&bits, &latency, sizeof bits);
  h = hash_mix(h, bits);
  std::memcpy(&bits, &bytes, sizeof bits);
  h = hash_mix(h, bits);
  for (size_t i = 0; i < hops; ++i) h = hash_mix(h, route[i]);
  return h;
}

// The leader of a group that a flow of this key may join: one started now,
// still in its latency, of the same latency, size and route.
FluidNetwork::FlowId FluidNetwork::find_group(uint64_t key, const LinkId* route, size_t hops, double latency,
                                              double bytes) const {
  const GroupSlot& slot = group_slots_[key % kGroupSlots];
  if (slot.leader == kNone || slot.started != now_ || slot.key != key) return kNone;
  const Flow& f = flows_[slot.leader];
  const bool same = f.phase == Phase::latency && f.last_update == now_ && f.penalty == latency &&
                    f.remains == bytes && same_route(f, route, hops);
  return same ? slot.leader : kNone;
}

// Does `route` expand to the leader's hops (its distinct links in order,
// on a SHARED link named k times weight k a member)?
bool FluidNetwork::same_route(const Flow& leader, const LinkId* route, size_t hops) const {
  const Hop* h = hops_of(leader);
  if (hops == leader.hops) {  // no link named twice: link by link
    for (size_t i = 0; i < hops; ++i) {
      const bool shared = links_[route[i]].sharing == Sharing::shared;
      if (h[i].link != route[i] || h[i].weight != (shared ? leader.members : 1.0)) return false;
    }
    return true;
  }
  uint32_t distinct = 0;
  for (size_t i = 0; i < hops; ++i) {
    if (std::find(route, route + i, route[i]) != route + i) continue;
    if (distinct == leader.hops || h[distinct].link != route[i]) return false;
    const double named = static_cast<double>(std::count(route, route + hops, route[i]));
    const bool shared = links_[route[i]].sharing == Sharing::shared;
    if (h[distinct].weight != (shared ? named * leader.members : 1.0)) return false;
    ++distinct;
  }
  return distinct == leader.hops;
}

// A new member of the leader's group: the leader's weights grow on its
// SHARED links, and its links are marked as this flow's expansion would
// mark them (start(); the leader's start marked them, and they stay marked
// until the next solve); a solo leader's member is solo with it.
FluidNetwork::FlowId FluidNetwork::join_group(FlowId leader, const LinkId* route, size_t hops) {
  const FlowId id = new_flow();
  Flow& f = flows_[leader];
  next_member_[id] = kNone;
  leader_of_[id] = leader;
  next_member_[f.last_member == kNone ? leader : f.last_member] = id;
  f.last_member = id;
  rescale(f, f.members + 1);
  ++flows_grouped_;
  if (f.solo || f.start_epoch == epoch_) return id;
  for (size_t i = 0; i < hops; ++i) mark_modified(route[i]);
  modified_ = true;
  return id;
}

// The group of `leader` has ended now: the leader, then its members in
// start order.
void FluidNetwork::finish_group(FlowId leader, std::vector<Finished>& finished) {
  finished.push_back(Finished{leader, now_});
  for (FlowId m = next_member_[leader]; m != kNone; m = next_member_[m]) {
    finished.push_back(Finished{m, now_});
    leader_of_[m] = kNone;
    free_flow(m);
  }
  release(leader);
}

// A group's or a class's weight on each SHARED link is its members' sum.
void FluidNetwork::rescale(Flow& f, uint32_t members) {
  for (Hop* h = hops_of(f); h != hops_of(f) + f.hops; ++h)
    if (links_[h->link].sharing == Sharing::shared) h->weight = h->weight / f.members * members;
  f.members = members;
}

// Classes. Messages transmitting at once on one route with one latency
// are one flow to the solver however they started (a class), as SimGrid
// treats them: every solve gives each the same rate (same links in the
// modified set, same penalty, same bound: maxmin_solve has no rule that
// tells them apart), and the selective update marks the same links for
// each (a message ending its latency or ending marks its first link,
// which is the class's). So while a message's remains differ, its rate
// does not: the class moves all of its members' remains down by the same
// bytes, and they end in the order of what they had left. A message
// ending its latency joins the class of its route (a flow of the route
// that ends its latency alone is promoted to one when a second comes):
// its key is its remains plus the bytes its class has moved so far (the
// least key, less the class's remains), and the class's remains is its
// least key's member's; the class ends its members one by one, those
// within sg_surf_precision of its date at once, and goes when the last
// one has. What changes, as with groups, is only the order of messages
// ending at one instant; where that order is read (solve_every_message)
// there are no classes. A lock-step plan whose ranks fall out of step
// (messages of a few sizes on one route, a few bytes apart) keeps a
// solver of a class a route: circulant allreduce at 2^14 ranks, 64 KiB,
// on 128-core nodes solved ~170 messages a step before.
uint64_t FluidNetwork::class_key(const Flow& f, const Hop* hops) {
  uint64_t h = 0x84222325cbf29ce4ULL, bits;
  std::memcpy(&bits, &f.penalty, sizeof bits);
  h = hash_mix(h, bits);
  for (uint32_t i = 0; i < f.hops; ++i) h = hash_mix(h, hops[i].link);
  return h;
}

// Same penalty, same links in order, each named as often a member (so the
// same bound).
bool FluidNetwork::same_class(const Flow& a, const Flow& b) const {
  if (a.penalty != b.penalty || a.hops != b.hops) return false;
  const Hop *ha = hops_of(a), *hb = hops_of(b);
  for (uint32_t i = 0; i < a.hops; ++i) {
    if (ha[i].link != hb[i].link) return false;
    if (links_[ha[i].link].sharing == Sharing::shared && ha[i].weight * b.members != hb[i].weight * a.members)
      return false;
  }
  return true;
}

// A transmitting flow in the solver that is not due in this step: in the
// heap, or out of it because it began in this step (its latency ended, or
// it was formed as a class; its date waits for the next solve).
bool FluidNetwork::may_be_joined(FlowId c) const {
  const Flow& f = flows_[c];
  return f.phase == Phase::transmitting && !f.solo && f.hops > 0 && (heap_pos_[c] != kNone || f.began == step_);
}

// Flow `id` (and its group), whose latency ends now, joins the class of
// its route if there is one to join; otherwise it may be joined.
bool FluidNetwork::join_class(FlowId id) {
  const Flow& f = flows_[id];
  // A flow with nothing left ends in the next step, as SimGrid's does.
  if (!(f.remains > 0)) return false;
  const uint64_t key = class_key(f, hops_of(f));
  ClassSlot& slot = class_slots_[key % kClassSlots];
  const FlowId c = slot.flow;
  if (c == kNone || slot.key != key || c == id || !may_be_joined(c) || !same_class(flows_[c], f)) {
    slot = ClassSlot{key, id};
    return false;
  }
  const FlowId cls_flow = flows_[c].cls != kNone ? c : promote(c);
  class_slots_[key % kClassSlots].flow = cls_flow;
  add_members(cls_flow, id);
  return true;
}

// Flow c (and its group) becomes the one member of a new class, which takes
// its place in the solver: its hops, rate, remains and date.
FluidNetwork::FlowId FluidNetwork::promote(FlowId c) {
  uint32_t index = static_cast<uint32_t>(classes_.size());
  if (!free_classes_.empty()) {
    index = free_classes_.back();
    free_classes_.pop_back();
  } else {
    classes_.emplace_back();
  }
  ++classes_in_use_;
  const FlowId v = new_flow();
  Flow& cls_flow = flows_[v];
  cls_flow = flows_[c];
  cls_flow.cls = index;
  cls_flow.began = step_;
  cls_flow.last_member = kNone;
  next_member_[v] = leader_of_[v] = kNone;
  for (uint32_t i = 0; i < cls_flow.hops; ++i) hop_pool_[cls_flow.hop_begin + i].flow = v;
  if (heap_pos_[c] != kNone) {
    const double date = heap_[heap_pos_[c]].date;
    heap_remove(c);
    heap_set(v, date);
  }
  enlist(v, c, cls_flow.remains);
  flows_[c].hops = 0;
  return v;
}

// Flow `first` and its group's members become members of class v, each
// keyed `key`; `first` stands for no group any more.
void FluidNetwork::enlist(FlowId v, FlowId first, double key) {
  std::vector<Member>& members = classes_[flows_[v].cls];
  for (FlowId m = first; m != kNone;) {
    members.push_back(Member{key, ++member_seq_, m});
    std::push_heap(members.begin(), members.end(), std::greater<Member>());
    leader_of_[m] = v;
    flows_[m].phase = Phase::member;
    m = std::exchange(next_member_[m], kNone);
  }
  Flow& f = flows_[first];
  f.members = 1;
  f.last_member = kNone;
}

// NetworkCm02Action::update_remains_lazy at now with the last solve's rate.
void FluidNetwork::bring_up_to_date(Flow& f) {
  if (f.remains > 0) {
    f.remains -= f.rate * (now_ - f.last_update);
    if (f.remains < kRemainsPrecision) f.remains = 0;
  }
  f.last_update = now_;
}

// Flow `id` (and its group) joins class `v` with the bytes it has left, as
// its own variable enabled now would (System::enable_var marks its first
// link, the class's).
void FluidNetwork::add_members(FlowId v, FlowId id) {
  Flow& cls_flow = flows_[v];
  Flow& f = flows_[id];
  bring_up_to_date(cls_flow);
  const double least = classes_[cls_flow.cls].front().key;
  const double key = f.remains + (least - cls_flow.remains);
  if (key < least) cls_flow.remains = f.remains;
  rescale(cls_flow, cls_flow.members + f.members);
  flows_classed_ += f.members;
  leave_fatpipes(id);
  free_hops_[f.hops].push_back(f.hop_begin);
  f.hops = 0;
  enlist(v, id, key);
  mark_first_link(cls_flow);
}

// Class v is due: its first member ends now, and with it every member
// whose date is within sg_surf_precision of now; each one's variable freed
// marks the class's first link (System::var_free). The class goes with its
// last member.
void FluidNetwork::finish_members(FlowId v, std::vector<Finished>& finished) {
  std::vector<Member>& members = classes_[flows_[v].cls];
  const double least = members.front().key;
  uint32_t gone = 0;
  do {
    std::pop_heap(members.begin(), members.end(), std::greater<Member>());
    const FlowId m = members.back().flow;
    members.pop_back();
    finished.push_back(Finished{m, now_});
    leader_of_[m] = kNone;
    flows_[m].phase = Phase::free;
    free_flow(m);
    ++gone;
  } while (!members.empty() && member_date(flows_[v], members.front().key - least) < now_ + kTimePrecision);
  Flow& cls_flow = flows_[v];
  if (members.empty()) {
    leave_solver(cls_flow);
    release(v);
    return;
  }
  mark_first_link(cls_flow);
  cls_flow.remains += members.front().key - least;
  rescale(cls_flow, cls_flow.members - gone);
}

// A transmitting flow in the solver ends: System::var_free marks its first
// link, then its hops leave their links.
void FluidNetwork::leave_solver(const Flow& f) {
  mark_first_link(f);
  for (uint32_t i = 0; i < f.hops; ++i) disable(f.hop_begin + i);
}

// SimGrid's enable_var and var_free mark a variable's first link only
// (see mark_modified): a flow that starts transmitting, joins or leaves.
void FluidNetwork::mark_first_link(const Flow& f) {
  mark_modified(hops_of(f)[0].link);
  modified_ = true;
}

// The date of a class's member `ahead` bytes behind its first, as SimGrid
// set it at the class's last solve (or later join: the same date).
double FluidNetwork::member_date(const Flow& cls_flow, double ahead) const {
  const double remains = cls_flow.remains + ahead;
  if (!(remains > 0)) return cls_flow.last_update;
  return cls_flow.rate > 0 ? cls_flow.last_update + remains / cls_flow.rate : kNever;
}

// A flow whose route is one FATPIPE link on which every flow in flight has
// its penalty gets the same rate from every solve, whoever comes and goes:
// the level bandwidth / (1/p), so x / p, or its bound where bound · p < x
// (a node's loopback, which only the node's own messages cross, all with
// its latency). Such a flow goes "solo": it never enters the solver or
// the modified set, its rate is that one (solo_rate) and its completion
// date is set once, at its latency's end. SimGrid re-dates it at each solve
// of its link (now + remains / rate, the same date up to rounding) and
// solves its link once at each start, latency end and completion there:
// the saving. The re-dating also re-stamps it, so among messages finishing
// at one instant SimGrid's order can differ from the solo one: a lock-step
// plan does not depend on that order, a graph plan does (MPI_Waitany), and
// its evaluator turns solo off (solve_every_message). A flow of another
// kind on the link (another penalty, or a route of several links) brings
// its solo flows into the solver first.
bool FluidNetwork::may_go_solo(LinkId l, double penalty) const {
  const Link& link = links_[l];
  return link.sharing == Sharing::fatpipe && link.solved == 0 && (link.solo == 0 || link.solo_penalty == penalty);
}

void FluidNetwork::join_fatpipes(FlowId id, bool solo) {
  const Flow& f = flows_[id];
  for (uint32_t i = 0; i < f.hops; ++i) {
    const uint32_t hop = f.hop_begin + i;
    Link& link = links_[hop_pool_[hop].link];
    if (link.sharing != Sharing::fatpipe) continue;
    if (!solo) {
      if (link.solo > 0) unsolo(hop_pool_[hop].link);
      ++link.solved;
      continue;
    }
    link.solo_penalty = f.penalty;
    ++link.solo;
    push_front(link.solo_head, hop);
  }
}

void FluidNetwork::leave_fatpipes(FlowId id) {
  const Flow& f = flows_[id];
  for (uint32_t i = 0; i < f.hops; ++i) {
    const uint32_t hop = f.hop_begin + i;
    Link& link = links_[hop_pool_[hop].link];
    if (link.sharing != Sharing::fatpipe) continue;
    if (!f.solo) {
      --link.solved;
      continue;
    }
    --link.solo;
    unlink(link.solo_head, hop);
  }
}

// The solo flows of link l join the solver, transmitting ones enabled
// oldest first (the link's list is newest first, as if they had always
// been there) with the rate they had, which the next solve brings up to
// date.
void FluidNetwork::unsolo(LinkId l) {
  Link& link = links_[l];
  unsolo_hops_.clear();
  for (uint32_t e = link.solo_head; e != kNone; e = hop_pool_[e].next) unsolo_hops_.push_back(e);
  link.solo_head = kNone;
  link.solo = 0;
  for (auto e = unsolo_hops_.rbegin(); e != unsolo_hops_.rend(); ++e) {
    Flow& f = flows_[hop_pool_[*e].flow];
    f.solo = false;
    ++link.solved;
    if (f.phase == Phase::transmitting) enable(*e);
  }
  mark_modified(l);
  modified_ = true;
}

// What MaxMin::maxmin_solve gives a solo flow (see may_go_solo).
double FluidNetwork::solo_rate(const Flow& f) const {
  const double bandwidth = links_[hop_pool_[f.hop_begin].link].bandwidth;
  const double level = bandwidth / (1.0 / f.penalty);
  return f.bound * f.penalty < level ? f.bound : level / f.penalty;
}

// Model::next_occurring_event_lazy: the date if nothing changes.
double FluidNetwork::completion_date(const Flow& f) const {
  return f.remains > 0 ? (f.rate > 0 ? now_ + f.remains / f.rate : kNever) : now_;
}

void FluidNetwork::release(FlowId id) {
  Flow& f = flows_[id];
  if (heap_pos_[id] != kNone) heap_remove(id);
  leave_fatpipes(id);
  free_hops_[f.hops].push_back(f.hop_begin);
  f.phase = Phase::free;
  if (f.cls != kNone) {
    classes_[f.cls].clear();
    free_classes_.push_back(f.cls);
    f.cls = kNone;
    --classes_in_use_;
  }
  free_flow(id);
}

void FluidNetwork::enable(uint32_t hop) { push_front(links_[hop_pool_[hop].link].head, hop); }

void FluidNetwork::disable(uint32_t hop) { unlink(links_[hop_pool_[hop].link].head, hop); }

// A link's list of hops (transmitting, or solo), newest first.
void FluidNetwork::push_front(uint32_t& head, uint32_t hop) {
  Hop& h = hop_pool_[hop];
  h.prev = kNone;
  h.next = head;
  if (head != kNone) hop_pool_[head].prev = hop;
  head = hop;
}

void FluidNetwork::unlink(uint32_t& head, uint32_t hop) {
  const Hop& h = hop_pool_[hop];
  (h.prev != kNone ? hop_pool_[h.prev].next : head) = h.next;
  if (h.next != kNone) hop_pool_[h.next].prev = h.prev;
}

// System::update_modified_cnst_set and update_modified_cnst_set_rec, in
// their order: a link already in the set is not entered again, so a flow
// that starts transmitting with its first link already there brings in
// none of its other links (see fluid.hpp).
void FluidNetwork::mark_modified(LinkId seed) {
  if (links_[seed].modified == epoch_) return;
  links_[seed].modified = epoch_;
  modified_links_.push_back(seed);
  frames_.assign(1, Frame{seed, links_[seed].head, 0});
  while (!frames_.empty()) {
    Frame& fr = frames_.back();
    if (fr.hop == kNone) {
      frames_.pop_back();
      continue;
    }
    Flow& v = flows_[hop_pool_[fr.hop].flow];
    bool descend = false;
    while (fr.next_cnst < v.hops && v.visited != epoch_) {
      const LinkId other = hops_of(v)[fr.next_cnst++].link;
      if (other != fr.link && links_[other].modified != epoch_) {
        links_[other].modified = epoch_;
        modified_links_.push_back(other);
        descend = true;
        break;
      }
    }
    if (descend) {
      const LinkId other = modified_links_.back();
      frames_.push_back(Frame{other, links_[other].head, 0});
      continue;
    }
    v.visited = epoch_;
    fr.hop = hop_pool_[fr.hop].next;
    fr.next_cnst = 0;
  }
}

double FluidNetwork::next_event() {
  solve_modified();
  return heap_top_date();
}

void FluidNetwork::advance_to(double t, std::vector<Finished>& finished) {
  if (!(t >= now_) || !std::isfinite(t))
    throw std::invalid_argument("cannot move the network clock from " + std::to_string(now_) + " to " +
                                std::to_string(t));
  // EngineImpl::solve, one step a round: solve what changed, move to the
  // earlier of the next network event and t, handle the network events
  // within kTimePrecision of that time. Events a step creates (a latency
  // end makes a completion date) wait for the next step, however close.
  for (;;) {
    solve_modified();
    const double d = heap_top_date();
    now_ = std::max(now_, std::min(d, t));
    handle_events(finished);
    if (!(d < t)) break;
  }
}

void FluidNetwork::handle_events(std::vector<Finished>& finished) {
  // NetworkCm02Model::update_actions_state_lazy: every event within
  // sg_surf_precision of now, at now, in heap order; a latency end enables
  // the flow and marks its first link.
  finishing_.clear();
  pop_due();
  ++step_;
  for (const HeapEntry& due : due_) {
    const FlowId id = due.flow;
    Flow& f = flows_[id];
    if (f.phase == Phase::latency && f.hops > 0) {
      f.phase = Phase::transmitting;
      f.last_update = now_;
      f.began = step_;
      if (f.solo) {  // its completion date, as SimGrid's next solve sets it
        f.rate = solo_rate(f);
        solo_transmitting_.push_back(id);
        continue;
      }
      if (groups_allowed_ && join_class(id)) continue;  // join_class allocates only when it joins
      for (uint32_t i = 0; i < f.hops; ++i) enable(f.hop_begin + i);
      mark_first_link(f);
      continue;
    }
    finishing_.push_back(id);
  }
  for (const FlowId id : solo_transmitting_) heap_set(id, completion_date(flows_[id]));
  solo_transmitting_.clear();
  // EngineImpl::handle_ended_actions, after the step: each finished flow's
  // variable is freed (System::var_free marks its first link first).
  for (const FlowId id : finishing_) {
    Flow& f = flows_[id];
    if (f.cls != kNone) {
      finish_members(id, finished);
      continue;
    }
    if (f.phase == Phase::transmitting && !f.solo) leave_solver(f);
    modified_ = true;
    finish_group(id, finished);
  }
}

// The events within kTimePrecision of now, in heap order, into due_:
// popped one by one while few, else, once a scan pays (due_queue.hpp: a
// lock-step plan's ranks all end a latency or a message at one instant),
// the rest taken by one pass over the heap, sorted, and the
// others heapified: O(heap + due·log due) instead of O(due·log heap), the
// same events in the same order. Every date is at least now (a date is
// set at or after the now of its setting, and now moves only up to the
// heap's least date), so once the least is due, every date below
// now + kTimePrecision is, and those come first in the heap's total
// order (date, stamp).
void FluidNetwork::pop_due() {
  due_.clear();
  while (!heap_.empty() && std::fabs(heap_[0].date - now_) < kTimePrecision) {
    if (scan_pays(due_.size(), heap_.size())) {
      take_due_by_scan();
      return;
    }
    due_.push_back(heap_[0]);
    heap_remove(heap_[0].flow);
  }
}

void FluidNetwork::take_due_by_scan() {
  const size_t first = due_.size();
  size_t kept = 0;
  for (const HeapEntry& e : heap_) {
    if (e.date < now_ + kTimePrecision) {
      due_.push_back(e);
      heap_pos_[e.flow] = kNone;
    } else {
      heap_pos_[e.flow] = static_cast<uint32_t>(kept);
      heap_[kept++] = e;
    }
  }
  heap_.resize(kept);
  std::sort(due_.begin() + static_cast<std::ptrdiff_t>(first), due_.end());
  heapify();
}

void FluidNetwork::heapify() {
  if (heap_.size() > 1)  // from the last parent up
    for (size_t pos = (heap_.size() - 2) / kArity + 1; pos-- > 0;) sift_down(static_cast<uint32_t>(pos));
}

void FluidNetwork::next_epoch() {
  modified_links_.clear();
  if (++epoch_ == 0) {  // wrapped: no stale mark may equal a new epoch
    for (Link& l : links_) l.modified = 0;
    for (Flow& f : flows_) f.visited = f.mark = f.start_epoch = 0;
    epoch_ = 1;
  }
}

void FluidNetwork::init_link(LinkId l) {
  Link& link = links_[l];
  link.done = false;
  link.remaining = link.bandwidth;
  link.unfixed = 0;
  link.usage = 0;
  link.fat_begin = static_cast<uint32_t>(fat_order_.size());
  link.cursor = 0;
  for (uint32_t e = link.head; e != kNone; e = hop_pool_[e].next) {
    const Hop& h = hop_pool_[e];
    Flow& f = flows_[h.flow];
    if (f.mark != epoch_) {
      // Model::next_occurring_event_lazy's modified actions, in its order;
      // NetworkCm02Action::update_remains_lazy with the last solve's rate.
      f.mark = epoch_;
      solved_flows_.push_back(h.flow);
      bring_up_to_date(f);
      f.fixed = false;
    }
    ++link.unfixed;
    ++solved_hops_;
    if (link.sharing == Sharing::shared)
      link.usage += h.weight / f.penalty;
    else
      fat_order_.push_back(h.flow);
  }
  link.fat_count = static_cast<uint32_t>(fat_order_.size()) - link.fat_begin;
  std::sort(fat_order_.begin() + link.fat_begin, fat_order_.end(),
            [this](FlowId a, FlowId b) { return flows_[a].penalty < flows_[b].penalty; });
}

void FluidNetwork::solve_modified() {
  if (!modified_) return;
  modified_ = false;
  // MaxMin::maxmin_solve over the modified links only, with a heap of
  // levels instead of a scan; a flow's other links do not constrain it.
  levels_.clear();
  fat_order_.clear();
  solved_flows_.clear();
  for (const LinkId l : modified_links_) init_link(l);
  for (const LinkId l : modified_links_) push_level(l);
  while (!levels_.empty()) saturate_least();
  // Past a quarter of the heap, re-date them all and heapify once (O(heap))
  // rather than sift each (O(log heap) each): (date, stamp) is a total
  // order, so the heap yields the same events either way.
  const bool rebuild = solved_flows_.size() * 4 > heap_.size();
  for (const FlowId id : solved_flows_) {
    Flow& f = flows_[id];
    if (!f.fixed) throw std::logic_error("FluidNetwork: a flow left unfixed by the solve");
    const double date = completion_date(f);
    if (rebuild)
      heap_store(id, date);
    else
      heap_set(id, date);
  }
  if (rebuild) heapify();
  next_epoch();
}

void FluidNetwork::push_level(LinkId l) {
  Link& link = links_[l];
  if (link.sharing == Sharing::shared && link.unfixed > 0 && !(link.usage > 0)) {
    // Rounding ate the sum of weight/p of the flows still unfixed: take it anew.
    link.usage = 0;
    for (uint32_t e = link.head; e != kNone; e = hop_pool_[e].next)
      if (!flows_[hop_pool_[e].flow].fixed) link.usage += hop_pool_[e].weight / flows_[hop_pool_[e].flow].penalty;
  }
  const double usage = link.sharing == Sharing::shared ? link.usage : fatpipe_usage(link);
  if (link.unfixed == 0 || !(usage > 0)) {
    link.done = true;
    return;
  }
  ++link.version;
  const double remaining = std::max(link.remaining, 0.0);
  levels_.push_back(Level{remaining / usage, l, link.version});
  std::push_heap(levels_.begin(), levels_.end(), std::greater<Level>());
}

double FluidNetwork::fatpipe_usage(Link& link) {
  // max(1/p) over the unfixed flows = 1/p of the first unfixed one in
  // penalty order (1/p is monotone, so the same double as SimGrid's max).
  const FlowId* order = fat_order_.data() + link.fat_begin;
  while (link.cursor < link.fat_count && flows_[order[link.cursor]].fixed) ++link.cursor;
  return link.cursor < link.fat_count ? 1.0 / flows_[order[link.cursor]].penalty : 0.0;
}

bool FluidNetwork::pop_level(Level& top) {
  std::pop_heap(levels_.begin(), levels_.end(), std::greater<Level>());
  top = levels_.back();
  levels_.pop_back();
  const Link& link = links_[top.link];
  return !link.done && top.version == link.version;
}

void FluidNetwork::saturate_least() {
  // One round of MaxMin::maxmin_solve: the links of least level x (all of
  // them on an exact tie) saturate.
  Level top;
  if (!pop_level(top)) return;
  const double x = top.level;
  batch_.assign(1, top.link);
  while (!levels_.empty() && levels_.front().level == x)
    if (pop_level(top)) batch_.push_back(top.link);
  // Their unfixed flows whose bound · p is below x reach their bound first:
  // the least such (and those within sg_maxmin_precision of it) are fixed
  // at their bound, and the links go back in the heap.
  double min_bound = -1;
  for (const LinkId l : batch_)
    for (uint32_t e = links_[l].head; e != kNone; e = hop_pool_[e].next) {
      const Flow& f = flows_[hop_pool_[e].flow];
      const double at = f.bound * f.penalty;
      if (!f.fixed && at < x) min_bound = min_bound < 0 ? at : std::min(min_bound, at);
    }
  if (min_bound >= 0) {
    for (const LinkId l : batch_)
      for (uint32_t e = links_[l].head; e != kNone; e = hop_pool_[e].next) {
        const FlowId id = hop_pool_[e].flow;
        const Flow& f = flows_[id];
        if (!f.fixed && std::fabs(min_bound - f.bound * f.penalty) < kMaxminPrecision) fix(id, f.bound);
      }
    for (const LinkId l : batch_) touch(l);
    push_touched();
    return;
  }
  // Otherwise every unfixed flow on them gets x / p.
  for (const LinkId l : batch_) links_[l].done = true;
  for (const LinkId l : batch_)
    for (uint32_t e = links_[l].head; e != kNone; e = hop_pool_[e].next) {
      const FlowId id = hop_pool_[e].flow;
      if (!flows_[id].fixed) fix(id, x / flows_[id].penalty);
    }
  push_touched();
}

void FluidNetwork::fix(FlowId id, double rate) {
  Flow& f = flows_[id];
  f.fixed = true;
  f.rate = rate;
  const Hop* h = hops_of(f);
  for (uint32_t i = 0; i < f.hops; ++i) {
    Link& link = links_[h[i].link];
    if (link.modified != epoch_ || link.done) continue;  // not solved now, or saturated
    --link.unfixed;
    if (link.sharing == Sharing::shared) {
      link.remaining -= h[i].weight * rate;
      link.usage -= h[i].weight / f.penalty;
    }
    touch(h[i].link);
  }
}

// A link whose level changed in this round: its level goes back in the heap
// once, after the round's fixes (push_touched), not once per flow fixed.
void FluidNetwork::touch(LinkId l) {
  Link& link = links_[l];
  if (link.touched == epoch_round_) return;
  link.touched = epoch_round_;
  touched_.push_back(l);
}

void FluidNetwork::push_touched() {
  for (const LinkId l : touched_)
    if (!links_[l].done) push_level(l);
  touched_.clear();
  if (++epoch_round_ == 0) {  // wrapped: no stale mark may equal a new round
    for (Link& l : links_) l.touched = 0;
    epoch_round_ = 1;
  }
}

// Indexed 4-ary heap of flows by (date, stamp): among equal dates the one
// set first comes first, as in SimGrid's stable heap, where an update
// takes a new stamp.

void FluidNetwork::heap_place(uint32_t pos, const HeapEntry& e) {
  heap_[pos] = e;
  heap_pos_[e.flow] = pos;
}

void FluidNetwork::sift_up(uint32_t pos) {
  const HeapEntry e = heap_[pos];
  while (pos > 0) {
    const uint32_t parent = (pos - 1) / kArity;
    if (!(e < heap_[parent])) break;
    heap_place(pos, heap_[parent]);
    pos = parent;
  }
  heap_place(pos, e);
}

void FluidNetwork::sift_down(uint32_t pos) {
  const HeapEntry e = heap_[pos];
  const uint32_t n = static_cast<uint32_t>(heap_.size());
  for (;;) {
    const uint32_t first = kArity * pos + 1;
    if (first >= n) break;
    uint32_t child = first;
    for (uint32_t c = first + 1; c < std::min(first + kArity, n); ++c)
      if (heap_[c] < heap_[child]) child = c;
    if (!(heap_[child] < e)) break;
    heap_place(pos, heap_[child]);
    pos = child;
  }
  heap_place(pos, e);
}

// The flow's entry, with a new stamp, where it is or at the end: not yet
// in heap order.
void FluidNetwork::heap_store(FlowId id, double date) {
  const HeapEntry e{date, ++stamps_, id};
  uint32_t& pos = heap_pos_[id];
  if (pos == kNone) {
    pos = static_cast<uint32_t>(heap_.size());
    heap_.push_back(e);
  } else {
    heap_[pos] = e;
  }
}

void FluidNetwork::heap_set(FlowId id, double date) {
  heap_store(id, date);
  sift_up(heap_pos_[id]);
  sift_down(heap_pos_[id]);
}

void FluidNetwork::heap_remove(FlowId id) {
  const uint32_t pos = heap_pos_[id];
  const HeapEntry last = heap_.back();
  heap_.pop_back();
  heap_pos_[id] = kNone;
  if (last.flow == id) return;
  heap_place(pos, last);
  sift_up(pos);
  sift_down(heap_pos_[last.flow]);
}

}  // namespace collsim::engine
