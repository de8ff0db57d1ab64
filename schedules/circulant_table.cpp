#include "circulant_table.hpp"

#include <algorithm>

#include "circulant_batch.hpp"

namespace collsim {
namespace {

// Whether the 16-lane kernels run for this p (else the per-rank loops).
bool vector_kernels(BatchKernel kernel, int64_t p) {
#ifdef COLLSIM_X86
  return kernel == BatchKernel::fastest && batch16::usable(p);
#else
  (void)kernel, (void)p;
  return false;
#endif
}

#ifdef COLLSIM_X86
// chunk(r0, lanes) for consecutive runs of up to 16 ranks covering [first, end).
template <class Chunk>
void by_sixteen(int64_t first, int64_t end, Chunk chunk) {
  for (int64_t r0 = first; r0 < end; r0 += batch16::kLanes)
    chunk(r0, static_cast<int>(std::min<int64_t>(batch16::kLanes, end - r0)));
}
#endif

// Folds rank r's counts into the statistics in rank order, so the ranks
// named are the first to reach each maximum whichever kernel ran.
void note_recursion(CirculantBatchStats& st, int64_t r, int calls) {
  if (calls > st.max_recursive_calls) {
    st.max_recursive_calls = calls;
    st.rank_of_max_recursion = r;
  }
}
void note_violations(CirculantBatchStats& st, int64_t r, int violations) {
  ++st.violation_histogram[violations];
  if (violations > st.max_violations) {
    st.max_violations = violations;
    st.rank_of_max_violations = r;
  }
}

#ifdef COLLSIM_X86
// kernel(r0, lanes, counts) over [first, end) in runs of 16, each rank's
// count then folded into the statistics in rank order.
template <class Kernel>
void counted_by_sixteen(int64_t first, int64_t end, CirculantBatchStats& st,
                        void (*note)(CirculantBatchStats&, int64_t, int), Kernel kernel) {
  by_sixteen(first, end, [&](int64_t r0, int lanes) {
    int counts[batch16::kLanes];
    kernel(r0, lanes, counts);
    for (int i = 0; i < lanes; ++i) note(st, r0 + i, counts[i]);
  });
}
#endif

void fill_receives(const CirculantSchedule& s, CirculantTable& t, CirculantBatchStats& st, bool vector) {
#ifdef COLLSIM_X86
  if (vector) {
    counted_by_sixteen(0, t.p, st, note_recursion, [&](int64_t r0, int lanes, int* calls) {
      batch16::recv_schedules(s, t, r0, lanes, calls);
    });
    return;
  }
#endif
  (void)vector;
  int row[kMaxRounds];
  for (int64_t r = 0; r < t.p; ++r) {
    note_recursion(st, r, s.recv_with_baseblock(r, t.base[r], row));
    for (int k = 0; k < t.q; ++k) t.recv[t.cell(r, k)] = static_cast<int8_t>(row[k]);
  }
}

// Algorithm 6, violations answered from the receive table. The root's
// schedule (block k in round k) always comes from the per-rank code.
void fill_sends(const CirculantSchedule& s, CirculantTable& t, CirculantBatchStats& st, bool vector) {
  auto per_rank = [&](int64_t first, int64_t end) {
    auto recv_of = [&t](int64_t rank, int k) { return t.recv_at(rank, k); };
    int row[kMaxRounds];
    for (int64_t r = first; r < end; ++r) {
      note_violations(st, r, s.send(r, t.base[r], row, recv_of));
      for (int k = 0; k < t.q; ++k) t.send[t.cell(r, k)] = static_cast<int8_t>(row[k]);
    }
  };
#ifdef COLLSIM_X86
  if (vector) {
    per_rank(0, 1);
    counted_by_sixteen(1, t.p, st, note_violations, [&](int64_t r0, int lanes, int* violations) {
      batch16::send_schedules(s, t, r0, lanes, violations);
    });
    return;
  }
#endif
  (void)vector;
  per_rank(0, t.p);
}

}  // namespace

std::vector<int8_t> baseblocks_by_algorithm3(const CirculantSchedule& s, BatchKernel kernel) {
  std::vector<int8_t> b(static_cast<size_t>(s.p()));
#ifdef COLLSIM_X86
  if (vector_kernels(kernel, s.p())) {
    by_sixteen(0, s.p(), [&](int64_t r0, int lanes) { batch16::baseblocks(s, r0, lanes, b.data()); });
    return b;
  }
#endif
  (void)kernel;
  for (int64_t r = 0; r < s.p(); ++r) b[static_cast<size_t>(r)] = static_cast<int8_t>(s.baseblock(r));
  return b;
}

CirculantTable compute_all_ranks(const CirculantSchedule& s, CirculantBatchStats* stats, SendRule rule,
                                 BatchKernel kernel) {
  CirculantTable t;
  compute_all_ranks_into(s, t, stats, rule, kernel);
  return t;
}

void compute_all_ranks_into(const CirculantSchedule& s, CirculantTable& t, CirculantBatchStats* stats, SendRule rule,
                            BatchKernel kernel) {
  t.p = s.p();
  t.q = s.q();
  t.base = all_baseblocks(s);
  const size_t cells = static_cast<size_t>(t.p) * static_cast<size_t>(t.q);
  t.recv.resize(cells);
  t.send.resize(cells);
  CirculantBatchStats local;
  CirculantBatchStats& st = stats ? *stats : local;
  const bool vector = vector_kernels(kernel, t.p);
  fill_receives(s, t, st, vector);
  if (rule == SendRule::lookup) {  // row k of send is row k of recv rotated left by skip[k]
    for (int k = 0; k < t.q; ++k) {
      const auto first = t.recv.begin() + static_cast<std::ptrdiff_t>(t.cell(0, k));
      std::rotate_copy(first, first + s.skip(k), first + t.p, t.send.begin() + (first - t.recv.begin()));
    }
    return;
  }
  fill_sends(s, t, st, vector);
}

}  // namespace collsim
