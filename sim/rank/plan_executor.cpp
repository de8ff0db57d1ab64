// The plan executor: runs any plan (schedules/plan.hpp) with MPI, step by
// step, as the plan says: one MPI_Sendrecv per step (MPI_Send or MPI_Recv
// when one half is absent), the step's blocks packed into one message in
// the order listed, received blocks stored or combined (left: acc =
// received ⊕ acc, right: acc = acc ⊕ received) with MPI_Reduce_local, or
// stored in aux (a second full-length vector, made at its first use); a
// fold step is MPI_Reduce_local alone (acc = acc ⊕ input), a join too
// (acc = aux ⊕ acc).
// It runs our algorithms that are plans (COLLSIM_PLAN rows of
// algorithms/algorithms.def) and plans from files.
//
// Buffers. acc is a full-length working vector (the caller's result buffer
// where it is full length: bcast, allgatherv, allreduce, scan, exscan and the
// reduce root); input is the caller's send buffer. Each block of acc is
// either empty or holds a value; an empty block combined with anything
// takes the other operand (the identity), which is how exscan starts.
// Messages. Every listed half is sent, also when its blocks hold no bytes
// (an empty message costs its latency, as the algorithms' own MPI code
// did), unless the plan says `empty-messages skip` (Header::skip_empty:
// both ends then leave it out); a call whose vector is empty returns at
// once, as MPI does. Without ⊕ (bcast, allgatherv) a received block is
// stored, whatever the step says.
// Block order. A message's blocks are packed in increasing block order
// (the vector's), whatever order the plan lists them in (allgatherv
// multi-lane's node phase lists them offset-major, which takes fewer runs):
// both ends sort a list that is not increasing alike (plan::sort_blocks,
// O(runs) where it is), so they pack and unpack the same bytes.
// Scale mode. acc and the two message buffers are window memory
// (window.hpp): acc at vector positions, messages packed. A message's
// blocks are copied in runs of consecutive blocks in increasing order, so
// each window unit lands in the packed buffer's private prefix.
// A message that is one contiguous range of acc goes straight from acc, or
// into it where it is only stored, as an algorithm's own MPI code would.
// Cost: the plan's steps; per step one message of the listed blocks and one
// ⊕ over a combined message (of several pieces: acc's pieces gathered into
// a buffer and put back; exscan, whose blocks may be empty, combines piece
// by piece) or per folded run of blocks. Memory: acc (m bytes, where the
// caller's buffer is not full length), a message buffer of the largest
// message each way where messages are packed or combined and one more for
// acc's side of a combined message of several pieces, the rank's current
// step (runs of blocks, not blocks: plan.hpp) and its pieces.
// Limits: contiguous types (as every algorithm of ours).
#include "plan_executor.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <queue>
#include <unordered_map>
#include <vector>

#include "block_policy.hpp"
#include "blocks.hpp"
#include "plan_builders.hpp"
#include "window.hpp"

namespace collsim::sim {

namespace {

class Executor {
 public:
  Executor(const plan::Plan& plan, const CollArgs& a) : plan_(plan), a_(a) {
    MPI_Comm_rank(a.comm, &rank_);
    MPI_Comm_size(a.comm, &p_);
    MPI_Type_size(a.type, &esize_);
    // Blocks are cut on whole elements (a bcast inside allreduce two-tree
    // moves doubles); allgatherv's counts are bytes.
    if (collective() == Collective::allgatherv) esize_ = 1;
    set_up_segments();
  }

  void run() {
    if (full_bytes_ == 0) return;
    set_up_acc();
    if (plan_.header.graph) {
      run_graph();
    } else {
      const plan::StepSource next = plan_.source(rank_);
      for (plan::Step s; next(s);) step(in_block_order(s));
    }
    finish();
  }

 private:
  Collective collective() const { return plan_.header.collective; }

