#include "circulant_all.hpp"

#include <cstdint>
#include <vector>

#include "circulant_plan.hpp"

namespace collsim::sim {

double circulant_all_model(const Net& net, int64_t p, int64_t bytes, int64_t blocks, bool reduces) {
  const CirculantSchedule s(p);
  if (s.q() == 0 || bytes == 0) return 0;
  const int64_t b = ((bytes + p - 1) / p + blocks - 1) / blocks;
  // c_i from one broadcast's plans (every rank moves the same number).
  std::vector<CirculantPlan> plans;
  plans.reserve(static_cast<size_t>(p));
  for (int64_t v = 0; v < p; ++v) plans.emplace_back(s, v, blocks);
  const double fbeta = net.full_duplex ? 1.0 : 2.0;
  auto round = [&](int64_t c) {
    const double vol = static_cast<double>(c * b);
    return net.alpha + fbeta * (vol + static_cast<double>(net.envelope)) * net.beta + (reduces ? net.gamma * vol : 0);
  };
  // From round 2q on every non-root receives a block u ≥ q − x > 0, real
  // until the capped tail (u ≥ n − 1 needs i ≥ n + x − q): c_i = p − 1 there,
  // so only the first and last rounds are counted (the model stays O(pq²)
  // for any n, which the block policy's search needs).
  const int64_t first = plans[0].first(), end = plans[0].end();
  const int64_t steady_from = 2 * s.q(), steady_to = blocks + first - s.q();
  double t = 0;
  for (int64_t i = first; i < end; ++i) {
    if (i == steady_from && steady_to > steady_from) {
      t += static_cast<double>(steady_to - steady_from) * round(p - 1);
      i = steady_to - 1;
      continue;
    }
    int64_t c = 0;
    for (const CirculantPlan& pl : plans) c += pl.recv_block(i) >= 0;
    t += round(c);
  }
  return t;
}

}  // namespace collsim::sim
