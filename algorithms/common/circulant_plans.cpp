// Circulant reduction and all-broadcast plans: the messages of
// algorithms/reduce_circulant.cpp and of circulant_all.cpp (allgatherv,
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
// Zero bytes: with irregular counts (an empty segment, one rank holding
// everything) or fewer elements than p·n, many all-to-all messages carry
// nothing; those plans say `empty-messages skip` (Header::skip_empty), so
// the executor and the engines leave such halves out at both ends, as
// circulant_all.cpp does. The reduction keeps sending its empty messages.
// SMPI runs of the all-to-all three use circulant_all.cpp's MPI code, not
// the executor (why: circulant_all.hpp); their plans serve the verifier,
// the engines, GOAL and `run --plan`, and give the same times.
#include <algorithm>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "bounded_read.hpp"  // limit_text
#include "circulant_plan.hpp"
#include "errors.hpp"
#include "circulant_plans.hpp"

namespace collsim::plan {

Header circulant_header(Collective c, int64_t p, int64_t root, int64_t blocks) {
  Header h{c, p, root, blocks, c != Collective::allgatherv};
  if (c == Collective::allreduce) h.segments = p;
  // The all-to-all rounds send no empty message (Header::skip_empty).
  h.skip_empty = c != Collective::reduce;
  return h;
}

namespace {

// Virtual ranks v_first .. v_last, which all move block u of their
// broadcast in a round. A round's moves fall into few such runs (at most 8
// per round for n = 4 at p = 2^20, 64 for n = 7 at p = 10^5: measured), so
// a rank's step is made in O(runs), not O(p).
struct MoveRun {
  int64_t v_first, v_last, u;
};

// circulant_all's rounds: rank r plays, for root j, virtual rank
// v = (r − j) mod p of the same broadcast, so one read-only table of every
// virtual rank's moves per round serves all ranks, shared by all plans
// built for (p, n) at once (all_rounds()). Building it takes one receive
// schedule per virtual rank; the senders follow from the receivers.
class AllRounds {
 public:
  AllRounds(int64_t p, int64_t n) : s_(p), p_(p), n_(n) {
    if (s_.q() == 0) return;
    for (int64_t v = 0; v < p; ++v) {
      const sim::CirculantPlan plan(s_, v, n, false);
      first_ = plan.first();
      if (v == 0) reserve_rounds(plan.end() - first_);
      recvs_.resize(static_cast<size_t>(plan.end() - first_));
      for (int64_t i = first_; i < plan.end(); ++i) add(recvs_[at(i)], v, plan.recv_block(i));
    }
    sends_.resize(recvs_.size());
    for (int64_t i = first_; i < first_ + rounds(); ++i)
      sends_[at(i)] = senders(recvs_[at(i)], s_.skip(static_cast<int>(i % s_.q())));
  }

  int64_t p() const { return p_; }
  int64_t n() const { return n_; }
  int64_t rounds() const { return static_cast<int64_t>(sends_.size()); }
  int64_t runs() const {
    int64_t total = 0;
    for (size_t i = 0; i < sends_.size(); ++i) total += int64_t(sends_[i].size() + recvs_[i].size());
    return total;
  }

  // Rank r's step `step` of a pass: forwards (allgather: received blocks
  // stored) or backwards with sends and receives swapped (reduce-scatter:
  // the blocks a rank received are sent back as partial results, the blocks
  // it sent come back and are combined). Left without halves where r moves
  // nothing that round.
  void step(int64_t r, bool reversed, int64_t step, Step& out) const {
    const int64_t i = reversed ? first_ + rounds() - 1 - step : first_ + step;
    const int k = static_cast<int>(i % s_.q());
    int64_t to = s_.to(r, k), from = s_.from(r, k);
    const std::vector<MoveRun>*sent = &sends_[at(i)], *got = &recvs_[at(i)];
    if (reversed) std::swap(sent, got), std::swap(to, from);
    BlockList sent_blocks = blocks(*sent, r), got_blocks = blocks(*got, r);
    if (!sent_blocks.empty()) out = send_step(to, std::move(sent_blocks));
    if (!got_blocks.empty())
      out = with_recv(std::move(out), from, std::move(got_blocks), reversed ? Combine::left : Combine::store);
  }

 private:
  size_t at(int64_t i) const { return static_cast<size_t>(i - first_); }

  // The table's bytes, counted before each allocation against
  // kMaxTableBytes: a huge n (or p·n) is a LimitError, not bad_alloc.
  // Each receivers' run has about one senders' run.
  static constexpr int64_t kMaxTableBytes = int64_t{2} << 30;
  int64_t bytes_ = 0;
  void reserve(int64_t bytes_more) {
    if (bytes_more > kMaxTableBytes - bytes_)
      throw LimitError("circulant all-to-all plan at p = " + std::to_string(p_) + ", " + std::to_string(n_) +
                       " blocks a segment: its table of rounds passes the limit of " + limit_text(kMaxTableBytes) +
                       "; fewer blocks (--blocks) or a smaller p");
    bytes_ += bytes_more;
  }
  void reserve_rounds(int64_t rounds) { reserve(rounds * 2 * int64_t{sizeof(std::vector<MoveRun>)}); }