  // Where each rank's segment starts (allgatherv, reduce_scatter): the
  // caller's displacements, else (MPI_Reduce_scatter has none) the counts'
  // prefix sums; and the full vector's length.
  void set_up_segments() {
    if (!plan::per_segment(collective())) {
      full_bytes_ = a_.bytes;
      return;
    }
    int64_t units = 0;
    for (int r = 0; r < p_; ++r) units += a_.counts[r];
    full_bytes_ = units * esize_;
    if (a_.displs != nullptr) {
      displs_ = a_.displs;
      packed_ = true;
      for (int r = 1; r < p_ && packed_; ++r) packed_ = int64_t{displs_[r]} == int64_t{displs_[r - 1]} + a_.counts[r - 1];
      return;
    }
    own_displs_.assign(static_cast<size_t>(p_), 0);
    for (int r = 1; r < p_; ++r) own_displs_[r] = own_displs_[r - 1] + a_.counts[r - 1];
    displs_ = own_displs_.data();
    packed_ = true;
  }

  // Block b's bytes in the full vector.
  Span span(int64_t b) const {
    const plan::Header& h = plan_.header;
    if (!plan::per_segment(h.collective)) {
      const Span units = plan::block_units(h, a_.bytes / esize_, b);
      return {units.begin * esize_, units.end * esize_};
    }
    const int64_t n = plan::segment_blocks(h), owner = b / n;
    const Span units = block_span(a_.counts[owner], n, b % n);
    const int64_t first = displs_[owner];
    return {(first + units.begin) * esize_, (first + units.end) * esize_};
  }
  int count(int64_t bytes) const { return static_cast<int>(bytes / esize_); }

  void copy(char* to, const char* from, int64_t bytes) const {
    if (a_.scale)
      copy_real(to, from, bytes);
    else
      std::memcpy(to, from, static_cast<size_t>(bytes));
  }
  // A piece at vector position `at` (bytes), between acc or input and a
  // packed buffer: in scale mode its window units only (copy_units), which
  // are known from the position, without copy_real's lookups (they would
  // cost more than the copy on the O(p) small pieces of an all-to-all round).
  void copy_piece(char* to, const char* from, int64_t at, int64_t bytes) const {
    copy_units(to, from, at / esize_, bytes / esize_, esize_, a_.scale);
  }

  // Runs of blocks are contiguous bytes where the data is one vector cut in
  // order (per segment: where the displacements leave no gaps); and of the
  // collectives with ⊕ only exscan starts with empty blocks, whose holding
  // decides between store and combine. Where both hold, a step's work goes
  // by runs, not blocks (a halving step lists p/2 of them, an all-to-all
  // round up to p).
  bool by_runs() const { return (!plan::per_segment(collective()) || packed_) && !tracks_holdings(); }
  bool tracks_holdings() const { return plan::starts_empty(collective()) && reduces(collective()); }

  // A list's blocks in order, joined into pieces of consecutive blocks that
  // are contiguous in the vector and agree on whether this rank holds them
  // (by runs where by_runs() holds), and their bytes. Collected once per
  // step and half: a piece's span costs two block_units.
  struct Piece {
    Span span;
    bool held;
  };
  static constexpr Span kScattered{-1, -1};
  struct Pieces {
    std::vector<Piece> list;
    int64_t bytes = 0;
    // The one range of the vector the pieces fill, else kScattered.
    Span contiguous() const {
      for (size_t i = 1; i < list.size(); ++i)
        if (list[i].span.begin != list[i - 1].span.end) return kScattered;
      return list.empty() ? kScattered : Span{list.front().span.begin, list.back().span.end};
    }
  };

  void collect(const plan::BlockList& blocks, Pieces& out) const {
    out.list.clear();
    out.bytes = 0;
    auto add = [&out](Span s, bool held) {
      out.bytes += s.count();
      Piece* last = out.list.empty() ? nullptr : &out.list.back();
      if (last && s.begin == last->span.end && held == last->held)
        last->span.end = s.end;
      else
        out.list.push_back({s, held});
    };
    for (const plan::BlockList::Run& run : blocks.runs()) {
      if (by_runs() && run.stride == 1)
        add({span(run.first).begin, span(run.last()).end}, true);
      else
        for (int64_t b = run.first; b <= run.last(); b += run.stride)
          add(span(b), by_runs() || held_[static_cast<size_t>(b)]);
    }
  }

