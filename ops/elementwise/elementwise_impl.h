// Generic xsimd implementation of the element-wise family (contract in ops/ops.h):
// residual additions.
#pragma once

#include "ops/common/simd.h"

namespace edgemt::ops {
namespace {

template <class Arch>
void f32_add_generic(size_t n, const float* x, const float* r, float* y) {
  using B = xsimd::batch<float, Arch>;
  constexpr size_t W = B::size;
  size_t i = 0;
  for (; i + W <= n; i += W) (B::load_unaligned(x + i) + B::load_unaligned(r + i)).store_unaligned(y + i);
  for (; i < n; ++i) y[i] = x[i] + r[i];
}

}  // namespace
}  // namespace edgemt::ops

#define EDGEMT_INSTANTIATE_ELEMENTWISE(isa, Arch)                           \
  namespace edgemt::ops {                                                   \
  void f32_add__##isa(size_t n, const float* x, const float* r, float* y) { \
    f32_add_generic<Arch>(n, x, r, y);                                      \
  }                                                                         \
  }
