// Cutting a vector into blocks: the one rule every plan, algorithm and cost
// model of collsim uses (pure C++, no MPI).
#pragma once

#include <cstdint>

namespace collsim::sim {

// Byte range [begin, end) of block b when `bytes` is cut into n blocks of
// ceil(bytes/n) (the last ones shorter or empty).
struct Span {
  int64_t begin, end;
  int count() const { return static_cast<int>(end - begin); }
};
inline Span block_span(int64_t bytes, int64_t n, int64_t b) {
  const int64_t size = (bytes + n - 1) / n;
  const int64_t begin = b * size < bytes ? b * size : bytes;
  return {begin, begin + size < bytes ? begin + size : bytes};
}
// The same cut on whole units of `unit` bytes (elements), in bytes: a block
// never splits an element (a broadcast inside a reduction moves elements).
inline Span block_span(int64_t bytes, int64_t unit, int64_t n, int64_t b) {
  const Span units = block_span(bytes / unit, n, b);
  return {units.begin * unit, units.end * unit};
}

}  // namespace collsim::sim
