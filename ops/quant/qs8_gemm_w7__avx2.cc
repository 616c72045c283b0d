// qs8_gemm_w7 for AVX2 (contract in ops/ops.h): weights in [-64, 64]. Activations are
// shifted to unsigned (q + 128, by flipping the sign bit) as in the VNNI kernels, and
// VPMADDUBSW multiplies them by the signed weights, adding pairs into int16: at most
// 255 * 64 * 2 = 32640 in magnitude, so it never saturates. VPMADDWD by ones adds the
// pairs into int32 (one lane per column: 4 k per lane, as VPDPBUSD), then VPADDD. The
// shift is removed at the end with wsum: the same integers as the scalar reference.
// The 256-bit VNNI kernel's tiles (qs8_gemm_vnni256.h) with this instruction sequence in
// place of VPDPBUSD, 4 rows high (8 accumulators + 2 weights + activation + flip + ones +
// product). Three instructions per 32 products, against four (two VPMADDWD, two VPADDD)
// in the exact 8-bit kernel (qs8_gemm__avx2.cc).
#include "ops/declarations.h"
#include "ops/quant/qs8_gemm_vnni256.h"

namespace edgemt::ops {
namespace {

struct UbsDp {
  static constexpr size_t kMaxRows = 4;
  static EDGEMT_ALWAYS_INLINE __m256i dp(__m256i acc, __m256i a, __m256i w) {
    return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(a, w), _mm256_set1_epi16(1)));
  }
};

}  // namespace

void qs8_gemm_w7__avx2(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq, const float* sa,
                       const int8_t* w, const float* sw, const int32_t* wsum, float* c, size_t ldc,
                       const GemmEpilogue& ep) {
  qs8_gemm_vnni256<UbsDp>(m, n, k, q, ldq, sa, w, sw, wsum, c, ldc, ep);
}

}  // namespace edgemt::ops
