#include "circulant_check.hpp"

#include <algorithm>
#include <sstream>

namespace collsim {

std::string describe(const Counterexample& c) {
  std::ostringstream os;
  os << "p=" << c.p << " rank=" << c.rank;
  if (c.k >= 0) os << " k=" << c.k;
  os << ": " << c.condition << ": " << c.detail;
  return os.str();
}

namespace {

std::string str(int64_t v) { return std::to_string(v); }

std::optional<Counterexample> check_rank(const CirculantTable& t, const CirculantSchedule& s, int64_t r) {
  const int q = t.q;
  auto fail = [&](int k, const char* cond, std::string detail) {
    return Counterexample{t.p, r, k, cond, std::move(detail)};
  };
  for (int k = 0; k < q; ++k) {
    const int64_t f = s.from(r, k), to = s.to(r, k);
    if (t.recv_at(r, k) != t.send_at(f, k))
      return fail(k, "condition 1 (recvblock[k]_r = sendblock[k]_f)",
                  "receives " + str(t.recv_at(r, k)) + " but from-processor " + str(f) + " sends " +
                      str(t.send_at(f, k)));
    if (t.send_at(r, k) != t.recv_at(to, k))
      return fail(k, "condition 2 (sendblock[k]_r = recvblock[k]_t)",
                  "sends " + str(t.send_at(r, k)) + " but to-processor " + str(to) + " receives " +
                      str(t.recv_at(to, k)));
  }
  // Condition 3: the q receive blocks are distinct, all in [-q, -1] except
  // the one baseblock b in [0, q), and b - q is the negative one missing.
  uint64_t seen = 0;  // bit (v + q) for each block v
  int base = q, nonnegative = 0;
  for (int k = 0; k < q; ++k) {
    const int v = t.recv_at(r, k);
    if (v < -q || v >= q || (seen >> (v + q) & 1))
      return fail(k, "condition 3 (q different blocks per phase)",
                  "recvblock " + str(v) + " is out of range or repeated");
    seen |= uint64_t{1} << (v + q);
    if (v >= 0) base = v, ++nonnegative;
  }
  if (r == 0 && nonnegative != 0)
    return fail(-1, "condition 3 (root receives only -1..-q)", "root receives block " + str(base));
  if (r != 0 && (nonnegative != 1 || (seen >> base & 1)))
    return fail(-1, "condition 3 (exactly one baseblock b, and not b-q)",
                str(nonnegative) + " non-negative receive blocks");
  // Condition 4: each send block was received earlier in the phase, or is
  // b - q from the previous phase. The root sends block k in round k.
  // `received` holds bit (v + q) for the blocks of rounds 0..k-1 and b - q.
  uint64_t received = r == 0 ? 0 : uint64_t{1} << base;
  for (int k = 0; k < q; ++k) {
    const int v = t.send_at(r, k);
    const bool held = r == 0 ? v == k : v >= -q && v < q && (received >> (v + q) & 1);
    if (!held)
      return fail(k, "condition 4 (send only what was received before)",
                  "sends " + str(v) + " which is neither b-q nor received in rounds 0.." + str(k - 1));
    received |= uint64_t{1} << (t.recv_at(r, k) + q);
  }
  return std::nullopt;
}

}  // namespace

std::optional<Counterexample> check_conditions(const CirculantTable& t) {
  const CirculantSchedule s(t.p);
  for (int64_t r = 0; r < t.p; ++r)
    if (auto c = check_rank(t, s, r)) return c;
  return std::nullopt;
}

BroadcastRun algorithm1_run(int64_t n, int q) {
  const int x = q == 0 ? 0 : static_cast<int>((q - (n - 1) % q) % q);
  return {n, x, x};
}

std::vector<int64_t> default_block_counts(int q) {
  std::vector<int64_t> n;
  for (int64_t v : {int64_t{1}, int64_t{2}, int64_t{q} - 1, int64_t{q}, int64_t{q} + 1, 3 * int64_t{q} + 2})
    if (v >= 1 && std::find(n.begin(), n.end(), v) == n.end()) n.push_back(v);
  return n;
}

namespace {

// Which blocks each rank holds: one bit per block, `words` 64-bit words per
// rank. Independent of the schedule theory: it only records deliveries.
class Holdings {
 public:
  Holdings(int64_t p, int64_t n) : n_(n), words_(static_cast<size_t>((n + 63) / 64)), bits_(words_ * p, 0) {}
  bool has(int64_t r, int64_t block) const { return bits_[r * words_ + block / 64] >> (block % 64) & 1; }
  void add(int64_t r, int64_t block) { bits_[r * words_ + block / 64] |= uint64_t{1} << (block % 64); }
  // Smallest block r lacks (n if it holds all n).
  int64_t first_missing(int64_t r) const {
    for (size_t w = 0; w < words_; ++w)
      if (~bits_[r * words_ + w]) return std::min<int64_t>(n_, int64_t(w * 64) + __builtin_ctzll(~bits_[r * words_ + w]));
    return n_;
  }

