// Scalar reference of the f32 gemm family: plain loops, never optimised (the oracle).
#include "ops/activation/activation_ref.h"
#include "ops/gemm/pack.h"
#include "ops/ops.h"

namespace edgemt::ops {

void f32_gemm__ref(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* w, float* c,
                   size_t ldc, const GemmEpilogue& ep) {
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (size_t kk = 0; kk < k; ++kk) acc += a[i * lda + kk] * f32_panel_at(w, k, j, kk);
      if (ep.bias != nullptr) acc += ep.bias[j];
      c[i * ldc + j] = activation_ref(acc, ep.act);
    }
  }
}

}  // namespace edgemt::ops
