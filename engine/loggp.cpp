#include "loggp.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "blocks.hpp"

namespace collsim::engine {

namespace {

// A rank's current step, reduced to what the rules need, and where the
// rest come from (Plan::source: one at a time for streamed plans), released
// when the rank finishes, so memory follows the running ranks, not the
// plan's total steps (about 100 bytes a rank plus its source's state).
struct RankState {
  plan::StepSource next;
  int64_t send_to = -1, recv_from = -1;  // the current step's halves
  int64_t send_bytes = 0;
  double before = 0, after = 0;       // its ⊕ before the send, after the halves
  double post = 0;                    // when it was posted
  double send_end = 0, recv_end = 0;  // its halves' ends, once matched
  int64_t pc = 0;                     // its index
  bool send_done = false, recv_done = false, finished = false;
};

class Evaluator {
 public:
  Evaluator(const plan::Plan& plan, const BlockBytes& bytes, const Network& net)
      : h_(plan.header), bytes_(bytes), net_(net), ranks_(static_cast<size_t>(plan.header.p)) {
    const int64_t p = h_.p;
    // Where blocks start empty (plan::starts_empty) a store costs nothing
    // and the first combine into a block is a copy, as in the executor.
    if (plan::starts_empty(h_.collective)) {
      if (p > (int64_t{1} << 32) / h_.blocks)
        throw std::invalid_argument("plan too large for the engine: p × blocks > 2^32 holdings");
      held_.assign(static_cast<size_t>(p * h_.blocks), false);
      for (int64_t b = 0; b < h_.blocks; ++b)
        if (h_.collective != Collective::exscan) held_[static_cast<size_t>(plan::block_owner(h_, b) * h_.blocks + b)] = true;
    }
    finish_.assign(static_cast<size_t>(p), 0);
    for (int64_t r = 0; r < p; ++r) {
      at(r).next = plan.source(r);
      fetch(r);
      begin_step(r, 0);
      work_.push_back(r);
    }
  }

  Result run(bool per_rank) {
    while (!work_.empty()) {
      const int64_t r = work_.back();
      work_.pop_back();
      advance(r);
    }
    Result res;
    res.messages = messages_;
    for (size_t r = 0; r < ranks_.size(); ++r) {
      if (!ranks_[r].finished)
        throw std::invalid_argument("the plan does not run to its end (rank " + std::to_string(r) + " waits at step " +
                                    std::to_string(ranks_[r].pc) + "); collsim verify plan says why");
      res.time = std::max(res.time, finish_[r]);
    }
    if (per_rank) res.finish = std::move(finish_);
    return res;
  }

 private:
  RankState& at(int64_t r) { return ranks_[static_cast<size_t>(r)]; }
  bool held(int64_t r, int64_t b) const {
    return held_.empty() || held_[static_cast<size_t>(r * h_.blocks + b)];
  }

  // The time of a ⊕ with rank r's blocks: γ per byte where acc holds a
  // value (else it is a copy, which costs nothing); by runs where every
  // block is held from the start. `hold` marks them held afterwards.
  double op_time(int64_t r, const plan::BlockList& blocks, bool hold) {
    if (held_.empty()) return net_.op_seconds_per_byte * static_cast<double>(list_bytes(bytes_, blocks));
    double t = 0;
    for (int64_t b : blocks) {
      auto bit = held_[static_cast<size_t>(r * h_.blocks + b)];
      if (bit) t += net_.op_seconds_per_byte * static_cast<double>(bytes_(b).count());
      if (hold) bit = true;
    }
    return t;
  }

  // Takes rank r's next step and its costs: the ⊕ of an acc+input send
  // before it, the combines and folds after its halves. Holdings change
  // only by the rank's own steps, so they are read and updated here, in
  // step order, as the executor does when it runs the step.
  void fetch(int64_t r) {
    RankState& s = at(r);
    if (!s.next(step_)) {
      s.finished = true;
      s.next = nullptr;
      return;
    }
    plan::drop_empty_halves(h_, step_, [this](const plan::BlockList& b) { return list_bytes(bytes_, b); });
    s.send_to = step_.send_to, s.recv_from = step_.recv_from;
    s.send_bytes = list_bytes(bytes_, step_.send_blocks);
    s.before = step_.send_value == plan::Value::acc_op_input ? op_time(r, step_.send_blocks, false) : 0;
    const double combined = op_time(r, step_.recv_blocks, true);
    s.after = (step_.combine != plan::Combine::store ? combined : 0) + op_time(r, step_.fold_blocks, true);
  }

