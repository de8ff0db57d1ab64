// One rank's view of the n-block circulant broadcast (seed 003, Algorithm 1)
// for one root, round by round, with every transfer that carries no new data
// dropped. Shared by the algorithms that run the schedule forwards
// (allgatherv, Algorithm 7) and backwards (reduce, reduce_scatter,
// Observation 1, items 3 and 4).
//
// Rounds i run over [first(), end()), x = first() = (q − (n−1) mod q) mod q.
// In round i (k = i mod q) a rank receives from from(k) and sends to to(k);
// the schedule value v stands for block u = v + q⌊i/q⌋ − x. Negative u moves
// nothing; u ≥ n − 1 moves block n − 1 (the paper's capping), so a rank may
// be offered block n − 1 several times. Only the FIRST such receipt is real:
// the later ones (the copies bcast_circulant writes to scratch) are dropped
// here, on both ends. Forwards this saves volume; backwards it is needed for
// correctness, since a reversed duplicate would add a partial result twice.
// Each non-root rank then receives every block exactly once (Theorem 1), so
// the real transfers of each block form a spanning tree rooted at the root.
//
// Both ends agree on what is dropped: the sender evaluates the receiver's
// first receipt of block n − 1 from the receiver's own schedule (Condition 2:
// sendblock[k]_r = recvblock[k]_t). Cost: q + 1 receive schedules, O(q²).
#pragma once

#include <cstdint>

#include "circulant.hpp"

namespace collsim::sim {

class CirculantPlan {
 public:
  // v: the rank's number relative to the root (virtual_rank); n >= 1 blocks.
  // Without `sends`, only recv_block may be asked: one receive schedule
  // instead of q + 1 (the all-to-all table gets a round's senders from its
  // receivers, Condition 2).
  CirculantPlan(const CirculantSchedule& s, int64_t v, int64_t n, bool sends = true);

  int64_t first() const { return x_; }
  int64_t end() const { return x_ + n_ - 1 + s_->q(); }
  // Block received in round i from s.from(v, i mod q), or −1 for none.
  int64_t recv_block(int64_t i) const;
  // Block sent in round i to s.to(v, i mod q), or −1 for none (nothing goes
  // to the root).
  int64_t send_block(int64_t i) const;

 private:
  // Round of the first receipt of a block u ≥ n − 1 under `recvblock`.
  int64_t first_last(const int* recvblock) const;
  // Capped block of schedule value `value` in round i; −1 if dropped.
  int64_t block(int value, int64_t i, int64_t real_last_round) const;

  const CirculantSchedule* s_;
  int64_t v_, n_, x_;
  int recv_[kMaxRounds], send_[kMaxRounds];
  int64_t my_last_;                 // first_last of this rank (−1: root)
  int64_t to_last_[kMaxRounds];     // first_last of to(k) (−1: the root)
};

}  // namespace collsim::sim
