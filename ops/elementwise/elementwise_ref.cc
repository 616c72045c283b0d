// Scalar reference of the element-wise family (contract in ops/ops.h).
#include "ops/ops.h"

namespace edgemt::ops {

void f32_add__ref(size_t n, const float* x, const float* r, float* y) {
  for (size_t i = 0; i < n; ++i) y[i] = x[i] + r[i];
}

}  // namespace edgemt::ops
