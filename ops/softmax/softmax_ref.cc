// Scalar reference of the softmax family (contract in ops/ops.h).
#include <math.h>

#include "ops/ops.h"

namespace edgemt::ops {

void f32_softmax__ref(size_t n, size_t n_total, const float* x, float* y) {
  float mx = x[0];
  for (size_t i = 1; i < n; ++i) mx = x[i] > mx ? x[i] : mx;
  float sum = 0.0f;
  for (size_t i = 0; i < n; ++i) {
    y[i] = ::expf(x[i] - mx);
    sum += y[i];
  }
  const float inv = 1.0f / sum;
  for (size_t i = 0; i < n; ++i) y[i] *= inv;
  for (size_t i = n; i < n_total; ++i) y[i] = 0.0f;
}

float f32_logsumexp__ref(size_t n, const float* x) {
  float mx = x[0];
  for (size_t i = 1; i < n; ++i) mx = x[i] > mx ? x[i] : mx;
  float sum = 0.0f;
  for (size_t i = 0; i < n; ++i) sum += ::expf(x[i] - mx);
  return mx + ::logf(sum);
}

}  // namespace edgemt::ops
