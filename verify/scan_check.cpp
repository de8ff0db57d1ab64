#include "scan_check.hpp"

#include <algorithm>
#include <string>

#include "interval.hpp"
#include "values.hpp"

namespace collsim {

ScanPlan plan_of(const ScanAlgorithm& a) {
  const ScanAlgorithm* row = &a;  // a registry row: lives as long as the program
  return {a.inclusive, [row](int64_t p, int64_t r, int k) { return scan_round(*row, p, r, k); },
          [row](int64_t p) { return scan_rounds(*row, p); }};
}

namespace {

std::string str(int64_t v) { return std::to_string(v); }

// What one execution at n processors leaves for the per-p summary.
struct RunRecord {
  // Per rank: bit j set iff W is the rank's prefix after j rounds.
  std::vector<uint64_t> correct;
  // [r * rounds + k]: 0 if rank r applies no such ⊕ in round k, else the least
  // p of the range at which it does (⊕ into W; ⊕ forming a send value).
  std::vector<uint32_t> result_p, send_p;
  // Per round: the least p of the range at which some message moves.
  std::vector<int64_t> message_p;
};

// Exact symbolic execution of all ranks at n processors, rounds
// 0 .. p_round.size()-1, where p_round[k] is the least p of the range that
// runs round k. `upward_only`: messages must go to higher ranks (needed for
// the truncation argument of sweep_scan).
std::optional<Counterexample> execute(const ScanPlan& plan, int64_t n, const std::vector<int64_t>& p_round,
                                      bool upward_only, RunRecord& rec) {
  const int rounds = static_cast<int>(p_round.size());
  rec.correct.assign(n, 0);
  rec.result_p.assign(n * rounds, 0);
  rec.send_p.assign(n * rounds, 0);
  rec.message_p.assign(rounds, INT64_MAX);
  std::vector<Interval> w(n), msg(n);
  std::vector<ScanRound> cur(n);
  auto target = [&](int64_t r) { return Interval{0, plan.inclusive ? r : r - 1}; };
  for (int64_t r = 0; r < n; ++r) {
    if (plan.inclusive) w[r] = {r, r};
    rec.correct[r] = w[r] == target(r) ? 1 : 0;
  }
  for (int k = 0; k < rounds; ++k) {
    auto fail = [&](int64_t r, const char* cond, std::string detail) {
      return Counterexample{n, r, k, cond, std::move(detail)};
    };
    // Pass 1: every rank's round, validated, and the value it sends (formed
    // from W as it was before the round).
    for (int64_t r = 0; r < n; ++r) {
      const ScanRound x = cur[r] = plan.round(n, r, k);
      for (int64_t partner : {x.send_to, x.recv_from})
        if (partner < -1 || partner >= n || partner == r)
          return fail(r, "partner out of range", "partner " + str(partner));
      if ((x.recv_from >= 0) != (x.combine != ScanCombine::none))
        return fail(r, "combine without receive",
                    std::string("combine ") + to_string(x.combine) + " with recv_from " + str(x.recv_from));
      if (upward_only && ((x.send_to >= 0 && x.send_to < r) || x.recv_from > r))
        return fail(r, "message to a lower rank", "the range check by truncation needs upward messages; use --exact");
      if (x.send_to < 0) continue;
      const int64_t t = x.send_to;
      rec.message_p[k] = std::min(rec.message_p[k], std::max({r + 1, t + 1, p_round[k]}));
      if (x.send == ScanValue::V) {
        msg[r] = {r, r};
      } else if (w[r].empty()) {
        return fail(r, "undefined send", std::string("sends ") + to_string(x.send) + " to " + str(t) +
                                             " but W holds nothing yet");
      } else if (x.send == ScanValue::W) {
        msg[r] = w[r];
      } else {  // W ⊕ V: W must end at r - 1
        if (w[r].hi + 1 != r)
          return fail(r, "non-adjacent W+V", "W = " + str(w[r]) + " cannot be joined with V = [" + str(r) + "]");
        msg[r] = {w[r].lo, r};
        rec.send_p[r * rounds + k] = static_cast<uint32_t>(std::max({r + 1, t + 1, p_round[k]}));
      }
    }
    // Pass 2: matching pairs, then the receive and its combine.
    for (int64_t r = 0; r < n; ++r) {
      const ScanRound& x = cur[r];
      if (x.send_to >= 0 && cur[x.send_to].recv_from != r)
        return fail(r, "unmatched send", "sends to " + str(x.send_to) + ", which receives from " +
                                             str(cur[x.send_to].recv_from));
      if (x.recv_from < 0) continue;
      const int64_t f = x.recv_from;
      if (cur[f].send_to != r)
        return fail(r, "unmatched receive",
                    "receives from " + str(f) + ", which sends to " + str(cur[f].send_to));
      const Interval t = msg[f];
      Interval& v = w[r];
      const uint32_t at = static_cast<uint32_t>(std::max({r + 1, f + 1, p_round[k]}));
      switch (x.combine) {
        case ScanCombine::store:
          v = t;
          break;
        case ScanCombine::left:
        case ScanCombine::right: {
          const bool left = x.combine == ScanCombine::left;
          const Interval a = left ? t : v, b = left ? v : t;
          if (v.empty() || a.hi + 1 != b.lo)
            return fail(r, "non-adjacent combine", std::string(left ? "T ⊕ W" : "W ⊕ T") + " joins " + str(a) +
                                                       " and " + str(b) + " (T from " + str(f) + ")");
          v = {a.lo, b.hi};
          rec.result_p[r * rounds + k] = at;
          break;
        }
        case ScanCombine::none:
          break;
      }
    }
    for (int64_t r = 0; r < n; ++r)
      if (w[r] == target(r)) rec.correct[r] |= uint64_t{1} << (k + 1);
  }
  return std::nullopt;
}

// Largest per-rank ⊕ counts at each p of [lo, hi]: a rank's count at p is the
// number of its ⊕ that exist at p, which never decreases with p, so the
// maximum over ranks is a prefix maximum over the points where counts step.
void count_ops(const RunRecord& rec, int rounds, ScanSweep& s) {
  const int64_t n = s.hi, size = s.hi - s.lo + 1;
  s.result_ops.assign(size, 0);
  s.total_ops.assign(size, 0);
  uint64_t events[2 * 64];  // p << 1 | (1 for ⊕ into W)
  for (int64_t r = 0; r < n; ++r) {
    int m = 0;
    for (int k = 0; k < rounds; ++k) {
      if (uint32_t p = rec.result_p[r * rounds + k]) events[m++] = uint64_t{p} << 1 | 1;
      if (uint32_t p = rec.send_p[r * rounds + k]) events[m++] = uint64_t{p} << 1;
    }
    std::sort(events, events + m);
    uint8_t result = 0, total = 0;
    for (int i = 0; i < m; ++i) {
      const int64_t at = static_cast<int64_t>(events[i] >> 1) - s.lo;
      result += events[i] & 1;
      ++total;
      s.result_ops[at] = std::max(s.result_ops[at], result);
      s.total_ops[at] = std::max(s.total_ops[at], total);
    }
  }
  for (int64_t i = 1; i < size; ++i) {
    s.result_ops[i] = std::max(s.result_ops[i], s.result_ops[i - 1]);
    s.total_ops[i] = std::max(s.total_ops[i], s.total_ops[i - 1]);
  }
}

}  // namespace

ScanSweep sweep_scan(const ScanPlan& plan, int64_t lo, int64_t hi) {
  ScanSweep s;
  s.lo = lo;
  s.hi = hi;
  const int64_t size = hi - lo + 1;
  // Round counts; the bitmask of RunRecord allows 63.
  std::vector<int> rounds_at(size);
  for (int64_t p = lo; p <= hi; ++p) {
    const int r = rounds_at[p - lo] = plan.rounds(p);
    if (r < 0 || r > 63) {
      s.failure = Counterexample{p, -1, -1, "round count", str(r) + " rounds (0..63 supported)"};
      return s;
    }
    if (p > lo && r < rounds_at[p - lo - 1]) {
      s.failure = Counterexample{p, -1, -1, "round count", "fewer rounds than at p-1: use --exact"};
      return s;
    }
  }
  const int rounds = rounds_at.back();
  std::vector<int64_t> p_round(rounds);
  for (int64_t p = hi; p >= lo; --p)
    for (int k = 0; k < rounds_at[p - lo]; ++k) p_round[k] = p;

  RunRecord rec;
  if ((s.failure = execute(plan, hi, p_round, lo < hi, rec))) return s;

  // Rank r is right at p iff bit rounds(p) of correct[r] is set.
  std::vector<int64_t> first_wrong(rounds + 1, hi);
  for (int64_t r = hi - 1; r >= 0; --r)
    for (int j = 0; j <= rounds; ++j)
      if (!(rec.correct[r] >> j & 1)) first_wrong[j] = r;
  for (int64_t p = lo; p <= hi; ++p) {
    const int j = rounds_at[p - lo];
    if (first_wrong[j] < p) {
      const int64_t r = first_wrong[j];
      s.failure = Counterexample{p, r, -1, "wrong result",
                                 "after " + str(j) + " rounds W is not " +
                                     str(Interval{0, plan.inclusive ? r : r - 1})};
      return s;
    }
  }

  s.rounds.assign(size, 0);
  for (int64_t p = lo; p <= hi; ++p)
    for (int k = 0; k < rounds; ++k)
      if (std::max(rec.message_p[k], p_round[k]) <= p) s.rounds[p - lo] = static_cast<uint8_t>(k + 1);
  count_ops(rec, rounds, s);
  return s;
}

ScanSweep exact_scan(const ScanPlan& plan, int64_t lo, int64_t hi, cli::Progress* progress) {
  ScanSweep all;
  all.lo = lo;
  all.hi = hi;
  const double work = 0.5 * double(hi + lo) * double(hi - lo + 1);
  for (int64_t p = lo; p <= hi; ++p) {
    ScanSweep one = sweep_scan(plan, p, p);
    if (one.failure) {
      all.failure = one.failure;
      return all;
    }
    all.rounds.push_back(one.rounds[0]);
    all.result_ops.push_back(one.result_ops[0]);
    all.total_ops.push_back(one.total_ops[0]);
    if (progress) progress->update(0.5 * double(p + lo) * double(p - lo + 1) / work, "p=" + str(p));
  }
  return all;
}

}  // namespace collsim
