// [lo, hi]: the ⊕ of the inputs of ranks lo..hi in rank order, or empty. The
// value the symbolic checkers (scan_check, plan_check) run plans on: with
// only [i, j] ⊕ [j + 1, k] allowed, a rank ending with [0, r] provably holds
// its prefix for any associative, non-commutative ⊕.
#pragma once

#include <cstdint>
#include <string>

namespace collsim {

struct Interval {
  int64_t lo = 1, hi = 0;  // empty when hi < lo
  bool empty() const { return hi < lo; }
  bool operator==(const Interval& o) const { return empty() ? o.empty() : lo == o.lo && hi == o.hi; }
  bool operator!=(const Interval& o) const { return !(*this == o); }
};

inline std::string str(Interval v) {
  return v.empty() ? "nothing" : "[" + std::to_string(v.lo) + ", " + std::to_string(v.hi) + "]";
}

}  // namespace collsim
