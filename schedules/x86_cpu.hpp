// Run-time CPU checks for the hand-vectorised x86 kernels (the schedule
// batch, the verifier's row passes). Each kernel keeps a portable twin that
// runs where these answer false.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__)
#define COLLSIM_X86 1

namespace collsim::x86 {

inline bool has_avx512() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f");
}
// The subsets the schedule batch kernels use (circulant_batch.hpp).
inline bool has_avx512_f_cd_bw_vl() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
         __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
}
inline bool has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}

}  // namespace collsim::x86
#endif
