// qs8_gemm for aarch64 without the dot-product extension (Raspberry Pi 3/4, Cortex-A53
// and A72): widening multiply-accumulate, two rows per tile (32 q registers).
#include "ops/declarations.h"
#include "ops/quant/qs8_gemm_neon_impl.h"

namespace edgemt::ops {

void qs8_gemm__neon64(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq, const float* sa,
                      const int8_t* w, const float* sw, const int32_t* wsum, float* c, size_t ldc,
                      const GemmEpilogue& ep) {
  (void)wsum;
  qs8_gemm_neon_mull<xsimd::neon64, 2>(m, n, k, q, ldq, sa, w, sw, c, ldc, ep);
}

}  // namespace edgemt::ops
