// qs8_gemm for armv7 NEON (32-bit Raspberry Pi OS): widening multiply-accumulate,
// one row per tile (16 q registers).
#include "ops/declarations.h"
#include "ops/quant/qs8_gemm_neon_impl.h"

namespace edgemt::ops {

void qs8_gemm__neon(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq, const float* sa,
                    const int8_t* w, const float* sw, const int32_t* wsum, float* c, size_t ldc,
                    const GemmEpilogue& ep) {
  (void)wsum;
  qs8_gemm_neon_mull<xsimd::neon, 1>(m, n, k, q, ldq, sa, w, sw, c, ldc, ep);
}

}  // namespace edgemt::ops
