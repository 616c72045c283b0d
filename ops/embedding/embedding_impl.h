// Generic xsimd implementation of the embedding family (contract in ops/ops.h).
#pragma once

#include "ops/common/simd.h"

namespace edgemt::ops {
namespace {

template <class Arch>
void f32_embed_generic(size_t d, const float* e, size_t stride, float scale, const float* p, float* y) {
  using B = xsimd::batch<float, Arch>;
  constexpr size_t W = B::size;
  if (stride != 1) {  // a panel row: a gather, memory-bound
    for (size_t i = 0; i < d; ++i) y[i] = e[i * stride] * scale + (p != nullptr ? p[i] : 0.0f);
    return;
  }
  const B vs(scale);
  size_t i = 0;
  if (p != nullptr) {
    for (; i + W <= d; i += W)
      (B::load_unaligned(e + i) * vs + B::load_unaligned(p + i)).store_unaligned(y + i);
    for (; i < d; ++i) y[i] = e[i] * scale + p[i];
  } else {
    for (; i + W <= d; i += W) (B::load_unaligned(e + i) * vs).store_unaligned(y + i);
    for (; i < d; ++i) y[i] = e[i] * scale + 0.0f;
  }
}

template <class Arch>
void qs8_embed_generic(size_t d, const int8_t* e, size_t group_stride, float escale, float scale,
                       const float* p, float* y) {
  // Memory-bound gather of d bytes; the arithmetic is the reference's.
  const float s = escale * scale;
  size_t i = 0;
  for (; i + 4 <= d; i += 4) {
    const int8_t* g = e + (i / 4) * group_stride;
    for (size_t t = 0; t < 4; ++t) y[i + t] = static_cast<float>(g[t]) * s + (p != nullptr ? p[i + t] : 0.0f);
  }
  for (; i < d; ++i)
    y[i] = static_cast<float>(e[(i / 4) * group_stride + i % 4]) * s + (p != nullptr ? p[i] : 0.0f);
}

}  // namespace
}  // namespace edgemt::ops

#define EDGEMT_INSTANTIATE_EMBEDDING(isa, Arch)                                                           \
  namespace edgemt::ops {                                                                                 \
  void f32_embed__##isa(size_t d, const float* e, size_t stride, float scale, const float* p, float* y) { \
    f32_embed_generic<Arch>(d, e, stride, scale, p, y);                                                   \
  }                                                                                                       \
  void qs8_embed__##isa(size_t d, const int8_t* e, size_t gs, float escale, float scale, const float* p,  \
                        float* y) {                                                                       \
    qs8_embed_generic<Arch>(d, e, gs, escale, scale, p, y);                                               \
  }                                                                                                       \
  }
