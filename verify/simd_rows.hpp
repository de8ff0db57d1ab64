// x86 vector pieces shared by the verifier's passes down CirculantTable rows
// (circulant_dataflow.cpp, circulant_check.cpp): schedule values (int8)
// widened to 64- or 32-bit lanes, and one set bit per lane. GCC 12 does not
// vectorise `1 << v` over a vector of counts, so the passes spell it out.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__)
#define COLLSIM_X86_ROWS 1

#include <immintrin.h>

#include <cstdint>

#include "x86_cpu.hpp"

// GCC 12's intrinsics headers seed some intrinsics with a deliberately
// undefined vector and then warn about it (-Wuninitialized): not ours.
// Files using these pieces wrap their own kernels in the same pragmas.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace collsim::rows {

// The 8 values at v, sign-extended to 64-bit lanes (AVX-512).
__attribute__((target("avx512f"))) inline __m512i widen8(const int8_t* v) {
  return _mm512_cvtepi8_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(v)));
}

// 32-bit lanes: 16 values (AVX-512), 8 values (AVX2).
__attribute__((target("avx512f"))) inline __m512i widen16(const int8_t* v) {
  return _mm512_cvtepi8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v)));
}
__attribute__((target("avx2"))) inline __m256i widen8x32(const int8_t* v) {
  return _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(v)));
}

// Bit `index` in each lane; 0 where index is not in [0, 63]. vpsllvq reads
// counts as unsigned, so negative indices give 0 as well.
__attribute__((target("avx512f"))) inline __m512i bit8(__m512i index) {
  return _mm512_sllv_epi64(_mm512_set1_epi64(1), index);
}
// 32-bit lanes: 0 where index is not in [0, 31] (AVX-512, AVX2).
__attribute__((target("avx512f"))) inline __m512i bit16(__m512i index) {
  return _mm512_sllv_epi32(_mm512_set1_epi32(1), index);
}
__attribute__((target("avx2"))) inline __m256i bit8x32(__m256i index) {
  return _mm256_sllv_epi32(_mm256_set1_epi32(1), index);
}

}  // namespace collsim::rows

#pragma GCC diagnostic pop
#endif
