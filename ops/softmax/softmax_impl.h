// Generic xsimd implementation of the softmax family (contract in ops/ops.h).
// Three passes: max, exp and sum, scale. Every step gives the same bits on every ISA
// level (the maximum is exact; exp and the sum: simd.h).
#pragma once

#include "ops/common/simd.h"

namespace edgemt::ops {
namespace {

template <class Arch>
EDGEMT_ALWAYS_INLINE float row_max(size_t n, const float* x) {
  using B = xsimd::batch<float, Arch>;
  constexpr size_t W = B::size;
  size_t i = 0;
  float mx = x[0];
  if (n >= W) {
    // Four independent maxima: one chain would be latency-bound.
    B m0 = B::load_unaligned(x), m1 = m0, m2 = m0, m3 = m0;
    for (i = W; i + 4 * W <= n; i += 4 * W) {
      m0 = xsimd::max(m0, B::load_unaligned(x + i));
      m1 = xsimd::max(m1, B::load_unaligned(x + i + W));
      m2 = xsimd::max(m2, B::load_unaligned(x + i + 2 * W));
      m3 = xsimd::max(m3, B::load_unaligned(x + i + 3 * W));
    }
    for (; i + W <= n; i += W) m0 = xsimd::max(m0, B::load_unaligned(x + i));
    mx = hmax<Arch>(xsimd::max(xsimd::max(m0, m1), xsimd::max(m2, m3)));
  }
  for (; i < n; ++i) mx = x[i] > mx ? x[i] : mx;
  return mx;
}

// y[i] = exp(x[i] - mx); returns the sum. y may equal x; y may be null (sum only).
// k_exp and lane sums (simd.h): the same bits on every level. The tail (< kSumLanes)
// goes through a buffer padded with -inf (exp(-inf) = 0), so it runs the body's math.
template <class Arch>
EDGEMT_ALWAYS_INLINE float exp_sum(size_t n, const float* x, float mx, float* y) {
  using B = xsimd::batch<float, Arch>;
  constexpr size_t W = B::size;
  constexpr size_t V = kSumLanes / W;
  const B vm(mx);
  B s[V];
  EDGEMT_UNROLL
  for (size_t v = 0; v < V; ++v) s[v] = B(0.0f);
  size_t i = 0;
  for (; i + kSumLanes <= n; i += kSumLanes) {
    EDGEMT_UNROLL
    for (size_t v = 0; v < V; ++v) {
      const B e = k_exp<Arch>(B::load_unaligned(x + i + v * W) - vm);
      if (y != nullptr) e.store_unaligned(y + i + v * W);
      s[v] = s[v] + e;
    }
  }
  if (i < n) {
    alignas(64) float buf[kSumLanes];
    for (size_t j = 0; j < kSumLanes; ++j) buf[j] = i + j < n ? x[i + j] : -INFINITY;
    EDGEMT_UNROLL
    for (size_t v = 0; v < V; ++v) {
      const B e = k_exp<Arch>(B::load_aligned(buf + v * W) - vm);
      e.store_aligned(buf + v * W);
      s[v] = s[v] + e;
    }
    if (y != nullptr)
      for (size_t j = 0; i + j < n; ++j) y[i + j] = buf[j];
  }
  alignas(64) float lanes[kSumLanes];
  store_lanes<Arch>(s, lanes);
  return fold_lanes(lanes);
}

template <class Arch>
void f32_softmax_generic(size_t n, size_t n_total, const float* x, float* y) {
  using B = xsimd::batch<float, Arch>;
  constexpr size_t W = B::size;
  const float mx = row_max<Arch>(n, x);
  const float sum = exp_sum<Arch>(n, x, mx, y);
  const B inv(1.0f / sum);
  size_t i = 0;
  for (; i + W <= n; i += W) (B::load_unaligned(y + i) * inv).store_unaligned(y + i);
  const float s_inv = 1.0f / sum;
  for (; i < n; ++i) y[i] *= s_inv;
  for (i = n; i < n_total; ++i) y[i] = 0.0f;
}

template <class Arch>
float f32_logsumexp_generic(size_t n, const float* x) {
  const float mx = row_max<Arch>(n, x);
  return mx + ::logf(exp_sum<Arch>(n, x, mx, nullptr));
}

}  // namespace
}  // namespace edgemt::ops

#define EDGEMT_INSTANTIATE_SOFTMAX(isa, Arch)                                                        \
  namespace edgemt::ops {                                                                            \
  void f32_softmax__##isa(size_t n, size_t n_total, const float* x, float* y) {                      \
    f32_softmax_generic<Arch>(n, n_total, x, y);                                                     \
  }                                                                                                  \
  float f32_logsumexp__##isa(size_t n, const float* x) { return f32_logsumexp_generic<Arch>(n, x); } \
  }
