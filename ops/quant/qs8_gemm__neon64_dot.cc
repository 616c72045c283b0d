// qs8_gemm for neon64_dot. Until its integer kernel lands it runs the scalar reference.
#include "ops/declarations.h"

namespace edgemt::ops {

void qs8_gemm__neon64_dot(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq, const float* sa,
                   const int8_t* w, const float* sw, const int32_t* wsum, float* c, size_t ldc,
                   const GemmEpilogue& ep) {
  qs8_gemm__ref(m, n, k, q, ldq, sa, w, sw, wsum, c, ldc, ep);
}

}  // namespace edgemt::ops