  // A message buffer of at least `bytes`, made where a message cannot go
  // straight from or into acc, and grown when a larger message comes.
  char* buffer(Scratch& buf, int64_t& size, int64_t bytes) const {
    if (buf.data() == nullptr || bytes > size) buf = Scratch(a_, Scratch::Kind::packed, size = std::max<int64_t>(bytes, 1));
    return buf.data();
  }

  // acc and which of its blocks hold a value.
  void set_up_acc() {
    const bool caller_full = a_.buf != nullptr && collective() != Collective::reduce_scatter;
    if (!caller_full) own_acc_ = Scratch(a_, Scratch::Kind::vector, full_bytes_);
    acc_ = caller_full ? static_cast<char*>(a_.buf) : own_acc_.data();
    const auto input = static_cast<const char*>(a_.sendbuf);
    switch (collective()) {
      case Collective::bcast: held_.assign(static_cast<size_t>(plan_.header.blocks), rank_ == a_.root); return;
      case Collective::exscan: held_.assign(static_cast<size_t>(plan_.header.blocks), false); return;
      case Collective::allgatherv: {
        const int64_t n = plan::segment_blocks(plan_.header);
        held_.assign(static_cast<size_t>(plan_.header.blocks), false);
        std::fill_n(held_.begin() + rank_ * n, n, true);
        copy(acc_ + int64_t{displs_[rank_]} * esize_, input, int64_t{a_.counts[rank_]} * esize_);
        return;
      }
      default:
        held_.assign(static_cast<size_t>(plan_.header.blocks), true);
        copy(acc_, input, full_bytes_);
    }
  }

  // The step's outgoing blocks, packed: acc, input, aux or their ⊕ in the
  // order acc, input, aux (lower ranks first; an empty operand is left
  // out). Without ⊕ (bcast, allgatherv) a rank's input is in acc from the
  // start.
  bool packs(const plan::Step& s) const { return s.send_value != plan::Value::acc && reduces(collective()); }
  void pack(const plan::Step& s, char* out) {
    if (plan::reads_aux(s.send_value)) return pack_with_aux(s, out);
    const bool from_input = packs(s);
    const char* source = from_input ? static_cast<const char*>(a_.sendbuf) : acc_;
    for (const auto& [sp, held] : sent_.list) {
      const int64_t bytes = sp.count();
      copy_piece(out, source + sp.begin, sp.begin, bytes);
      if (from_input && s.send_value == plan::Value::acc_op_input && held && bytes > 0)
        MPI_Reduce_local(acc_ + sp.begin, out, count(bytes), a_.type, a_.op);
      out += bytes;
    }
  }
  // The same with aux, block by block (aux's holdings are per block): the
  // rightmost operand held is copied, the others ⊕ed in from the left.
  void pack_with_aux(const plan::Step& s, char* out) {
    const auto input = static_cast<const char*>(a_.sendbuf);
    const bool use_input = s.send_value == plan::Value::acc_op_input_op_aux;
    const bool use_acc = s.send_value != plan::Value::aux;
    for (int64_t b : s.send_blocks) {
      const Span sp = span(b);
      const int64_t bytes = sp.count();
      bool have = aux_held(b);
      if (have) copy_piece(out, aux_.data() + sp.begin, sp.begin, bytes);
      for (const auto& [on, from] : {std::pair<bool, const char*>{use_input, input}, {use_acc && acc_held(b), acc_}}) {
        if (!on) continue;
        if (!have)
          copy_piece(out, from + sp.begin, sp.begin, bytes);
        else if (bytes > 0)
          MPI_Reduce_local(from + sp.begin, out, count(bytes), a_.type, a_.op);  // out = from ⊕ out
        have = true;
      }
      out += bytes;
    }
  }
  bool acc_held(int64_t b) const { return held_[static_cast<size_t>(b)]; }
  bool aux_held(int64_t b) const { return !aux_held_.empty() && aux_held_[static_cast<size_t>(b)]; }
  // aux, made at its first use: a full-length vector, every block empty.
  void need_aux() {
    if (!aux_held_.empty()) return;
    aux_ = Scratch(a_, Scratch::Kind::vector, full_bytes_);
    aux_held_.assign(static_cast<size_t>(plan_.header.blocks), false);
  }

