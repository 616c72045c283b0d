// Shared helpers for the generic xsimd kernel templates.
//
// Included only by *_impl.h headers, which are compiled once per ISA with that ISA's
// flags. Everything here has internal linkage (anonymous namespace) so that the
// linker can never pick an AVX2-compiled copy of a helper for code that runs on an
// older CPU. Do not call std:: templates (std::max, ...) from kernel code for the
// same reason; scalar math goes through the C functions (::expf).
#pragma once

#include <math.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <xsimd/xsimd.hpp>

#include "ops/ops.h"

#if defined(__GNUC__)
#define EDGEMT_ALWAYS_INLINE inline __attribute__((always_inline))
#define EDGEMT_UNROLL _Pragma("GCC unroll 16")
#else
#define EDGEMT_ALWAYS_INLINE inline
#define EDGEMT_UNROLL
#endif

namespace edgemt::ops {
namespace {

template <class T>
EDGEMT_ALWAYS_INLINE T k_min(T a, T b) {
  return b < a ? b : a;
}
template <class T>
EDGEMT_ALWAYS_INLINE T k_max(T a, T b) {
  return a < b ? b : a;
}

// Fused multiply-add x * y + z with one rounding. xsimd 8.1 has no AVX-512 fma: its
// xsimd::fma for avx512f/bw falls back to a multiply and an add (two roundings, twice the
// instructions; under -ffp-contract=off the compiler cannot fuse them), so the AVX-512
// kernels call _mm512_fmadd_ps here, as AVX2 (fma3) and NEON already do through xsimd.
template <class Arch>
EDGEMT_ALWAYS_INLINE xsimd::batch<float, Arch> k_fma(xsimd::batch<float, Arch> x, xsimd::batch<float, Arch> y,
                                                     xsimd::batch<float, Arch> z) {
#if defined(__AVX512F__)
  if constexpr (std::is_base_of_v<xsimd::avx512f, Arch>) {
    return _mm512_fmadd_ps(x, y, z);
  } else {
    return xsimd::fma(x, y, z);
  }
#else
  return xsimd::fma(x, y, z);
#endif
}

// Scalar activation, the same formulas as the reference (ops/activation/activation_ref.h).
EDGEMT_ALWAYS_INLINE float act_scalar(float x, Activation act) {
  switch (act) {
    case Activation::kNone:
      return x;
    case Activation::kRelu:
      return x > 0.0f ? x : 0.0f;
    case Activation::kGelu:
      return 0.5f * x * (1.0f + ::erff(x * 0.70710678118654752f));
    case Activation::kSwish:
      return x / (1.0f + ::expf(-x));
    case Activation::kGeluTanh: {
      const float u = 0.7978845608028654f * (x + 0.044715f * x * x * x);
      return 0.5f * x * (1.0f + ::tanhf(u));
    }
  }
  return x;
}

// Horizontal sum and maximum of a vector (xsimd 8.1 has hadd but no reduce_max).
template <class Arch>
EDGEMT_ALWAYS_INLINE float hsum(xsimd::batch<float, Arch> x) {
  return xsimd::hadd(x);
}
template <class Arch>
EDGEMT_ALWAYS_INLINE float hmax(xsimd::batch<float, Arch> x) {
  constexpr size_t W = xsimd::batch<float, Arch>::size;
  alignas(64) float buf[W];
  x.store_aligned(buf);
  float m = buf[0];
  for (size_t i = 1; i < W; ++i) m = buf[i] > m ? buf[i] : m;
  return m;
}

template <class Arch>
EDGEMT_ALWAYS_INLINE xsimd::batch<float, Arch> act_batch(xsimd::batch<float, Arch> x, Activation act) {
  using B = xsimd::batch<float, Arch>;
  switch (act) {
    case Activation::kNone:
      return x;
    case Activation::kRelu:
      return xsimd::max(x, B(0.0f));
    case Activation::kGelu:
      return B(0.5f) * x * (B(1.0f) + xsimd::erf(x * B(0.70710678118654752f)));
    case Activation::kSwish:
      return x / (B(1.0f) + xsimd::exp(-x));
    case Activation::kGeluTanh: {
      const B u = B(0.7978845608028654f) * (x + B(0.044715f) * x * x * x);
      return B(0.5f) * x * (B(1.0f) + xsimd::tanh(u));
    }
  }
  return x;
}

}  // namespace
}  // namespace edgemt::ops
