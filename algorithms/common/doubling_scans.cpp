// The doubling scans of seed 000 against the MPI API: the rounds of
// schedules/scan_plans.hpp (which `collsim verify exscan/scan` proves
// correct symbolically for every p up to 10^5) as plans (reduction_plans.cpp's
// builders; `collsim verify plan` checks them too), run by the plan executor
// (sim/rank/plan_executor.cpp).
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
// W ⊕ V) and one after (T into W); MPI_Scan by an exclusive plan ends with
// the plan's fold, W ⊕ V with no message.
// Cost: the model is the critical path of exactly this execution, computed
// from the plans (plan_time below): about rounds × (α + β(m + 16)) + ⊕ × γm
// along the slowest rank's chain.
// Limits: any p, any count, no root; keeps the order of ⊕ (every combine puts
// the lower ranks' data on the left), so non-commutative operators are fine.
// Memory: the executor's (plan_executor.cpp): a message buffer each way.
// The seven are scan/ and exscan/ hillis_steele.cpp, two_op_doubling.cpp,
// 1_doubling.cpp, 123_doubling.cpp; this file holds their shared model
// (plan_time), their plans' shared pieces are in reduction_plans.cpp.
#include <algorithm>
#include <vector>

#include "doubling_scans.hpp"
#include "scan_plans.hpp"

namespace collsim::sim {

// The critical path of the plan's execution on the α-β-γ platform, rank by rank and
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

}  // namespace collsim::sim
