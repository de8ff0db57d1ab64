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

  // Locals, not t's members, inside the loops: every int8_t store may alias
  // t.q and t.p, which the compiler would otherwise load again per store.
  const int q = t.q;
  const int64_t p = t.p;
  int8_t* const recv = t.recv.data();
  int8_t* const send = t.send.data();
  const int8_t* const base = t.base.data();
  int row[kMaxRounds];
  for (int64_t r = 0; r < p; ++r) {
    const int calls = s.recv_with_baseblock(r, base[r], row);
    if (calls > st.max_recursive_calls) {
      st.max_recursive_calls = calls;
      st.rank_of_max_recursion = r;
    }
    for (int k = 0; k < q; ++k) recv[k * p + r] = static_cast<int8_t>(row[k]);
  }
  if (rule == SendRule::lookup) {  // row k of send is row k of recv rotated left by skip[k]
    for (int k = 0; k < q; ++k) std::rotate_copy(recv + k * p, recv + k * p + s.skip(k), recv + (k + 1) * p, send + k * p);
    return t;
  }
  auto recv_of = [recv, p](int64_t rank, int k) { return recv[k * p + rank]; };
  for (int64_t r = 0; r < p; ++r) {
    const int violations = s.send(r, base[r], row, recv_of);
    ++st.violation_histogram[violations];
    if (violations > st.max_violations) {
      st.max_violations = violations;
      st.rank_of_max_violations = r;
    }
    for (int k = 0; k < q; ++k) send[k * p + r] = static_cast<int8_t>(row[k]);
  }
  return t;
}

}  // namespace collsim
