// The data-flow simulation of Algorithm 1 (seed 003) over a CirculantTable:
// which blocks every rank holds after every round. It knows nothing of how
// the schedules were made; it only moves blocks and checks each move.
//
// Layout and speed. A holding is a bit set of blocks, one row of p 32-bit
// words per 32 blocks, so one round is one pass down a row: for receiver r
// and sender f = r - skip[k] (mod p), turn both schedule values into the bit
// of their block, check them, and set the receiver's bit. The row is updated
// in place, from the last rank down so that each sender is read before it
// is updated (the wrap-around senders of ranks 1..skip-1 are copied first);
// one buffer instead of two keeps the pass in cache. The pass has no branches
// and no division, and runs as AVX2/AVX-512 variable shifts where the CPU
// has them (chosen at start-up): a verify sweep spends most of its time
// here, 12q - 1 rank-rounds per processor for the default block counts.
// Words of 32 rather than 64 blocks halve the bytes and vector instructions
// per rank where n <= 32 (five of the six default runs); a round names at
// most q + 1 consecutive blocks, so the run with n = 3q + 2 touches one or
// two words per round either way.
//
// Worked example, p = 9, n = 2 (q = 4, x = 3, skips 1 2 3 5): the run starts
// at round i = 3 (k = 3, shift q·0 - x = -3), where only values v >= 3
// are blocks; rank 5 receives recvblock[3]_5 = 3 → block 0 from rank 0.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "circulant_check.hpp"

#include "simd_rows.hpp"

namespace collsim {

BroadcastRun algorithm1_run(int64_t n, int q) {
  const int x = static_cast<int>(algorithm1_first_round(q, n));
  return {n, x, x};
}

std::vector<int64_t> default_block_counts(int q) {
  std::vector<int64_t> n;
  for (int64_t v : {int64_t{1}, int64_t{2}, int64_t{q} - 1, int64_t{q}, int64_t{q} + 1, 3 * int64_t{q} + 2})
    if (v >= 1 && std::find(n.begin(), n.end(), v) == n.end()) n.push_back(v);
  return n;
}

namespace {

std::string str(int64_t v) { return std::to_string(v); }

// How one round maps schedule values to bits of one word of a holding: value
// v is block min(v, cap) + off + 32·word (cap = n - 1 - shift, off = shift -
// 32·word), and has a bit in this word when that index is in [0, 32). A
// negative index (no block yet, or a block of a lower word) converts to a
// huge unsigned one, so one unsigned compare answers both.
struct WordMap {
  int cap, off;
};

using Word = uint32_t;
inline constexpr int kWordBits = 32;

inline Word block_bit(int v, WordMap m) {
  const auto index = static_cast<uint64_t>(static_cast<int64_t>(std::min(v, m.cap)) + m.off);
  return index < kWordBits ? Word{1} << index : 0;
}

// Receivers i in [0, count), receiver i hearing from sender i: held[i] |=
// the bit receiver i gets. Returns nonzero if some sender and receiver
// disagree on the block or a sender lacks (in sender_held, its holding
// before the round) what it sends. The loops run from the last receiver
// down, so sender_held may be held - d for d > 0 (a round updated in place):
// each sender is read before the pass reaches it.
// The portable loop; the x86 versions below do 16 or 8 receivers at a time
// and finish with it (GCC 12 does not vectorise it: see simd_rows.hpp).
Word move_blocks_portable(const int8_t* recv, const int8_t* send, const Word* sender_held, Word* held, int64_t count,
                          WordMap m) {
  Word bad = 0;
  for (int64_t i = count; i-- > 0;) {
    const Word want = block_bit(recv[i], m), sent = block_bit(send[i], m);
    bad |= (want ^ sent) | (sent & ~sender_held[i]);
    held[i] |= want;
  }
  return bad;
}

using MoveBlocks = Word (*)(const int8_t*, const int8_t*, const Word*, Word*, int64_t, WordMap);

#ifdef COLLSIM_X86_ROWS
#pragma GCC diagnostic push  // see simd_rows.hpp
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// The loop above, 16 or 8 receivers at a time (each group's senders are
// loaded before the group is stored). vpsllvd's 0 for counts outside
// [0, 31] is block_bit's compare for free.
__attribute__((target("avx512f"))) inline __m512i block_bits_avx512(const int8_t* v, __m512i cap, __m512i off) {
  return rows::bit16(_mm512_add_epi32(_mm512_min_epi32(rows::widen16(v), cap), off));
}

__attribute__((target("avx512f"))) Word move_blocks_avx512(const int8_t* recv, const int8_t* send,
                                                             const Word* sender_held, Word* held, int64_t count,
                                                             WordMap m) {
  const __m512i cap = _mm512_set1_epi32(m.cap), off = _mm512_set1_epi32(m.off);
  __m512i bad = _mm512_setzero_si512();
  int64_t i = count;
  for (; i >= 16; i -= 16) {
    const int64_t at = i - 16;
    const __m512i want = block_bits_avx512(recv + at, cap, off), sent = block_bits_avx512(send + at, cap, off);
    const __m512i before = _mm512_loadu_si512(sender_held + at), mine = _mm512_loadu_si512(held + at);
    bad = _mm512_or_si512(bad, _mm512_or_si512(_mm512_xor_si512(want, sent), _mm512_andnot_si512(before, sent)));
    _mm512_storeu_si512(held + at, _mm512_or_si512(mine, want));
  }
  return static_cast<Word>(_mm512_reduce_or_epi32(bad)) | move_blocks_portable(recv, send, sender_held, held, i, m);
}

__attribute__((target("avx2"))) inline __m256i block_bits_avx2(const int8_t* v, __m256i cap, __m256i off) {
  return rows::bit8x32(_mm256_add_epi32(_mm256_min_epi32(rows::widen8x32(v), cap), off));
}

__attribute__((target("avx2"))) Word move_blocks_avx2(const int8_t* recv, const int8_t* send, const Word* sender_held,
                                                        Word* held, int64_t count, WordMap m) {
  const __m256i cap = _mm256_set1_epi32(m.cap), off = _mm256_set1_epi32(m.off);
  __m256i bad = _mm256_setzero_si256();
  int64_t i = count;
  for (; i >= 8; i -= 8) {
    const int64_t at = i - 8;
    const __m256i want = block_bits_avx2(recv + at, cap, off), sent = block_bits_avx2(send + at, cap, off);
    const __m256i before = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(sender_held + at));
    const __m256i mine = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(held + at));
    bad = _mm256_or_si256(bad, _mm256_or_si256(_mm256_xor_si256(want, sent), _mm256_andnot_si256(before, sent)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(held + at), _mm256_or_si256(mine, want));
  }
  alignas(32) Word lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), bad);
  Word any = 0;
  for (const Word lane : lanes) any |= lane;
  return any | move_blocks_portable(recv, send, sender_held, held, i, m);
}