  // Stores or combines the received blocks, the message at `got`, into
  // acc, or stores them in aux.
  void unpack(const plan::Step& s, char* got) {
    if (s.combine == plan::Combine::aux) return store_in_aux(s, got);
    if (combines_all(s) && got_.list.size() > 1) return combine_message(s, got);
    for (const auto& [sp, held] : got_.list) {
      const int64_t bytes = sp.count();
      char* mine = acc_ + sp.begin;
      if (s.combine == plan::Combine::store || !held || !reduces(collective())) {
        copy_piece(mine, got, sp.begin, bytes);
      } else if (bytes > 0 && s.combine == plan::Combine::left) {
        MPI_Reduce_local(got, mine, count(bytes), a_.type, a_.op);  // acc = received ⊕ acc
      } else if (bytes > 0) {
        MPI_Reduce_local(mine, got, count(bytes), a_.type, a_.op);  // received = acc ⊕ received
        copy_piece(mine, got, sp.begin, bytes);
      }
      got += bytes;
    }
  }

  void store_in_aux(const plan::Step& s, const char* got) {
    need_aux();
    for (int64_t b : s.recv_blocks) {
      const Span sp = span(b);
      copy_piece(aux_.data() + sp.begin, got, sp.begin, sp.count());
      aux_held_[static_cast<size_t>(b)] = true;
      got += sp.count();
    }
  }

  // Is every received block combined with a value acc holds (⊕, all held)?
  // A message of several pieces is then combined at once; one piece is
  // combined where it lies, without the gathering buffer.
  bool combines_all(const plan::Step& s) const {
    return reduces(collective()) && plan::combines(s.combine) && !tracks_holdings();
  }

  // One ⊕ over the whole message: acc's pieces gathered into a packed
  // buffer, combined with what came in, put back. The same γ per byte as a
  // ⊕ per piece, without one MPI_Reduce_local per block of a round that
  // lists up to p of them.
  void combine_message(const plan::Step& s, char* got) {
    const int64_t bytes = got_.bytes;
    if (bytes == 0) return;
    char* mine = buffer(mine_, mine_size_, bytes);
    char* at = mine;
    for (const Piece& piece : got_.list) {
      copy_piece(at, acc_ + piece.span.begin, piece.span.begin, piece.span.count());
      at += piece.span.count();
    }
    char* result = mine;
    if (s.combine == plan::Combine::left) {
      MPI_Reduce_local(got, mine, count(bytes), a_.type, a_.op);  // acc = received ⊕ acc
    } else {
      MPI_Reduce_local(mine, got, count(bytes), a_.type, a_.op);  // acc = acc ⊕ received
      result = got;
    }
    for (const Piece& piece : got_.list) {
      copy_piece(acc_ + piece.span.begin, result, piece.span.begin, piece.span.count());
      result += piece.span.count();
    }
  }

  // Does the receive only store (nothing to combine with)?
  bool only_stores(const plan::Step& s) const {
    if (s.combine == plan::Combine::aux && reduces(collective())) return false;  // into aux, not acc
    if (s.combine == plan::Combine::store || !reduces(collective())) return true;
    if (!tracks_holdings()) return false;
    for (int64_t b : s.recv_blocks)
      if (held_[static_cast<size_t>(b)]) return false;
    return true;
  }

  // The step with its lists in increasing block order (Block order above).
  static plan::Step& in_block_order(plan::Step& s) {
    for (plan::BlockList* list : {&s.send_blocks, &s.recv_blocks, &s.fold_blocks}) plan::sort_blocks(*list);
    return s;
  }

