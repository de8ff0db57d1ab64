#include "vector_data.hpp"

#include <algorithm>
#include <limits>

namespace collsim::sim::gpu {

namespace {

double pattern(int64_t i, int rep) { return static_cast<double>((i + rep) % 64); }

}  // namespace

Elements partition(int64_t n, int64_t parts, int64_t k) {
  const int64_t size = (n + parts - 1) / parts;
  const int64_t begin = std::min(k * size, n);
  return {begin, std::min(begin + size, n)};
}

void poison(double* host, int64_t n) { std::fill(host, host + n, std::numeric_limits<double>::quiet_NaN()); }

void produce(double* host, Elements e, int rank, int rep) {
  for (int64_t i = e.begin; i < e.end; ++i) host[i] = pattern(i, rep) + rank % 5;
}

double expected(int64_t i, int p, int rep) {
  // Σ_{r<p} (r mod 5) = 10·⌊p/5⌋ + (0 + 1 + ... + (p mod 5 − 1)).
  const int q = p % 5;
  return static_cast<double>(p) * pattern(i, rep) + 10.0 * (p / 5) + q * (q - 1) / 2;
}

int64_t first_mismatch(const double* result, Elements range, int p, int rep) {
  for (int64_t i = range.begin; i < range.end; ++i)
    if (!(result[i] == expected(i, p, rep))) return i;
  return -1;
}

}  // namespace collsim::sim::gpu
