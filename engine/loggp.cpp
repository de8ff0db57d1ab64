#include "loggp.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "blocks.hpp"
#include "step_costs.hpp"

namespace collsim::engine {

namespace {

// A step's halves by their peers, ranks fitting 32 bits (p <= 2^31 − 1),
// else: kNone, no such half or it is done; kNoMatch, a peer outside
// [0, p) in a plan that cannot run, which no half matches; kFinished, the
// rank has no step left. Only a half waiting for its peer is a rank.
constexpr int32_t kNone = -1, kNoMatch = -2, kFinished = -3;

// Eager rules: messages a rank keeps in its state, not in the overflow
// (Evaluator::Arrivals): a lock-step plan has at most one or two messages
// in flight to a rank (two-tree bcast: one from each tree's parent).
constexpr int kInbox = 2;

// A rank's current step, reduced to what the rules need, in 80 bytes: the
// hot loop reads a rank and its peers, and neighbouring ranks share cache
// lines.
struct RankState {
  double post = 0;            // when the step was posted; once finished, the finish
  double ready = 0;           // the latest of post and its halves' ends so far
  double after = 0;           // its ⊕ after the halves
  double recv_post = 0;       // eager rules: when the receive half is posted
  double inbox[kInbox] = {};  // eager rules: arrivals of messages waiting here
  int64_t send_bytes = 0;
  int64_t steps_done = 0;  // for the error on a plan that stops
  int32_t send_to = kNone, recv_from = kNone;
  int32_t inbox_from[kInbox] = {kNone, kNone};  // their senders, kNone: free
};

// The ranks to advance, a two-level bitset swept in rank order. What a
// rank's step touches (its state, its step source, its holdings, and peers
// at offsets that change slowly from rank to rank) lies in rank order, so a
// sweep reads memory in order where a worklist would jump across all p
// ranks' state, a cache miss a step at p = 2^20.
class RankSet {
 public:
  explicit RankSet(int64_t p) : words_(static_cast<size_t>((p + 63) / 64)), groups_((words_.size() + 63) / 64) {}

  void add(int64_t r) {
    const auto w = static_cast<size_t>(r >> 6);
    words_[w] |= uint64_t{1} << (r & 63);
    groups_[w >> 6] |= uint64_t{1} << (w & 63);
  }

  // Takes out and visits the ranks in the set in increasing order, once
  // each: ranks added meanwhile are visited in this sweep if they lie
  // ahead, else left for the next, so that memory is read in one direction.
  // Returns whether it visited any.
  template <class Visit>
  bool sweep(Visit visit) {
    bool any = false;
    for (size_t g = 0; g < groups_.size(); ++g) {
      for (uint64_t ahead = groups_[g]; ahead != 0;) {
        const int wb = __builtin_ctzll(ahead);
        const size_t w = g * 64 + static_cast<size_t>(wb);
        for (uint64_t bits = words_[w]; bits != 0;) {
          const int b = __builtin_ctzll(bits);
          words_[w] &= ~(uint64_t{1} << b);
          visit(static_cast<int64_t>(w * 64) + b);
          any = true;
          bits = b == 63 ? 0 : words_[w] & (~uint64_t{0} << (b + 1));
        }
        if (words_[w] == 0) groups_[g] &= ~(uint64_t{1} << wb);
        ahead = wb == 63 ? 0 : groups_[g] & (~uint64_t{0} << (wb + 1));
      }
    }
    return any;
  }

 private:
  std::vector<uint64_t> words_;   // bit r: rank r
  std::vector<uint64_t> groups_;  // bit w: words_[w] is not 0
};

// The plan's ranks and their current steps. The results do not depend on
// the order in which ranks are advanced: a message starts when both its
// halves are posted, whoever is looked at first.
class Evaluator {
 public:
  Evaluator(const plan::Plan& plan, const BlockBytes& bytes, const Machine& net, EventSink* sink)
      : h_(plan.header),
        steps_(plan, bytes, net.gamma),
        net_(net),
        eager_(net.has_overheads()),
        node_size_(net.node_size()),
        ranks_(static_cast<size_t>(plan.header.p)),
        pending_(plan.header.p),
        sink_(sink) {
    if (sink_) {
      after_bytes_.assign(ranks_.size(), 0);
      inbox_traced_.resize(ranks_.size() * kInbox);
    }
    for (int64_t r = 0; r < h_.p; ++r) {
      start_step(r, 0);
      pending_.add(r);
    }
  }

