// The GOAL executor; what it does and its limits are in goal_executor.hpp.
#include "goal_executor.hpp"

#include <climits>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

namespace collsim::sim {

namespace {

using goal::kAny;
using goal::Op;
using goal::OpKind;

class GoalRank {
 public:
  GoalRank(const goal::Schedule& s, MPI_Comm comm, double gamma) : s_(s), comm_(comm), gamma_(gamma) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    first_ = s.first_op[size_t(rank)];
    count_ = s.first_op[size_t(rank) + 1] - first_;
    waits_.assign(s.waits.begin() + first_, s.waits.begin() + first_ + count_);
    int64_t largest = 0;
    for (int64_t i = 0; i < count_; ++i) {
      const Op& o = op(first_ + i);
      if (o.kind == OpKind::send && o.size > largest) largest = o.size;
      if (waits_[size_t(i)] == 0) make_ready(first_ + i);
    }
    zeros_.assign(size_t(largest), 0);
  }

  void run() {
    for (;;) {
      start_ready();
      if (done_ == count_) return;
      if (requests_.empty()) throw std::logic_error("GOAL executor: nothing ready and nothing in flight");
      wait_one();
    }
  }

 private:
  const Op& op(int64_t i) const { return s_.ops[size_t(i)]; }

  void make_ready(int64_t i) {
    const OpKind kind = op(i).kind;
    (kind == OpKind::recv ? recvs_ : kind == OpKind::send ? sends_ : calcs_).push_back(i);
  }

  void release(const goal::Dependents& d, int64_t i) {
    for (const int64_t* x = d.first(i); x != d.last(i); ++x)
      if (--waits_[size_t(*x - first_)] == 0) make_ready(*x);
  }

  // Receives first (posted early), then sends, then calcs; each start may
  // make more ready.
  void start_ready() {
    for (;;) {
      std::deque<int64_t>* from = !recvs_.empty() ? &recvs_ : !sends_.empty() ? &sends_ : !calcs_.empty() ? &calcs_ : nullptr;
      if (!from) return;
      const int64_t i = from->front();
      from->pop_front();
      start(i);
    }
  }

  void start(int64_t i) {
    release(s_.after_start, i);
    const Op& o = op(i);
    const int count = static_cast<int>(o.size);
    if (o.kind == OpKind::calc) {
      compute(o.size);
      return complete(i);
    }
    MPI_Request request;
    if (o.kind == OpKind::send) {
      MPI_Isend(zeros_.data(), count, MPI_BYTE, static_cast<int>(o.peer), static_cast<int>(o.tag), comm_, &request);
      buffers_.emplace_back();
    } else {
      buffers_.emplace_back(size_t(o.size));
      MPI_Irecv(buffers_.back().data(), count, MPI_BYTE, o.peer == kAny ? MPI_ANY_SOURCE : static_cast<int>(o.peer),
                o.tag == kAny ? MPI_ANY_TAG : static_cast<int>(o.tag), comm_, &request);
    }
    requests_.push_back(request);
    in_flight_.push_back(i);
  }

  void compute(int64_t units) {
#ifdef COLLSIM_SMPI
    smpi_execute_flops(static_cast<double>(units));  // the host's speed is 1/γ
#else
    const double until = MPI_Wtime() + gamma_ * static_cast<double>(units);
    while (MPI_Wtime() < until) {
    }
#endif
  }

  void complete(int64_t i) {
    ++done_;
    release(s_.after_done, i);
  }

  // Completes one operation that has ended and drops it from the lists in
  // flight (the last one moves into its place). MPI_Waitany, not
  // MPI_Waitsome: SMPI 3.32's Waitsome is a Waitany followed by MPI_Test
  // of the others, and each test that fails sleeps smpi/test (100 µs).
  void wait_one() {
    int ended = MPI_UNDEFINED;
    MPI_Waitany(static_cast<int>(requests_.size()), requests_.data(), &ended, MPI_STATUS_IGNORE);
    if (ended == MPI_UNDEFINED) throw std::logic_error("GOAL executor: MPI_Waitany found nothing in flight");
    const size_t k = size_t(ended);
    complete(in_flight_[k]);
    if (k + 1 != requests_.size()) {
      requests_[k] = requests_.back();
      in_flight_[k] = in_flight_.back();
      buffers_[k] = std::move(buffers_.back());  // the heap block, and so the posted address, stays
    }
    requests_.pop_back();
    in_flight_.pop_back();
    buffers_.pop_back();
  }

  const goal::Schedule& s_;
  MPI_Comm comm_;
  double gamma_;
  int64_t first_ = 0, count_ = 0, done_ = 0;
  std::vector<uint32_t> waits_;
  std::deque<int64_t> recvs_, sends_, calcs_;
  std::vector<char> zeros_;
  std::vector<MPI_Request> requests_;
  std::vector<int64_t> in_flight_;
  std::vector<std::vector<char>> buffers_;
};

}  // namespace

void check_goal_for_mpi(const goal::Schedule& s, MPI_Comm comm) {
  int p = 0, flag = 0;
  int* tag_ub = nullptr;
  MPI_Comm_size(comm, &p);
  MPI_Comm_get_attr(comm, MPI_TAG_UB, &tag_ub, &flag);
  goal::require_ranks(s, p, "the run's ranks:");
  for (const Op& o : s.ops) {
    if (o.kind != OpKind::calc && o.size > INT_MAX)
      throw std::invalid_argument("a message of " + std::to_string(o.size) + " bytes, over INT_MAX");
    if (o.kind != OpKind::calc && o.tag != kAny && flag && o.tag > static_cast<uint32_t>(*tag_ub))
      throw std::invalid_argument("tag " + std::to_string(o.tag) + " over MPI_TAG_UB = " + std::to_string(*tag_ub));
  }
}

void run_goal(const goal::Schedule& schedule, MPI_Comm comm, double gamma) { GoalRank(schedule, comm, gamma).run(); }

}  // namespace collsim::sim
