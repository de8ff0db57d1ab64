// The plan engine (issue 16, first rule set): evaluates a plan's time
// without SimGrid, for any p up to 2^31 − 1, asking the question SMPI
// answers on the full-duplex α-β platform collsim runs:
//
//   - a rank runs its steps in order; a step is a blocking sendrecv posted
//     when the rank's previous step completed (plus the ⊕ it had to do);
//   - the message of a send half and its matching receive half (the k-th
//     send from r to s meets the k-th receive at s from r) starts when both
//     are posted and takes L + (bytes + envelope)·G, the whole transfer
//     occupying neither end's CPU (SMPI with send-is-detached-thresh 0: a
//     rendezvous; full duplex: a rank's one send and one receive overlap);
//   - a step completes when both its halves have (a fold step, which has
//     none, when it is posted); each received block it combines, each
//     block of an acc+input send and each block it folds costs γ per byte
//     on the rank (the harness's ⊕ charge), after the receive or the fold's
//     posting, or before the send.
// With L = α, G = β and envelope = 16 this is the SMPI time of the plan
// executor, exactly (tests/test_engine.cpp checks it against smpirun).
// With o or g (Machine::has_overheads) the rules are SMPI's for such a
// platform instead: a send never waits for its receiver (see below).
//
// Cost: O(total steps + listed runs + sweeps·p/4096): ranks are advanced
// in sweeps in rank order, each as far as its peers allow (under the eager
// rules one step a visit, so that a message is taken from its receiver's
// state, not from a hash map), every message matched once; a plan takes
// about as many sweeps as it has rounds (up to twice that under the eager
// rules, and an eager linear pipeline about p + n). At p = 2^20, 1 MiB, every O(log p)-round plan
// of ours takes under 7 s of CPU on this project's slow machine, eager or
// not (two-tree bcast on alphabeta, 89 blocks: 93 M messages, 6.5 s).
// Where blocks start empty (bcast, allgatherv, exscan), holdings are kept
// per block: receives and folds cost per listed block there (step_costs.hpp
// says where they are not kept). Memory: per rank 80 bytes, its step source
// (the rest of a streamed plan's steps from O(1) state, 100-150 bytes; a
// plan that is not streamed holds all of the rank's steps there), and B
// bits of holdings where blocks start empty; whatever the steps' total. A
// rank's source is released when it finishes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "machine.hpp"
#include "plan.hpp"

namespace collsim::engine {

// The engine reads the one machine description (platforms/machine.hpp):
// L = alpha and G = beta between nodes, intra_alpha and intra_beta between
// two ranks of one node (node_size() consecutive ranks a node: SimGrid's
// loopback link of a multi-core host), γ, the envelope, and with o or g
// (has_overheads) SMPI's eager rules: every message eager, its sender busy
// send_overhead() + bytes·G before it leaves (then the step's receive is
// posted), the message arriving L later (within a node: the loopback's α
// and (bytes + envelope)β later), the receive done at the later of its
// posting and the arrival plus recv_overhead(). Without them: rendezvous.
// No link is shared here: where messages share links (ranks sharing a
// node's link on an α-β platform, a topology, half duplex;
// engine::shares_links) engine/shared_links.hpp evaluates the plan instead.
using platforms::Machine;

struct Result {
  double time = 0;             // the last rank's finish, seconds
  std::vector<double> finish;  // per rank (empty unless asked for)
  int64_t messages = 0;
};

// Segment lengths (in units) as a step function of the segment: `len[0]`
// for segments [0, edge[0]), len[1] for [edge[0], edge[1]), len[2] beyond,
// `per` blocks to a segment. Both even cuts are of this form: ceil-sized
// segments (full ones, one partial, empty ones) and the harness's even
// counts (units/p + 1 for the first units mod p ranks, then units/p). A
// strided run whose stride is a multiple k of `per`, block u of every k-th
// segment, then costs three products, not one lookup per segment.
struct SteppedSegments {
  int64_t per = 1, unit = 1;
  int64_t edge[2] = {0, 0};
  int64_t len[3] = {0, 0, 0};
  int64_t run_bytes(const plan::BlockList::Run& run) const;
};

// Where block b lies in the full vector, bytes [begin, end) (the data cut
// as the plan says: plan::block_units on whole elements of `element` bytes;
// per-segment collectives by the harness's even counts). Blocks in
// increasing order are contiguous, so a run of blocks is one span and a
// step's bytes are counted by runs (a halving step lists p/2 blocks).
// The engine asks for spans several times a step, so the flat cut (one
// segment, blocks of ⌈units/B⌉ units) is worked out inline, two products
// and no division; other layouts go through a function.
class BlockBytes {
 public:
  // Any layout: per-segment counts, nested segments, a test's own sizes.
  template <class Spans, class = std::enable_if_t<!std::is_same_v<std::decay_t<Spans>, BlockBytes>>>
  BlockBytes(Spans spans, std::optional<SteppedSegments> stepped = std::nullopt)  // NOLINT: a lambda converts
      : spans_(std::move(spans)), stepped_(stepped) {}
  // plan::block_units's cut of `units` units of `unit` bytes into h's blocks
  // (the flat cut where h.segments = 1).
  static BlockBytes units(const plan::Header& h, int64_t units, int64_t unit);

