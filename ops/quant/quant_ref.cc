// Scalar reference of the int8 family (contract in ops/ops.h).
#include <math.h>

#include "ops/activation/activation_ref.h"
#include "ops/gemm/pack.h"
#include "ops/ops.h"

namespace edgemt::ops {

void qs8_quantize__ref(size_t m, size_t k, const float* a, size_t lda, int8_t* q, size_t ldq, float* scale) {
  for (size_t i = 0; i < m; ++i) {
    const float* ai = a + i * lda;
    float mx = 0.0f;
    for (size_t kk = 0; kk < k; ++kk) {
      const float v = ::fabsf(ai[kk]);
      mx = v > mx ? v : mx;
    }
    const float inv = mx > 0.0f ? 127.0f / mx : 1.0f;
    scale[i] = mx > 0.0f ? mx / 127.0f : 1.0f;
    for (size_t kk = 0; kk < k; ++kk) q[i * ldq + kk] = static_cast<int8_t>(::roundf(ai[kk] * inv));
    for (size_t kk = k; kk < ldq; ++kk) q[i * ldq + kk] = 0;
  }
}

void qs8_gemm__ref(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq, const float* sa,
                   const int8_t* w, const float* sw, const int32_t* wsum, float* c, size_t ldc,
                   const GemmEpilogue& ep) {
  (void)wsum;
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < n; ++j) {
      int32_t acc = 0;
      for (size_t kk = 0; kk < k; ++kk)
        acc += static_cast<int32_t>(q[i * ldq + kk]) * static_cast<int32_t>(qs8_panel_at(w, k, j, kk));
      float x = static_cast<float>(acc) * (sa[i] * sw[j]);
      if (ep.bias != nullptr) x = x + ep.bias[j];
      c[i * ldc + j] = activation_ref(x, ep.act);
    }
  }
}

void qs8_gemm_w7__ref(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq, const float* sa,
                      const int8_t* w, const float* sw, const int32_t* wsum, float* c, size_t ldc,
                      const GemmEpilogue& ep) {
  qs8_gemm__ref(m, n, k, q, ldq, sa, w, sw, wsum, c, ldc, ep);
}

}  // namespace edgemt::ops
