// The doubling scans of seed 000 against the MPI API: one executor runs any
// plan of schedules/scan_plans.hpp (the plans `collsim verify exscan/scan`
// proves correct symbolically for every p up to 10^5).
//
//   exscan  two-op-doubling  ceil(log2 p) rounds, up to 2 ceil(log2 p) - 2 ⊕
//           1-doubling       1 + ceil(log2(p-1)) rounds, ceil(log2(p-1)) ⊕
//           123-doubling     q = ceil(log2(p-1) + log2(4/3)) rounds, q ⊕
//                            (q - 1 into W, one to form W ⊕ V; NOTES.md)
//   scan    hillis-steele    ceil(log2 p) rounds, ceil(log2 p) ⊕
//           two-op-doubling, 1-doubling, 123-doubling: the exclusive plan,
//                            then one more ⊕ (result = W ⊕ V; rank 0: V)
//
// Per round a rank does one MPI_Sendrecv of the whole vector (MPI_Send or
// MPI_Recv when one side is absent) and at most one ⊕ before it (forming
// W ⊕ V) and one after (T into W).
// Cost: the model is the critical path of exactly this execution, computed
// from the plans (plan_time below): about rounds × (α + β(m + 16)) + ⊕ × γm
// along the slowest rank's chain.
// Limits: any p, any count, no root; keeps the order of ⊕ (every combine puts
// the lower ranks' data on the left), so non-commutative operators are fine.
// Memory: two scratch vectors of m bytes (T, and W ⊕ V being sent).
#include <algorithm>
#include <vector>

#include "catalog.hpp"
#ifdef COLLSIM_RANK
#include "collective.hpp"
#endif  // COLLSIM_RANK
#include "scan_plans.hpp"
#ifdef COLLSIM_RANK
#include "window.hpp"
#endif  // COLLSIM_RANK

