#include "plan_goal.hpp"

#include <algorithm>
#include <map>
#include <ostream>
#include <sstream>
#include <vector>

#include "blocks.hpp"

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

// One rank's GOAL operations: labels l1, l2, .. and their `requires` lines.
class RankWriter {
 public:
  RankWriter(std::ostream& out, const Header& h, int64_t bytes) : out_(out), h_(h), bytes_(bytes) {}

  // Step k of the rank.
  void step(Step s, int64_t k) {
    const std::vector<std::string> before = requirements_of(s, k);
    std::vector<std::string> ended = before;  // a step left with nothing passes its requirements on
    drop_empty_halves(h_, s, [this](const BlockList& blocks) { return message_bytes(blocks, bytes_, h_); });
    if (!s.fold_blocks.empty()) ended = {op("calc " + std::to_string(message_bytes(s.fold_blocks, bytes_, h_)), before)};
    if (s.send_to >= 0 || s.recv_from >= 0) ended.clear();
    if (s.send_to >= 0) {
      const int64_t size = message_bytes(s.send_blocks, bytes_, h_);
      std::vector<std::string> ready = before;
      if (send_ops(s.send_value) > 0) ready = {op("calc " + std::to_string(send_ops(s.send_value) * size), before)};
      ended.push_back(op("send " + std::to_string(size) + "b to " + std::to_string(s.send_to) + " tag " +
                             std::to_string(sent_[s.send_to]++),
                         ready));
    }
    if (s.recv_from >= 0) {
      const int64_t size = message_bytes(s.recv_blocks, bytes_, h_);
      std::string last = op("recv " + std::to_string(size) + "b from " + std::to_string(s.recv_from) + " tag " +
                                std::to_string(received_[s.recv_from]++),
                            before);
      if (combines(s.combine)) last = op("calc " + std::to_string(size), {last});
      ended.push_back(last);
    }
    if (h_.graph)
      ends_.push_back(std::move(ended));
    else
      ends_ = {std::move(ended)};
  }

 private:
  // Writes `lN: text` and one `lN requires D` per dependency; returns lN.
  std::string op(const std::string& text, const std::vector<std::string>& requires_labels) {
    const std::string label = "l" + std::to_string(++labels_);
    out_ << label << ": " << text << "\n";
    for (const std::string& d : requires_labels) out_ << label << " requires " << d << "\n";
    return label;
  }

  std::ostream& out_;
  const Header& h_;
  int64_t bytes_;
  int64_t labels_ = 0;
  std::map<int64_t, int64_t> sent_, received_;  // messages so far, per peer: the next tag
  // What each step ended with (a lock-step plan keeps only the last).
  std::vector<std::vector<std::string>> ends_;

  // The labels step k requires: what its required steps ended with.
  std::vector<std::string> requirements_of(const Step& s, int64_t k) const {
    std::vector<std::string> labels;
    requirements(h_, s, k, [&](int64_t i) {
      const std::vector<std::string>& e = h_.graph ? ends_[static_cast<size_t>(i)] : ends_.back();
      labels.insert(labels.end(), e.begin(), e.end());
    });
    std::sort(labels.begin(), labels.end());
    labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
    return labels;
  }
};

}  // namespace


void write_goal(std::ostream& out, const Plan& plan, int64_t bytes, const std::string& comment) {
  std::istringstream lines(comment);
  for (std::string line; std::getline(lines, line);) out << "// " << line << "\n";
  out << "num_ranks " << plan.header.p << "\n";
  for (int64_t r = 0; r < plan.header.p && out; ++r) {
    out << "\nrank " << r << " {\n";
    RankWriter writer(out, plan.header, bytes);
    // One step at a time, as write_plan; a failed output ends the walk.
    const StepSource next = plan.source(r);
    int64_t k = 0;
    for (Step s; out && next(s); ++k) writer.step(s, k);
    out << "}\n";
  }
}

}  // namespace collsim::plan
