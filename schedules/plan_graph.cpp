// overlapped() (plan.hpp): a lock-step plan's steps with the requirements
// its data and messages impose, and no others. A step that sends and
// receives becomes two, the send first (it reads the values from before
// the receive), so that neither half waits for what only the other needs.
// Worked examples:
//   the root of a binomial bcast over 8 ranks, lock-step: send 4 {0};
//     send 2 {0}; send 1 {0}, each after the one before has completed.
//     Overlapped: the sends only read block 0, which nothing writes, so
//     none requires another and the three leave back to back, as an MPI
//     library's tree posts them.
//   rank 1 of a linear-pipeline bcast of 3 blocks, 0 → 1 → 2, lock-step:
//     0 recv 0 {0}; 1 send 2 {0} recv 0 {1}; 2 send 2 {1} recv 0 {2};
//     3 send 2 {2}. Overlapped, numbered anew:
//       0 recv 0 {0}
//       1 send 2 {0} after 0          (forwards what 0 received)
//       2 recv 0 {1}                  (no longer waits for the send of 0)
//       3 send 2 {1} after 1,2        (the send to 2 before it, block 1)
//       4 recv 0 {2}
//       5 send 2 {2} after 3,4
#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "plan.hpp"

namespace collsim::plan {

namespace {

// Per block of acc or aux: the last step that wrote it and the steps that
// read it since.
struct BlockUse {
  int64_t writer = -1;
  std::vector<int64_t> readers;
};

class Hazards {
 public:
  explicit Hazards(bool reduces) : reduces_(reduces) {}

  // Step k's requirements from the accesses before it; then records its own.
  void add(Step& s, int64_t k) {
    s.after.clear();
    visit(s, [&](int64_t key, bool writes) {
      const BlockUse& u = use_[key];
      if (u.writer >= 0) s.after.push_back(u.writer);
      if (writes) s.after.insert(s.after.end(), u.readers.begin(), u.readers.end());
    });
    if (s.send_to >= 0) {
      const auto last = last_send_.find(s.send_to);
      if (last != last_send_.end()) s.after.push_back(last->second);
      last_send_[s.send_to] = k;
    }
    visit(s, [&](int64_t key, bool writes) {
      if (!writes) use_[key].readers.push_back(k);
    });
    visit(s, [&](int64_t key, bool writes) {
      if (writes) use_[key] = BlockUse{k, {}};
    });
    std::sort(s.after.begin(), s.after.end());
    s.after.erase(std::unique(s.after.begin(), s.after.end()), s.after.end());
  }

 private:
  static int64_t acc(int64_t b) { return 2 * b; }
  static int64_t aux(int64_t b) { return 2 * b + 1; }

  // f(key, writes) for every block of acc or aux the step reads or writes
  // (a combine or a fold reads and writes: a write). The input is never
  // written; without ⊕ a send of it is a send of acc (plan_executor.cpp).
  template <class F>
  void visit(const Step& s, F f) const {
    if (s.send_to >= 0) {
      const bool reads_acc = s.send_value != Value::aux && (s.send_value != Value::input || !reduces_);
      for (int64_t b : s.send_blocks) {
        if (reads_acc) f(acc(b), false);
        if (reads_aux(s.send_value)) f(aux(b), false);
      }
    }
    if (s.recv_from >= 0)
      for (int64_t b : s.recv_blocks) f(s.combine == Combine::aux ? aux(b) : acc(b), true);
    for (int64_t b : s.fold_blocks) {
      if (s.join) f(aux(b), false);
      f(acc(b), true);
    }
  }

  bool reduces_;
  std::unordered_map<int64_t, BlockUse> use_;
  std::unordered_map<int64_t, int64_t> last_send_;  // peer -> the last step sending to it
};

}  // namespace

StepWaits step_waits(const Header& h, const std::vector<Step>& steps) {
  const int64_t n = static_cast<int64_t>(steps.size());
  StepWaits w{std::vector<std::vector<int64_t>>(steps.size()), std::vector<int64_t>(steps.size(), 0)};
  for (int64_t k = 0; k < n; ++k)
    requirements(h, steps[static_cast<size_t>(k)], k, [&](int64_t i) {
      if (i < 0 || i >= k)
        throw std::invalid_argument("step " + std::to_string(k) + " requires " + std::to_string(i) +
                                    ", no earlier step of its rank");
      w.dependents[static_cast<size_t>(i)].push_back(k);
      ++w.waiting[static_cast<size_t>(k)];
    });
  return w;
}

Plan overlapped(Plan lock_step) {
  if (lock_step.header.graph) return lock_step;
  Header h = lock_step.header;
  h.graph = true;
  return {h, [base = std::move(lock_step)](int64_t rank) {
            std::vector<Step> steps;
            Hazards hazards(reduces(base.header.collective));
            auto add = [&](Step s) {
              hazards.add(s, static_cast<int64_t>(steps.size()));
              steps.push_back(std::move(s));
            };
            const StepSource next = base.source(rank);
            for (Step s; next(s);) {
              if (s.send_to < 0 || s.recv_from < 0) {
                add(s);
                continue;
              }
              Step send = s;
              send.recv_from = -1, send.recv_blocks.clear(), send.combine = Combine::store;
              s.send_to = -1, s.send_blocks.clear(), s.send_value = Value::acc;
              add(std::move(send));
              add(std::move(s));
            }
            return steps;
          }};
}

}  // namespace collsim::plan