#pragma GCC diagnostic pop

MoveBlocks kernel_for(DataflowKernel kernel) {
  if (kernel == DataflowKernel::avx512) return x86::has_avx512() ? move_blocks_avx512 : nullptr;
  if (kernel == DataflowKernel::avx2) return x86::has_avx2() ? move_blocks_avx2 : nullptr;
  return move_blocks_portable;
}
#else
MoveBlocks kernel_for(DataflowKernel kernel) { return kernel == DataflowKernel::portable ? move_blocks_portable : nullptr; }
#endif

MoveBlocks fastest_kernel() {
  for (DataflowKernel k : {DataflowKernel::avx512, DataflowKernel::avx2})
    if (MoveBlocks f = kernel_for(k)) return f;
  return move_blocks_portable;
}

MoveBlocks move_blocks = fastest_kernel();

// Which blocks each rank holds: bit b % 32 of word b / 32, each word a row
// of p, updated in place round by round.
class Holdings {
 public:
  // Before a run of n blocks on p ranks: the root holds them all, no other
  // rank any. The rows are kept from run to run (and p to p).
  void reset(int64_t p, int64_t n) {
    n_ = n;
    words_ = (n + kWordBits - 1) / kWordBits;
    if (rows_.size() < static_cast<size_t>(words_)) rows_.resize(words_);
    for (int64_t w = 0; w < words_; ++w) {
      rows_[w].assign(static_cast<size_t>(p), 0);
      rows_[w][0] = full_word(w);
    }
  }
  Word* row(int64_t w) { return rows_[w].data(); }
  // A copy of count words of row w from rank `from` on, as they are now.
  const Word* copy(int64_t w, int64_t from, int64_t count) {
    scratch_.assign(rows_[w].begin() + from, rows_[w].begin() + from + count);
    return scratch_.data();
  }
  bool has(int64_t r, int64_t block) const { return rows_[block / kWordBits][r] >> (block % kWordBits) & 1; }
  // Whether every rank holds all n blocks (an AND down each row: this loop
  // vectorises, first_missing below names the rank only when it fails).
  bool all_hold_all() const {
    for (int64_t w = 0; w < words_; ++w) {
      Word common = ~Word{0};
      for (const Word held : rows_[w]) common &= held;
      if ((common & full_word(w)) != full_word(w)) return false;
    }
    return true;
  }
  // Smallest block r lacks (n if it holds all n).
  int64_t first_missing(int64_t r) const {
    for (int64_t w = 0; w < words_; ++w)
      if (const Word lacking = ~rows_[w][r] & full_word(w)) return kWordBits * w + __builtin_ctz(lacking);
    return n_;
  }

 private:
  Word full_word(int64_t w) const {
    return n_ - kWordBits * w >= kWordBits ? ~Word{0} : (Word{1} << (n_ - kWordBits * w)) - 1;
  }

  int64_t n_ = 0, words_ = 0;
  std::vector<std::vector<Word>> rows_;
  std::vector<Word> scratch_;
};

