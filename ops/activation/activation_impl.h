// Generic xsimd implementation of f32_activation (contract in ops/ops.h).
#pragma once

#include "ops/common/simd.h"

namespace edgemt::ops {
namespace {

template <class Arch>
void f32_activation_generic(size_t n, const float* x, float* y, Activation act) {
  using B = xsimd::batch<float, Arch>;
  constexpr size_t W = B::size;
  size_t i = 0;
  for (; i + W <= n; i += W) act_batch<Arch>(B::load_unaligned(x + i), act).store_unaligned(y + i);
  if (i < n) {  // tail through a padded buffer: same vector math as the body
    alignas(64) float buf[W];
    for (size_t j = 0; j < W; ++j) buf[j] = i + j < n ? x[i + j] : 0.0f;
    act_batch<Arch>(B::load_aligned(buf), act).store_aligned(buf);
    for (size_t j = 0; i + j < n; ++j) y[i + j] = buf[j];
  }
}

}  // namespace
}  // namespace edgemt::ops

#define EDGEMT_INSTANTIATE_ACTIVATION(isa, Arch)                                   \
  namespace edgemt::ops {                                                          \
  void f32_activation__##isa(size_t n, const float* x, float* y, Activation act) { \
    f32_activation_generic<Arch>(n, x, y, act);                                    \
  }                                                                                \
  }
