// Generic xsimd implementation of the layer-norm family (contract in ops/ops.h).
// Two-pass statistics (mean, then the sum of squared deviations), like torch's
// LayerNorm, for stability. Vector body with 4 independent accumulators (the sums are
// latency-bound with one), scalar tail.
#pragma once

#include "ops/common/simd.h"

namespace edgemt::ops {
namespace {

template <class Arch>
void f32_add_layernorm_generic(size_t rows, size_t d, const float* x, size_t ldx, const float* r, size_t ldr,
                               const float* gamma, const float* beta, float eps, float* y, size_t ldy) {
  using B = xsimd::batch<float, Arch>;
  constexpr size_t W = B::size;
  const size_t dv = d / W * W;
  for (size_t i = 0; i < rows; ++i) {
    const float* xi = x + i * ldx;
    const float* ri = r != nullptr ? r + i * ldr : nullptr;
    float* yi = y + i * ldy;
    B vs[4] = {B(0.0f), B(0.0f), B(0.0f), B(0.0f)};
    size_t j = 0;
    for (; j + 4 * W <= dv; j += 4 * W) {
      EDGEMT_UNROLL
      for (size_t u = 0; u < 4; ++u) {
        B s = B::load_unaligned(xi + j + u * W);
        if (ri != nullptr) s = s + B::load_unaligned(ri + j + u * W);
        s.store_unaligned(yi + j + u * W);
        vs[u] = vs[u] + s;
      }
    }
    for (; j < dv; j += W) {
      B s = B::load_unaligned(xi + j);
      if (ri != nullptr) s = s + B::load_unaligned(ri + j);
      s.store_unaligned(yi + j);
      vs[0] = vs[0] + s;
    }
    float sum = hsum<Arch>((vs[0] + vs[1]) + (vs[2] + vs[3]));
    for (size_t j = dv; j < d; ++j) {
      yi[j] = ri != nullptr ? xi[j] + ri[j] : xi[j];
      sum += yi[j];
    }
    const float mean = sum / static_cast<float>(d);
    const B vmean(mean);
    B vq[4] = {B(0.0f), B(0.0f), B(0.0f), B(0.0f)};
    for (j = 0; j + 4 * W <= dv; j += 4 * W) {
      EDGEMT_UNROLL
      for (size_t u = 0; u < 4; ++u) {
        const B t = B::load_unaligned(yi + j + u * W) - vmean;
        vq[u] = k_fma<Arch>(t, t, vq[u]);
      }
    }
    for (; j < dv; j += W) {
      const B t = B::load_unaligned(yi + j) - vmean;
      vq[0] = k_fma<Arch>(t, t, vq[0]);
    }
    float sq = hsum<Arch>((vq[0] + vq[1]) + (vq[2] + vq[3]));
    for (size_t j = dv; j < d; ++j) sq += (yi[j] - mean) * (yi[j] - mean);
    const float rstd = 1.0f / ::sqrtf(sq / static_cast<float>(d) + eps);
    const B vr(rstd);
    for (j = 0; j < dv; j += W) {
      const B t = (B::load_unaligned(yi + j) - vmean) * vr;
      k_fma<Arch>(t, B::load_unaligned(gamma + j), B::load_unaligned(beta + j)).store_unaligned(yi + j);
    }
    for (size_t j = dv; j < d; ++j) yi[j] = (yi[j] - mean) * rstd * gamma[j] + beta[j];
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
