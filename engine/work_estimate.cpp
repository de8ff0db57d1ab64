#include "work_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "errors.hpp"

namespace collsim::engine {

namespace {

double floor_log2(int64_t p) {
  int k = 0;
  while ((int64_t{1} << (k + 1)) <= p) ++k;
  return k;
}

double ceil_log2(int64_t p) {
  int k = 0;
  while ((int64_t{1} << k) < p) ++k;
  return k;
}

// The plan shapes (plan_builders.hpp's families), by their messages summed
// over the ranks; n is the pipeline's block count (1 for whole-vector
// messages), c the node size.
enum class Shape {
  tree,          // every rank but one sends each block once: (p − 1)·n
  tree_twice,    // up and down a tree (allreduce, two-tree scans): 2(p − 1)·n
  ring,          // p − 1 (+ log p) steps per rank: p²
  ring_twice,    // reduce-scatter and allgather rings: 2p(p − 1)
  doubling,      // log p exchanges per rank: p(⌊log2 p⌋ + 1)
  doubling_twice,  // halving then doubling: 2p(⌊log2 p⌋ + 1)
  all_to_all,    // circulant allgatherv / reduce_scatter: p(n − 1 + ⌈log2 p⌉)
  all_to_all_twice,  // circulant allreduce: 2p(n − 1 + ⌈log2 p⌉)
  lanes_allreduce,   // multi-lane allreduce (plans_node_aware.cpp)
  lanes_allgatherv,  // multi-lane allgatherv
  scan_doubling,     // the doubling scans: ⌈log2 p⌉ rounds, round k idle on ranks below 2^k: p·q − 2^q + 1
};

struct Entry {
  Collective c;
  const char* name;
  Shape shape;
  bool pipelined;  // messages per block: n counts
};

// Every row of plan_builders.cpp's table (test_work_limits checks that).
constexpr Entry kEntries[] = {
    {Collective::bcast, "circulant", Shape::tree, true},
    {Collective::bcast, "binomial", Shape::tree, false},
    {Collective::bcast, "linear-pipeline", Shape::tree, true},
    {Collective::bcast, "binary-tree-pipeline", Shape::tree, true},
    {Collective::bcast, "two-tree", Shape::tree, true},
    {Collective::bcast, "scatter-allgather", Shape::ring, false},
    {Collective::bcast, "node-aware", Shape::tree, true},
    {Collective::reduce, "binary-tree", Shape::tree, false},
    {Collective::reduce, "linear-pipeline", Shape::tree, true},
    {Collective::reduce, "binary-tree-pipeline", Shape::tree, true},
    {Collective::reduce, "recursive-doubling", Shape::doubling, false},
    {Collective::reduce, "ring", Shape::ring, false},
    {Collective::reduce, "halving-doubling", Shape::doubling, false},
    {Collective::reduce, "binary-blocks", Shape::doubling, false},
    {Collective::reduce, "circulant", Shape::tree, true},
    {Collective::reduce, "two-tree", Shape::tree, true},
    {Collective::reduce, "node-aware", Shape::tree, true},
    {Collective::allreduce, "binary-tree", Shape::tree_twice, false},
    {Collective::allreduce, "recursive-doubling", Shape::doubling, false},
    {Collective::allreduce, "ring", Shape::ring_twice, false},
    {Collective::allreduce, "halving-doubling", Shape::doubling_twice, false},
    {Collective::allreduce, "binary-blocks", Shape::doubling_twice, false},
    {Collective::allreduce, "circulant", Shape::all_to_all_twice, true},
    {Collective::allreduce, "two-tree", Shape::tree_twice, true},
    {Collective::allreduce, "node-aware", Shape::tree_twice, true},
    {Collective::allreduce, "multi-lane", Shape::lanes_allreduce, true},
    {Collective::reduce_scatter, "circulant", Shape::all_to_all, true},
    {Collective::allgatherv, "circulant", Shape::all_to_all, true},
    {Collective::allgatherv, "multi-lane", Shape::lanes_allgatherv, true},
    {Collective::scan, "hillis-steele", Shape::scan_doubling, false},
    {Collective::scan, "two-op-doubling", Shape::scan_doubling, false},
    {Collective::scan, "1-doubling", Shape::scan_doubling, false},
    {Collective::scan, "123-doubling", Shape::scan_doubling, false},
    {Collective::scan, "two-tree", Shape::tree_twice, true},
    {Collective::exscan, "two-op-doubling", Shape::scan_doubling, false},
    {Collective::exscan, "1-doubling", Shape::scan_doubling, false},
    {Collective::exscan, "123-doubling", Shape::scan_doubling, false},
    {Collective::exscan, "two-tree", Shape::tree_twice, true},
};

double messages(Shape shape, double p, double n, double c) {
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
  for (const Entry& e : kEntries) {
    if (e.c != c || algorithm != e.name) continue;
    if (p <= 1) return 0.0;
    const double n = e.pipelined ? static_cast<double>(std::max<int64_t>(blocks, 1)) : 1.0;
    return messages(e.shape, static_cast<double>(p), n, static_cast<double>(std::max<int64_t>(node_size, 1)));
  }
  return std::nullopt;
}

std::string describe(const Work& w) {
  return "about " + count_text(w.messages) + " messages, expected " + duration_text(w.seconds);
}

void check_work(const Work& w, double limit, const std::string& what) {
  if (w.messages <= limit) return;
  throw LimitError(what + ": " + describe(w) + ", over the limit of " + count_text(limit) +
                   " messages (--max-messages N raises it)");
}

}  // namespace collsim::engine
