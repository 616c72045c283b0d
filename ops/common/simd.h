// Shared helpers for the generic xsimd kernel templates.
//
// Included only by *_impl.h headers, which are compiled once per ISA with that ISA's
// flags. Everything here has internal linkage (anonymous namespace) so that the
// linker can never pick an AVX2-compiled copy of a helper for code that runs on an
// older CPU. Do not call std:: templates (std::max, ...) from kernel code for the
// same reason; scalar math goes through the C functions (::sqrtf).
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

// x / y, correctly rounded (IEEE) on every level. xsimd 8.1 divides float vectors on
// both ARM families with a reciprocal estimate and two Newton steps: not IEEE division,
// so not x86's bits. AArch64 has a vector FDIV; ARMv7 NEON has none, so each lane goes
// through VFP's scalar division (4 per vector; used by the swish and the SSRU gate only).
template <class Arch>
EDGEMT_ALWAYS_INLINE xsimd::batch<float, Arch> k_div(xsimd::batch<float, Arch> x,
                                                     xsimd::batch<float, Arch> y) {
#if defined(__aarch64__)
  return vdivq_f32(x, y);
#elif defined(__arm__)
  using B = xsimd::batch<float, Arch>;
  alignas(16) float a[B::size], b[B::size];
  x.store_aligned(a);
  y.store_aligned(b);
  for (size_t i = 0; i < B::size; ++i) a[i] = a[i] / b[i];  // VFP: IEEE division
  return B::load_aligned(a);
#else
  return x / y;
#endif
}

// Scalar x * y + z rounded as k_fma rounds it on this level: fused where the level's
// vectors fuse (AVX2/AVX-512 FMA, AArch64, ARMv7 VFPv4), else a multiply and an add, so
// that scalar tails give the bits the vector body would.
EDGEMT_ALWAYS_INLINE float k_fma1(float x, float y, float z) {
#if defined(__FMA__) || defined(__aarch64__) || defined(__ARM_FEATURE_FMA)
  return __builtin_fmaf(x, y, z);
#else
  return x * y + z;
#endif
}

// exp(x), the same bits on every level with FMA, x86 and ARM alike: xsimd's exp fuses
// its multiply-adds on AVX2 and NEON but not (xsimd 8.1) on AVX-512, so it rounded
// differently per level; int8 models quantize activations right after a swish or a
// softmax, where one last-bit difference can move a value to the next code and change
// the translation between two CPUs. Here every multiply-add is k_fma (fused on every FMA
// level; SSE4.2 has none and gets its own bits), the rest are plain operations in a fixed
// order. Cephes' expf: n = round(x / ln 2) (the 1.5 * 2^23 trick), r = x - n ln 2 in two
// parts (Cody-Waite), a degree-7 polynomial for exp(r), times 2^n built in the exponent
// bits. Within 1 ulp of the exact exp (measured over [-86.9, 88.3]). x is clamped to
// [-86.9, 88.3], where the result is a normal number; below -86.9 it is 0 (exp(-inf) =
// 0), never a subnormal (ARMv7 NEON flushes those to zero, x86 does not), NaN stays NaN.
template <class Arch>
EDGEMT_ALWAYS_INLINE xsimd::batch<float, Arch> k_exp(xsimd::batch<float, Arch> x) {
  using B = xsimd::batch<float, Arch>;
  using I = xsimd::batch<int32_t, Arch>;
  constexpr float kLo = -86.9f, kHi = 88.3f;
  const B xc = xsimd::min(xsimd::max(x, B(kLo)), B(kHi));
  const B magic(12582912.0f);
  const B n = k_fma<Arch>(xc, B(1.44269504088896341f), magic) - magic;
  B r = k_fma<Arch>(n, B(-0.693359375f), xc);
  r = k_fma<Arch>(n, B(2.12194440e-4f), r);
  B p(1.9875691500e-4f);
  p = k_fma<Arch>(p, r, B(1.3981999507e-3f));
  p = k_fma<Arch>(p, r, B(8.3334519073e-3f));
  p = k_fma<Arch>(p, r, B(4.1665795894e-2f));
  p = k_fma<Arch>(p, r, B(1.6666665459e-1f));
  p = k_fma<Arch>(p, r, B(5.0000001201e-1f));
  const B y = k_fma<Arch>(p, r * r, r) + B(1.0f);
  const I e = (xsimd::batch_cast<int32_t>(n) + I(127)) << 23;
  const B res = y * xsimd::bitwise_cast<B>(e);
  return xsimd::select(x < B(kLo), B(0.0f), xsimd::select(x != x, x, res));
}

