// Scalar reference of the embedding family (contract in ops/ops.h).
#include "ops/ops.h"

namespace edgemt::ops {

void f32_embed__ref(size_t d, const float* e, size_t stride, float scale, const float* p, float* y) {
  for (size_t i = 0; i < d; ++i) y[i] = e[i * stride] * scale + (p != nullptr ? p[i] : 0.0f);
}

void qs8_embed__ref(size_t d, const int8_t* e, size_t group_stride, float escale, float scale, const float* p,
                    float* y) {
  const float s = escale * scale;
  for (size_t i = 0; i < d; ++i)
    y[i] = static_cast<float>(e[(i / 4) * group_stride + i % 4]) * s + (p != nullptr ? p[i] : 0.0f);
}

}  // namespace edgemt::ops
