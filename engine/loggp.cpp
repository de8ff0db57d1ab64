#include "loggp.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "blocks.hpp"

namespace collsim::engine {

namespace {


// Collectives whose accumulators start empty somewhere (bcast, allgatherv:
// all but the data's origin; exscan: everywhere): there a store costs
// nothing and the first combine into a block is a copy, as in the executor.
bool tracks_holdings(Collective c) {
  return c == Collective::bcast || c == Collective::allgatherv || c == Collective::exscan;
}

struct RankState {
  std::vector<plan::Step> steps;
  size_t pc = 0;
  double post = 0;                    // when the current step was posted
  double send_end = 0, recv_end = 0;  // its halves' ends, once matched
  bool send_done = false, recv_done = false;
  bool done() const { return pc >= steps.size(); }  // steps are released when done
  const plan::Step& step() const { return steps[pc]; }
};

class Evaluator {
 public:
  Evaluator(const plan::Plan& plan, const BlockBytes& bytes, const Network& net)
      : h_(plan.header), bytes_(bytes), net_(net), ranks_(static_cast<size_t>(plan.header.p)) {
    const int64_t p = h_.p;
    if (tracks_holdings(h_.collective)) {
      if (p > (int64_t{1} << 32) / h_.blocks)
        throw std::invalid_argument("plan too large for the engine: p × blocks > 2^32 holdings");
      held_.assign(static_cast<size_t>(p * h_.blocks), false);
      for (int64_t b = 0; b < h_.blocks; ++b)
        if (h_.collective != Collective::exscan) held_[static_cast<size_t>(plan::block_owner(h_, b) * h_.blocks + b)] = true;
    }
    finish_.assign(static_cast<size_t>(p), 0);
    for (int64_t r = 0; r < p; ++r) {
      ranks_[static_cast<size_t>(r)].steps = plan.steps(r);
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
      if (!ranks_[r].done())
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

  int64_t message_bytes(const std::vector<int64_t>& blocks) const {
    int64_t sum = 0;
    for (int64_t b : blocks) sum += bytes_(b);
    return sum;
  }

  // Posts rank r's current step at time t (after its finish, if none is left),
  // charging the ⊕ of an acc+input send first.
  void begin_step(int64_t r, double t) {
    RankState& s = at(r);
    if (s.done()) {
      finish_[static_cast<size_t>(r)] = t;
      s.steps = {};  // released as the rank finishes
      return;
    }
    const plan::Step& step = s.step();
    if (step.send_to >= 0 && step.send_value == plan::Value::acc_op_input)
      for (int64_t b : step.send_blocks)
        if (held(r, b)) t += net_.op_seconds_per_byte * static_cast<double>(bytes_(b));
    s.post = t;
    s.send_done = step.send_to < 0;
    s.recv_done = step.recv_from < 0;
  }

  // Matches the current step's halves where the peers are ready, and
  // completes the step when both are done.
  void advance(int64_t r) {
    RankState& s = at(r);
    if (s.done()) return;
    const plan::Step& step = s.step();
    if (!s.send_done) match(r, step.send_to);
    if (!s.recv_done) match(step.recv_from, r);
    if (s.send_done && s.recv_done) complete(r);
  }

  // The message from `from` to `to`, if both current steps hold its halves.
  void match(int64_t from, int64_t to) {
    if (from < 0 || to < 0 || from >= h_.p || to >= h_.p) return;
    RankState &sender = at(from), &receiver = at(to);
    if (sender.done() || receiver.done() || sender.send_done || receiver.recv_done) return;
    if (sender.step().send_to != to || receiver.step().recv_from != from) return;
    const double start = std::max(sender.post, receiver.post);
    const int64_t bytes = message_bytes(sender.step().send_blocks);
    const double end = start + net_.latency + static_cast<double>(bytes + net_.envelope) * net_.seconds_per_byte;
    sender.send_done = receiver.recv_done = true;
    sender.send_end = receiver.recv_end = end;
    ++messages_;
    work_.push_back(from);
    work_.push_back(to);
  }

  void complete(int64_t r) {
    RankState& s = at(r);
    const plan::Step& step = s.step();
    double t = s.post;
    if (step.send_to >= 0) t = std::max(t, s.send_end);
    if (step.recv_from >= 0) t = std::max(t, s.recv_end);
    for (int64_t b : step.recv_blocks) {
      if (step.combine != plan::Combine::store && held(r, b))
        t += net_.op_seconds_per_byte * static_cast<double>(bytes_(b));
      if (!held_.empty()) held_[static_cast<size_t>(r * h_.blocks + b)] = true;
    }
    ++s.pc;
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
  int64_t messages_ = 0;
};

}  // namespace

BlockBytes even_blocks(const plan::Header& h, int64_t bytes, int64_t element) {
  const int64_t units = bytes / element;
  if (!plan::per_segment(h.collective))
    return [=](int64_t b) { return plan::block_units(h, units, b).count() * element; };
  // The harness's even layout: the first units mod p ranks one unit more.
  const int64_t p = h.p, n = plan::segment_blocks(h);
  return [=](int64_t b) {
    const int64_t owner = b / n, share = units / p + (owner < units % p ? 1 : 0);
    return sim::block_span(share, n, b % n).count() * element;
  };
}

Result evaluate(const plan::Plan& plan, const BlockBytes& block_bytes, const Network& net, bool per_rank) {
  return Evaluator(plan, block_bytes, net).run(per_rank);
}

}  // namespace collsim::engine