  Result run(bool per_rank) {
    while (pending_.sweep([this](int64_t r) { advance(r); })) {
    }
    Result res;
    res.messages = messages_;
    for (size_t r = 0; r < ranks_.size(); ++r) {
      if (ranks_[r].send_to != kFinished)
        throw std::invalid_argument("the plan does not run to its end (rank " + std::to_string(r) + " waits at step " +
                                    std::to_string(ranks_[r].steps_done) + "); collsim verify plan says why");
      res.time = std::max(res.time, ranks_[r].post);
      if (per_rank) res.finish.push_back(ranks_[r].post);
    }
    return res;
  }

 private:
  RankState& at(int64_t r) { return ranks_[static_cast<size_t>(r)]; }
  int32_t peer(int64_t rank) const { return rank < 0 ? kNone : rank < h_.p ? static_cast<int32_t>(rank) : kNoMatch; }

  // Takes rank r's next step and posts it at time t plus the ⊕ of an
  // acc+input send; or finishes r at t when none is left. Its combines and
  // folds are charged after its halves.
  void start_step(int64_t r, double t) {
    RankState& s = at(r);
    StepCost c;
    if (!steps_.next(r, c)) {
      s.send_to = s.recv_from = kFinished;
      s.post = t;
      return;
    }
    s.send_to = peer(c.send_to), s.recv_from = peer(c.recv_from);
    s.send_bytes = c.send_bytes;
    if (sink_ && c.before_bytes > 0) sink_->combine({r, c.before_bytes, s.steps_done, t, t + c.before});
    s.after = c.after;
    if (sink_) after_bytes_[static_cast<size_t>(r)] = c.after_bytes;
    s.post = s.ready = s.recv_post = t + c.before;
  }

  // The eager rules' send: it leaves after the sender's overhead and bytes
  // (m·G, whoever receives it: SMPI's smpi/ois charges them to every send),
  // and waits at the receiver's end (in order per pair: the k-th send from
  // r to s meets s's k-th receive from r); the step's receive is posted
  // after it. Between nodes it then takes L (the links are all but
  // unbounded: platform.hpp); within a node the loopback link's α and β as
  // well.
  void send_eagerly(int64_t r) {
    RankState& s = at(r);
    const double leave = s.post + net_.send_overhead() + static_cast<double>(s.send_bytes) * net_.beta;
    const double flight = same_node(r, s.send_to)
                              ? net_.intra_alpha + static_cast<double>(s.send_bytes + net_.envelope) * net_.intra_beta
                              : net_.alpha;
    MessageEvent traced;
    if (sink_) traced = {r, s.send_to, s.send_bytes, s.steps_done, s.post, s.post, leave + flight, leave, 0};
    deliver(r, s.send_to, leave + flight, traced);
    if (at(s.send_to).recv_from == r) pending_.add(s.send_to);
    s.ready = s.recv_post = leave;
    s.send_to = kNone;
    ++messages_;
  }

  // Puts a message from `from` arriving at `time` where `to`'s receive
  // looks for it: a free slot of the receiver's inbox where no earlier
  // message of the pair waits (so the inbox holds its pairs' oldest), else
  // the pair's queue in the overflow.
  void deliver(int64_t from, int64_t to, double time, const MessageEvent& traced) {
    RankState& receiver = at(to);
    bool pair_waits = false;
    int slot = -1;  // a free one
    for (int i = 0; i < kInbox; ++i) {
      pair_waits = pair_waits || receiver.inbox_from[i] == from;
      if (receiver.inbox_from[i] == kNone) slot = i;
    }
    if (!pair_waits && slot >= 0 && (overflow_.empty() || !overflow_.count(pair_key(from, to)))) {
      receiver.inbox_from[slot] = static_cast<int32_t>(from);
      receiver.inbox[slot] = time;
      if (sink_) inbox_traced_[static_cast<size_t>(to * kInbox + slot)] = traced;
      return;
    }
    Arrivals& q = overflow_[pair_key(from, to)];
    q.times.push_back(time);
    if (sink_) q.traced.push_back(traced);
  }
  static uint64_t pair_key(int64_t from, int64_t to) {
    return static_cast<uint64_t>(from) << 32 | static_cast<uint64_t>(to);
  }

