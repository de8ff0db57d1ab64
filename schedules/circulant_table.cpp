#include "circulant_table.hpp"

#include <algorithm>

namespace collsim {

CirculantTable compute_all_ranks(const CirculantSchedule& s, CirculantBatchStats* stats, SendRule rule) {
  CirculantTable t;
  t.p = s.p();
  t.q = s.q();
  t.base = all_baseblocks(s);
  const size_t cells = static_cast<size_t>(t.p) * static_cast<size_t>(t.q);
  t.recv.resize(cells);
  t.send.resize(cells);
  CirculantBatchStats local;
  CirculantBatchStats& st = stats ? *stats : local;

  int row[kMaxRounds];
  for (int64_t r = 0; r < t.p; ++r) {
    const int calls = s.recv_with_baseblock(r, t.base[r], row);
    if (calls > st.max_recursive_calls) {
      st.max_recursive_calls = calls;
      st.rank_of_max_recursion = r;
    }
    for (int k = 0; k < t.q; ++k) t.recv[t.cell(r, k)] = static_cast<int8_t>(row[k]);
  }
  if (rule == SendRule::lookup) {  // row k of send is row k of recv rotated left by skip[k]
    for (int k = 0; k < t.q; ++k) {
      const auto first = t.recv.begin() + static_cast<std::ptrdiff_t>(t.cell(0, k));
      std::rotate_copy(first, first + s.skip(k), first + t.p, t.send.begin() + (first - t.recv.begin()));
    }
    return t;
  }
  auto recv_of = [&t](int64_t rank, int k) { return t.recv_at(rank, k); };
  for (int64_t r = 0; r < t.p; ++r) {
    const int violations = s.send(r, t.base[r], row, recv_of);
    ++st.violation_histogram[violations];
    if (violations > st.max_violations) {
      st.max_violations = violations;
      st.rank_of_max_violations = r;
    }
    for (int k = 0; k < t.q; ++k) t.send[t.cell(r, k)] = static_cast<int8_t>(row[k]);
  }
  return t;
}

}  // namespace collsim
