// Circulant reduction and all-broadcast plans: the messages of
// sim/algorithms/reduce_circulant.cpp and of circulant_all.cpp (allgatherv,
// reduce_scatter, allreduce circulant), rank by rank. All are built from
// circulant_plan.hpp's CirculantPlan, the n-block circulant broadcast with
// the capped repeats of block n − 1 dropped (seed 003, Algorithm 1 and
// Observation 1), run forwards or backwards.
//
// The reductions combine partial results along the circulant tree, whose
// ranges of ranks are not contiguous: commutative ⊕ only (kCommutative in
// sim/catalog/algorithms.def), so their plans say `commutative 1`. Their
// MPI code folds a received block in as acc = received ⊕ acc (left).
//
// Blocks: reduce B = n; allgatherv and reduce_scatter B = p·n, block j·n + b
// being block b of rank j's segment (plan.hpp); allreduce B = p·n in p
// segments (Header::segments), its nested cut: block_span into p even
// segments, each into n blocks.
//
// Zero bytes: circulant_all.cpp sends no message whose bytes add up to 0
// (MPI_PROC_NULL), while the executor sends every listed half (as the other
// algorithms' MPI code did, and reduce_circulant.cpp does): a plan lists
// blocks, not the run's counts, so it cannot leave those messages out. The
// allgatherv, reduce_scatter and allreduce circulant therefore keep their
// MPI code (which also shares one table of all p virtual ranks among the
// 16,384 ranks of a scale run, where a plan's steps list O(p) blocks per
// rank); their plans serve the verifier, the engine and GOAL, and time the
// same whenever no message is empty.
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "circulant_plan.hpp"
#include "plan_families.hpp"

namespace collsim::plan {

namespace {

Header circulant_header(Collective c, int64_t p, int64_t root, int64_t blocks) {
  Header h{c, p, root, blocks, c != Collective::allgatherv};
  if (c == Collective::allreduce) h.segments = p;
  return h;
}

// One round's step: `sent` to `to` (acc), `got` from `from`, either half
// left out where it has no blocks; none at all (no step) if both are empty.
void add_round(std::vector<Step>& steps, int64_t to, std::vector<int64_t> sent, int64_t from,
               std::vector<int64_t> got, Combine combine) {
  Step step;
  if (!sent.empty()) step = send_step(to, std::move(sent));
  if (!got.empty()) step = with_recv(std::move(step), from, std::move(got), combine);
  if (step.send_to >= 0 || step.recv_from >= 0) steps.push_back(std::move(step));
}

// circulant_all.cpp's PlanTable: rank r plays, for root j, virtual rank
// v = (r − j) mod p of the same broadcast, so one read-only table of every
// virtual rank's moves per round serves all ranks (O(p(n + q)) memory,
// shared by the Plan's copies).
class AllRounds {
 public:
  AllRounds(int64_t p, int64_t n) : s_(p), p_(p), n_(n) {
    if (s_.q() == 0) return;
    for (int64_t v = 0; v < p; ++v) {
      const sim::CirculantPlan plan(s_, v, n);
      first_ = plan.first();
      rounds_ = plan.end() - first_;
      send_.resize(static_cast<size_t>(rounds_ * p));
      recv_.resize(send_.size());
      for (int64_t i = first_; i < plan.end(); ++i) {
        send_[at(i, v)] = plan.send_block(i);
        recv_[at(i, v)] = plan.recv_block(i);
      }
    }
  }

  // Rank r's rounds, forwards (allgather: received blocks stored) or
  // backwards with sends and receives swapped (reduce-scatter: the blocks a
  // rank received are sent back as partial results, the blocks it sent come
  // back and are combined), one MPI_Sendrecv per round as run_rounds does.
  void steps(int64_t r, bool reversed, std::vector<Step>& steps) const {
    for (int64_t step = 0; step < rounds_; ++step) {
      const int64_t i = reversed ? first_ + rounds_ - 1 - step : first_ + step;
      const int k = static_cast<int>(i % s_.q());
      int64_t to = s_.to(r, k), from = s_.from(r, k);
      const std::vector<int64_t>*out = &send_, *in = &recv_;
      if (reversed) std::swap(out, in), std::swap(to, from);
      add_round(steps, to, blocks(*out, i, r), from, blocks(*in, i, r), reversed ? Combine::left : Combine::store);
    }
  }

 private:
  size_t at(int64_t i, int64_t v) const { return static_cast<size_t>((i - first_) * p_ + v); }

  // Rank r's blocks j·n + u in one round, in root order j = 0 .. p − 1 (the
  // MPI code's packing order), u being what virtual rank (r − j) mod p moves.
  std::vector<int64_t> blocks(const std::vector<int64_t>& moves, int64_t i, int64_t r) const {
    std::vector<int64_t> list;
    for (int64_t j = 0; j < p_; ++j) {
      const int64_t u = moves[at(i, r >= j ? r - j : r - j + p_)];
      if (u >= 0) list.push_back(j * n_ + u);
    }
    return list;
  }

