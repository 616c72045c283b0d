// qs8_gemm_w7 for the sse4_2 level: its qs8_gemm (ops/ops.h: only AVX2 has a faster
// path for 7-bit weights).
#include "ops/declarations.h"

namespace edgemt::ops {

void qs8_gemm_w7__sse4_2(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq, const float* sa,
                         const int8_t* w, const float* sw, const int32_t* wsum, float* c, size_t ldc,
                         const GemmEpilogue& ep) {
  qs8_gemm__sse4_2(m, n, k, q, ldq, sa, w, sw, wsum, c, ldc, ep);
}

}  // namespace edgemt::ops