// The smallest and largest value in the table's rows: which blocks a round
// can name, so which words it must pass over.
// (Values, not positions as std::minmax_element finds, and offset by 128 to
// unsigned bytes, whose min and max even SSE2 has: this loop vectorises.)
std::pair<int, int> value_range(const CirculantTable& t) {
  uint8_t lo = UINT8_MAX, hi = 0;
  for (const std::vector<int8_t>* row : {&t.recv, &t.send})
    for (const int8_t v : *row) {
      const auto u = static_cast<uint8_t>(v + 128);
      lo = std::min(lo, u);
      hi = std::max(hi, u);
    }
  return {lo - 128, hi - 128};
}

std::optional<Counterexample> simulate_run(const CirculantTable& t, const BroadcastRun& run, std::pair<int, int> values,
                                           Holdings& held) {
  const int q = t.q;
  const int64_t p = t.p, n = run.n, first = run.first_round, last = run.first_round + n - 1 + q;
  const CirculantSchedule s(p);
  const auto [v_lo, v_hi] = values;
  // In round i, schedule value v means block v + shift, shift = q*floor(i/q)
  // - x; negative: no block; beyond n-1: block n-1.
  auto shift_of = [&](int64_t i) { return q * (i / q) - run.block_shift; };
  auto block = [&](int64_t i, int v) { return v + shift_of(i) < 0 ? -1 : std::min(v + shift_of(i), n - 1); };
  // Moves round i's blocks in place; nonzero if a check failed.
  auto move_round = [&](int64_t i) {
    const int k = static_cast<int>(i % q);
    const int64_t shift = shift_of(i), sk = s.skip(k);
    // The words this round can touch (none while every value is still negative).
    const int64_t highest = block(i, v_hi), first_word = std::max<int64_t>(block(i, v_lo), 0) / kWordBits;
    const int64_t end_word = highest < 0 ? first_word : highest / kWordBits + 1;
    const int cap = static_cast<int>(std::clamp<int64_t>(n - 1 - shift, -256, 256));  // values are int8
    const int8_t *recv = t.recv_round(k), *send = t.send_round(k);
    Word bad = 0;
    for (int64_t w = first_word; w < end_word; ++w) {
      const WordMap m{cap, static_cast<int>(shift - kWordBits * w)};
      Word* row = held.row(w);
      // Receivers skip..p-1 hear from r - skip, receivers 1..skip-1 from
      // r - skip + p, senders the first pass updates: their words are kept
      // from before it. The root (r = 0) receives nothing.
      const Word* wrap_senders = held.copy(w, p - sk + 1, sk - 1);
      bad |= move_blocks(recv + sk, send, row, row + sk, p - sk, m);
      bad |= move_blocks(recv + 1, send + p - sk + 1, wrap_senders, row + 1, sk - 1, m);
    }
    return bad;
  };
  auto fail = [&](int64_t r, int64_t i, std::string detail) {
    return Counterexample{p, r, static_cast<int>(i % q), "Algorithm 1 data flow (n=" + str(n) + ")",
                          "round " + str(i) + ": " + std::move(detail)};
  };
  held.reset(p, n);
  for (int64_t i = first; q > 0 && i < last; ++i) {  // p = 1: nothing moves
    if (!move_round(i)) continue;
    // Find the first offending receiver, in rank order, from the holdings
    // before round i (replayed: the round updated them in place).
    held.reset(p, n);
    for (int64_t j = first; j < i; ++j) move_round(j);
    const int k = static_cast<int>(i % q);
    for (int64_t r = 1; r < p; ++r) {
      const int64_t f = s.from(r, k), want = block(i, t.recv_at(r, k)), sent = block(i, t.send_at(f, k));
      if (want != sent)
        return fail(r, i, "expects block " + str(want) + " from " + str(f) + ", which sends " + str(sent));
      if (sent >= 0 && !held.has(f, sent))
        return fail(f, i, "sends block " + str(sent) + " to " + str(r) + " before holding it");
    }
    return fail(0, i, "internal error: the round's bit check failed but no receiver breaks it");
  }
  if (held.all_hold_all()) return std::nullopt;
  for (int64_t r = 0; r < p; ++r)
    if (int64_t b = held.first_missing(r); b < n) return fail(r, last, "after n-1+q rounds still lacks block " + str(b));
  return fail(0, last, "internal error: a row lacks a block but no rank does");
}

}  // namespace

std::optional<Counterexample> simulate_broadcasts(const CirculantTable& t, const std::vector<BroadcastRun>& runs) {
  const std::pair<int, int> values = value_range(t);
  thread_local Holdings held;  // one per sweep thread, reused from p to p
  for (const BroadcastRun& run : runs)
    if (auto c = simulate_run(t, run, values, held)) return c;
  return std::nullopt;
}

std::optional<Counterexample> simulate_broadcast(const CirculantTable& t, const BroadcastRun& run) {
  return simulate_broadcasts(t, {run});
}

bool use_dataflow_kernel(DataflowKernel kernel) {
  MoveBlocks f = kernel_for(kernel);
  if (f) move_blocks = f;
  return f != nullptr;
}

}  // namespace collsim
