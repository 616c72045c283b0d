// qs8_gemm with 256-bit VPDPBUSD (contract in ops/ops.h): the avxvnni level's kernel, for
// CPUs with AVX-VNNI but no AVX-512 (Intel Alder Lake and later client cores, Sierra
// Forest). It is the avx512vnni kernel on half-width vectors: VPDPBUSD multiplies unsigned
// by signed bytes, 4 per int32 lane, and adds them to the lane, so a panel row of 64 bytes
// (16 columns x 4 k, two ymm) against a row's 4 activations broadcast yields the 16
// columns' partial sums in two instructions. Activations are shifted to unsigned (q + 128,
// by flipping the sign bit) and the shift removed at the end with wsum (sum_k W8[j, k]):
// all int32, exact, the same integers as the scalar reference.
//
// Tile: up to Dp::kMaxRows rows: 6 for VPDPBUSD (12 accumulators + 2 weight vectors + the
// activation + the sign-flip constant = the 16 ymm registers). Dp::dp(acc, a, w) is the
// instruction: the VEX form (_mm256_dpbusd_avx_epi32, qs8_gemm__avxvnni.cc), the EVEX
// form on ymm (_mm256_dpbusd_epi32, AVX512VL + AVX512_VNNI, qs8_gemm__avx512vnni.cc), or,
// for 7-bit weights on plain AVX2, VPMADDUBSW + VPMADDWD by ones + VPADDD
// (qs8_gemm_w7__avx2.cc, 4 rows: it needs the ones constant and a product register). Both encode the
// same operation; the EVEX one lets an AVX-512 VNNI CPU (which selects avx512vnni itself)
// run and test this kernel under EDGEMT_ISA=avxvnni. Included only by those two sources
// (anonymous namespace: each instantiates its own copy with its own flags).
#pragma once

#include <immintrin.h>

#include "ops/gemm/pack.h"
#include "ops/quant/qs8_gemm_driver.h"

namespace edgemt::ops {

// The EVEX instantiation (defined in qs8_gemm__avx512vnni.cc; run only where AVX512VL and
// AVX512_VNNI are present).
void qs8_gemm_vnni256_evex(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq, const float* sa,
                           const int8_t* w, const float* sw, const int32_t* wsum, float* c, size_t ldc,
                           const GemmEpilogue& ep);

namespace {

// One row of a k group: c0, c1 += (its 4 activations at a, shifted to unsigned) . w0, w1.
template <class Dp>
EDGEMT_ALWAYS_INLINE void vnni256_row(const int8_t* a, __m256i w0, __m256i w1, __m256i flip, __m256i& c0,
                                      __m256i& c1) {
  int32_t a4;
  __builtin_memcpy(&a4, a, 4);
  const __m256i av = _mm256_xor_si256(_mm256_set1_epi32(a4), flip);  // q + 128 as unsigned bytes
  c0 = Dp::dp(c0, av, w0);
  c1 = Dp::dp(c1, av, w1);
}

// A separate function with the accumulators in named locals: inlined into the driver, or
// with an array of accumulators, GCC 12 copies every accumulator twice per k group (54
// instructions per 6-row group against 30), and edgemt-bench-ops (Zen 4, EVEX form)
// measured 1.25-1.4x slower at 16 and 64 rows.
template <class Dp, size_t Rows, bool Prefetch>
__attribute__((noinline)) void vnni256_tile(size_t kg, const int8_t* q, size_t ldq, const int8_t* wp,
                                            const int32_t* wsum, size_t cols, const int8_t* pf,
                                            int32_t* out) {
  static_assert(Rows >= 1 && Rows <= Dp::kMaxRows && Dp::kMaxRows <= 6);
  __m256i c00 = _mm256_setzero_si256(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00,
          c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00;
  const __m256i flip = _mm256_set1_epi32(static_cast<int32_t>(0x80808080u));
  for (size_t g = 0; g < kg; ++g) {
    const int8_t* wg = wp + g * kPanel * kPanelK8;
    const __m256i w0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wg));
    const __m256i w1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(wg + 32));
    if constexpr (Prefetch)
      _mm_prefetch(reinterpret_cast<const char*>(pf + g * kPanel * kPanelK8), _MM_HINT_T0);
    const int8_t* a = q + g * kPanelK8;
    vnni256_row<Dp>(a, w0, w1, flip, c00, c01);
    if constexpr (Rows > 1) vnni256_row<Dp>(a + ldq, w0, w1, flip, c10, c11);
    if constexpr (Rows > 2) vnni256_row<Dp>(a + 2 * ldq, w0, w1, flip, c20, c21);
    if constexpr (Rows > 3) vnni256_row<Dp>(a + 3 * ldq, w0, w1, flip, c30, c31);
    if constexpr (Rows > 4) vnni256_row<Dp>(a + 4 * ldq, w0, w1, flip, c40, c41);
    if constexpr (Rows > 5) vnni256_row<Dp>(a + 5 * ldq, w0, w1, flip, c50, c51);
  }
  // Remove the shift: acc -= 128 * wsum (wsum is not padded: a partial panel masks its load).
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i n_cols = _mm256_set1_epi32(static_cast<int32_t>(cols < kPanel ? cols : kPanel));
  const __m256i m0 = _mm256_cmpgt_epi32(n_cols, lane);
  const __m256i m1 = _mm256_cmpgt_epi32(n_cols, _mm256_add_epi32(lane, _mm256_set1_epi32(8)));
  const __m256i k0 = _mm256_slli_epi32(_mm256_maskload_epi32(wsum, m0), 7);
  const __m256i k1 = _mm256_slli_epi32(_mm256_maskload_epi32(wsum + 8, m1), 7);
  const __m256i acc[6][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}, {c40, c41}, {c50, c51}};
  for (size_t r = 0; r < Rows; ++r) {
    _mm256_store_si256(reinterpret_cast<__m256i*>(out + r * kPanel), _mm256_sub_epi32(acc[r][0], k0));
    _mm256_store_si256(reinterpret_cast<__m256i*>(out + r * kPanel + 8), _mm256_sub_epi32(acc[r][1], k1));
  }
}

// The kernel's tiles for Qs8DirectLevel (qs8_gemm_driver.h).
template <class Dp>
struct Vnni256Tiles {
  static constexpr bool kPrefetches = true;
  template <size_t Rows, bool Prefetch>
  EDGEMT_ALWAYS_INLINE static void tile(size_t kg, const int8_t* qr, size_t ldq_, const int8_t* wp,
                                        const int32_t* ws, size_t cols, const int8_t* pf, int32_t* out) {
    vnni256_tile<Dp, Rows, Prefetch>(kg, qr, ldq_, wp, ws, cols, pf, out);
  }
};

template <class Dp>
EDGEMT_ALWAYS_INLINE void qs8_gemm_vnni256(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq,
                                           const float* sa, const int8_t* w, const float* sw,
                                           const int32_t* wsum, float* c, size_t ldc,
                                           const GemmEpilogue& ep) {
  Qs8DirectLevel<Dp::kMaxRows, Vnni256Tiles<Dp>> level;
  qs8_gemm_drive<xsimd::fma3<xsimd::avx2>>(level, m, n, k, q, ldq, sa, w, sw, wsum, c, ldc, ep);
}

}  // namespace
}  // namespace edgemt::ops