namespace collsim::sim {

namespace {

#ifdef COLLSIM_RANK
// T enters W as the plan says; T may be overwritten.
void combine_into(const CollArgs& a, ScanCombine how, char* w, char* t, int count) {
  switch (how) {
    case ScanCombine::none: return;
    case ScanCombine::store: copy_real(w, t, a.bytes); return;
    case ScanCombine::left: MPI_Reduce_local(t, w, count, a.type, a.op); return;  // W = T ⊕ W
    case ScanCombine::right:                                                        // W = W ⊕ T
      MPI_Reduce_local(w, t, count, a.type, a.op);
      copy_real(w, t, a.bytes);
      return;
  }
}

// Runs `plan` with W = a.buf. inclusive_result: for an exclusive plan, finish
// with W = W ⊕ V (rank 0: V), which turns MPI_Exscan into MPI_Scan.
void run_plan(const char* name, bool inclusive_result, const CollArgs& a) {
  const ScanAlgorithm& plan = *find_scan_algorithm(name);
  int p = 0, rank = 0;
  MPI_Comm_size(a.comm, &p);
  MPI_Comm_rank(a.comm, &rank);
  const int count = static_cast<int>(a.count);
  const int64_t bytes = a.bytes;
  char* w = static_cast<char*>(a.buf);
  const char* v = static_cast<const char*>(a.sendbuf);
  if (plan.inclusive) copy_real(w, v, bytes);  // inclusive plans start from W = V
  Scratch t(a, Scratch::Kind::vector, bytes), wv(a, Scratch::Kind::vector, bytes);
  const int rounds = scan_rounds(plan, p);
  for (int k = 0; k < rounds; ++k) {
    const ScanRound rd = scan_round(plan, p, rank, k);
    const void* out = rd.send == ScanValue::V ? v : w;
    if (rd.send_to >= 0 && rd.send == ScanValue::W_op_V) {
      copy_real(wv.data(), v, bytes);
      MPI_Reduce_local(w, wv.data(), count, a.type, a.op);  // W ⊕ V: W holds the lower ranks
      out = wv.data();
    }
    const int to = rd.send_to >= 0 ? static_cast<int>(rd.send_to) : MPI_PROC_NULL;
    const int from = rd.recv_from >= 0 ? static_cast<int>(rd.recv_from) : MPI_PROC_NULL;
    MPI_Sendrecv(out, to == MPI_PROC_NULL ? 0 : count, a.type, to, 0, t.data(), from == MPI_PROC_NULL ? 0 : count,
                 a.type, from, 0, a.comm, MPI_STATUS_IGNORE);
    combine_into(a, rd.combine, w, t.data(), count);
  }
  if (!inclusive_result || plan.inclusive) return;
  if (rank == 0) {
    copy_real(w, v, bytes);
    return;
  }
  copy_real(t.data(), v, bytes);
  MPI_Reduce_local(w, t.data(), count, a.type, a.op);  // W ⊕ V
  copy_real(w, t.data(), bytes);
}
#endif  // COLLSIM_RANK

// The critical path of run_plan on the α-β-γ platform, rank by rank and
// round by round: a rank posts its Sendrecv after forming its send value
// (γm if it computes W ⊕ V); a message starts when both its sender and its
// receiver have posted (SMPI, with send-is-detached-thresh 0, as collsim runs
// it) and takes net.message(m); the Sendrecv returns when both of its
// messages are done (full duplex: they overlap; half duplex: a rank's send
// and receive share its link, so a round with both costs twice the β part,
// seed 004's "uni"); then the combine costs γm unless it is a store.
// O(p × rounds) time, O(p) memory.
double plan_time(const char* name, bool inclusive_result, const Net& net, int64_t p, int64_t bytes) {
  const ScanAlgorithm& plan = *find_scan_algorithm(name);
  const double m = static_cast<double>(bytes), op = net.gamma * m;
  const double msg = net.message(bytes);
  const double both = net.full_duplex ? msg : msg + static_cast<double>(bytes + net.envelope) * net.beta;
  std::vector<double> ready(static_cast<size_t>(p), 0.0), posted(static_cast<size_t>(p));
  const int rounds = scan_rounds(plan, p);
  for (int k = 0; k < rounds; ++k) {
    for (int64_t r = 0; r < p; ++r) {
      const ScanRound rd = scan_round(plan, p, r, k);
      posted[r] = ready[r] + (rd.send_to >= 0 && rd.send == ScanValue::W_op_V ? op : 0.0);
    }
    for (int64_t r = 0; r < p; ++r) {
      const ScanRound rd = scan_round(plan, p, r, k);
      const double cost = rd.send_to >= 0 && rd.recv_from >= 0 ? both : msg;
      double done = posted[r];
      if (rd.send_to >= 0) done = std::max(done, std::max(posted[r], posted[rd.send_to]) + cost);
      if (rd.recv_from >= 0) done = std::max(done, std::max(posted[r], posted[rd.recv_from]) + cost);
      const bool combines = rd.combine == ScanCombine::left || rd.combine == ScanCombine::right;
      ready[r] = done + (combines ? op : 0.0);
    }
  }
  double end = 0;
  for (int64_t r = 0; r < p; ++r)
    end = std::max(end, ready[r] + (inclusive_result && !plan.inclusive && r > 0 ? op : 0.0));
  return end;
}

}  // namespace

#ifdef COLLSIM_RANK
void exscan_two_op_doubling(const CollArgs& a) { run_plan("two-op-doubling", false, a); }
void exscan_1_doubling(const CollArgs& a) { run_plan("1-doubling", false, a); }
void exscan_123_doubling(const CollArgs& a) { run_plan("123-doubling", false, a); }
void scan_hillis_steele(const CollArgs& a) { run_plan("hillis-steele", true, a); }
void scan_two_op_doubling(const CollArgs& a) { run_plan("two-op-doubling", true, a); }
void scan_1_doubling(const CollArgs& a) { run_plan("1-doubling", true, a); }
void scan_123_doubling(const CollArgs& a) { run_plan("123-doubling", true, a); }
#endif  // COLLSIM_RANK

double model_exscan_two_op_doubling(const Net& n, int64_t p, int64_t m, int64_t) {
  return plan_time("two-op-doubling", false, n, p, m);
}
double model_exscan_1_doubling(const Net& n, int64_t p, int64_t m, int64_t) {
  return plan_time("1-doubling", false, n, p, m);
}
double model_exscan_123_doubling(const Net& n, int64_t p, int64_t m, int64_t) {
  return plan_time("123-doubling", false, n, p, m);
}
double model_scan_hillis_steele(const Net& n, int64_t p, int64_t m, int64_t) {
  return plan_time("hillis-steele", true, n, p, m);
}
double model_scan_two_op_doubling(const Net& n, int64_t p, int64_t m, int64_t) {
  return plan_time("two-op-doubling", true, n, p, m);
}
double model_scan_1_doubling(const Net& n, int64_t p, int64_t m, int64_t) {
  return plan_time("1-doubling", true, n, p, m);
}
double model_scan_123_doubling(const Net& n, int64_t p, int64_t m, int64_t) {
  return plan_time("123-doubling", true, n, p, m);
}

}  // namespace collsim::sim