  // Posts rank r's current step at time t (its finish, if none is left).
  void begin_step(int64_t r, double t) {
    RankState& s = at(r);
    if (s.finished) {
      finish_[static_cast<size_t>(r)] = t;
      return;
    }
    s.post = t + s.before;
    s.send_done = s.send_to < 0;
    s.recv_done = s.recv_from < 0;
  }

  // Matches the current step's halves where the peers are ready, and
  // completes the step when both are done.
  void advance(int64_t r) {
    RankState& s = at(r);
    if (s.finished) return;
    if (!s.send_done) match(r, s.send_to);
    if (!s.recv_done) match(s.recv_from, r);
    if (s.send_done && s.recv_done) complete(r);
  }

  // The message from `from` to `to`, if both current steps hold its halves.
  void match(int64_t from, int64_t to) {
    if (from < 0 || to < 0 || from >= h_.p || to >= h_.p) return;
    RankState &sender = at(from), &receiver = at(to);
    if (sender.finished || receiver.finished || sender.send_done || receiver.recv_done) return;
    if (sender.send_to != to || receiver.recv_from != from) return;
    const double start = std::max(sender.post, receiver.post);
    const double end =
        start + net_.latency + static_cast<double>(sender.send_bytes + net_.envelope) * net_.seconds_per_byte;
    sender.send_done = receiver.recv_done = true;
    sender.send_end = receiver.recv_end = end;
    ++messages_;
    work_.push_back(from);
    work_.push_back(to);
  }

  // A step ends when both halves have (a fold step: when it is posted),
  // then its ⊕ follow.
  void complete(int64_t r) {
    RankState& s = at(r);
    double t = s.post;
    if (s.send_to >= 0) t = std::max(t, s.send_end);
    if (s.recv_from >= 0) t = std::max(t, s.recv_end);
    t += s.after;
    ++s.pc;
    fetch(r);
    begin_step(r, t);
    work_.push_back(r);
  }

  const plan::Header& h_;
  const BlockBytes& bytes_;
  Network net_;
  std::vector<RankState> ranks_;
  std::vector<bool> held_;
  std::vector<double> finish_;
  std::vector<int64_t> work_;
  plan::Step step_;  // the step being taken apart
  int64_t messages_ = 0;
};

}  // namespace

BlockBytes even_blocks(const plan::Header& h, int64_t bytes, int64_t element) {
  const int64_t units = bytes / element;
  const auto in_bytes = [element](sim::Span s) { return sim::Span{s.begin * element, s.end * element}; };
  if (!plan::per_segment(h.collective)) return [=](int64_t b) { return in_bytes(plan::block_units(h, units, b)); };
  // The harness's even layout: the first units mod p ranks one unit more.
  const int64_t p = h.p, n = plan::segment_blocks(h);
  return [=](int64_t b) {
    const int64_t owner = b / n, share = units / p + (owner < units % p ? 1 : 0);
    const int64_t first = owner * (units / p) + std::min(owner, units % p);
    const sim::Span s = sim::block_span(share, n, b % n);
    return in_bytes({first + s.begin, first + s.end});
  };
}

int64_t run_bytes(const BlockBytes& spans, const plan::BlockList::Run& run) {
  return spans(run.first + run.count - 1).end - spans(run.first).begin;
}

int64_t list_bytes(const BlockBytes& spans, const plan::BlockList& blocks) {
  int64_t total = 0;
  for (const plan::BlockList::Run& run : blocks.runs()) total += run_bytes(spans, run);
  return total;
}

Result evaluate(const plan::Plan& plan, const BlockBytes& block_bytes, const Network& net, bool per_rank) {
  return Evaluator(plan, block_bytes, net).run(per_rank);
}

}  // namespace collsim::engine