  CirculantSchedule s_;
  int64_t p_, n_, first_ = 0, rounds_ = 0;
  std::vector<int64_t> send_, recv_;  // [(i − first) p + v]: the block v moves in round i, or −1
};

// B = p·n must stay within plan.hpp's block limit.
void check_segment_blocks(int64_t p, int64_t n) {
  if (n > kMaxBlocks / p)
    throw std::invalid_argument("p·n = " + std::to_string(p) + "·" + std::to_string(n) + " blocks exceed 2^40");
}

// The plan of p simultaneous broadcasts (forwards), reductions (reversed)
// or both, n blocks per segment.
Plan all_rounds_plan(Collective c, int64_t p, int64_t n, bool reduce_scatter, bool allgather) {
  check_segment_blocks(p, n);
  const auto table = std::make_shared<const AllRounds>(p, n);
  return {circulant_header(c, p, 0, p * n), [=](int64_t rank) {
            std::vector<Step> steps;
            if (reduce_scatter) table->steps(rank, true, steps);
            if (allgather) table->steps(rank, false, steps);
            return steps;
          }};
}

}  // namespace

// reduce circulant (reduce_circulant.cpp): the broadcast of bcast_circulant
// from the root, run backwards: round i from the last down to x, a rank
// sends the partial of the block it received in round i back to the rank it
// came from, and receives and folds in the block it sent. Only real
// transfers (circulant_plan.hpp), so every partial arrives once. n − 1 + q
// steps at most.
//   p = 4 (skips 1, 2), root 0, n = 1: the broadcast is 0 → 1 in round 0,
//   then 0 → 2 and 1 → 3 in round 1; backwards:
//     round 1: 2 → 0, 3 → 1      round 0: 1 → 0 (m1 ⊕ m3)
//   rank 0: recv 2 b0 left; recv 1 b0 left.  rank 1: recv 3 b0 left; send 0 b0.
Plan reduce_circulant(int64_t p, int64_t root, int64_t blocks) {
  const auto shared = std::make_shared<const CirculantSchedule>(p);
  const Rooted ranks{p, root};
  // Streamed (n − 1 + q steps): a rank's state is its CirculantPlan.
  return streamed(circulant_header(Collective::reduce, p, root, blocks), [=](int64_t rank) -> StepSource {
    const CirculantSchedule& s = *shared;
    if (s.q() == 0) return [](Step&) { return false; };
    const int64_t v = ranks.virt(rank);
    auto plan = std::make_shared<const sim::CirculantPlan>(s, v, blocks);
    const int64_t last = plan->end() - 1;
    return rounds(0, plan->end() - plan->first(), [=](int64_t j, Step& step) {
      const int64_t i = last - j;
      const int k = static_cast<int>(i % shared->q());
      const int64_t out = plan->recv_block(i), in = plan->send_block(i);
      if (out >= 0) step = send_step(ranks.real(shared->from(v, k)), {out});
      if (in >= 0) step = with_recv(std::move(step), ranks.real(shared->to(v, k)), {in}, Combine::left);
    });
  });
}

// allgatherv circulant (Algorithm 7, circulant_allgather): in round i rank r
// sends to r + skip[k] one message, the blocks it moves for every root in
// root order, and receives one from r − skip[k]. B = p·n.
//   p = 4, n = 1 (rank j's block is j): round 0, skip 1: r → r + 1 block r;
//   round 1, skip 2: r → r + 2 blocks r − 1, r (root r − 1 as virtual 1,
//   root r as virtual 0), e.g. rank 0: send 1 b0, recv 3 b3; then send 2
//   b0,3, recv 2 b1,2.
Plan allgatherv_circulant(int64_t p, int64_t, int64_t blocks) {
  return all_rounds_plan(Collective::allgatherv, p, blocks, false, true);
}

// reduce_scatter circulant (circulant_reduce_scatter): the allgather's
// rounds backwards, p reductions at once, rank j the root of segment j.
//   p = 4, n = 1, rank 0: send 2 b1,2, recv 2 b0,3 left; send 3 b3, recv 1
//   b0 left.
Plan reduce_scatter_circulant(int64_t p, int64_t, int64_t blocks) {
  return all_rounds_plan(Collective::reduce_scatter, p, blocks, true, false);
}

// allreduce circulant (allreduce_circulant.cpp): the reduce-scatter of p even
// segments, then the allgather of the reduced segments, both with n blocks
// per segment: `segments p`, B = p·n. 2(n − 1 + q) steps at most.
Plan allreduce_circulant(int64_t p, int64_t, int64_t blocks) {
  return all_rounds_plan(Collective::allreduce, p, blocks, true, true);
}

}  // namespace collsim::plan
