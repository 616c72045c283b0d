// qs8_gemm for aarch64 with the dot-product extension (Raspberry Pi 5, Cortex-A76;
// selected at run time from HWCAP_ASIMDDP): SDOT multiplies 4 int8 pairs and adds them
// into each int32 lane, so a 16-byte weight vector (4 columns x 4 k) against a row's
// 4 activations broadcast to 16 bytes gives 4 columns' partial sums directly. Exact.
#include <arm_neon.h>

#include "ops/declarations.h"
#include "ops/gemm/pack.h"
#include "ops/quant/qs8_gemm_driver.h"

namespace edgemt::ops {
namespace {

template <size_t Rows>
EDGEMT_ALWAYS_INLINE void sdot_tile(size_t kg, const int8_t* q, size_t ldq, const int8_t* wp, int32_t* out) {
  int32x4_t acc[Rows][4];
  for (size_t r = 0; r < Rows; ++r)
    for (size_t v = 0; v < 4; ++v) acc[r][v] = vdupq_n_s32(0);
  for (size_t g = 0; g < kg; ++g) {
    const int8_t* wg = wp + g * kPanel * kPanelK8;
    const int8x16_t w0 = vld1q_s8(wg), w1 = vld1q_s8(wg + 16), w2 = vld1q_s8(wg + 32), w3 = vld1q_s8(wg + 48);
    for (size_t r = 0; r < Rows; ++r) {
      int32_t a4;
      __builtin_memcpy(&a4, q + r * ldq + g * kPanelK8, 4);
      const int8x16_t a = vreinterpretq_s8_s32(vdupq_n_s32(a4));
      acc[r][0] = vdotq_s32(acc[r][0], w0, a);
      acc[r][1] = vdotq_s32(acc[r][1], w1, a);
      acc[r][2] = vdotq_s32(acc[r][2], w2, a);
      acc[r][3] = vdotq_s32(acc[r][3], w3, a);
    }
  }
  for (size_t r = 0; r < Rows; ++r)
    for (size_t v = 0; v < 4; ++v) vst1q_s32(out + r * kPanel + 4 * v, acc[r][v]);
}

// The kernel's tiles for Qs8DirectLevel (qs8_gemm_driver.h).
struct SdotTiles {
  static constexpr bool kPrefetches = false;
  template <size_t Rows, bool>
  EDGEMT_ALWAYS_INLINE static void tile(size_t kg, const int8_t* qr, size_t ldq_, const int8_t* wp,
                                        const int32_t*, size_t, const int8_t*, int32_t* out) {
    sdot_tile<Rows>(kg, qr, ldq_, wp, out);
  }
};

}  // namespace

void qs8_gemm__neon64_dot(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq, const float* sa,
                          const int8_t* w, const float* sw, const int32_t* wsum, float* c, size_t ldc,
                          const GemmEpilogue& ep) {
  Qs8DirectLevel<4, SdotTiles> level;
  qs8_gemm_drive<xsimd::neon64>(level, m, n, k, q, ldq, sa, w, sw, wsum, c, ldc, ep);
}

}  // namespace edgemt::ops
