#include "circulant_plan.hpp"

#include <algorithm>

namespace collsim::sim {

CirculantPlan::CirculantPlan(const CirculantSchedule& s, int64_t v, int64_t n, bool sends) : s_(&s), v_(v), n_(n) {
  const int q = s.q();
  x_ = algorithm1_first_round(q, n);
  if (q == 0) return;
  s.recv(v, recv_);
  my_last_ = v == 0 ? -1 : first_last(recv_);
  if (!sends) return;
  s.send(v, send_);
  for (int k = 0; k < q; ++k) {
    const int64_t t = s.to(v, k);
    int theirs[kMaxRounds];
    if (t != 0) s.recv(t, theirs);
    to_last_[k] = t == 0 ? -1 : first_last(theirs);
  }
}

int64_t CirculantPlan::first_last(const int* recvblock) const {
  const int q = s_->q();
  // A value is at most q − 1, so u ≥ n − 1 needs q⌊i/q⌋ ≥ n − q + x, which
  // no round before n + x − q reaches.
  for (int64_t i = std::max(x_, n_ + x_ - q); i < end(); ++i)
    if (recvblock[i % q] + q * (i / q) - x_ >= n_ - 1) return i;
  return -1;  // unreachable for a non-root rank (Theorem 1)
}

int64_t CirculantPlan::block(int value, int64_t i, int64_t real_last_round) const {
  const int q = s_->q();
  const int64_t u = value + q * (i / q) - x_;
  if (u < 0) return -1;
  if (u < n_ - 1) return u;
  return i == real_last_round ? n_ - 1 : -1;
}

int64_t CirculantPlan::recv_block(int64_t i) const {
  if (v_ == 0) return -1;
  return block(recv_[i % s_->q()], i, my_last_);
}

int64_t CirculantPlan::send_block(int64_t i) const {
  const int k = static_cast<int>(i % s_->q());
  if (to_last_[k] < 0) return -1;  // to(k) is the root
  return block(send_[k], i, to_last_[k]);
}

}  // namespace collsim::sim