  // One MPI_Sendrecv. A message of one contiguous range of acc is sent from
  // acc and, where it is only stored and does not overlap what is sent, is
  // received into acc; others go through the message buffers.
  void step(const plan::Step& s) {
    if (!s.fold_blocks.empty()) return fold(s);
    if (s.send_to >= 0) collect(s.send_blocks, sent_);
    if (s.recv_from >= 0) collect(s.recv_blocks, got_);
    const Span out = s.send_to >= 0 && !packs(s) ? sent_.contiguous() : kScattered;
    const bool out_direct = out.begin >= 0;
    const int64_t out_bytes = s.send_to < 0 ? 0 : sent_.bytes;
    if (s.send_to >= 0 && !out_direct) pack(s, buffer(out_, out_size_, sent_.bytes));
    const Span in = s.recv_from >= 0 && only_stores(s) ? got_.contiguous() : kScattered;
    const bool overlap = out_direct && in.begin < out.end && out.begin < in.end;
    const bool in_direct = in.begin >= 0 && !overlap;
    const int64_t in_bytes = s.recv_from < 0 ? 0 : got_.bytes;
    const int to = posts(s, true, out_bytes) ? static_cast<int>(s.send_to) : MPI_PROC_NULL;
    const int from = posts(s, false, in_bytes) ? static_cast<int>(s.recv_from) : MPI_PROC_NULL;
    const char* sent = out_direct ? acc_ + out.begin : out_.data();
    char* into = in_direct ? acc_ + in.begin : s.recv_from >= 0 ? buffer(in_, in_size_, in_bytes) : nullptr;
    MPI_Sendrecv(sent, static_cast<int>(out_bytes), MPI_BYTE, to, 0, into, static_cast<int>(in_bytes), MPI_BYTE, from, 0,
                 a_.comm, MPI_STATUS_IGNORE);
    if (s.recv_from >= 0 && !in_direct) unpack(s, into);
    hold_received(s);
  }

  // Where blocks start empty, the received blocks of acc now hold values.
  void hold_received(const plan::Step& s) {
    if (tracks_holdings() && s.combine != plan::Combine::aux)
      for (int64_t b : s.recv_blocks) held_[static_cast<size_t>(b)] = true;
  }

  // A graph plan (plan.hpp "Order"): every receive is posted at the start,
  // in plan order, into a buffer of its own, so that messages match as the
  // plan says; a step starts when the steps it requires have completed
  // (its send packed then into a buffer of its own and started as a
  // persistent request, MPI_Send_init and MPI_Start, freed once complete; a
  // fold or join done then); a received message takes effect once its step
  // has started; MPI_Waitany takes whichever request completes next
  // (SMPI's Waitsome tests each other request and sleeps on each failed
  // test). Why persistent sends: SMPI 3.32 sleeps smpi/ois in every
  // MPI_Isend but charges a blocking rendezvous MPI_Send nothing (smpi/os
  // is slept only for detached sends: smpi_request.cpp, Request::start); a
  // started persistent send is charged as MPI_Send, so a graph plan's
  // messages cost what the lock-step plan's MPI_Sendrecv pays for them (a
  // two-tree bcast at p = 28, 128 KiB, its lock-step steps chained as a
  // graph: 81.50 µs, 95.00 with MPI_Isend's 1.5 µs a message). Costs
  // beyond the lock-step path: every message is
  // packed and unpacked, and the rank's steps, their buffers (the largest
  // message each, while in flight; the receives' from the start) and two
  // requests a step are held at once.
  struct Flight {
    bool started = false, sent = false, arrived = false, applied = false, done = false;
    Scratch out, in;
  };

  void run_graph() {
    steps_ = plan_.steps(rank_);
    for (plan::Step& s : steps_) in_block_order(s);
    const size_t n = steps_.size();
    waits_ = plan::step_waits(plan_.header, steps_);
    flights_ = std::vector<Flight>(n);
    requests_.assign(2 * n, MPI_REQUEST_NULL);
    for (size_t k = 0; k < n; ++k) {
      post_receive(k);
      if (waits_.waiting[k] == 0) ready_.push(k);
    }
    for (size_t done = 0; done < n;) {
      while (!ready_.empty()) {
        const size_t k = ready_.top();
        ready_.pop();
        start(k);
        done += settle(k);
      }
      if (done == n) break;
      int index = MPI_UNDEFINED;
      MPI_Waitany(static_cast<int>(requests_.size()), requests_.data(), &index, MPI_STATUS_IGNORE);
      if (index == MPI_UNDEFINED) MPI_Abort(a_.comm, 1);  // steps left that nothing will start: not a plan's graph
      const size_t k = static_cast<size_t>(index) / 2;
      if (index % 2 == 0 && requests_[index] != MPI_REQUEST_NULL) MPI_Request_free(&requests_[index]);
      (index % 2 == 0 ? flights_[k].sent : flights_[k].arrived) = true;
      done += settle(k);
    }
  }

