// Generic xsimd implementation of qs8_quantize (contract in ops/ops.h): the row's
// absolute maximum is a vector reduction; quantization itself is the same scalar
// arithmetic as the reference (x * (127 / max), rounded half away from zero), so the
// codes are identical to it.
#pragma once

#include "ops/common/simd.h"

namespace edgemt::ops {
namespace {

template <class Arch>
void qs8_quantize_generic(size_t m, size_t k, const float* a, size_t lda, int8_t* q, size_t ldq,
                          float* scale) {
  using B = xsimd::batch<float, Arch>;
  constexpr size_t W = B::size;
  for (size_t i = 0; i < m; ++i) {
    const float* ai = a + i * lda;
    size_t kk = 0;
    float mx = 0.0f;
    if (k >= W) {
      B vm = xsimd::abs(B::load_unaligned(ai));
      for (kk = W; kk + W <= k; kk += W) vm = xsimd::max(vm, xsimd::abs(B::load_unaligned(ai + kk)));
      mx = hmax<Arch>(vm);
    }
    for (; kk < k; ++kk) {
      const float v = ::fabsf(ai[kk]);
      mx = v > mx ? v : mx;
    }
    const float inv = mx > 0.0f ? 127.0f / mx : 1.0f;
    scale[i] = mx > 0.0f ? mx / 127.0f : 1.0f;
    const B vinv(inv);
    int8_t* qi = q + i * ldq;
    for (kk = 0; kk + W <= k; kk += W) {
      alignas(64) float buf[W];
      xsimd::round(B::load_unaligned(ai + kk) * vinv).store_aligned(buf);
      for (size_t t = 0; t < W; ++t) qi[kk + t] = static_cast<int8_t>(static_cast<int32_t>(buf[t]));
    }
    for (; kk < k; ++kk) qi[kk] = static_cast<int8_t>(::roundf(ai[kk] * inv));
    for (kk = k; kk < ldq; ++kk) qi[kk] = 0;
  }
}

}  // namespace
}  // namespace edgemt::ops

#define EDGEMT_INSTANTIATE_QUANT(isa, Arch)                                                       \
  namespace edgemt::ops {                                                                         \
  void qs8_quantize__##isa(size_t m, size_t k, const float* a, size_t lda, int8_t* q, size_t ldq, \
                           float* scale) {                                                        \
    qs8_quantize_generic<Arch>(m, k, a, lda, q, ldq, scale);                                      \
  }                                                                                               \
  }
