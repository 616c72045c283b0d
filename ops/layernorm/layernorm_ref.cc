// Scalar reference of the layer-norm family (contract in ops/ops.h).
#include <math.h>

#include "ops/ops.h"

namespace edgemt::ops {

void f32_add_layernorm__ref(size_t rows, size_t d, const float* x, size_t ldx, const float* r, size_t ldr,
                            const float* gamma, const float* beta, float eps, float* y, size_t ldy) {
  for (size_t i = 0; i < rows; ++i) {
    const float* xi = x + i * ldx;
    const float* ri = r != nullptr ? r + i * ldr : nullptr;
    float* yi = y + i * ldy;
    float sum = 0.0f;
    for (size_t j = 0; j < d; ++j) {
      yi[j] = ri != nullptr ? xi[j] + ri[j] : xi[j];
      sum += yi[j];
    }
    const float mean = sum / static_cast<float>(d);
    float sq = 0.0f;
    for (size_t j = 0; j < d; ++j) sq += (yi[j] - mean) * (yi[j] - mean);
    const float rstd = 1.0f / ::sqrtf(sq / static_cast<float>(d) + eps);
    for (size_t j = 0; j < d; ++j) yi[j] = (yi[j] - mean) * rstd * gamma[j] + beta[j];
  }
}

}  // namespace edgemt::ops