  // The tag of the next message to or from `peer`: the k-th message of a
  // channel has tag k (modulo MPI_TAG_UB + 1). Matching in plan order is
  // MPI's non-overtaking rule already; the tags keep it where SMPI 3.32
  // breaks it: with smpi/async-small-thresh, a send below the threshold
  // takes the first receive of its source posted in the large mailbox (one
  // of a larger size) before one posted earlier in the small mailbox
  // (smpi_request.cpp, Request::start), which with receives posted up
  // front mismatched messages and deadlocked (halving-doubling at p = 28,
  // 64 KiB, on loggp).
  int next_tag(std::unordered_map<int64_t, int64_t>& count, int64_t peer) {
    if (tag_bound_ == 0) {
      void* ub = nullptr;
      int found = 0;
      MPI_Comm_get_attr(a_.comm, MPI_TAG_UB, &ub, &found);
      tag_bound_ = found ? int64_t{*static_cast<int*>(ub)} + 1 : 32768;
    }
    return static_cast<int>(count[peer]++ % tag_bound_);
  }

  // Does step k's half send or receive a message (not one left out as empty)?
  bool posts(const plan::Step& s, bool send, int64_t bytes) const {
    return (send ? s.send_to : s.recv_from) >= 0 && !(plan_.header.skip_empty && bytes == 0);
  }

  void post_receive(size_t k) {
    const plan::Step& s = steps_[k];
    Flight& f = flights_[k];
    f.arrived = true;
    if (s.recv_from < 0) return;
    collect(s.recv_blocks, got_);
    f.in = Scratch(a_, Scratch::Kind::packed, std::max<int64_t>(got_.bytes, 1));
    if (!posts(s, false, got_.bytes)) return;
    f.arrived = false;
    MPI_Irecv(f.in.data(), static_cast<int>(got_.bytes), MPI_BYTE, static_cast<int>(s.recv_from),
              next_tag(received_from_, s.recv_from), a_.comm,
              &requests_[2 * k + 1]);
  }

  void start(size_t k) {
    const plan::Step& s = steps_[k];
    Flight& f = flights_[k];
    f.started = f.sent = true;
    if (!s.fold_blocks.empty()) return fold(s);
    if (s.send_to < 0) return;
    collect(s.send_blocks, sent_);
    if (!posts(s, true, sent_.bytes)) return;
    f.out = Scratch(a_, Scratch::Kind::packed, std::max<int64_t>(sent_.bytes, 1));
    pack(s, f.out.data());
    f.sent = false;
    MPI_Send_init(f.out.data(), static_cast<int>(sent_.bytes), MPI_BYTE, static_cast<int>(s.send_to),
                  next_tag(sent_to_, s.send_to), a_.comm, &requests_[2 * k]);
    MPI_Start(&requests_[2 * k]);
  }

  // Applies step k's message once the step has started and it has arrived;
  // when the step is complete, frees its buffers and readies the steps
  // that were waiting only for it. Returns 1 when step k completed now.
  size_t settle(size_t k) {
    const plan::Step& s = steps_[k];
    Flight& f = flights_[k];
    if (!f.started || f.done) return 0;
    if (f.arrived && !f.applied && s.recv_from >= 0) {
      collect(s.recv_blocks, got_);
      unpack(s, f.in.data());
      hold_received(s);
    }
    f.applied = f.arrived;
    if (!f.sent || !f.applied) return 0;
    f.in = Scratch(), f.out = Scratch();
    for (int64_t d : waits_.dependents[k])
      if (--waits_.waiting[static_cast<size_t>(d)] == 0) ready_.push(static_cast<size_t>(d));
    f.done = true;
    return 1;
  }