  // The eager rules' receive of rank r, if its message has been sent: the
  // inbox's if one is from r's peer, else the oldest of the pair's overflow.
  void receive_eagerly(int64_t r) {
    RankState& s = at(r);
    double arrival = 0;
    MessageEvent* traced = nullptr;
    Arrivals* q = nullptr;
    std::unordered_map<uint64_t, Arrivals>::iterator it;
    int slot = 0;
    while (slot < kInbox && s.inbox_from[slot] != s.recv_from) ++slot;
    if (slot < kInbox) {
      arrival = s.inbox[slot];
      s.inbox_from[slot] = kNone;
      if (sink_) traced = &inbox_traced_[static_cast<size_t>(r * kInbox + slot)];
    } else {
      if (overflow_.empty() || (it = overflow_.find(pair_key(s.recv_from, r))) == overflow_.end()) return;
      q = &it->second;
      arrival = q->times[q->head];
      if (sink_) traced = &q->traced[q->head];
    }
    const double done = std::max(s.recv_post, arrival) + net_.recv_overhead();
    s.ready = std::max(s.ready, done);
    if (traced) {
      traced->end = std::max(s.recv_post, arrival);
      traced->receiver_done = done;
      sink_->message(*traced);
    }
    if (q && ++q->head == q->times.size()) overflow_.erase(it);
    s.recv_from = kNone;
  }

  void advance(int64_t r) { eager_ ? advance_eagerly(r) : advance_rendezvous(r); }

  // Matches rank r's current halves where the peers are ready, and runs
  // its steps on while they complete: a step ends when both halves have (a
  // fold step: when it is posted), then its ⊕ follow.
  void advance_rendezvous(int64_t r) {
    RankState& s = at(r);
    for (;;) {
      if (s.send_to >= 0) match(r, s.send_to, s.send_to);
      if (s.recv_from >= 0) match(s.recv_from, r, s.recv_from);
      if (s.send_to != kNone || s.recv_from != kNone) return;
      finish_step(r);
    }
  }

  // The eager rules take a rank one step a visit, its send at the visit
  // (not when the step is posted): a rank then sends at most one message a
  // sweep and its receiver takes it in the same sweep or the next, so
  // messages rarely wait behind another in the receiver's inbox (run ahead
  // as far as its peers allow, as the rendezvous rules do, a rank sent a
  // round's messages before their receivers had taken the last round's, and
  // each message cost a hash map's insertion: 67 s at p = 2^20). When a
  // message is sent does not change when it arrives.
  void advance_eagerly(int64_t r) {
    RankState& s = at(r);
    if (s.send_to >= 0) send_eagerly(r);
    if (s.recv_from >= 0) receive_eagerly(r);
    if (s.send_to != kNone || s.recv_from != kNone) return;
    finish_step(r);
    if (s.send_to != kFinished) pending_.add(r);
  }

  // Rank r's step has both halves: its ⊕ after them, then its next step.
  void finish_step(int64_t r) {
    RankState& s = at(r);
    if (sink_ && after_bytes_[static_cast<size_t>(r)] > 0)
      sink_->combine({r, after_bytes_[static_cast<size_t>(r)], s.steps_done, s.ready, s.ready + s.after});
    ++s.steps_done;
    start_step(r, s.ready + s.after);
  }

  // The message from `from` to `to`, if both current steps hold its
  // halves; `peer`, the one of them not being advanced, is queued if its
  // step can now complete.
  void match(int64_t from, int64_t to, int64_t peer) {
    RankState &sender = at(from), &receiver = at(to);
    if (sender.send_to != to || receiver.recv_from != from) return;
    const double start = std::max(sender.post, receiver.post);
    const double end = start + latency_between(from, to) +
                       static_cast<double>(sender.send_bytes + net_.envelope) * per_byte_between(from, to);
    if (sink_) sink_->message({from, to, sender.send_bytes, sender.steps_done, sender.post, start, end, end, end});
    sender.send_to = receiver.recv_from = kNone;
    sender.ready = std::max(sender.ready, end);
    receiver.ready = std::max(receiver.ready, end);
    ++messages_;
    if (at(peer).send_to == kNone && at(peer).recv_from == kNone) pending_.add(peer);
  }

  // Between two ranks of one node: the node's loopback link.
  bool same_node(int64_t a, int64_t b) const { return node_size_ > 1 && a / node_size_ == b / node_size_; }
  double latency_between(int64_t a, int64_t b) const { return same_node(a, b) ? net_.intra_alpha : net_.alpha; }
  double per_byte_between(int64_t a, int64_t b) const { return same_node(a, b) ? net_.intra_beta : net_.beta; }

