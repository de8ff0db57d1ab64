#include "step_costs.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace collsim::engine {

void require_lock_step(const plan::Header& h) {
  if (h.graph)
    throw std::invalid_argument("a graph plan does not run in step order: engine/graph_links.hpp times it");
}

PlanSteps::PlanSteps(const plan::Plan& plan, const BlockBytes& bytes, double gamma)
    : h_(plan.header), bytes_(bytes), gamma_(gamma), sources_(static_cast<size_t>(plan.header.p)) {
  const int64_t p = h_.p;
  // Where blocks start empty (plan::starts_empty) a store costs nothing
  // and the first combine into a block is a copy, as in the executor: which
  // blocks each rank holds is kept, p·B bits, where that fits kMaxHoldings.
  // Past it, a bcast or an allgatherv whose every receive is a store and
  // which folds nothing (each of ours) costs the same whatever it holds, so
  // nothing is kept, and a step that would read the holdings is refused
  // when it comes (read_held).
  if (plan::starts_empty(h_.collective)) {
    if (!holdings_fit()) {
      if (h_.collective == Collective::exscan)
        throw std::invalid_argument(too_many_holdings("it combines into blocks that start empty"));
      untracked_ = true;
    } else {
      held_.assign(static_cast<size_t>(p * h_.blocks), false);
      for (int64_t b = 0; b < h_.blocks; ++b)
        if (h_.collective != Collective::exscan)
          held_[static_cast<size_t>(plan::block_owner(h_, b) * h_.blocks + b)] = true;
    }
  }
  for (int64_t r = 0; r < p; ++r) sources_[static_cast<size_t>(r)] = plan.source(r);
}

bool PlanSteps::holdings_fit() const { return h_.p <= plan::kMaxHoldings / h_.blocks; }

std::string PlanSteps::too_many_holdings(const std::string& why) const {
  return "plan too large for the engine: " + why +
         ", so it keeps which blocks each rank holds, p × blocks = " + std::to_string(h_.p) + " × " +
         std::to_string(h_.blocks) + " bits, over the limit of 2^32";
}

// Untracked holdings (see the constructor) answer no question: a step
// that asks is refused, before anything is allocated for it.
void PlanSteps::read_held(int64_t r, const plan::BlockList& blocks) const {
  if (untracked_ && !blocks.empty())
    throw std::invalid_argument(
        too_many_holdings("rank " + std::to_string(r) + " combines or folds into blocks that start empty"));
}

// The time of a ⊕ with rank r's blocks: γ per byte where acc holds a value
// (else it is a copy, which costs nothing); by runs where every block is
// held from the start. `hold` marks them held afterwards.
double PlanSteps::op_time(int64_t r, const plan::BlockList& blocks, bool hold) {
  read_held(r, blocks);
  if (held_.empty()) {
    const int64_t n = list_bytes(bytes_, blocks);
    op_bytes_ += n;
    return gamma_ * static_cast<double>(n);
  }
  double t = 0;
  for (int64_t b : blocks) {
    auto bit = held_[static_cast<size_t>(r * h_.blocks + b)];
    if (bit) {
      t += gamma_ * static_cast<double>(bytes_(b).count());
      op_bytes_ += bytes_(b).count();
    }
    if (hold) bit = true;
  }
  return t;
}

// aux (plan.hpp): which blocks rank r's aux holds, p·B bits made at the
// first step that uses aux; acc where holdings are not tracked is full.
std::vector<bool>::reference PlanSteps::aux_bit(int64_t r, int64_t b) {
  if (aux_.empty()) {
    if (untracked_ || !holdings_fit())
      throw std::invalid_argument(too_many_holdings("rank " + std::to_string(r) + " uses its second accumulator, aux"));
    aux_.assign(static_cast<size_t>(h_.p * h_.blocks), false);
  }
  return aux_[static_cast<size_t>(r * h_.blocks + b)];
}

bool PlanSteps::acc_holds(int64_t r, int64_t b) const {
  return held_.empty() || held_[static_cast<size_t>(r * h_.blocks + b)];
}

// The ⊕ of a send that involves aux, or of a join (acc = aux ⊕ acc, which
// then holds the block): γ per byte per ⊕ of two held operands, as the
// executor applies them (operands acc, input, aux in that order).
double PlanSteps::aux_time(int64_t r, const plan::BlockList& blocks, plan::Value v, bool join) {
  double t = 0;
  for (int64_t b : blocks) {
    const bool aux = aux_bit(r, b), acc = acc_holds(r, b), input = v == plan::Value::acc_op_input_op_aux;
    const bool uses_acc = join || v != plan::Value::aux;
    const int held = (aux ? 1 : 0) + (input ? 1 : 0) + (uses_acc && acc ? 1 : 0);
    if (held > 1) {
      t += gamma_ * static_cast<double>((held - 1) * bytes_(b).count());
      op_bytes_ += (held - 1) * bytes_(b).count();
    }
    if (join && aux && !held_.empty()) held_[static_cast<size_t>(r * h_.blocks + b)] = true;
  }
  return t;
}

// A store's blocks become held; it costs nothing, so their bytes are not
// looked up (a broadcast stores every block it receives).
void PlanSteps::hold(int64_t r, const plan::BlockList& blocks) {
  if (held_.empty())  // every block held from the start, or untracked
    return;
  const auto at = held_.begin() + r * h_.blocks;
  for (const plan::BlockList::Run& run : blocks.runs()) {
    if (run.stride == 1)  // a word at a time (an all-to-all round: p blocks)
      std::fill(at + run.first, at + run.first + run.count, true);
    else
      for (int64_t i = 0; i < run.count; ++i) at[run.first + i * run.stride] = true;
  }
}

// Holdings change only by the rank's own steps, so they are read and
// updated here, in step order, as the executor does when it runs the step.
bool PlanSteps::next(int64_t r, StepCost& c) {
  plan::StepSource& source = sources_[static_cast<size_t>(r)];
  if (!source(step_)) {
    source = nullptr;
    return false;
  }
  plan::drop_empty_halves(h_, step_, [this](const plan::BlockList& b) { return list_bytes(bytes_, b); });
  c.send_to = step_.send_to, c.recv_from = step_.recv_from;
  c.send_bytes = list_bytes(bytes_, step_.send_blocks);
  op_bytes_ = 0;
  c.before = step_.send_to < 0                               ? 0
             : plan::reads_aux(step_.send_value)             ? aux_time(r, step_.send_blocks, step_.send_value, false)
             : step_.send_value == plan::Value::acc_op_input ? op_time(r, step_.send_blocks, false)
                                                             : 0;
  c.before_bytes = op_bytes_;
  op_bytes_ = 0;
  double combined = 0;
  if (step_.combine == plan::Combine::aux)
    for (int64_t b : step_.recv_blocks) aux_bit(r, b) = true;
  else if (step_.combine == plan::Combine::store)
    hold(r, step_.recv_blocks);
  else
    combined = op_time(r, step_.recv_blocks, true);
  c.after = combined +
            (step_.join ? aux_time(r, step_.fold_blocks, plan::Value::aux, true) : op_time(r, step_.fold_blocks, true));
  c.after_bytes = op_bytes_;
  return true;
}

}  // namespace collsim::engine
