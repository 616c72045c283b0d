// qs8_gemm on 512-bit vectors, one 16-column panel row (64 bytes: 16 columns x 4 k) per
// zmm, for a dot-product step Dp::dp(acc, a, w) that adds, per int32 lane, the 4 products
// of unsigned activation bytes by signed weight bytes: VPDPBUSD (the avx512vnni level,
// qs8_gemm__avx512vnni.cc), or, for 7-bit weights on AVX-512 without VNNI (Skylake-SP),
// VPMADDUBSW + VPMADDWD by ones + VPADDD (qs8_gemm_w7__avx512.cc; its int16 pair sums
// cannot saturate, ops/ops.h). Activations are signed, so they are shifted to unsigned
// (q + 128, by flipping the sign bit) and the shift is removed at the end: sum (q + 128) w
// = sum q w + 128 * wsum, with wsum[j] = sum_k W8[j, k] stored in the model file. All
// int32 arithmetic: exact, the same integers as the scalar reference.
//
// Panels are read with unaligned loads: model files place them on 64-byte boundaries
// (where the load costs the same), but a caller's buffer need not be (the kernel test's
// vectors were not, and the aligned load faulted on the first VNNI machine it ran on,
// an AMD EPYC Zen 4). Included only by those two sources (anonymous namespace: each
// instantiates its own copy with its own flags).
#pragma once

#include <immintrin.h>

#include "ops/gemm/pack.h"
#include "ops/quant/qs8_gemm_driver.h"

namespace edgemt::ops {
namespace {

// One row of a k group: c += (its 4 activations at a, shifted to unsigned) . wv.
template <class Dp>
EDGEMT_ALWAYS_INLINE void dp_row(const int8_t* a, __m512i wv, __m512i flip, __m512i& c) {
  int32_t a4;
  __builtin_memcpy(&a4, a, 4);
  c = Dp::dp(c, _mm512_xor_si512(_mm512_set1_epi32(a4), flip), wv);  // q + 128 as unsigned bytes
}

// Prefetch: pf (the next panel, see qs8_gemm_driver.h) when not null. Inlined into the
// driver: as a separate function (21 instructions per 8-row k group instead of 37, GCC
// 12 copying every accumulator twice when inlined) it measured 1.2x slower on Zen 4
// (edgemt-bench-ops ffn1, 16 and 64 rows), the opposite of the 256-bit kernels.
template <class Dp, size_t Rows, bool Prefetch>
EDGEMT_ALWAYS_INLINE void vnni512_tile(size_t kg, const int8_t* q, size_t ldq, const int8_t* wp,
                                       const int32_t* wsum, size_t cols, const int8_t* pf, int32_t* out) {
  static_assert(Rows >= 1 && Rows <= 8);  // 8 accumulators
  __m512i c0 = _mm512_setzero_si512(), c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, c6 = c0, c7 = c0;
  const __m512i flip = _mm512_set1_epi32(static_cast<int32_t>(0x80808080u));
  for (size_t g = 0; g < kg; ++g) {
    const __m512i wv = _mm512_loadu_si512(reinterpret_cast<const void*>(wp + g * kPanel * kPanelK8));
    if constexpr (Prefetch)
      _mm_prefetch(reinterpret_cast<const char*>(pf + g * kPanel * kPanelK8), _MM_HINT_T0);
    const int8_t* a = q + g * kPanelK8;
    dp_row<Dp>(a, wv, flip, c0);
    if constexpr (Rows > 1) dp_row<Dp>(a + ldq, wv, flip, c1);
    if constexpr (Rows > 2) dp_row<Dp>(a + 2 * ldq, wv, flip, c2);
    if constexpr (Rows > 3) dp_row<Dp>(a + 3 * ldq, wv, flip, c3);
    if constexpr (Rows > 4) dp_row<Dp>(a + 4 * ldq, wv, flip, c4);
    if constexpr (Rows > 5) dp_row<Dp>(a + 5 * ldq, wv, flip, c5);
    if constexpr (Rows > 6) dp_row<Dp>(a + 6 * ldq, wv, flip, c6);
    if constexpr (Rows > 7) dp_row<Dp>(a + 7 * ldq, wv, flip, c7);
  }
  // Remove the shift: acc -= 128 * wsum (wsum is not padded: partial panels mask it).
  const __mmask16 mask = static_cast<__mmask16>(cols >= kPanel ? 0xFFFFu : ((1u << cols) - 1u));
  const __m512i corr = _mm512_maskz_slli_epi32(mask, _mm512_maskz_loadu_epi32(mask, wsum), 7);
  const __m512i acc[8] = {c0, c1, c2, c3, c4, c5, c6, c7};
  for (size_t r = 0; r < Rows; ++r)
    _mm512_store_si512(reinterpret_cast<void*>(out + r * kPanel), _mm512_sub_epi32(acc[r], corr));
}

// The kernel's tiles for Qs8DirectLevel (qs8_gemm_driver.h).
template <class Dp>
struct Vnni512Tiles {
  static constexpr bool kPrefetches = true;
  template <size_t Rows, bool Prefetch>
  EDGEMT_ALWAYS_INLINE static void tile(size_t kg, const int8_t* qr, size_t ldq_, const int8_t* wp,
                                        const int32_t* ws, size_t cols, const int8_t* pf, int32_t* out) {
    vnni512_tile<Dp, Rows, Prefetch>(kg, qr, ldq_, wp, ws, cols, pf, out);
  }
};

template <class Dp>
EDGEMT_ALWAYS_INLINE void qs8_gemm_vnni512(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq,
                                           const float* sa, const int8_t* w, const float* sw,
                                           const int32_t* wsum, float* c, size_t ldc,
                                           const GemmEpilogue& ep) {
  Qs8DirectLevel<8, Vnni512Tiles<Dp>> level;
  qs8_gemm_drive<xsimd::avx512bw>(level, m, n, k, q, ldq, sa, w, sw, wsum, c, ldc, ep);
}

}  // namespace
}  // namespace edgemt::ops
