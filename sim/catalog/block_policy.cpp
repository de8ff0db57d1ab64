#include "block_policy.hpp"

namespace collsim::sim {

int64_t choose_blocks(const Algorithm& algo, const Net& net, int64_t p, int64_t bytes) {
  if (!algo.has(kBlocks) || !algo.model || bytes == 0) return 1;
  auto cost = [&](int64_t n) { return algo.model(net, p, bytes, n); };
  int64_t lo = 1, hi = bytes;
  while (hi - lo > 2) {
    const int64_t m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (cost(m1) <= cost(m2))
      hi = m2;
    else
      lo = m1;
  }
  int64_t best = lo;
  for (int64_t n = lo + 1; n <= hi; ++n)
    if (cost(n) < cost(best)) best = n;
  return best;
}

}  // namespace collsim::sim
