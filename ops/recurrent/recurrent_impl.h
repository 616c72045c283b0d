// Generic xsimd implementation of the recurrent family (contract in ops/ops.h): the
// SSRU cell of Firefox Translations' students.
#pragma once

#include <math.h>

#include "ops/common/simd.h"

namespace edgemt::ops {
namespace {

template <class Arch>
void f32_ssru_generic(size_t n, const float* x, const float* g, float* c, bool first, float* y) {
  using B = xsimd::batch<float, Arch>;
  constexpr size_t W = B::size;
  const B one(1.0f), zero(0.0f);
  size_t i = 0;
  for (; i + W <= n; i += W) {
    const B f = one / (one + xsimd::exp(-B::load_unaligned(g + i)));
    const B prev = first ? zero : B::load_unaligned(c + i);
    const B next = f * prev + (one - f) * B::load_unaligned(x + i);
    next.store_unaligned(c + i);
    xsimd::max(next, zero).store_unaligned(y + i);
  }
  for (; i < n; ++i) {
    const float f = 1.0f / (1.0f + ::expf(-g[i]));
    const float next = f * (first ? 0.0f : c[i]) + (1.0f - f) * x[i];
    c[i] = next;
    y[i] = next > 0.0f ? next : 0.0f;
  }
}

}  // namespace
}  // namespace edgemt::ops

#define EDGEMT_INSTANTIATE_RECURRENT(isa, Arch)                                                    \
  namespace edgemt::ops {                                                                          \
  void f32_ssru__##isa(size_t n, const float* x, const float* g, float* c, bool first, float* y) { \
    f32_ssru_generic<Arch>(n, x, g, c, first, y);                                                  \
  }                                                                                                \
  }
