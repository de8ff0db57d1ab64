// Plans: a collective's schedule as data, apart from whatever runs it (the
// idea of LogGOPSim's GOAL). For a collective, p ranks, a root and a cut of
// the data into blocks, a plan gives each rank its ordered steps; a step
// sends some blocks to one peer and/or receives some blocks from one peer
// (both at once, as MPI_Sendrecv), and says what a received block does; or,
// with no message, folds the rank's own input into some blocks. The
// verifier (verify/plan_check.hpp), the plan writers (text and GOAL) and the
// executors read the same steps. Pure C++17, no MPI.
//
// Blocks. The data is cut into `blocks` blocks B (block_span of blocks.hpp):
//   bcast, reduce, allreduce, scan, exscan
//       B blocks of the vector; every rank has its own input of each
//       (bcast: only the root's counts).
//   allgatherv, reduce_scatter
//       B = p·n: rank r's segment (its counts[r]) cut into n blocks,
//       r·n .. r·n + n − 1 (allgatherv: r's own data; reduce_scatter: the
//       blocks of the result that r ends with).
// Segments. A plan of the first kind may cut the vector into K = `segments`
// segments first (block_span into K) and each segment into B/K blocks, block
// s·(B/K) + b being block b of segment s: the nested cut of circulant
// allreduce (p segments of n blocks), which differs from a flat cut into
// p·n blocks. K = 1 (the default) is the flat cut; block_units says where a
// block lies.
// Each rank keeps, per block, one accumulator `acc` (the result buffer),
// its own input, and a second accumulator `aux` that starts empty. A send
// sends a block's acc, its input, acc ⊕ input (the doubling scans' W ⊕ V),
// aux, acc ⊕ aux or acc ⊕ input ⊕ aux (in that order: the operands hold
// lower ranks to the left); a receive stores the block into acc or
// combines it: left means acc = received ⊕ acc (the received data comes
// from lower ranks), right means acc = acc ⊕ received; or it stores it into
// aux (combine aux). A fold step sends and receives nothing: acc = acc ⊕
// input for its blocks (an empty acc becomes the input): the inclusive
// doubling scans run an exclusive plan, then this W ⊕ V with no message. A
// join step, likewise local: acc = aux ⊕ acc. An empty operand is the
// identity everywhere. aux is what lets a rank hold two values of a block:
// the two-tree scans keep A = L ⊕ V in acc while the right subtree's R
// waits in aux (acc ⊕ aux goes up), and later the parent's prefix P in aux
// (sent on to the left child, then joined: P ⊕ A).
//
// Where every rank ends (what the verifier checks; [a, b] is the ⊕ of the
// inputs of ranks a..b in rank order):
//   bcast, allgatherv  every block's data from its origin, on every rank
//   reduce             [0, p − 1] of every block at the root
//   allreduce          [0, p − 1] of every block on every rank
//   reduce_scatter     [0, p − 1] of blocks r·n .. r·n + n − 1 on rank r
//   scan / exscan      [0, r] / [0, r − 1] of every block on rank r
//                      (exscan: rank 0 ends with nothing)
// Initially acc holds the rank's input (bcast: the root's data,
// allgatherv: r's own blocks), except for exscan, where acc starts empty.
//
// Order. A lock-step plan (the default) runs a rank's steps one after
// another: each step starts when the one before has completed. A graph
// plan (Header::graph, issue 34) says instead what each step requires
// (Step::after: earlier steps of the same rank, by index); a step starts
// when those have completed and a rank may have many steps in flight. A
// step that starts reads what it sends then; its received blocks take
// effect when its message has arrived, and it completes when both halves
// have. Messages between two ranks match in plan order (the k-th send from
// s to d meets d's k-th receive from s), as MPI's non-overtaking rule
// gives where a rank's sends to one peer are ordered by their requirements
// and receives are posted in plan order (verify/plan_graph_check.hpp says
// what a graph plan must satisfy). overlapped() turns a lock-step plan
// into the graph of its data and channel dependencies.
//
// Plans are produced per rank on demand (Plan::steps), so one for
// p = 2^20 never has to exist whole in memory.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <iterator>
#include <string>
#include <vector>

