// Generic xsimd implementation of the layer-norm family (contract in ops/ops.h).
// Two-pass statistics (mean, then the sum of squared deviations), like torch's
// LayerNorm, for stability. The sums are lane sums (simd.h) and no step is a fused
// multiply-add, so every level and its scalar tail give the same bits.
#pragma once

#include "ops/common/simd.h"

namespace edgemt::ops {
namespace {

template <class Arch>
void f32_add_layernorm_generic(size_t rows, size_t d, const float* x, size_t ldx, const float* r, size_t ldr,
                               const float* gamma, const float* beta, float eps, float* y, size_t ldy) {
  using B = xsimd::batch<float, Arch>;
  constexpr size_t W = B::size;
  constexpr size_t V = kSumLanes / W;
  const size_t dl = d / kSumLanes * kSumLanes;
  const size_t dv = d / W * W;
  alignas(64) float lanes[kSumLanes];
  for (size_t i = 0; i < rows; ++i) {
    const float* xi = x + i * ldx;
    const float* ri = r != nullptr ? r + i * ldr : nullptr;
    float* yi = y + i * ldy;
    B vs[V];
    EDGEMT_UNROLL
    for (size_t v = 0; v < V; ++v) vs[v] = B(0.0f);
    for (size_t j = 0; j < dl; j += kSumLanes) {
      EDGEMT_UNROLL
      for (size_t v = 0; v < V; ++v) {
        B s = B::load_unaligned(xi + j + v * W);
        if (ri != nullptr) s = s + B::load_unaligned(ri + j + v * W);
        s.store_unaligned(yi + j + v * W);
        vs[v] = vs[v] + s;
      }
    }
    store_lanes<Arch>(vs, lanes);
    for (size_t j = dl; j < d; ++j) {
      yi[j] = ri != nullptr ? xi[j] + ri[j] : xi[j];
      lanes[j - dl] = lanes[j - dl] + yi[j];
    }
    const float mean = fold_lanes(lanes) / static_cast<float>(d);
    const B vmean(mean);
    EDGEMT_UNROLL
    for (size_t v = 0; v < V; ++v) vs[v] = B(0.0f);
    for (size_t j = 0; j < dl; j += kSumLanes) {
      EDGEMT_UNROLL
      for (size_t v = 0; v < V; ++v) {
        const B t = B::load_unaligned(yi + j + v * W) - vmean;
        vs[v] = vs[v] + t * t;
      }
    }
    store_lanes<Arch>(vs, lanes);
    for (size_t j = dl; j < d; ++j) {
      const float t = yi[j] - mean;
      lanes[j - dl] = lanes[j - dl] + t * t;
    }
    const float rstd = 1.0f / ::sqrtf(fold_lanes(lanes) / static_cast<float>(d) + eps);
    const B vr(rstd);
    size_t j = 0;
    for (; j < dv; j += W) {
      const B t = (B::load_unaligned(yi + j) - vmean) * vr;
      (t * B::load_unaligned(gamma + j) + B::load_unaligned(beta + j)).store_unaligned(yi + j);
    }
    for (; j < d; ++j) yi[j] = (yi[j] - mean) * rstd * gamma[j] + beta[j];
  }
}

}  // namespace
}  // namespace edgemt::ops

#define EDGEMT_INSTANTIATE_LAYERNORM(isa, Arch)                                                         \
  namespace edgemt::ops {                                                                               \
  void f32_add_layernorm__##isa(size_t rows, size_t d, const float* x, size_t ldx, const float* r,      \
                                size_t ldr, const float* gamma, const float* beta, float eps, float* y, \
                                size_t ldy) {                                                           \
    f32_add_layernorm_generic<Arch>(rows, d, x, ldx, r, ldr, gamma, beta, eps, y, ldy);                 \
  }                                                                                                     \
  }
