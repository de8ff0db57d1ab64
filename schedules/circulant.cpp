#include "circulant.hpp"

#include <stdexcept>
#include <string>

namespace collsim {

int ceil_log2(int64_t p) {
  int q = 0;
  while ((int64_t{1} << q) < p) ++q;
  return q;
}

// Algorithm 2: halving with rounding up, skip[k] = ceil(skip[k+1] / 2).
// For p > 1 always skip[0] = 1 and skip[1] = 2.
CirculantSchedule::CirculantSchedule(int64_t p) : p_(p), q_(0), skip_{} {
  if (p < 1 || p > kMaxProcs)
    throw std::invalid_argument("p must be in [1, 2^31-1], got " + std::to_string(p));
  q_ = ceil_log2(p);
  skip_[q_] = p;
  for (int k = q_; k > 0; --k) skip_[k - 1] = skip_[k] - skip_[k] / 2;
}

// Algorithm 3. Greedy descent over the skips: the canonical skip sequence of r
// takes skip[k] whenever it still fits strictly below r, and stops at the
// first skip that lands on r exactly; that skip index is the baseblock.
int CirculantSchedule::baseblock(int64_t r) const {
  int64_t reached = 0;
  for (int k = q_ - 1; k >= 0; --k) {
    if (reached + skip_[k] == r) return k;
    if (reached + skip_[k] < r) reached += skip_[k];
  }
  return q_;  // only r = 0
}

namespace {

// The remaining skip indices of Algorithm 5, as a bit set: next(e) is the
// largest remaining index below e (-1 if none), unlink(e) removes e. The
// paper keeps a doubly linked list in decreasing order; the bit set answers
// the same questions in a few instructions and needs no O(q) set-up per
// rank. A removed e still answers next(e) (the largest remaining index below
// it), as the list's stale links do where the search relies on them: the
// root unlinks q and then starts scanning at q.
struct SkipList {
  uint64_t left;

  explicit SkipList(int q) : left((uint64_t{2} << q) - 1) {}  // indices 0..q
  int next(int e) const {
    const uint64_t below = left & ((uint64_t{1} << e) - 1);
    return below ? 63 - __builtin_clzll(below) : -1;
  }
  void unlink(int e) { left &= ~(uint64_t{1} << e); }
};

// Algorithm 4 (ALLBLOCKS): depth-first search for q canonical skip sequences
// to intermediate processors r'_k with r - skip[k+1] <= r'_k <= r - skip[k],
// each ending in a skip index not used before; that last index becomes
// recvblock[k]. Invariant on entry: reached <= target - skip[k].
//
// Deviations from the printed pseudocode:
//  - a recursive call starts scanning at next[e], not at e: the callee's
//    first test reached + skip[e] + skip[e] <= target - skip[k] can never hold
//    there, so the schedules are identical and Lemma 6's count is met;
//  - the scan stops once k = q: all q blocks are found and skip[q+1] does not
//    exist (the paper's loop would read past the skip array).
struct AllBlocks {
  const int64_t* skip;
  int q;
  int64_t target;  // p + r: avoids modular arithmetic (Observation 2)
  SkipList list;
  int* recvblock;
  int recursive_calls = 0;

  int run(int64_t reached, int64_t last_found, int e, int k) {
    for (; e != -1 && k < q; e = list.next(e)) {
      const int64_t via = reached + skip[e];
      if (via > target - skip[k] || via >= last_found) continue;
      if (via <= target - skip[k + 1]) {
        ++recursive_calls;
        k = run(via, last_found, list.next(e), k);
        if (k == q) return k;
      }
      if (reached > target - skip[k + 1]) return k;
      last_found = via;  // canonical skip sequence found
      recvblock[k++] = e;
      list.unlink(e);
    }
    return k;
  }
};

}  // namespace

int CirculantSchedule::recv(int64_t r, int* recvblock) const {
  return recv_with_baseblock(r, baseblock(r), recvblock);
}

// Algorithm 5. Searches canonical paths to p + r with r's own baseblock b
// removed, then turns skip indices into blocks: index q (the virtual root at
// p) delivers b; every other index e means block e - q, a negative block of
// the previous phase. (The paper's prose says "recvblock[k] = p" here; the
// pseudocode's q is right.)
int CirculantSchedule::recv_with_baseblock(int64_t r, int b, int* recvblock) const {
  AllBlocks search{skip_, q_, p_ + r, SkipList(q_), recvblock};
  search.list.unlink(b);
  search.run(0, p_ + p_, q_, 0);
  for (int k = 0; k < q_; ++k) recvblock[k] = recvblock[k] == q_ ? b : recvblock[k] - q_;
  return search.recursive_calls;
}

int CirculantSchedule::send(int64_t r, int* sendblock) const {
  int block[kMaxRounds];
  return send(r, r == 0 ? q_ : baseblock(r), sendblock, [&](int64_t t, int k) {
    recv(t, block);
    return block[k];
  });
}

std::vector<int8_t> all_baseblocks(const CirculantSchedule& s) {
  std::vector<int8_t> b(static_cast<size_t>(s.p()));
  b[0] = 0;
  for (int k = 0; k < s.q(); ++k) {
    const int64_t len = s.skip(k), grown = s.skip(k + 1);
    for (int64_t i = len; i < grown; ++i) b[i] = b[i - len];
    b[0] = static_cast<int8_t>(k + 1);
  }
  return b;
}

}  // namespace collsim