#include "blocks.hpp"
#include "collectives.hpp"

namespace collsim::plan {

// The most blocks a plan may have (B <= 2^40).
inline constexpr int64_t kMaxBlocks = int64_t{1} << 40;
// What the plan executor and the engine keep per rank and block (which
// blocks hold a value, a bit each) stays within p·B <= 2^32: `run --plan`
// refuses a plan file past it before starting anything.
inline constexpr int64_t kMaxHoldings = int64_t{1} << 32;

// What a send carries of each of its blocks.
enum class Value { acc, input, acc_op_input, aux, acc_op_aux, acc_op_input_op_aux };
// What a received block does: to acc (store, left, right), or stored in aux.
enum class Combine { store, left, right, aux };

// The ⊕ per byte a send of `v` takes before it leaves, where every operand
// holds a value (acc ⊕ input ⊕ aux: two).
inline int send_ops(Value v) {
  return v == Value::acc_op_input || v == Value::acc_op_aux ? 1 : v == Value::acc_op_input_op_aux ? 2 : 0;
}
// Does a send of `v` read aux?
inline bool reads_aux(Value v) { return v == Value::aux || v == Value::acc_op_aux || v == Value::acc_op_input_op_aux; }
// Does a receive ⊕ the block into acc (left, right), rather than store it?
inline bool combines(Combine c) { return c == Combine::left || c == Combine::right; }

// A step's blocks in the order listed, held as runs of consecutive blocks:
// a halving step's p/2 blocks are one run, so a rank's steps cost memory by
// runs, not by blocks (SMPI holds 16,384 ranks' plans at once). A run may
// also step by a stride (push_strided): block u of each of the segments
// j0 .. j1 of a nested cut, j·n + u, is one run of stride n, which keeps a
// circulant allreduce round (block u_v of every root, in a few runs of v)
// at O(runs), not O(p). Iterating gives the block numbers one by one. The
// first run lives inline (most steps list one run), so such a step
// allocates nothing.
//   {4, 5, 6, 0, 2, 3}  ->  runs (4, 3) (0, 1) (2, 2)
//   push_strided(1, 3, 4) ->  run (1, 3, stride 4): blocks 1, 5, 9
class BlockList {
 public:
  struct Run {
    int64_t first, count;
    int64_t stride = 1;  // > 1 only where count > 1
    int64_t last() const { return first + (count - 1) * stride; }
  };
  // The runs in order, as a range.
  struct Runs {
    const Run *b, *e;
    const Run* begin() const { return b; }
    const Run* end() const { return e; }
    size_t size() const { return static_cast<size_t>(e - b); }
    const Run& operator[](size_t i) const { return b[i]; }
  };
  BlockList() = default;
  BlockList(std::initializer_list<int64_t> blocks) {
    for (int64_t b : blocks) push_back(b);
  }
  BlockList(const std::vector<int64_t>& blocks);  // NOLINT: builders hand vectors
  // Blocks first .. first + count − 1.
  static BlockList range(int64_t first, int64_t count) {
    BlockList list;
    list.push_run(first, count);
    return list;
  }