  sim::Span operator()(int64_t block) const {
    if (spans_) return spans_(block);
    return {unit_ * std::min(block * size_, units_), unit_ * std::min((block + 1) * size_, units_)};
  }
  // The bytes of a run: contiguous blocks are one span; a strided one is
  // counted in closed form where the segments are stepped and the stride is
  // a multiple of their block count, else block by block.
  int64_t run_bytes(const plan::BlockList::Run& run) const;

 private:
  BlockBytes() = default;
  std::function<sim::Span(int64_t block)> spans_;  // empty: the flat cut
  std::optional<SteppedSegments> stepped_;
  int64_t size_ = 0, units_ = 0, unit_ = 1;  // ⌈units/B⌉, units, bytes a unit
};
BlockBytes even_blocks(const plan::Header& h, int64_t bytes, int64_t element);
int64_t list_bytes(const BlockBytes& spans, const plan::BlockList& blocks);

// What the engine tells a tracer (`collsim timeline`), in seconds. A
// message: `from` posts it at `post` in its step `step` (0-based); the
// transfer starts at `start` (rendezvous: both halves posted; eager: at
// the post, the sender's overhead first); the receiver has it at `end`
// (its last byte's arrival, or the receive's posting where that came
// later: an eager message waits in the receiver's buffer); the sender's half is done at `sender_done` (rendezvous: the
// arrival; eager: when it leaves, max(o,g) + mG after the post) and the
// receiver's at `receiver_done` (rendezvous: the arrival; eager: the later
// of the arrival and the receive's posting, plus o).
struct MessageEvent {
  int64_t from = 0, to = 0, bytes = 0, step = 0;
  double post = 0, start = 0, end = 0, sender_done = 0, receiver_done = 0;
};
// A ⊕ of `bytes` bytes on `rank` in its step `step`, from `start` to `end`.
struct CombineEvent {
  int64_t rank = 0, bytes = 0, step = 0;
  double start = 0, end = 0;
};
// Told every message and ⊕ as the engine settles them (not in time order).
class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void message(const MessageEvent& m) = 0;
  virtual void combine(const CombineEvent& c) = 0;
};

// Throws std::invalid_argument on a plan that cannot run to its end
// (unmatched halves, deadlock): the verifier names why. With a `sink`,
// every message and ⊕ is told to it (null, the default, costs nothing
// beyond a test per event).
Result evaluate(const plan::Plan& plan, const BlockBytes& block_bytes, const Machine& net, bool per_rank = false,
                EventSink* sink = nullptr);

}  // namespace collsim::engine