// The exact gelu, 0.5 x (1 + erf(x / sqrt 2)), without xsimd's erf (fused on AVX2 and NEON,
// not on AVX-512): 1 + erf(x / sqrt 2) is 2 - erfc(z) for x >= 0 and erfc(z) for x < 0,
// z = |x| / sqrt 2, so it stays accurate where 1 + erf is tiny, with
//   erfc(z) = t exp(-z^2 + P(t)),  t = 1 / (1 + z / 2),
// P of degree 9 fitted by tools/ops/fit_erfc.py (relative error of erfc 1.0e-7 in float64).
// k_fma, k_div and k_exp only: the same bits on every FMA level, x86 and ARM.
template <class Arch>
EDGEMT_ALWAYS_INLINE xsimd::batch<float, Arch> k_gelu(xsimd::batch<float, Arch> x) {
  using B = xsimd::batch<float, Arch>;
  const B z = xsimd::abs(x) * B(0.70710678118654752f);
  const B t = k_div<Arch>(B(1.0f), k_fma<Arch>(z, B(0.5f), B(1.0f)));
  B p(1.708727777e-01f);
  p = k_fma<Arch>(p, t, B(-8.221522346e-01f));
  p = k_fma<Arch>(p, t, B(1.488515890e+00f));
  p = k_fma<Arch>(p, t, B(-1.135204001e+00f));
  p = k_fma<Arch>(p, t, B(2.788680847e-01f));
  p = k_fma<Arch>(p, t, B(-1.862880617e-01f));
  p = k_fma<Arch>(p, t, B(9.678418951e-02f));
  p = k_fma<Arch>(p, t, B(3.740919597e-01f));
  p = k_fma<Arch>(p, t, B(1.000023680e+00f));
  p = k_fma<Arch>(p, t, B(-1.265512225e+00f));
  B e = t * k_exp<Arch>(k_fma<Arch>(-z, z, p));
  e = xsimd::select(e < B(1.17549435e-38f), B(0.0f), e);  // no subnormal: ARMv7 NEON flushes them
  return B(0.5f) * x * xsimd::select(x >= B(0.0f), B(2.0f) - e, e);
}

// Sums whose bits do not depend on the vector width: kSumLanes running sums, element i
// added to lane i % kSumLanes in increasing i, then the lanes folded pairwise (lane j + h
// into lane j for h = 16, 8, 4, 2, 1). A level keeps kSumLanes / W vectors of sums
// (independent chains, so the loop is not latency-bound), stores them with store_lanes
// and adds its tail to the stored lanes in scalar code.
inline constexpr size_t kSumLanes = 32;

template <class Arch>
EDGEMT_ALWAYS_INLINE void store_lanes(const xsimd::batch<float, Arch>* acc, float* lanes) {
  constexpr size_t W = xsimd::batch<float, Arch>::size;
  static_assert(kSumLanes % W == 0, "kSumLanes must be a multiple of the vector width");
  EDGEMT_UNROLL
  for (size_t v = 0; v < kSumLanes / W; ++v) acc[v].store_unaligned(lanes + v * W);
}

EDGEMT_ALWAYS_INLINE float fold_lanes(float* lanes) {
  for (size_t h = kSumLanes / 2; h > 0; h /= 2)
    for (size_t j = 0; j < h; ++j) lanes[j] = lanes[j] + lanes[j + h];
  return lanes[0];
}

// Horizontal maximum of a vector (xsimd 8.1 has no reduce_max).
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
      return k_gelu<Arch>(x);
    case Activation::kSwish:
      return k_div<Arch>(x, B(1.0f) + k_exp<Arch>(-x));
    case Activation::kGeluTanh: {
      // 0.5 (1 + tanh(u)) = sigmoid(2u): one k_exp, the same bits on every level
      const B u = B(0.7978845608028654f) * (x + B(0.044715f) * x * x * x);
      return k_div<Arch>(x, B(1.0f) + k_exp<Arch>(B(-2.0f) * u));
    }
  }
  return x;
}

}  // namespace
}  // namespace edgemt::ops
