#include "plan_values.hpp"

#include <utility>

namespace collsim::plan_detail {

[[noreturn]] void broken(const Header& h, int64_t rank, int64_t step, int64_t block, const char* rule,
                         std::string detail) {
  throw Broken{Counterexample{h.p, rank, static_cast<int>(step), rule, std::move(detail), block}};
}

// "0,1,2" (the first 8, then "...").
std::string str(BlockList list) {
  std::string text;
  for (int64_t i = 0; i < std::min<int64_t>(list.size(), 8); ++i) text += (i ? "," : "") + str(list.begin()[i]);
  return list.size() > 8 ? text + ",..." : text;
}

StepTable::StepTable(const Plan& plan) : h_(plan.header) {
  first_.reserve(h_.p + 1);
  for (int64_t r = 0; r < h_.p; ++r) {
    first_.push_back(static_cast<int64_t>(steps_.size()));
    const std::vector<Step> steps = plan.steps(r);
    for (size_t k = 0; k < steps.size(); ++k) add(r, static_cast<int64_t>(k), steps[k]);
  }
  first_.push_back(static_cast<int64_t>(steps_.size()));
}

void StepTable::add(int64_t r, int64_t k, const Step& s) {
  const bool message = s.send_to != -1 || s.recv_from != -1, fold = !s.fold_blocks.empty();
  if (!message && !fold) broken(h_, r, k, -1, "empty-step", "the step neither sends, receives nor folds");
  if (message && fold)
    broken(h_, r, k, -1, "fold-with-message",
           std::string("a ") + (s.join ? "join" : "fold") + " step also sends or receives");
  FlatStep flat{s.send_to, s.recv_from, 0, 0, 0, 0, s.send_value, s.combine, s.join};
  flat.send_begin = append(r, k, s.send_to, s.send_blocks, "send");
  flat.recv_begin = append(r, k, s.recv_from, s.recv_blocks, "receive");
  flat.fold_begin = append_blocks(r, k, s.fold_blocks, s.join ? "join" : "fold");
  flat.fold_end = static_cast<int64_t>(blocks_.size());
  const bool reduce_send = s.send_to >= 0 && plan::send_ops(s.send_value) > 0;
  const bool reduce_recv = s.recv_from >= 0 && plan::combines(s.combine);
  if (!reduces(h_.collective) && (reduce_send || reduce_recv || fold))
    broken(h_, r, k, -1, "no-reduction",
           std::string(collective_name(h_.collective)) + " has no ⊕, but the step " +
               (fold          ? std::string(s.join ? "joins" : "folds")
                : reduce_send ? std::string("sends ") + plan::value_name(s.send_value)
                              : std::string("combines ") + plan::combine_name(s.combine)));
  uses_aux_ = uses_aux_ || s.join || (s.recv_from >= 0 && s.combine == Combine::aux) ||
              (s.send_to >= 0 && plan::reads_aux(s.send_value));
  steps_.push_back(flat);
  if (h_.graph) add_after(r, k, s);
  after_first_.push_back(static_cast<int64_t>(after_.size()));
  count_entries();
}

// A graph step's requirements: earlier steps of its rank.
void StepTable::add_after(int64_t r, int64_t k, const Step& s) {
  for (int64_t i : s.after) {
    if (i < 0 || i >= k)
      broken(h_, r, k, -1, "requirement-range", "requires step " + str(i) + ", not an earlier step of rank " + str(r));
    after_.push_back(i);
  }
}

void StepTable::count_entries() const {
  if (static_cast<int64_t>(steps_.size() + blocks_.size() + after_.size()) > kMaxPlanStepEntries)
    throw std::length_error("plan too large to check: more than " + str(kMaxPlanStepEntries) +
                            " steps and listed blocks");
}

// Checks one half (peer and blocks) and appends its blocks; their start.
int64_t StepTable::append(int64_t r, int64_t k, int64_t peer, const plan::BlockList& blocks, const char* half) {
  if (peer < -1 || peer >= h_.p || peer == r)
    broken(h_, r, k, -1, "peer-range", std::string(half) + " peer " + str(peer) + " is not another rank of p = " + str(h_.p));
  if ((peer == -1) != blocks.empty())
    broken(h_, r, k, -1, "block-list", std::string(half) + (peer == -1 ? " blocks without a peer" : " without blocks"));
  return append_blocks(r, k, blocks, half);
}

// Checks a block list (in range, each block once) and appends it; its start.
int64_t StepTable::append_blocks(int64_t r, int64_t k, const plan::BlockList& blocks, const char* half) {
  const int64_t begin = static_cast<int64_t>(blocks_.size());
  for (int64_t b : blocks) {
    if (b < 0 || b >= h_.blocks)
      broken(h_, r, k, b, "block-range", std::string(half) + " block " + str(b) + " is not in 0.." + str(h_.blocks - 1));
    blocks_.push_back(b);
  }
  std::vector<int64_t> sorted(blocks.begin(), blocks.end());
  std::sort(sorted.begin(), sorted.end());
  const auto twice = std::adjacent_find(sorted.begin(), sorted.end());
  if (twice != sorted.end()) broken(h_, r, k, *twice, "block-list", std::string(half) + " lists the block twice");
  return begin;
}

void check_header(const Header& h) {
  auto bad = [&h](const std::string& why) { broken(h, -1, -1, -1, "header", why); };
  if (h.p < 1) bad("p = " + str(h.p) + " < 1");
  if (h.blocks < 1) bad("blocks = " + str(h.blocks) + " < 1");
  const bool has_root = rooted(h.collective);
  if (h.root < 0 || h.root >= h.p || (!has_root && h.root != 0))
    bad("root " + str(h.root) + (has_root ? " is not a rank" : " must be 0: the collective has no root"));
  if (plan::per_segment(h.collective) && h.blocks % h.p != 0)
    bad("blocks = " + str(h.blocks) + " is not a multiple of p");
  if (h.segments < 1 || h.segments > h.blocks || h.blocks % h.segments != 0 ||
      (plan::per_segment(h.collective) && h.segments != 1))
    bad("segments = " + str(h.segments) + " does not cut blocks = " + str(h.blocks));
  if (h.p > kMaxPlanRanks || h.blocks > kMaxPlanValues / h.p)
    throw std::length_error("plan too large to check: p = " + str(h.p) + ", blocks = " + str(h.blocks) +
                            " (at most p <= " + str(kMaxPlanRanks) + " and p·blocks <= " + str(kMaxPlanValues) + ")");
}

Values::Values(const Header& h, const StepTable& table)
    : h_(h), table_(table), sets_(h.p), acc_(h.p * h.blocks), aux_(table.uses_aux() ? h.p * h.blocks : 0), ops_(h.p) {
  for (int64_t r = 0; r < h.p; ++r)
    for (int64_t b = 0; b < h.blocks; ++b) acc_[entry(r, b)] = initial(r, b);
}

Interval Values::input(int64_t r, int64_t b) const {
  if (reduces(h_.collective) || plan::block_owner(h_, b) == r) return Interval{r, r};
  return {};
}

Interval Values::initial(int64_t r, int64_t b) const {
  return h_.collective == Collective::exscan ? Interval{} : input(r, b);
}

// What rank r must end with in block b; none where anything will do.
std::optional<Interval> Values::result(int64_t r, int64_t b) const {
  const Interval all{0, h_.p - 1};
  switch (h_.collective) {
    case Collective::bcast:
    case Collective::allgatherv: return Interval{plan::block_owner(h_, b), plan::block_owner(h_, b)};
    case Collective::reduce: return r == h_.root ? std::optional<Interval>(all) : std::nullopt;
    case Collective::allreduce: return all;
    case Collective::reduce_scatter: return plan::block_owner(h_, b) == r ? std::optional<Interval>(all) : std::nullopt;
    case Collective::scan: return Interval{0, r};
    case Collective::exscan: return Interval{0, r - 1};
  }
  return std::nullopt;
}

void Values::check_results() {
  for (int64_t r = 0; r < h_.p; ++r)
    for (int64_t b = 0; b < h_.blocks; ++b) {
      const std::optional<Interval> want = result(r, b);
      const Interval got = acc_[entry(r, b)];
      if (want && (pooled(got) || got != *want))
        broken(h_, r, -1, b, "wrong-result", "ends with " + sets_.str(got) + ", not " + str(*want));
    }
}

Interval Values::sent_value(int64_t r, int64_t k, const FlatStep& s, int64_t b) {
  const Interval acc = acc_[entry(r, b)];
  Interval v;
  switch (s.value) {
    case Value::acc:
      v = sets_.copy(acc);
      break;
    case Value::input:
      v = input(r, b);
      break;
    case Value::acc_op_input:
      v = join(acc, input(r, b), r, k, b, "acc ⊕ input", -1);
      break;
    case Value::aux:
      v = sets_.copy(aux_[entry(r, b)]);
      break;
    case Value::acc_op_aux:
      v = join(acc, aux_[entry(r, b)], r, k, b, "acc ⊕ aux", -1);
      break;
    case Value::acc_op_input_op_aux: {
      const Interval low = join(acc, input(r, b), r, k, b, "acc ⊕ input", -1);
      v = join(low, aux_[entry(r, b)], r, k, b, "(acc ⊕ input) ⊕ aux", -1);
      sets_.release(low);
    }
  }
  if (v.empty())
    broken(h_, r, k, b, "not-held", "sends " + std::string(plan::value_name(s.value)) + " of block " + str(b) +
                                        " to " + str(s.send_to) + " but holds nothing there");
  return v;
}

// left ⊕ right at rank r (`what`, with data from `peer` or -1): every
// contribution once and, without commutativity, left ending where right
// begins. Counts the ⊕. The result is a new value (the operands keep
// their owners).
Interval Values::join(Interval left, Interval right, int64_t r, int64_t k, int64_t b, const char* what, int64_t peer) {
  if (left.empty()) return sets_.copy(right);
  if (right.empty()) return sets_.copy(left);
  auto fail = [&](const char* rule) {
    broken(h_, r, k, b, rule,
           std::string(what) + (peer >= 0 ? " (from " + str(peer) + ")" : "") + " joins " + sets_.str(left) +
               " and " + sets_.str(right));
  };
  if (sets_.overlap(left, right)) fail("double-contribution");
  ++ops_[r];
  if (h_.commutative) return sets_.unite(left, right);
  if (right.hi + 1 == left.lo) fail("order");
  if (left.hi + 1 != right.lo) fail("non-adjacent-join");
  return Interval{left.lo, right.hi};
}

void Values::receive(int64_t r, int64_t k, const FlatStep& s, std::vector<Interval>& box) {
  const BlockList blocks = table_.received(s);
  for (int64_t i = 0; i < blocks.size(); ++i) {
    const Interval got = box[i];
    if (s.combine == Combine::aux) {  // stored in aux
      sets_.release(aux_[entry(r, blocks.begin()[i])]);
      aux_[entry(r, blocks.begin()[i])] = got;
      continue;
    }
    Interval& acc = acc_[entry(r, blocks.begin()[i])];
    Interval now = got;  // a store takes the received value over
    if (s.combine == Combine::left) now = join(got, acc, r, k, blocks.begin()[i], "received ⊕ acc", s.recv_from);
    if (s.combine == Combine::right) now = join(acc, got, r, k, blocks.begin()[i], "acc ⊕ received", s.recv_from);
    if (s.combine != Combine::store) sets_.release(got);
    sets_.release(acc);
    acc = now;
  }
  box.clear();
  box.shrink_to_fit();
}

// acc = acc ⊕ input: acc must end at r − 1 ([a, r − 1] becomes [a, r]);
// an acc that already holds r is a double contribution. A join: acc =
// aux ⊕ acc, aux ending where acc begins.
void Values::fold(int64_t r, int64_t k, const FlatStep& s) {
  for (int64_t b : table_.folded(s)) {
    Interval& acc = acc_[entry(r, b)];
    const Interval now = s.join ? join(aux_[entry(r, b)], acc, r, k, b, "join aux ⊕ acc", -1)
                                : join(acc, input(r, b), r, k, b, "fold acc ⊕ input", -1);
    sets_.release(acc);
    acc = now;
  }
}

PlanReport summarize(std::vector<PlanRankStats> ranks) {
  PlanReport rep;
  for (const PlanRankStats& s : ranks) {
    rep.max_steps = std::max(rep.max_steps, s.steps);
    rep.max_ops = std::max(rep.max_ops, s.ops);
    rep.critical_path = std::max(rep.critical_path, s.depth);
  }
  rep.ranks = std::move(ranks);
  return rep;
}

}  // namespace collsim::plan_detail
