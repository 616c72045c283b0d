#include "ops/activation/activation_ref.h"

namespace edgemt::ops {

void f32_activation__ref(size_t n, const float* x, float* y, Activation act) {
  for (size_t i = 0; i < n; ++i) y[i] = activation_ref(x[i], act);
}

}  // namespace edgemt::ops
