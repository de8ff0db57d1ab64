// The binomial tree on virtual ranks 0 .. p − 1 (root 0; a real rank is
// virtual_rank(rank, root, p)), MPICH's MPIR_Bcast_binomial shape, used by
// the binomial broadcast (sends down it, largest subtree first) and the
// binary-tree reduction (receives up it, smallest subtree first).
//
//   p = 8:          0              parent(v) = v − lowbit(v)
//                /  |  \           children: v + d for the powers of two
//               4   2   1          d < child_span(v, p) with v + d < p
//              / \   \             (child_span: lowbit(v), at the root the
//             6   5   3            smallest power of two ≥ p)
//             |
//             7
//
// Depth ⌈log2 p⌉; the root has ⌈log2 p⌉ children. O(1) per call, 64-bit.
#pragma once

#include <cstdint>

namespace collsim {

inline int64_t binomial_parent(int64_t v) { return v - (v & -v); }  // v > 0

inline int64_t binomial_child_span(int64_t v, int64_t p) {
  if (v != 0) return v & -v;
  int64_t span = 1;
  while (span < p) span <<= 1;
  return span;
}

// log2 of binomial_child_span: the rounds in which v's children are served.
inline int binomial_child_levels(int64_t v, int64_t p) {
  return __builtin_ctzll(static_cast<uint64_t>(binomial_child_span(v, p)));
}

}  // namespace collsim