 private:
  int64_t n_;
  size_t words_;
  std::vector<uint64_t> bits_;
};

}  // namespace

std::optional<Counterexample> simulate_broadcast(const CirculantTable& t, const BroadcastRun& run) {
  const int q = t.q;
  const int64_t p = t.p, n = run.n, first = run.first_round, last = run.first_round + n - 1 + q;
  const CirculantSchedule s(p);
  Holdings held(p, n);
  for (int64_t b = 0; b < n; ++b) held.add(0, b);
  std::vector<int64_t> arriving(static_cast<size_t>(p), -1);  // the root never receives
  auto fail = [&](int64_t r, int64_t i, std::string detail) {
    return Counterexample{p, r, static_cast<int>(i % q), "Algorithm 1 data flow (n=" + str(n) + ")",
                          "round " + str(i) + ": " + std::move(detail)};
  };
  for (int64_t i = first; q > 0 && i < last; ++i) {  // p = 1: nothing moves
    const int k = static_cast<int>(i % q);
    // Schedule value v means block v - shift + q*floor(i/q); negative: no
    // block (-1 here); beyond n-1: block n-1.
    const int64_t shift = q * (i / q) - run.block_shift;
    auto block = [&](int v) { return v + shift < 0 ? -1 : std::min(v + shift, n - 1); };
    // Receiver r, sender f = r - skip[k]; sends to the root are suppressed.
    // A sent block must be held by f before round i: arrivals of this round
    // are applied only after all ranks are checked.
    auto moves_ok = [&](int64_t r, int64_t f) {
      const int64_t want = block(t.recv_at(r, k)), sent = block(t.send_at(f, k));
      arriving[r] = want;
      return want == sent && (sent < 0 || held.has(f, sent));
    };
    for (int64_t r = 1; r < p; ++r) {
      const int64_t f = s.from(r, k);
      if (moves_ok(r, f)) continue;
      const int64_t want = block(t.recv_at(r, k)), sent = block(t.send_at(f, k));
      if (want != sent)
        return fail(r, i, "expects block " + str(want) + " from " + str(f) + ", which sends " + str(sent));
      return fail(f, i, "sends block " + str(sent) + " to " + str(r) + " before holding it");
    }
    for (int64_t r = 1; r < p; ++r)
      if (arriving[r] >= 0) held.add(r, arriving[r]);
  }
  for (int64_t r = 0; r < p; ++r)
    if (int64_t b = held.first_missing(r); b < n) return fail(r, last, "after n-1+q rounds still lacks block " + str(b));
  return std::nullopt;
}

std::optional<Counterexample> verify_circulant_p(int64_t p, const std::vector<int64_t>& blocks,
                                                 CirculantBatchStats& stats) {
  const CirculantSchedule s(p);
  const CirculantTable t = compute_all_ranks(s, &stats);
  const int q = s.q();
  for (int64_t r = 0; r < p; ++r)
    if (t.base[static_cast<size_t>(r)] != s.baseblock(r))
      return Counterexample{p, r, -1, "baseblock listing (Lemma 3 proof)",
                            "listing gives " + str(t.base[r]) + ", Algorithm 3 gives " + str(s.baseblock(r))};
  if (stats.max_recursive_calls > std::max(q - 1, 0))
    return Counterexample{p, stats.rank_of_max_recursion, -1, "Lemma 5 (at most q-1 recursive ALLBLOCKS calls)",
                          str(stats.max_recursive_calls) + " calls"};
  if (stats.max_violations > 4)
    return Counterexample{p, stats.rank_of_max_violations, -1, "Theorem 3 (at most 4 send-schedule violations)",
                          str(stats.max_violations) + " violations"};
  return check_table(t, blocks);
}

std::optional<Counterexample> check_table(const CirculantTable& t, const std::vector<int64_t>& blocks) {
  if (auto c = check_conditions(t)) return c;
  for (int64_t n : blocks.empty() ? default_block_counts(t.q) : blocks)
    if (auto c = simulate_broadcast(t, algorithm1_run(n, t.q))) return c;
  return std::nullopt;
}

}  // namespace collsim