  const plan::Header& h_;
  PlanSteps steps_;
  Machine net_;
  bool eager_;         // o or g: SMPI's eager rules
  int64_t node_size_;  // ranks a node
  std::vector<RankState> ranks_;
  // Eager rules: the arrival times of messages sent and not yet received
  // that found their receiver's inbox taken, per (sender, receiver), in
  // order; only pairs with one waiting.
  struct Arrivals {
    std::vector<double> times;
    std::vector<MessageEvent> traced;  // with a sink: the messages themselves
    size_t head = 0;
  };
  std::unordered_map<uint64_t, Arrivals> overflow_;
  std::vector<MessageEvent> inbox_traced_;  // with a sink: [r·kInbox + slot]
  RankSet pending_;
  int64_t messages_ = 0;
  EventSink* sink_;                   // null: no tracing
  std::vector<int64_t> after_bytes_;  // with a sink: per rank, the ⊕ bytes after
                                      // its current step's halves
};

}  // namespace

int64_t SteppedSegments::run_bytes(const plan::BlockList::Run& run) const {
  // Block u of segments lo, lo + k, .., lo + (count − 1)·k; how many of
  // them lie below segment x: the terms of that progression under x.
  const int64_t u = run.first % per, lo = run.first / per, k = run.stride / per;
  const auto below = [&](int64_t x) { return x <= lo ? 0 : std::min(run.count, (x - lo - 1) / k + 1); };
  const int64_t bounds[4] = {0, edge[0], edge[1], std::numeric_limits<int64_t>::max()};
  int64_t total = 0;
  for (int i = 0; i < 3; ++i) {
    const int64_t in_step = below(bounds[i + 1]) - below(bounds[i]);
    if (in_step > 0) total += in_step * sim::block_span(len[i], per, u).count();
  }
  return total * unit;
}

int64_t BlockBytes::run_bytes(const plan::BlockList::Run& run) const {
  // A stride of whole segments is the stepped form: block u of every k-th
  // segment (per = 1: consecutive blocks too, k = 1; multi-lane
  // allgatherv's node phase lists offset-major runs of k = c segments).
  if (stepped_ && run.stride % stepped_->per == 0) return stepped_->run_bytes(run);
  return plan::run_size(run, *this);
}

BlockBytes BlockBytes::units(const plan::Header& h, int64_t units, int64_t unit) {
  if (h.segments != 1) {
    // block_span's ceil cut of the units into h.segments: `full` segments
    // of ⌈units/K⌉, one of the rest, then empty ones.
    const int64_t size = (units + h.segments - 1) / h.segments, full = size == 0 ? 0 : units / size;
    const SteppedSegments stepped{h.blocks / h.segments, unit, {full, full + 1}, {size, units - full * size, 0}};
    return BlockBytes(
        [h, units, unit](int64_t b) {
          const sim::Span s = plan::block_units(h, units, b);
          return sim::Span{s.begin * unit, s.end * unit};
        },
        stepped);
  }
  BlockBytes flat;
  flat.size_ = (units + h.blocks - 1) / h.blocks;
  flat.units_ = units;
  flat.unit_ = unit;
  return flat;
}

BlockBytes even_blocks(const plan::Header& h, int64_t bytes, int64_t element) {
  const int64_t units = bytes / element;
  if (!plan::per_segment(h.collective)) return BlockBytes::units(h, units, element);
  // The harness's even layout: the first units mod p ranks one unit more.
  const int64_t p = h.p, n = plan::segment_blocks(h);
  const SteppedSegments stepped{n, element, {units % p, p}, {units / p + 1, units / p, 0}};
  return BlockBytes(
      [=](int64_t b) {
        const int64_t owner = b / n, share = units / p + (owner < units % p ? 1 : 0);
        const int64_t first = owner * (units / p) + std::min(owner, units % p);
        const sim::Span s = sim::block_span(share, n, b % n);
        return sim::Span{(first + s.begin) * element, (first + s.end) * element};
      },
      stepped);
}

int64_t list_bytes(const BlockBytes& spans, const plan::BlockList& blocks) {
  int64_t total = 0;
  for (const plan::BlockList::Run& run : blocks.runs()) total += spans.run_bytes(run);
  return total;
}

Result evaluate(const plan::Plan& plan, const BlockBytes& block_bytes, const Machine& net, bool per_rank,
                EventSink* sink) {
  require_lock_step(plan.header);
  return Evaluator(plan, block_bytes, net, sink).run(per_rank);
}

}  // namespace collsim::engine
