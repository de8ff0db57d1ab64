// A 64-bit mixing function (splitmix64's finaliser) for the test MPI
// programs' data and digests: every input bit affects every output bit, so
// a misplaced word changes the digest.
#pragma once

#include <cstdint>

namespace collsim::test {

inline uint64_t mix(uint64_t x) {
  x ^= x >> 31;
  x *= 0x9E3779B97F4A7C15ULL;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ULL;
  return x ^ (x >> 32);
}

}  // namespace collsim::test
