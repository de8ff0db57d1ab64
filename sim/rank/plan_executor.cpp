// The plan executor: runs any plan (schedules/plan.hpp) with MPI, step by
// step, as the plan says: one MPI_Sendrecv per step (MPI_Send or MPI_Recv
// when one half is absent), the step's blocks packed into one message in
// the order listed, received blocks stored or combined (left: acc =
// received ⊕ acc, right: acc = acc ⊕ received) with MPI_Reduce_local.
//
// Buffers. acc is a full-length working vector (the caller's result buffer
// where it is full length: bcast, allgatherv, allreduce, scan, exscan and the
// reduce root); input is the caller's send buffer. Each block of acc is
// either empty or holds a value; an empty block combined with anything
// takes the other operand (the identity), which is how exscan starts.
// Cost: the plan's steps; per step one message of the listed blocks and one
// ⊕ per combined block. Memory: acc (m bytes, where the caller's buffer is
// not full length), one message buffer each way, one block for acc ⊕ input.
// Limits: contiguous types (as every algorithm of ours); not in scale mode
// (the executor copies whole blocks, which scale mode's window buffers do
// not hold).
#include "plan_executor.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "blocks.hpp"

namespace collsim::sim {

namespace {


class Executor {
 public:
  Executor(const plan::Plan& plan, const CollArgs& a) : plan_(plan), a_(a) {
    MPI_Comm_rank(a.comm, &rank_);
    MPI_Type_size(a.type, &esize_);
    if (plan.header.collective == Collective::bcast || plan.header.collective == Collective::allgatherv) esize_ = 1;
    set_up_acc();
  }

  void run() {
    for (const plan::Step& s : plan_.steps(rank_)) step(s);
    finish();
  }

 private:
  Collective collective() const { return plan_.header.collective; }
  // Block b's bytes in the full vector.
  Span span(int64_t b) const {
    const plan::Header& h = plan_.header;
    if (!plan::per_segment(h.collective)) {
      const Span units = plan::block_units(h, a_.bytes / esize_, b);
      return {units.begin * esize_, units.end * esize_};
    }
    const int64_t n = plan::segment_blocks(h), owner = b / n;
    const Span units = block_span(a_.counts[owner], n, b % n);
    const int64_t first = a_.displs[owner];
    return {(first + units.begin) * esize_, (first + units.end) * esize_};
  }
  int count(Span s) const { return static_cast<int>(s.count() / esize_); }

  // acc and which of its blocks hold a value.
  void set_up_acc() {
    const int64_t full = collective() == Collective::reduce_scatter ? total_bytes() : a_.bytes;
    const bool caller_full = a_.buf != nullptr && collective() != Collective::reduce_scatter;
    if (!caller_full) own_acc_.assign(static_cast<size_t>(full), 0);
    acc_ = caller_full ? static_cast<char*>(a_.buf) : own_acc_.data();
    held_.assign(static_cast<size_t>(plan_.header.blocks), false);
    const auto input = static_cast<const char*>(a_.sendbuf);
    for (int64_t b = 0; b < plan_.header.blocks; ++b) {
      const Span s = span(b);
      switch (collective()) {
        case Collective::bcast: held_[b] = rank_ == a_.root; break;
        case Collective::allgatherv:
          held_[b] = plan::block_owner(plan_.header, b) == rank_;
          if (held_[b]) std::memcpy(acc_ + s.begin, input + (s.begin - a_.displs[rank_]), s.count());
          break;
        case Collective::exscan: break;
        default:
          held_[b] = true;
          std::memcpy(acc_ + s.begin, input + s.begin, s.count());
      }
    }
  }

  int64_t total_bytes() const {
    int64_t units = 0;
    int p = 0;
    MPI_Comm_size(a_.comm, &p);
    for (int r = 0; r < p; ++r) units += a_.counts[r];
    return units * esize_;
  }

  // The step's outgoing blocks, packed.
  void pack(const plan::Step& s) {
    out_.clear();
    const auto input = static_cast<const char*>(a_.sendbuf);
    for (int64_t b : s.send_blocks) {
      const Span sp = span(b);
      const char* from = s.send_value == plan::Value::input ? input + sp.begin : acc_ + sp.begin;
      const size_t at = out_.size();
      out_.insert(out_.end(), from, from + sp.count());
      if (s.send_value == plan::Value::acc_op_input && held_[b]) {
        // acc ⊕ input: acc holds the lower ranks.
        std::memcpy(out_.data() + at, input + sp.begin, sp.count());
        MPI_Reduce_local(acc_ + sp.begin, out_.data() + at, count(sp), a_.type, a_.op);
      } else if (s.send_value == plan::Value::acc_op_input) {
        std::memcpy(out_.data() + at, input + sp.begin, sp.count());
      }
    }
  }

  // Stores or combines the received blocks into acc.
  void unpack(const plan::Step& s) {
    size_t at = 0;
    for (int64_t b : s.recv_blocks) {
      const Span sp = span(b);
      char* got = in_.data() + at;
      char* mine = acc_ + sp.begin;
      at += static_cast<size_t>(sp.count());
      if (s.combine == plan::Combine::store || !held_[b]) {
        std::memcpy(mine, got, sp.count());
      } else if (s.combine == plan::Combine::left) {
        MPI_Reduce_local(got, mine, count(sp), a_.type, a_.op);  // acc = received ⊕ acc
      } else {
        MPI_Reduce_local(mine, got, count(sp), a_.type, a_.op);  // received = acc ⊕ received
        std::memcpy(mine, got, sp.count());
      }
      held_[b] = true;
    }
  }

  size_t bytes_of(const std::vector<int64_t>& blocks) const {
    size_t n = 0;
    for (int64_t b : blocks) n += static_cast<size_t>(span(b).count());
    return n;
  }

  void step(const plan::Step& s) {
    if (s.send_to >= 0) pack(s);
    in_.resize(s.recv_from >= 0 ? bytes_of(s.recv_blocks) : 0);
    const int to = s.send_to >= 0 ? static_cast<int>(s.send_to) : MPI_PROC_NULL;
    const int from = s.recv_from >= 0 ? static_cast<int>(s.recv_from) : MPI_PROC_NULL;
    MPI_Sendrecv(out_.data(), to == MPI_PROC_NULL ? 0 : static_cast<int>(out_.size()), MPI_BYTE, to, 0, in_.data(),
                 static_cast<int>(in_.size()), MPI_BYTE, from, 0, a_.comm, MPI_STATUS_IGNORE);
    if (s.recv_from >= 0) unpack(s);
  }

  // The caller's result where acc is ours: the reduce root's buffer is full
  // length (acc was it), reduce_scatter's is the rank's own segment.
  void finish() {
    if (collective() != Collective::reduce_scatter) return;
    const int64_t first = a_.displs[rank_] * esize_;
    std::memcpy(a_.buf, acc_ + first, static_cast<size_t>(a_.counts[rank_]) * static_cast<size_t>(esize_));
  }

  const plan::Plan& plan_;
  const CollArgs& a_;
  int rank_ = 0, esize_ = 1;
  std::vector<char> own_acc_, out_, in_;
  char* acc_ = nullptr;
  std::vector<bool> held_;
};

}  // namespace

void run_plan(const plan::Plan& plan, const CollArgs& a) {
  if (a.scale) throw std::invalid_argument("plans do not run in scale mode");
  Executor(plan, a).run();
}

}  // namespace collsim::sim
