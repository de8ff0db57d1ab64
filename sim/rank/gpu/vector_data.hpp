// The vectors the simulated GPUs produce, and the check of the allreduce.
//
// Element i of rank r's vector in repetition `rep` is (i + rep) mod 64 +
// r mod 5: small integers, so a SUM of doubles is exact in any order and its
// value p·((i + rep) mod 64) + Σ_{r<p} (r mod 5) has a closed form; the
// check is O(n) per rank. Until a device-to-host copy lands, the host holds
// NaN: a partition reduced before its copy poisons the result.
#pragma once

#include <cstdint>

namespace collsim::sim::gpu {

// Element range [begin, end) of partition k when n elements are cut into
// `parts` blocks of ceil(n / parts) (the last ones shorter or empty).
struct Elements {
  int64_t begin, end;
  int64_t count() const { return end - begin; }
  int64_t bytes() const { return 8 * count(); }
};
Elements partition(int64_t n, int64_t parts, int64_t k);

void poison(double* host, int64_t n);
// The effect of copying elements [e.begin, e.end) of rank's result to the host.
void produce(double* host, Elements e, int rank, int rep);
// Index of the first element of `range` that is not the allreduce over p ranks, or -1.
int64_t first_mismatch(const double* result, Elements range, int p, int rep);
double expected(int64_t i, int p, int rep);

}  // namespace collsim::sim::gpu
