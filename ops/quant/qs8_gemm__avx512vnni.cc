// qs8_gemm for AVX-512 VNNI (contract in ops/ops.h). VPDPBUSD multiplies unsigned by
// signed bytes, 4 per int32 lane, and adds them to the lane: a panel row of 64 bytes
// (16 columns x 4 k) against a row's 4 activations broadcast to all lanes yields the
// 16 columns' partial sums in one instruction. Activations are signed, so they are
// shifted to unsigned (q + 128, by flipping the sign bit) and the shift is removed at
// the end: sum (q + 128) w = sum q w + 128 * wsum, with wsum[j] = sum_k W8[j, k] stored
// in the model file. All int32 arithmetic: exact (no saturation: VPDPBUSD, not
// VPDPBUSDS).
//
// Panels are read with unaligned loads: model files place them on 64-byte boundaries
// (where the load costs the same), but a caller's buffer need not be (the kernel test's
// vectors were not, and the aligned load faulted on the first VNNI machine it ran on,
// an AMD EPYC Zen 4).
#include <immintrin.h>

#include "ops/declarations.h"
#include "ops/gemm/pack.h"
#include "ops/quant/qs8_gemm_driver.h"
#include "ops/quant/qs8_gemm_vnni256.h"

namespace edgemt::ops {
namespace {

// Prefetch: pf (the next panel, see qs8_gemm_driver.h) when not null.
template <size_t Rows, bool Prefetch>
EDGEMT_ALWAYS_INLINE void vnni_tile(size_t kg, const int8_t* q, size_t ldq, const int8_t* wp,
                                    const int32_t* wsum, size_t cols, const int8_t* pf, int32_t* out) {
  __m512i acc[Rows];
  for (size_t r = 0; r < Rows; ++r) acc[r] = _mm512_setzero_si512();
  const __m512i flip = _mm512_set1_epi32(static_cast<int32_t>(0x80808080u));
  for (size_t g = 0; g < kg; ++g) {
    const __m512i wv = _mm512_loadu_si512(reinterpret_cast<const void*>(wp + g * kPanel * kPanelK8));
    if constexpr (Prefetch)
      _mm_prefetch(reinterpret_cast<const char*>(pf + g * kPanel * kPanelK8), _MM_HINT_T0);
    for (size_t r = 0; r < Rows; ++r) {
      int32_t a4;
      __builtin_memcpy(&a4, q + r * ldq + g * kPanelK8, 4);
      const __m512i a = _mm512_xor_si512(_mm512_set1_epi32(a4), flip);  // q + 128 as unsigned bytes
      acc[r] = _mm512_dpbusd_epi32(acc[r], a, wv);
    }
  }
  // Remove the shift: acc -= 128 * wsum (wsum is not padded: partial panels mask it).
  const __mmask16 mask = static_cast<__mmask16>(cols >= kPanel ? 0xFFFFu : ((1u << cols) - 1u));
  const __m512i corr = _mm512_slli_epi32(_mm512_maskz_loadu_epi32(mask, wsum), 7);
  for (size_t r = 0; r < Rows; ++r)
    _mm512_store_si512(reinterpret_cast<void*>(out + r * kPanel), _mm512_sub_epi32(acc[r], corr));
}

// The avxvnni level's kernel in its EVEX form (qs8_gemm_vnni256.h).
struct EvexDp {
  static EDGEMT_ALWAYS_INLINE __m256i dp(__m256i acc, __m256i a, __m256i w) {
    return _mm256_dpbusd_epi32(acc, a, w);
  }
};

}  // namespace

void qs8_gemm_vnni256_evex(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq, const float* sa,
                           const int8_t* w, const float* sw, const int32_t* wsum, float* c, size_t ldc,
                           const GemmEpilogue& ep) {
  qs8_gemm_vnni256<EvexDp>(m, n, k, q, ldq, sa, w, sw, wsum, c, ldc, ep);
}

void qs8_gemm__avx512vnni(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq, const float* sa,
                          const int8_t* w, const float* sw, const int32_t* wsum, float* c, size_t ldc,
                          const GemmEpilogue& ep) {
  auto tile = [](auto rows, size_t kg, const int8_t* qr, size_t ldq_, const int8_t* wp, const int32_t* ws,
                 size_t cols, const int8_t* pf, int32_t* out) {
    if (pf != nullptr)
      vnni_tile<decltype(rows)::value, true>(kg, qr, ldq_, wp, ws, cols, pf, out);
    else
      vnni_tile<decltype(rows)::value, false>(kg, qr, ldq_, wp, ws, cols, nullptr, out);
  };
  Qs8DirectLevel<8, decltype(tile)> level{tile};
  qs8_gemm_drive<xsimd::avx512bw>(level, m, n, k, q, ldq, sa, w, sw, wsum, c, ldc, ep);
}

}  // namespace edgemt::ops
