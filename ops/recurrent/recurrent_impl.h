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
    const B f = k_div<Arch>(one, one + k_exp<Arch>(-B::load_unaligned(g + i)));
    const B prev = first ? zero : B::load_unaligned(c + i);
    const B next = f * prev + (one - f) * B::load_unaligned(x + i);
    next.store_unaligned(c + i);
    xsimd::max(next, zero).store_unaligned(y + i);
  }
  if (i < n) {  // tail through padded buffers: the body's math, so the same bits on every level
    alignas(64) float bx[W], bg[W], bc[W];
    for (size_t j = 0; j < W; ++j) {
      bx[j] = i + j < n ? x[i + j] : 0.0f;
      bg[j] = i + j < n ? g[i + j] : 0.0f;
      bc[j] = (!first && i + j < n) ? c[i + j] : 0.0f;
    }
    const B f = k_div<Arch>(one, one + k_exp<Arch>(-B::load_aligned(bg)));
    const B next = f * B::load_aligned(bc) + (one - f) * B::load_aligned(bx);
    next.store_aligned(bc);
    xsimd::max(next, zero).store_aligned(bx);
    for (size_t j = 0; i + j < n; ++j) {
      c[i + j] = bc[j];
      y[i + j] = bx[j];
    }
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
