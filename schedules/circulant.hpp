// Round-optimal circulant broadcast schedules (Träff 2024, "Optimal broadcast
// schedules in logarithmic time", seed 003).
//
// p processors, q = ceil(log2 p) skips. In round i (k = i mod q) every
// processor r sends to t = (r + skip[k]) mod p and receives from
// f = (r - skip[k]) mod p. The schedules say WHICH block moves:
//   recvblock[k]_r : the block r receives in the k-th round of a phase,
//   sendblock[k]_r : the block r sends    in the k-th round of a phase,
// both relative to phase 0; phase j adds j*q (Theorem 1).
//
// Worked example, p = 9 (q = 4, skips 1 2 3 5, skip[q] = 9), paper Table 2:
//   r            0  1  2  3  4  5  6  7  8
//   b            4  0  1  2  0  3  0  1  2
//   recvblock[0] -2  0 -4 -3 -2 -4 -1 -4 -3
//   sendblock[0]  0 -4 -3 -2 -4 -1 -4 -3 -2
// Rank 1 receives its baseblock 0 from rank 0 in round 0; rank 0 (the root)
// sends block k in round k and "receives" only negative, ignored blocks.
//
// Invariants (the four correctness conditions of §2, checked by verify/):
//   1. recvblock[k]_r = sendblock[k]_{f}      (what arrives is what was sent)
//   2. sendblock[k]_r = recvblock[k]_{t}
//   3. {recvblock[k]_r} = ({-1..-q} \ {b_r - q}) ∪ {b_r}, 0 <= b_r < q, r > 0
//      (root: exactly {-1..-q})
//   4. sendblock[k]_r is b_r - q or recvblock[j]_r for some j < k
//      (root: sendblock[k]_0 = k)
//
// All arithmetic on ranks is 64-bit: the receive search works on p + r,
// which exceeds 2^31 for p near 2^31 - 1. No call allocates.
#pragma once

#include <cstdint>
#include <vector>

namespace collsim {

// p <= 2^31 - 1 gives q <= 31; one more entry for skip[q] = p.
inline constexpr int kMaxRounds = 31;
inline constexpr int64_t kMaxProcs = (int64_t{1} << 31) - 1;

// ceil(log2 p) for p >= 1.
int ceil_log2(int64_t p);

class CirculantSchedule {
 public:
  // Throws std::invalid_argument unless 1 <= p <= 2^31 - 1.
  explicit CirculantSchedule(int64_t p);

  int64_t p() const { return p_; }
  int q() const { return q_; }
  // skip[k] for 0 <= k <= q (skip[q] = p), Algorithm 2.
  int64_t skip(int k) const { return skip_[k]; }
  // For 0 <= r < p; one compare instead of a 64-bit division (hot in verify).
  int64_t to(int64_t r, int k) const { return r + skip_[k] >= p_ ? r + skip_[k] - p_ : r + skip_[k]; }
  int64_t from(int64_t r, int k) const { return r >= skip_[k] ? r - skip_[k] : r - skip_[k] + p_; }

  // Algorithm 3: first skip index of r's canonical skip sequence; q for r = 0.
  int baseblock(int64_t r) const;

  // Algorithms 4-5: recvblock[0..q). Returns the number of recursive
  // ALLBLOCKS calls (Lemma 5: at most q - 1).
  int recv(int64_t r, int* recvblock) const;
  // Same, with r's baseblock already known (batch use with the listing).
  int recv_with_baseblock(int64_t r, int b, int* recvblock) const;

  // Algorithm 6: sendblock[0..q). Returns the number of violations (rounds
  // that fall back on the to-processor's receive schedule; Theorem 3: <= 4).
  int send(int64_t r, int* sendblock) const;
  // Same, with the violation fallback answered by `recv_of(t, k)` (the k-th
  // receive block of rank t) instead of a full receive computation.
  template <class RecvOf>
  int send(int64_t r, int b, int* sendblock, RecvOf recv_of) const;

 private:
  int64_t p_;
  int q_;
  int64_t skip_[kMaxRounds + 1];
};

// Maps between real ranks and the root-0 numbering the schedules use.
// Algorithm 1's first round for n blocks: rounds run over [x, x + n − 1 + q)
// with x = (q − (n − 1) mod q) mod q, so that the last round moves block
// n − 1 (p = 1: q = 0, no rounds, x = 0). The broadcast, its plan and the
// verifier's data flow all take x from here.
inline int64_t algorithm1_first_round(int q, int64_t n) { return q == 0 ? 0 : (q - (n - 1) % q) % q; }

// For ranks, virtual ranks and root in [0, p): a compare, not a division,
// as the plan sources map every step's peers.
inline int64_t virtual_rank(int64_t rank, int64_t root, int64_t p) {
  return rank >= root ? rank - root : rank - root + p;
}
inline int64_t real_rank(int64_t vrank, int64_t root, int64_t p) {
  return vrank + root >= p ? vrank + root - p : vrank + root;
}

// All p baseblocks in O(p) (proof of Lemma 3): start from [0]; for each k the
// list of length skip[k] is appended to itself, cut to skip[k+1], and its
// first entry becomes k + 1. p = 11: 0 -> 10 -> 201 -> 301201 -> 40120130120.
std::vector<int8_t> all_baseblocks(const CirculantSchedule& s);

// ---------------------------------------------------------------------------
// Algorithm 6, with the violation fallback as a parameter.
//
// Walks k = q-1 .. 1 with a virtual rank rv and an exclusive bound e
// (invariant 0 <= rv < e). Lower part (rv < skip[k]): keep sending c, the
// block sent in round k+1 (initially b). Upper part: send k - q (Observation
// 6). Where neither is provably what t = r + skip[k] still lacks, the block is
// taken from t's receive schedule: a violation.
template <class RecvOf>
int CirculantSchedule::send(int64_t r, int b, int* sendblock, RecvOf recv_of) const {
  if (r == 0) {
    for (int k = 0; k < q_; ++k) sendblock[k] = k;
    return 0;
  }
  int violations = 0;
  auto from_receiver = [&](int k) {
    ++violations;
    return recv_of(to(r, k), k);
  };
  int64_t rv = r, e = p_;
  int c = b;
  for (int k = q_ - 1; k >= 1; --k) {
    const int64_t sk = skip_[k], sk1 = skip_[k - 1];
    if (rv < sk) {  // lower part
      if (rv + sk < e || e < sk1 || (k == 1 && b > 0))
        sendblock[k] = c;
      else
        sendblock[k] = from_receiver(k);
      if (e > sk) e = sk;
    } else {  // upper part
      c = k - q_;
      if (k == 1 || rv > sk || e - sk < sk1)
        sendblock[k] = c;
      else if (rv + sk > e)
        sendblock[k] = from_receiver(k);
      else
        sendblock[k] = c;
      rv -= sk;
      e -= sk;
    }
  }
  if (q_ > 0) sendblock[0] = b - q_;
  return violations;
}

}  // namespace collsim