  // Appends v's move of block u (none if u < 0) to a round's runs.
  void add(std::vector<MoveRun>& runs, int64_t v, int64_t u) {
    if (u < 0) return;
    if (!runs.empty() && runs.back().v_last == v - 1 && runs.back().u == u)
      runs.back().v_last = v;
    else
      reserve(2 * int64_t{sizeof(MoveRun)}), runs.push_back({v, v, u});
  }

  // A round's senders: v sends to v + skip what v + skip receives
  // (Condition 2: sendblock[k]_v = recvblock[k]_(v + skip), and CirculantPlan
  // drops a send exactly where its receiver drops the receipt), so the
  // receivers' runs shifted down by skip (mod p), re-sorted by v.
  std::vector<MoveRun> senders(const std::vector<MoveRun>& receivers, int64_t skip) const {
    std::vector<MoveRun> pieces;
    for (const MoveRun& run : receivers) {
      const int64_t first = run.v_first - skip, last = run.v_last - skip;  // in (−p, p)
      if (first >= 0 || last < 0)
        pieces.push_back({first < 0 ? first + p_ : first, last < 0 ? last + p_ : last, run.u});
      else
        pieces.push_back({first + p_, p_ - 1, run.u}), pieces.push_back({0, last, run.u});
    }
    std::sort(pieces.begin(), pieces.end(), [](const MoveRun& a, const MoveRun& b) { return a.v_first < b.v_first; });
    std::vector<MoveRun> runs;
    for (const MoveRun& piece : pieces) {
      if (!runs.empty() && runs.back().v_last + 1 == piece.v_first && runs.back().u == piece.u)
        runs.back().v_last = piece.v_last;
      else
        runs.push_back(piece);
    }
    return runs;
  }

  // Rank r's blocks j·n + u of one round in root order j = 0 .. p − 1 (the
  // order of the vector's segments), u being what virtual rank (r − j) mod p
  // moves: v = r, r − 1, .., 0 (j = 0 .. r), then p − 1, .., r + 1 (j = r + 1
  // .. p − 1). A run of v is a run of roots, blocks of stride n.
  //   p = 8, n = 2, runs {v 0..2 u 1}, {v 5..6 u 0}, r = 1: v = 1, 0 give
  //   j = 0, 1 (blocks 1, 3: one run of stride 2); v = 6, 5 give j = 3, 4
  //   (blocks 6, 8); v = 2 gives j = 7 (block 15).
  BlockList blocks(const std::vector<MoveRun>& runs, int64_t r) const {
    BlockList list;
    for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
      const int64_t v_high = std::min(it->v_last, r);
      if (v_high >= it->v_first) list.push_strided((r - v_high) * n_ + it->u, v_high - it->v_first + 1, n_);
    }
    for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
      const int64_t v_low = std::max(it->v_first, r + 1);
      if (v_low <= it->v_last) list.push_strided((r - it->v_last + p_) * n_ + it->u, it->v_last - v_low + 1, n_);
    }
    return list;
  }

  CirculantSchedule s_;
  int64_t p_, n_, first_ = 0;
  std::vector<std::vector<MoveRun>> sends_, recvs_;  // [i − first]: by increasing v
};

// The table for (p, n), built by the first plan (or work estimate) that
// asks and kept until another (p, n) asks: an SMPI run builds one plan per
// rank, all ranks in one process, which must not each hold a copy, and the
// driver estimates a case's work from the table before it builds the plan.
std::shared_ptr<const AllRounds> all_rounds(int64_t p, int64_t n) {
  static std::mutex lock;
  static std::shared_ptr<const AllRounds> last;
  const std::lock_guard<std::mutex> hold(lock);
  if (!last || last->p() != p || last->n() != n) {
    last = nullptr;  // the old table goes before the new one is built
    last = std::make_shared<const AllRounds>(p, n);
  }
  return last;
}

}  // namespace

int64_t all_rounds_block_runs(int64_t p, int64_t n) {
  check_segment_blocks(p, n);
  return all_rounds(p, n)->runs();
}

// The plan of p simultaneous broadcasts (forwards), reductions (reversed)
// or both, n blocks per segment. Streamed: a rank's step is made from the
// shared table when it is taken.
Plan all_rounds_plan(Collective c, int64_t p, int64_t n, bool reduce_scatter, bool allgather) {
  check_segment_blocks(p, n);
  const auto table = all_rounds(p, n);
  const int64_t pass = table->rounds(), passes = (reduce_scatter ? 1 : 0) + (allgather ? 1 : 0);
  return streamed(circulant_header(c, p, 0, p * n), [=](int64_t rank) {
    return rounds(0, passes * pass, [=](int64_t i, Step& step) {
      table->step(rank, reduce_scatter && i < pass, i % pass, step);
    });
  });
}

// B = p·n must stay within plan.hpp's block limit.
void check_segment_blocks(int64_t p, int64_t n) {
  if (n > kMaxBlocks / p)
    throw std::invalid_argument("p·n = " + std::to_string(p) + "·" + std::to_string(n) + " blocks exceed 2^40");
}

}  // namespace collsim::plan