  void push_back(int64_t block) { push_run(block, 1); }
  // Inline, as the step sources that feed the engine list a block or a run
  // a step.
  void push_run(int64_t first, int64_t count) { push_strided(first, count, 1); }
  // Blocks first, first + stride, .., count of them (stride >= 1).
  void push_strided(int64_t first, int64_t count, int64_t stride) {
    if (count <= 0) return;
    if (count == 1) stride = 1;
    if (size_ == 0) {
      inline_ = {first, count, stride};
      size_ = count;
      return;
    }
    Run& last = spilled_.empty() ? inline_ : spilled_.back();
    size_ += count;
    if (last.stride == stride && last.first + last.count * stride == first)
      last.count += count;
    else
      spill({first, count, stride});
  }
  // No blocks; spilled storage is kept for the next list.
  void clear() {
    inline_ = {0, 0};
    spilled_.clear();
    size_ = 0;
  }
  int64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Runs runs() const {
    if (!spilled_.empty()) return {spilled_.data(), spilled_.data() + spilled_.size()};
    return {&inline_, &inline_ + (size_ > 0 ? 1 : 0)};
  }

  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = int64_t;
    using difference_type = std::ptrdiff_t;
    using pointer = const int64_t*;
    using reference = int64_t;
    const_iterator(const Run* run, int64_t offset) : run_(run), offset_(offset) {}
    int64_t operator*() const { return run_->first + offset_ * run_->stride; }
    const_iterator& operator++() {
      if (++offset_ == run_->count) ++run_, offset_ = 0;
      return *this;
    }
    bool operator==(const const_iterator& o) const { return run_ == o.run_ && offset_ == o.offset_; }
    bool operator!=(const const_iterator& o) const { return !(*this == o); }

   private:
    const Run* run_;
    int64_t offset_;
  };
  const_iterator begin() const { return {runs().begin(), 0}; }
  const_iterator end() const { return {runs().end(), 0}; }

  friend bool operator==(const BlockList& x, const BlockList& y);
  friend bool operator!=(const BlockList& x, const BlockList& y) { return !(x == y); }

 private:
  // No two neighbouring runs of one stride continue each other (so lists
  // built alike compare equal run by run). One run: inline_;
  // more: all of them in spilled_.
  Run inline_{0, 0};
  std::vector<Run> spilled_;
  int64_t size_ = 0;
  // Appends a run that does not continue the last one.
  void spill(Run run);
};

// The size of a run of blocks, where `span_of(b)` gives block b's span
// (units or bytes; blocks in increasing order lie back to back): a run of
// consecutive blocks is one span, a strided one adds its blocks one by one.
template <class SpanOf>
int64_t run_size(const BlockList::Run& run, const SpanOf& span_of) {
  if (run.stride == 1) return span_of(run.last()).end - span_of(run.first).begin;
  int64_t total = 0;
  for (int64_t b = run.first; b <= run.last(); b += run.stride) total += span_of(b).count();
  return total;
}

// Are the list's blocks in increasing order? O(runs).
bool increasing(const BlockList& list);
// The list's blocks put in increasing order where they are not (O(blocks
// log blocks) then, O(runs) else).
void sort_blocks(BlockList& list);

// "0,1,4-7": the plan file's form (docs/plan-format.md).
std::string to_string(const BlockList& blocks);
std::ostream& operator<<(std::ostream& out, const BlockList& blocks);

struct Step {
  int64_t send_to = -1;  // -1: no send
  BlockList send_blocks;
  Value send_value = Value::acc;
  int64_t recv_from = -1;  // -1: no receive
  BlockList recv_blocks;
  Combine combine = Combine::store;
  // Not empty: a fold step (no send, no receive), acc = acc ⊕ input; with
  // `join`, a join step, acc = aux ⊕ acc.
  BlockList fold_blocks;
  bool join = false;
  // Graph plans: the indices of this rank's earlier steps this one
  // requires (any order, each < its own index). Lock-step plans leave it
  // empty: every step requires the one before (requirements()).
  std::vector<int64_t> after;

  // Back to no step: a step source refills one Step in place.
  void clear() {
    send_to = recv_from = -1;
    join = false;
    send_value = Value::acc;
    combine = Combine::store;
    send_blocks.clear(), recv_blocks.clear(), fold_blocks.clear();
    after.clear();
  }
};

