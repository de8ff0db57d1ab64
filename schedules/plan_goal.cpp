#include "plan_goal.hpp"

#include <algorithm>
#include <map>
#include <ostream>
#include <sstream>
#include <vector>

#include "blocks.hpp"
#include "goal_read.hpp"

namespace collsim::plan {

namespace {

// The bytes of `blocks` of a `bytes`-byte vector cut as the header says
// (block_units), run by run. The engine's loggopsim rules
// (engine/loggopsim.hpp) cut the same way.
int64_t message_bytes(const BlockList& blocks, int64_t bytes, const Header& h) {
  int64_t total = 0;
  for (const BlockList::Run& run : blocks.runs())
    total += run_size(run, [&](int64_t b) { return block_units(h, bytes, b); });
  return total;
}

// Where a rank's GOAL operations go: text (TextOut) or a Schedule in
// memory (ScheduleOut). Operations are numbered from 0 in the rank.
class GoalOut {
 public:
  virtual ~GoalOut() = default;
  // Appends `op`, which requires the rank's operations `after`; returns its number.
  virtual int64_t add(const goal::Op& op, const std::vector<int64_t>& after) = 0;
  // False once a write has failed: the walk stops there.
  virtual bool good() const { return true; }
};

// `lN: send 1024b to 2 tag 0` (N = number + 1), then one `lN requires lD`
// a dependency, the labels sorted as text (l10 before l2), as write_goal
// has always written them.
class TextOut : public GoalOut {
 public:
  explicit TextOut(std::ostream& out) : out_(out) {}
  int64_t add(const goal::Op& op, const std::vector<int64_t>& after) override {
    const std::string label = "l" + std::to_string(++written_);
    out_ << label << ": " << text(op) << "\n";
    std::vector<std::string> labels;
    for (int64_t d : after) labels.push_back("l" + std::to_string(d + 1));
    std::sort(labels.begin(), labels.end());
    for (const std::string& d : labels) out_ << label << " requires " << d << "\n";
    return written_ - 1;
  }
  bool good() const override { return bool(out_); }

 private:
  static std::string text(const goal::Op& op) {
    const std::string size = std::to_string(op.size);
    if (op.kind == goal::OpKind::calc) return "calc " + size;
    const bool send = op.kind == goal::OpKind::send;
    return (send ? "send " : "recv ") + size + (send ? "b to " : "b from ") + std::to_string(op.peer) + " tag " +
           std::to_string(op.tag);
  }
  std::ostream& out_;
  int64_t written_ = 0;
};

// What read_goal makes of TextOut's text: the operations in s.ops, each
// one's `requires` in the rank's edges.
class ScheduleOut : public GoalOut {
 public:
  explicit ScheduleOut(goal::Schedule& s) : s_(s) {}
  // Ends the rank's block.
  void close() {
    goal::append_dependents(s_, count_, edges_);
    s_.first_op.push_back(int64_t(s_.ops.size()));
  }
  int64_t add(const goal::Op& op, const std::vector<int64_t>& after) override {
    s_.ops.push_back(op);
    s_.waits.push_back(uint32_t(after.size()));
    for (int64_t d : after) edges_.push_back({d, count_, false});
    return count_++;
  }

 private:
  goal::Schedule& s_;
  int64_t count_ = 0;
  std::vector<goal::Edge> edges_;
};

// One rank's steps as GOAL operations, in the order plan_goal.hpp gives.
class RankWriter {
 public:
  RankWriter(GoalOut& out, const Header& h, int64_t bytes) : out_(out), h_(h), bytes_(bytes) {}

  // Step k of the rank.
  void step(Step s, int64_t k) {
    const std::vector<int64_t> before = requirements_of(s, k);
    std::vector<int64_t> ended = before;  // a step left with nothing passes its requirements on
    drop_empty_halves(h_, s, [this](const BlockList& blocks) { return message_bytes(blocks, bytes_, h_); });
    if (!s.fold_blocks.empty()) ended = {calc(message_bytes(s.fold_blocks, bytes_, h_), before)};
    if (s.send_to >= 0 || s.recv_from >= 0) ended.clear();
    if (s.send_to >= 0) {
      const int64_t size = message_bytes(s.send_blocks, bytes_, h_);
      std::vector<int64_t> ready = before;
      if (send_ops(s.send_value) > 0) ready = {calc(send_ops(s.send_value) * size, before)};
      ended.push_back(message(goal::OpKind::send, size, s.send_to, sent_, ready));
    }
    if (s.recv_from >= 0) {
      const int64_t size = message_bytes(s.recv_blocks, bytes_, h_);
      int64_t last = message(goal::OpKind::recv, size, s.recv_from, received_, before);
      if (combines(s.combine)) last = calc(size, {last});
      ended.push_back(last);
    }
    if (h_.graph)
      ends_.push_back(std::move(ended));
    else
      ends_ = {std::move(ended)};
  }

 private:
  int64_t calc(int64_t units, const std::vector<int64_t>& after) {
    goal::Op op;
    op.kind = goal::OpKind::calc;
    op.size = units;
    return out_.add(op, after);
  }
  // A send or receive of `size` bytes with `peer`, tagged with the count
  // of messages so far between the two (`so_far`, per peer).
  int64_t message(goal::OpKind kind, int64_t size, int64_t peer, std::map<int64_t, int64_t>& so_far,
                  const std::vector<int64_t>& after) {
    goal::Op op;
    op.kind = kind;
    op.size = size;
    op.peer = uint32_t(peer);
    op.tag = uint32_t(so_far[peer]++);
    return out_.add(op, after);
  }

  GoalOut& out_;
  const Header& h_;
  int64_t bytes_;
  std::map<int64_t, int64_t> sent_, received_;  // messages so far, per peer: the next tag
  // What each step ended with (a lock-step plan keeps only the last).
  std::vector<std::vector<int64_t>> ends_;

  // The operations step k requires: what its required steps ended with.
  std::vector<int64_t> requirements_of(const Step& s, int64_t k) const {
    std::vector<int64_t> ops;
    requirements(h_, s, k, [&](int64_t i) {
      const std::vector<int64_t>& e = h_.graph ? ends_[static_cast<size_t>(i)] : ends_.back();
      ops.insert(ops.end(), e.begin(), e.end());
    });
    std::sort(ops.begin(), ops.end());
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
    return ops;
  }
};

// Every step of rank r through `out`, one at a time (as write_plan), until
// the steps end or a write fails.
void write_rank(GoalOut& out, const Plan& plan, int64_t r, int64_t bytes) {
  RankWriter writer(out, plan.header, bytes);
  const StepSource next = plan.source(r);
  int64_t k = 0;
  for (Step s; out.good() && next(s); ++k) writer.step(s, k);
}

}  // namespace


void write_goal(std::ostream& out, const Plan& plan, int64_t bytes, const std::string& comment) {
  std::istringstream lines(comment);
  for (std::string line; std::getline(lines, line);) out << "// " << line << "\n";
  out << "num_ranks " << plan.header.p << "\n";
  for (int64_t r = 0; r < plan.header.p && out; ++r) {
    out << "\nrank " << r << " {\n";
    TextOut text(out);
    write_rank(text, plan, r, bytes);
    out << "}\n";
  }
}

goal::Schedule goal_schedule(const Plan& plan, int64_t bytes) {
  goal::Schedule s;
  s.ranks = plan.header.p;
  s.first_op.push_back(0);
  for (int64_t r = 0; r < plan.header.p; ++r) {
    ScheduleOut ops(s);
    write_rank(ops, plan, r, bytes);
    ops.close();
  }
  return s;
}

}  // namespace collsim::plan
