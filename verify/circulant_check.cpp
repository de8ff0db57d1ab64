#include "circulant_check.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "simd_rows.hpp"

namespace collsim {

std::string describe(const Counterexample& c) {
  std::ostringstream os;
  os << "p=" << c.p << " rank=" << c.rank;
  if (c.k >= 0) os << " k=" << c.k;
  if (c.block >= 0) os << " block=" << c.block;
  os << ": " << c.condition << ": " << c.detail;
  return os.str();
}

namespace {

std::string str(int64_t v) { return std::to_string(v); }

// Conditions 1 and 2 name the same pairs (receiver r, sender r - skip[k]),
// so they hold for every rank iff each round's row of recv is its row of
// send rotated right by skip[k]: two memcmp per round instead of 2q look-ups
// per rank. Worked example, p = 9, k = 0 (Table 2): recv row -2 0 -4 -3 ...
// equals send row 0 -4 -3 -2 -4 -1 -4 -3 -2 rotated right by one.
bool rows_agree(const CirculantTable& t, const CirculantSchedule& s) {
  const auto p = static_cast<size_t>(t.p);
  for (int k = 0; k < t.q; ++k) {
    const auto sk = static_cast<size_t>(s.skip(k));
    const int8_t *recv = t.recv_round(k), *send = t.send_round(k);
    if (std::memcmp(recv + sk, send, p - sk) != 0 || std::memcmp(recv, send + p - sk, sk) != 0) return false;
  }
  return true;
}

// `pairs_known_good`: rows_agree held, so conditions 1-2 need no look-ups.
std::optional<Counterexample> check_rank(const CirculantTable& t, const CirculantSchedule& s, int64_t r,
                                         bool pairs_known_good) {
  const int q = t.q;
  auto fail = [&](int k, const char* cond, std::string detail) {
    return Counterexample{t.p, r, k, cond, std::move(detail)};
  };
  for (int k = 0; k < q && !pairs_known_good; ++k) {
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

#ifdef COLLSIM_X86_ROWS
#pragma GCC diagnostic push  // see simd_rows.hpp
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// Conditions 3 and 4 exactly as check_rank states them, for eight non-root
// ranks at a time down the table's rows. Returns the end of the prefix
// [1, end) of ranks found good: 1 if some group fails (the scan then names
// the first failure), the last multiple of 8 (+1) otherwise.
__attribute__((target("avx512f"))) int64_t ranks_good_3_4_avx512(const CirculantTable& t) {
  const int q = t.q;
  const __m512i qv = _mm512_set1_epi64(q), minus_q = _mm512_set1_epi64(-q), zero = _mm512_setzero_si512();
  const __m512i one = _mm512_set1_epi64(1);
  int64_t r = 1;
  for (; r + 8 <= t.p; r += 8) {
    __mmask8 bad = 0;
    __m512i seen = zero, nonnegative = zero, base = zero;
    for (int k = 0; k < q; ++k) {
      const __m512i v = rows::widen8(t.recv_round(k) + r), bit = rows::bit8(_mm512_add_epi64(v, qv));
      bad |= _mm512_cmplt_epi64_mask(v, minus_q) | _mm512_cmpge_epi64_mask(v, qv) | _mm512_test_epi64_mask(seen, bit);
      seen = _mm512_or_si512(seen, bit);
      const __mmask8 is_base = _mm512_cmpge_epi64_mask(v, zero);
      nonnegative = _mm512_mask_add_epi64(nonnegative, is_base, nonnegative, one);
      base = _mm512_mask_mov_epi64(base, is_base, v);
    }
    __m512i received = rows::bit8(base);  // bit of b - q
    bad |= _mm512_cmpneq_epi64_mask(nonnegative, one) | _mm512_test_epi64_mask(seen, received);
    for (int k = 0; k < q; ++k) {
      const __m512i v = rows::widen8(t.send_round(k) + r);
      const __mmask8 held = _mm512_cmpge_epi64_mask(v, minus_q) & _mm512_cmplt_epi64_mask(v, qv) &
                            _mm512_test_epi64_mask(received, rows::bit8(_mm512_add_epi64(v, qv)));
      bad |= static_cast<__mmask8>(~held);
      received = _mm512_or_si512(received, rows::bit8(_mm512_add_epi64(rows::widen8(t.recv_round(k) + r), qv)));
    }
    if (bad) return 1;
  }
  return r;
}
#pragma GCC diagnostic pop

int64_t ranks_good_3_4(const CirculantTable& t) { return x86::has_avx512() ? ranks_good_3_4_avx512(t) : 1; }
#else
int64_t ranks_good_3_4(const CirculantTable&) { return 1; }
#endif

}  // namespace

std::optional<Counterexample> check_conditions(const CirculantTable& t) {
  const CirculantSchedule s(t.p);
  // Ranks that both row checks clear need no scan; the scan names the first
  // failure in rank order (the row checks only say whether one exists).
  const bool pairs_good = rows_agree(t, s);
  const int64_t good_end = pairs_good ? ranks_good_3_4(t) : 1;
  for (int64_t r = 0; r < t.p; r = r == 0 ? good_end : r + 1)
    if (auto c = check_rank(t, s, r, pairs_good)) return c;
  return std::nullopt;
}

std::optional<Counterexample> check_construction(const CirculantTable& t, const std::vector<int8_t>& searched,
                                                 const CirculantBatchStats& stats) {
  const int q = t.q;
  if (searched != t.base) {
    const auto r = std::mismatch(searched.begin(), searched.end(), t.base.begin()).first - searched.begin();
    return Counterexample{t.p, r, -1, "baseblock listing (Lemma 3 proof)",
                          "listing gives " + str(t.base[r]) + ", Algorithm 3 gives " + str(searched[r])};
  }
  if (stats.max_recursive_calls > std::max(q - 1, 0))
    return Counterexample{t.p, stats.rank_of_max_recursion, -1, "Lemma 5 (at most q-1 recursive ALLBLOCKS calls)",
                          str(stats.max_recursive_calls) + " calls"};
  if (stats.max_violations > 4)
    return Counterexample{t.p, stats.rank_of_max_violations, -1, "Theorem 3 (at most 4 send-schedule violations)",
                          str(stats.max_violations) + " violations"};
  return std::nullopt;
}

std::optional<Counterexample> verify_circulant_p(int64_t p, const std::vector<int64_t>& blocks,
                                                 CirculantBatchStats& stats) {
  const CirculantSchedule s(p);
  thread_local CirculantTable t;  // one per sweep thread, reused from p to p
  compute_all_ranks_into(s, t, &stats);
  if (auto c = check_construction(t, baseblocks_by_algorithm3(s), stats)) return c;
  return check_table(t, blocks);
}

std::optional<Counterexample> check_table(const CirculantTable& t, const std::vector<int64_t>& blocks) {
  if (auto c = check_conditions(t)) return c;
  std::vector<BroadcastRun> runs;
  for (int64_t n : blocks.empty() ? default_block_counts(t.q) : blocks) runs.push_back(algorithm1_run(n, t.q));
  return simulate_broadcasts(t, runs);
}

}  // namespace collsim