struct Header {
  Collective collective = Collective::bcast;
  int64_t p = 1;
  int64_t root = 0;     // bcast, reduce; 0 elsewhere
  int64_t blocks = 1;   // B (allgatherv, reduce_scatter: a multiple of p)
  // ⊕ may be reordered: joins need not be adjacent, left and right mean the
  // same. An algorithm that needs this is declared commutative-only.
  bool commutative = false;
  // K: the vector is cut into K segments of B/K blocks each (see "Segments"
  // above); 1 <= K <= B, B a multiple of K; 1 for allgatherv and
  // reduce_scatter, whose segments are the ranks' counts.
  int64_t segments = 1;
  // A half whose blocks hold no bytes in the run's cut is left out at both
  // ends (each knows the message's size from the same counts), instead of
  // being sent empty. The circulant all-to-all plans (allgatherv,
  // reduce_scatter, allreduce) say so: with irregular counts, or fewer
  // elements than segments, many of their messages are empty, and sending
  // none is what an implementation does. Elsewhere an empty message is
  // sent and costs its latency, as the algorithms' MPI code always did.
  bool skip_empty = false;
  // Steps say what they require (Step::after); false: lock-step ("Order").
  bool graph = false;
};

// Calls visit(i) for each step that step k of a rank requires: s.after in
// a graph plan, else the step before (none for the first).
template <class Visit>
void requirements(const Header& h, const Step& s, int64_t k, Visit visit) {
  if (!h.graph) {
    if (k > 0) visit(k - 1);
    return;
  }
  for (int64_t i : s.after) visit(i);
}

// A rank's steps one at a time: each call fills `next` with the next step
// and returns true, false after the last.
using StepSource = std::function<bool(Step& next)>;

struct Plan {
  Header header;
  // Rank r's steps in order, for 0 <= r < p.
  std::function<std::vector<Step>(int64_t rank)> steps;
  // Optional, for plans with many steps per rank (pipelines, rings): the
  // same steps one at a time from O(1) state, so that an executor or engine
  // running all p ranks at once holds one step per rank, not all of them.
  std::function<StepSource(int64_t rank)> stream = nullptr;

  // stream(rank) where there is one, else steps(rank) handed out in turn.
  StepSource source(int64_t rank) const;
};

// The plan whose ranks' steps come from `stream` (steps() collects them).
Plan streamed(Header h, std::function<StepSource(int64_t rank)> stream);

// A source over rounds i = first .. end − 1: round(i, step) fills the step
// or leaves it without a send and a receive (no step that round).
template <class Round>
StepSource rounds(int64_t first, int64_t end, Round round) {
  return [i = first, end, round](Step& next) mutable {
    while (i < end) {
      next.clear();
      round(i++, next);
      if (next.send_to >= 0 || next.recv_from >= 0 || !next.fold_blocks.empty()) return true;
    }
    return false;
  };
}

// `base` (a plan rooted at 0) on ranks rotated to `root`: rank r plays base
// rank (r − root) mod p. The order of ⊕ changes, so the result is declared
// commutative (a reduction tree rooted anywhere for a commutative ⊕).
Plan rotated(Plan base, int64_t root);

// A rank's steps as whoever runs a graph needs them: per step, the later
// steps that require it and how many steps it requires (requirements()).
// Throws std::invalid_argument for a requirement that is no earlier step
// of the rank (read_plan refuses one in a file; this guards plans built in
// code).
struct StepWaits {
  std::vector<std::vector<int64_t>> dependents;
  std::vector<int64_t> waiting;
};
StepWaits step_waits(const Header& h, const std::vector<Step>& steps);

// The graph plan of `lock_step`'s data and channel dependencies: step k of
// a rank requires, of its earlier steps, the last one that wrote (received
// into, folded, joined) a block of acc or aux that k reads or writes, every
// one that read such a block since k writes it (a send reads what it sends;
// a combine reads acc), and the last one that sent to the peer k sends to
// (so a rank's messages to one peer leave in plan order). Whatever order
// these allow gives every rank the values of the lock-step order, and
// messages match as there, so the result is the lock-step plan's; what
// changes is that independent steps overlap (a pipeline forwards block b
// while b + 1 arrives, two trees and two phases run side by side). Each
// rank's steps are collected whole: O(steps + listed blocks) time and
// memory per rank, while it is produced. A graph plan is returned as is.
Plan overlapped(Plan lock_step);

