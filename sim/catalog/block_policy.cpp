#include "block_policy.hpp"

#include <algorithm>

namespace collsim::sim {

// n ranges up to the elements of what is cut (the vector, or one of its p
// segments): more blocks would be empty and only add rounds. Besides, a
// segmented model costs O(p q²) an evaluation, so at p = 2^20 with a few
// elements a segment the search must not try n up to m.
constexpr int64_t kWholeRange = 32;

namespace {

// The n in [1, hi] with the least cost.
template <typename Cost>
int64_t least_cost(const Cost& cost, int64_t hi) {
  int64_t lo = 1;
  hi = std::max<int64_t>(hi, 1);
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

// Σ_{t<q} (W(2^t) − 2^t·m/p), W(w) the largest sum of w cyclically
// consecutive segments (prefix sums: O(p log p)).
double warmup_excess_bytes(const std::vector<int64_t>& segments) {
  const int64_t p = static_cast<int64_t>(segments.size());
  std::vector<int64_t> prefix(2 * p + 1, 0);  // over the segments twice: cyclic windows
  for (int64_t i = 0; i < 2 * p; ++i) prefix[i + 1] = prefix[i] + segments[i % p];
  const double total = static_cast<double>(prefix[p]);
  double excess = 0;
  for (int64_t w = 1; w < p; w *= 2) {
    int64_t widest = 0;
    for (int64_t start = 0; start < p; ++start) widest = std::max(widest, prefix[start + w] - prefix[start]);
    excess += static_cast<double>(widest) - total * static_cast<double>(w) / static_cast<double>(p);
  }
  return excess;
}

}  // namespace

int64_t most_blocks(const Algorithm& algo, const Net& net, int64_t p, int64_t bytes) {
  const int64_t units = bytes / net.element;
  return std::max<int64_t>(1, algo.has(kSegments) ? (units + p - 1) / p : units);
}

int64_t choose_blocks(const Algorithm& algo, const Net& net, int64_t p, int64_t bytes) {
  if (!algo.has(kBlocks) || !algo.model || bytes == 0) return 1;
  return least_cost([&](int64_t n) { return algo.model(net, p, bytes, n); }, most_blocks(algo, net, p, bytes));
}

int64_t choose_blocks(const Algorithm& algo, const Net& net, int64_t p, int64_t bytes,
                      const std::vector<int64_t>& segment_bytes) {
  if (!algo.has(kSegments) || static_cast<int64_t>(segment_bytes.size()) != p)
    return choose_blocks(algo, net, p, bytes);
  const auto [fewest, most] = std::minmax_element(segment_bytes.begin(), segment_bytes.end());
  if (*most - *fewest <= net.element) return choose_blocks(algo, net, p, bytes);  // even
  if (!algo.has(kBlocks) || !algo.model || bytes == 0) return 1;
  const double per_byte = net.beta + (reduces(algo.collective) ? net.gamma : 0);
  const double excess = per_byte * warmup_excess_bytes(segment_bytes);
  return least_cost([&](int64_t n) { return algo.model(net, p, bytes, n) + excess / static_cast<double>(n); },
                    *most / net.element);
}

bool policy_decides(const Algorithm& algo, const BlockCase& c) { return algo.has(kBlocks) && c.fixed <= 0; }

int64_t resolve_blocks(const Algorithm& algo, const Net& net, const BlockCase& c) {
  if (!algo.has(kBlocks)) return 1;
  if (c.fixed > 0) return c.fixed;
  return choose_blocks(algo, net, c.p, c.bytes, c.segment_bytes);
}

int64_t resolve_blocks(const plan::Header& plan) { return plan.blocks; }

int64_t plan_cut_blocks(const plan::PlanAlgorithm& pa, int64_t blocks, int64_t p) {
  return pa.cut == plan::Cut::pipelined ? blocks : plan::cut_blocks(pa.cut, p);
}

}  // namespace collsim::sim
