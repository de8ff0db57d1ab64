#include "work_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "circulant.hpp"
#include "circulant_plans.hpp"
#include "errors.hpp"
#include "plan_builders.hpp"

namespace collsim::engine {

namespace {

double floor_log2(int64_t p) {
  int k = 0;
  while ((int64_t{1} << (k + 1)) <= p) ++k;
  return k;
}

double messages(plan::MessageShape shape, double p, double n, double c) {
  using Shape = plan::MessageShape;
  const double q = ceil_log2(static_cast<int64_t>(p)), f = floor_log2(static_cast<int64_t>(p));
  switch (shape) {
    case Shape::tree: return (p - 1) * n;
    case Shape::tree_twice: return 2 * (p - 1) * n;
    case Shape::ring: return p * p;
    case Shape::ring_twice: return 2 * p * (p - 1);
    case Shape::doubling: return p * (f + 1);
    case Shape::doubling_twice: return 2 * p * (f + 1);
    case Shape::all_to_all: return p * (n - 1 + q);
    case Shape::all_to_all_twice: return 2 * p * (n - 1 + q);
    case Shape::lanes_allreduce: {
      // Within each full node a circulant reduce-scatter and allgather of
      // its c segments, between the nodes c lanes' circulant allreduce, and
      // a short last node of s ranks a two-tree allreduce of the c segments
      // and a broadcast of each.
      const double nodes = std::ceil(p / c), s = std::fmod(p, c);
      const double lanes = nodes > 1 ? 2 * p * (n - 1 + ceil_log2(static_cast<int64_t>(nodes))) : 0;
      return 2 * (p - s) * ceil_log2(static_cast<int64_t>(c)) + lanes + (s > 0 ? 3 * (s - 1) * c : 0);
    }
    case Shape::lanes_allgatherv: {
      // The lanes' circulant allgatherv between the nodes, then each node's.
      const double nodes = std::ceil(p / c);
      const double lanes = nodes > 1 ? p * (n - 1 + ceil_log2(static_cast<int64_t>(nodes))) : 0;
      return lanes + p * (n - 1 + ceil_log2(static_cast<int64_t>(std::min(p, c))));
    }
    case Shape::scan_doubling: return p * q - std::exp2(q) + 1;
  }
  return 0;
}

}  // namespace

std::string duration_text(double seconds) {
  char text[32];
  if (seconds >= 5400)
    std::snprintf(text, sizeof text, "%.1f h", seconds / 3600);
  else if (seconds >= 90)
    std::snprintf(text, sizeof text, "%.0f min", seconds / 60);
  else
    std::snprintf(text, sizeof text, "%.0f s", std::ceil(seconds));
  return text;
}

std::string count_text(double n) {
  char text[32];
  std::snprintf(text, sizeof text, n < 1e6 ? "%.0f" : "%.2g", n);
  return text;
}

std::optional<double> plan_messages(Collective c, const std::string& algorithm, int64_t p, int64_t blocks,
                                    int64_t node_size) {
  if (!plan::has_plan(c, algorithm)) return std::nullopt;
  const plan::PlanAlgorithm& a = plan::find_plan_algorithm(c, algorithm);
  if (p <= 1) return 0.0;
  const double n = a.cut == plan::Cut::pipelined ? static_cast<double>(std::max<int64_t>(blocks, 1)) : 1.0;
  return messages(a.shape, static_cast<double>(p), n, static_cast<double>(std::max<int64_t>(node_size, 1)));
}

namespace {

// The passes of circulant_plans.hpp's all-to-all rounds a plan runs, as its
// registry shape says (all_to_all: one; all_to_all_twice: the allreduce's
// reduce-scatter and allgather); 0 for every other plan.
double all_to_all_passes(Collective c, const std::string& algorithm) {
  if (!plan::has_plan(c, algorithm)) return 0;
  const plan::MessageShape shape = plan::find_plan_algorithm(c, algorithm).shape;
  return shape == plan::MessageShape::all_to_all ? 1 : shape == plan::MessageShape::all_to_all_twice ? 2 : 0;
}

}  // namespace

double block_runs(Collective c, const std::string& algorithm, int64_t p, int64_t blocks) {
  const double passes = all_to_all_passes(c, algorithm);
  if (passes == 0 || p <= 1) return 0;
  const int64_t n = std::max<int64_t>(blocks, 1);
  // The table costs about what its messages cost the engine: past the
  // default limit, where the messages alone refuse the case, it is not built.
  if (plan_messages(c, algorithm, p, n).value_or(0) > kDefaultMaxEngineMessages) return 0;
  return passes * static_cast<double>(p) * static_cast<double>(plan::all_rounds_block_runs(p, n));
}

double listed_block_numbers(Collective c, const std::string& algorithm, int64_t p, int64_t blocks) {
  const double passes = all_to_all_passes(c, algorithm);
  if (passes == 0 || blocks < 2) return 0;
  return passes * 2 * static_cast<double>(p) * static_cast<double>(p - 1) * static_cast<double>(blocks);
}

bool all_to_all_plan(Collective c, const std::string& algorithm) { return all_to_all_passes(c, algorithm) > 0; }

double engine_seconds_per_message(bool shares_links, platforms::Topology::Kind kind, bool all_to_all) {
  if (!shares_links) return 1 / kEngineMessagesPerSecond;
  const SharedCost& cost = all_to_all ? kSharedSecondsPerAllToAllMessage : kSharedSecondsPerMessage;
  switch (kind) {
    case platforms::Topology::Kind::flat: return cost.nodes;
    case platforms::Topology::Kind::fat_tree: return cost.fat_tree;
    case platforms::Topology::Kind::torus: return cost.torus;
    case platforms::Topology::Kind::dragonfly: return cost.dragonfly;
  }
  return cost.dragonfly;
}

std::string describe(const Work& w) {
  char weight[64] = "";
  if (w.weight > 1)
    std::snprintf(weight, sizeof weight, " on shared links (each weighs %.2g against the limit)", w.weight);
  char blocks[128] = "";
  if (w.blocks > 0)
    std::snprintf(blocks, sizeof blocks, " and %s %s (each weighs %.2g of a message)", count_text(w.blocks).c_str(),
                  w.blocks_name, w.block_weight);
  return "about " + count_text(w.messages) + " messages" + weight + blocks + ", expected " + duration_text(w.seconds);
}

double weighed_messages(const Work& w) { return w.messages * w.weight + w.blocks * w.block_weight; }

bool within(const Work& w, double limit) { return weighed_messages(w) <= limit; }

void check_work(const Work& w, double limit, const std::string& what) {
  if (within(w, limit)) return;
  throw LimitError(what + ": " + describe(w) + ", over the limit of " + count_text(limit) +
                   " messages (--max-messages N raises it)");
}

}  // namespace collsim::engine
