// int8 gemm for NEON (contract in ops/ops.h), shared by armv7 (neon) and aarch64
// without the dot-product extension (neon64). Widening multiply-accumulate: VMULL.S8
// multiplies 8 int8 pairs into int16 (|product| <= 127 * 127), VPADAL.S16 adds adjacent
// products pairwise into int32 accumulators. Exact, no saturation.
//
// Per 4-deep k group, a panel row is 64 bytes: 16 columns x 4 k. For 4 columns (16
// bytes) and a row's 4 activations broadcast to 16 bytes, the low and high halves give
// lanes [c0 k01, c0 k23, c1 k01, c1 k23] and [c2 .., c3 ..]; pairs are added at the end.
#pragma once

#include <arm_neon.h>

#include "ops/gemm/pack.h"
#include "ops/quant/qs8_gemm_driver.h"

namespace edgemt::ops {
namespace {

inline int32x4_t pair_sums(int32x4_t x, int32x4_t y) {
#if defined(__aarch64__)
  return vpaddq_s32(x, y);
#else
  return vcombine_s32(vpadd_s32(vget_low_s32(x), vget_high_s32(x)),
                      vpadd_s32(vget_low_s32(y), vget_high_s32(y)));
#endif
}

template <size_t Rows>
EDGEMT_ALWAYS_INLINE void neon_mull_tile(size_t kg, const int8_t* q, size_t ldq, const int8_t* wp,
                                         int32_t* out) {
  // acc[r][2c + h]: columns 4c..4c+3, h = low (c0, c1) / high (c2, c3) half.
  int32x4_t acc[Rows][8];
  for (size_t r = 0; r < Rows; ++r)
    for (size_t v = 0; v < 8; ++v) acc[r][v] = vdupq_n_s32(0);
  for (size_t g = 0; g < kg; ++g) {
    const int8_t* wg = wp + g * kPanel * kPanelK8;
    int8x8_t a[Rows];
    for (size_t r = 0; r < Rows; ++r) {
      int32_t a4;
      __builtin_memcpy(&a4, q + r * ldq + g * kPanelK8, 4);
      a[r] = vreinterpret_s8_s32(vdup_n_s32(a4));
    }
    for (size_t c = 0; c < 4; ++c) {
      const int8x16_t w = vld1q_s8(wg + 16 * c);
      for (size_t r = 0; r < Rows; ++r) {
        acc[r][2 * c] = vpadalq_s16(acc[r][2 * c], vmull_s8(vget_low_s8(w), a[r]));
        acc[r][2 * c + 1] = vpadalq_s16(acc[r][2 * c + 1], vmull_s8(vget_high_s8(w), a[r]));
      }
    }
  }
  for (size_t r = 0; r < Rows; ++r)
    for (size_t c = 0; c < 4; ++c)
      vst1q_s32(out + r * kPanel + 4 * c, pair_sums(acc[r][2 * c], acc[r][2 * c + 1]));
}

// The kernel's tiles for Qs8DirectLevel (qs8_gemm_driver.h).
struct NeonMullTiles {
  static constexpr bool kPrefetches = false;
  template <size_t Rows, bool>
  EDGEMT_ALWAYS_INLINE static void tile(size_t kg, const int8_t* qr, size_t ldq_, const int8_t* wp,
                                        const int32_t*, size_t, const int8_t*, int32_t* out) {
    neon_mull_tile<Rows>(kg, qr, ldq_, wp, out);
  }
};

template <class Arch, size_t Mr>
void qs8_gemm_neon_mull(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq, const float* sa,
                        const int8_t* w, const float* sw, float* c, size_t ldc, const GemmEpilogue& ep) {
  Qs8DirectLevel<Mr, NeonMullTiles> level;
  qs8_gemm_drive<Arch>(level, m, n, k, q, ldq, sa, w, sw, nullptr, c, ldc, ep);
}

}  // namespace
}  // namespace edgemt::ops
