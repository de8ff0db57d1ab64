#include "block_policy.hpp"

#include <algorithm>

namespace collsim::sim {

// n ranges up to the elements of what is cut (the vector, or one of its p
// segments): more blocks would be empty and only add rounds. Besides, a
// segmented model costs O(p q²) an evaluation, so at p = 2^20 with a few
// elements a segment the search must not try n up to m.
constexpr int64_t kWholeRange = 32;

int64_t choose_blocks(const Algorithm& algo, const Net& net, int64_t p, int64_t bytes) {
  if (!algo.has(kBlocks) || !algo.model || bytes == 0) return 1;
  auto cost = [&](int64_t n) { return algo.model(net, p, bytes, n); };
  const int64_t units = bytes / net.element, cut = algo.has(kSegments) ? (units + p - 1) / p : units;
  int64_t lo = 1, hi = std::max<int64_t>(cut, 1);
  // Where blocks hold a few elements, the rounding makes the cost jagged
  // in n, so a short range is searched whole.
  while (hi - lo > kWholeRange) {
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