// Header::skip_empty for whoever runs a plan: leaves out the step's halves
// whose blocks hold no bytes (bytes_of(blocks) == 0 in the run's cut), and
// nothing where the plan does not say so. A step may be left with no half.
template <class BytesOf>
void drop_empty_halves(const Header& h, Step& s, BytesOf bytes_of) {
  if (!h.skip_empty) return;
  if (s.send_to >= 0 && bytes_of(s.send_blocks) == 0) s.send_to = -1, s.send_blocks = BlockList{};
  if (s.recv_from >= 0 && bytes_of(s.recv_blocks) == 0) s.recv_from = -1, s.recv_blocks = BlockList{};
}

// Do accumulators start empty somewhere (bcast, allgatherv: all but the
// data's origin; exscan: everywhere)? There a store is a plain copy and the
// first combine into an empty block takes the other operand, so whoever
// runs a plan must track which blocks each rank holds; elsewhere every
// block is held from the start.
inline bool starts_empty(Collective c) {
  return c == Collective::bcast || c == Collective::allgatherv || c == Collective::exscan;
}

// Is the data cut per rank's segment (allgatherv, reduce_scatter: B = p·n)?
bool per_segment(Collective c);
// Blocks per rank segment (allgatherv, reduce_scatter), else B.
int64_t segment_blocks(const Header& h);
// The rank a block originates at (allgatherv) or ends at (reduce_scatter).
int64_t block_owner(const Header& h, int64_t block);

// Block `block`'s units (elements; bytes for bcast) when a vector of
// `count` units is cut as h says (segments, then blocks; block_span of
// blocks.hpp). For the collectives cut as one vector, not per_segment: the
// executor, the engine and the GOAL writer all cut with this.
sim::Span block_units(const Header& h, int64_t count, int64_t block);

const char* value_name(Value v);
const char* combine_name(Combine c);

// The text format (docs/plan-format.md), version 1 for lock-step plans,
// 2 for graph plans:
//   # comments and blank lines anywhere
//   collsim-plan 1      (or 2)
//   collective bcast
//   p 4
//   root 0
//   blocks 2
//   commutative 0
//   segments 1          (optional; written only when not 1)
//   empty-messages skip (optional, default send: Header::skip_empty)
//   order graph         (version 2 only, optional, default lock-step)
//   rank 0
//   step send 2 blocks 0 recv -
//   ...
// A step line is `step` followed by
// `send PEER BLOCKS [value acc|input|acc+input|aux|acc+aux|acc+input+aux]`
// and/or `recv PEER BLOCKS [combine store|left|right|aux]`, or by
// `fold BLOCKS` or `join BLOCKS` alone; BLOCKS is a comma-separated list
// of blocks or ranges a-b; in a graph plan it may end with `after STEPS`,
// a comma-separated list of the rank's earlier step indices (from 0;
// without it a graph step requires nothing). `rank R` lines start
// rank R's steps; ranks may come in any order, each once; a rank without a line has no steps.
//
// Writes the header and every rank's steps, one rank at a time.
void write_plan(std::ostream& out, const Plan& plan);
// Reads a whole plan; malformed input throws std::invalid_argument naming
// the line ("line 7: unknown word 'sned'"). Checks syntax and ranges
// (peers and blocks in range, p >= 1); whether the plan is right is the
// verifier's business.
Plan read_plan(std::istream& in);
// read_plan of the file at `path`, read within kMaxPlanFileBytes
// (common/bounded_read.hpp): a directory, a device or an endless pipe is one
// std::invalid_argument or LimitError line naming the file.
Plan read_plan_file(const std::string& path);

}  // namespace collsim::plan
