// Scalar reference of the recurrent family (contract in ops/ops.h).
#include <math.h>

#include "ops/ops.h"

namespace edgemt::ops {

void f32_ssru__ref(size_t n, const float* x, const float* g, float* c, bool first, float* y) {
  for (size_t i = 0; i < n; ++i) {
    // Marian's highway(c, x, f): sigmoid(f) * c + (1 - sigmoid(f)) * x, in float.
    const float f = 1.0f / (1.0f + ::expf(-g[i]));
    const float prev = first ? 0.0f : c[i];
    const float next = f * prev + (1.0f - f) * x[i];
    c[i] = next;
    y[i] = next > 0.0f ? next : 0.0f;
  }
}

}  // namespace edgemt::ops
