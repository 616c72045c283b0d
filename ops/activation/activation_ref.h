// Activation functions: the reference formulas (float math, C library functions).
//   relu(x)      = max(x, 0)
//   gelu(x)      = 0.5 x (1 + erf(x / sqrt(2)))                  (exact, torch default)
//   swish(x)     = x sigmoid(x) = x / (1 + exp(-x))                (silu)
//   gelu_tanh(x) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
// Used by the scalar references only; SIMD kernels use simd.h's k_exp and k_gelu (the
// same bits on every FMA level), which agree within a few ulp (tolerances in tests/ops).
#pragma once

#include <math.h>

#include "ops/ops.h"

namespace edgemt::ops {

inline float activation_ref(float x, Activation act) {
  switch (act) {
    case Activation::kNone:
      return x;
    case Activation::kRelu:
      return x > 0.0f ? x : 0.0f;
    case Activation::kGelu:
      return 0.5f * x * (1.0f + ::erff(x * 0.70710678118654752f));
    case Activation::kSwish:
      return x / (1.0f + ::expf(-x));
    case Activation::kGeluTanh: {
      const float u = 0.7978845608028654f * (x + 0.044715f * x * x * x);
      return 0.5f * x * (1.0f + ::tanhf(u));
    }
  }
  return x;
}

}  // namespace edgemt::ops