  // A join step, no message: acc = aux ⊕ acc (an empty block takes the
  // other operand).
  void join(const plan::Step& s) {
    for (int64_t b : s.fold_blocks) {
      if (!aux_held(b)) continue;
      const Span sp = span(b);
      if (!acc_held(b))
        copy_piece(acc_ + sp.begin, aux_.data() + sp.begin, sp.begin, sp.count());
      else if (sp.count() > 0)
        MPI_Reduce_local(aux_.data() + sp.begin, acc_ + sp.begin, count(sp.count()), a_.type, a_.op);
      held_[static_cast<size_t>(b)] = true;
    }
  }

  // A fold step, no message: acc = acc ⊕ input, acc holding the lower
  // ranks (an empty block takes the input).
  void fold(const plan::Step& s) {
    if (s.join) return join(s);
    const auto input = static_cast<const char*>(a_.sendbuf);
    collect(s.fold_blocks, sent_);
    for (const auto& [sp, held] : sent_.list) {
      const int64_t bytes = sp.count();
      if (!held || bytes == 0) {
        copy_piece(acc_ + sp.begin, input + sp.begin, sp.begin, bytes);
        continue;
      }
      char* sum = buffer(out_, out_size_, bytes);
      copy_piece(sum, input + sp.begin, sp.begin, bytes);
      MPI_Reduce_local(acc_ + sp.begin, sum, count(bytes), a_.type, a_.op);  // sum = acc ⊕ input
      copy_piece(acc_ + sp.begin, sum, sp.begin, bytes);
    }
    for (int64_t b : s.fold_blocks) held_[static_cast<size_t>(b)] = true;
  }

  // The caller's result where acc is ours: reduce_scatter's is the rank's
  // own segment (the reduce root's buffer was acc).
  void finish() {
    if (collective() != Collective::reduce_scatter) return;
    copy(static_cast<char*>(a_.buf), acc_ + int64_t{displs_[rank_]} * esize_, int64_t{a_.counts[rank_]} * esize_);
  }

  const plan::Plan& plan_;
  const CollArgs& a_;
  int rank_ = 0, p_ = 1, esize_ = 1;
  int64_t full_bytes_ = 0, out_size_ = 0, in_size_ = 0, mine_size_ = 0;
  const int* displs_ = nullptr;
  bool packed_ = false;  // per segment: displs_ are the counts' prefix sums
  std::vector<int> own_displs_;
  Scratch own_acc_, out_, in_, mine_, aux_;
  Pieces sent_, got_;  // the current step's halves (sent_ also a fold's blocks)
  // A graph plan's steps, their state and requests (send 2k, receive 2k + 1),
  // and the steps whose requirements are all complete, not yet started.
  std::vector<plan::Step> steps_;
  plan::StepWaits waits_;
  std::vector<Flight> flights_;
  std::vector<MPI_Request> requests_;
  // Lowest index first: steps ready at once start in plan order (a tree's
  // sends to its children in the order the schedule gives them).
  std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready_;
  std::unordered_map<int64_t, int64_t> sent_to_, received_from_;  // messages so far per peer: the next tag
  int64_t tag_bound_ = 0;                                          // MPI_TAG_UB + 1, once asked
  char* acc_ = nullptr;
  std::vector<bool> held_, aux_held_;  // which blocks of acc and of aux hold a value (aux: once made)
};

}  // namespace

void run_plan(const plan::Plan& plan, const CollArgs& a) { Executor(plan, a).run(); }

void run_catalog_plan(Collective c, const char* name, const CollArgs& a) {
  int p = 1;
  MPI_Comm_size(a.comm, &p);
  const plan::PlanAlgorithm& algorithm = plan::find_plan_algorithm(c, name);
  run_plan(plan::build_plan(c, name, p, rooted(c) ? a.root : 0, plan_cut_blocks(algorithm, a.blocks, p), a.params), a);
}

}  // namespace collsim::sim
