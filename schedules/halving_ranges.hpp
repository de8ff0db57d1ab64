// Rabenseifner's recursive halving (seed 004 §2.5, §2.6) as pure index
// arithmetic, shared by the halving-doubling and binary-blocks plans
// (reduction_plans.cpp) and the binary-blocks cost model
// (algorithms/binary_blocks.cpp). Pure C++17.
#pragma once

#include <cstdint>
#include <vector>

namespace collsim::plan {

// Base segments [lo, hi).
struct SegmentRange {
  int64_t lo, hi;
  int64_t mid() const { return (lo + hi) / 2; }
  int64_t size() const { return hi - lo; }
};

// The range member v of a power-of-two group keeps after `steps` halving
// steps over `nseg` segments: in step j (distance d = 2^j) it keeps the
// lower half where bit d of v is clear, the upper half where it is set.
//   nseg = 8, v = 1: [0, 8) → [4, 8) → [4, 6) → [4, 5)   (v = 1 = 0b001)
// Distance doubles while the range halves, so after the last step member v
// holds segment bitreverse(v): the doubling phase walks back up.
inline SegmentRange halved_range(int64_t v, int64_t steps, int64_t nseg) {
  SegmentRange r{0, nseg};
  for (int64_t j = 0; j < steps; ++j) r = (v >> j) & 1 ? SegmentRange{r.mid(), r.hi} : SegmentRange{r.lo, r.mid()};
  return r;
}

// binary-blocks' cut of p = 2^e0 + 2^e1 + .. (e0 > e1 > ..) into blocks of
// ranks of those sizes, the largest first.
//   p = 13:  [0, 8) [8, 12) [12, 13)
struct RankBlock {
  int64_t first, size;
  int64_t lg() const { return __builtin_ctzll(static_cast<uint64_t>(size)); }
};

inline std::vector<RankBlock> binary_blocks(int64_t p) {
  std::vector<RankBlock> blocks;
  int64_t first = 0;
  for (int bit = 62; bit >= 0; --bit)
    if ((p >> bit) & 1) {
      blocks.push_back({first, int64_t{1} << bit});
      first += int64_t{1} << bit;
    }
  return blocks;
}

}  // namespace collsim::plan
