// Float epilogue shared by the int8 gemm kernels (contract in ops/ops.h):
//   c[j] = act(float(acc[j]) * (sa * sw[j]) + bias[j])
// The same operations, in the same order, as the scalar reference, so results without
// an activation are bit-identical to it; activations use the vector math of simd.h.
#pragma once

#include "ops/common/simd.h"

namespace edgemt::ops {
namespace {

// acc: 16 exact int32 sums for the 16 columns of one panel; cols <= 16 are stored.
template <class Arch>
EDGEMT_ALWAYS_INLINE void qs8_store_panel_row(const int32_t* acc, float sa, const float* sw,
                                              const float* bias, Activation act, float* c, size_t cols) {
  using B = xsimd::batch<float, Arch>;
  using I = xsimd::batch<int32_t, Arch>;
  constexpr size_t W = B::size;
  alignas(64) float swb[kPanel];
  alignas(64) float bb[kPanel];
  alignas(64) float out[kPanel];
  const float* s = sw;
  const float* b = bias;
  if (cols < kPanel) {
    for (size_t j = 0; j < kPanel; ++j) {
      swb[j] = j < cols ? sw[j] : 0.0f;
      bb[j] = (bias != nullptr && j < cols) ? bias[j] : 0.0f;
    }
    s = swb;
    b = bias != nullptr ? bb : nullptr;
  }
  float* dst = cols < kPanel ? out : c;
  const B vsa(sa);
  EDGEMT_UNROLL
  for (size_t v = 0; v < kPanel / W; ++v) {
    B x = xsimd::batch_cast<float>(I::load_aligned(acc + v * W)) * (vsa * B::load_unaligned(s + v * W));
    if (b != nullptr) x = x + B::load_unaligned(b + v * W);
    act_batch<Arch>(x, act).store_unaligned(dst + v * W);
  }
  if (cols < kPanel)
    for (size_t j = 0; j < cols; ++j) c[j] = out[j];
}

}  // namespace
}  // namespace edgemt::ops
