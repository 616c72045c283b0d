// qs8_gemm for AVX-512 VNNI (contract in ops/ops.h): VPDPBUSD in the 512-bit kernel of
// qs8_gemm_vnni512.h. VPDPBUSD multiplies unsigned by signed bytes, 4 per int32 lane, and
// adds them to the lane: a panel row of 64 bytes (16 columns x 4 k) against a row's 4
// activations broadcast to all lanes yields the 16 columns' partial sums in one
// instruction. Exact: VPDPBUSD, not the saturating VPDPBUSDS.
#include <immintrin.h>

#include "ops/declarations.h"
#include "ops/quant/qs8_gemm_vnni256.h"
#include "ops/quant/qs8_gemm_vnni512.h"

namespace edgemt::ops {
namespace {

struct Vnni512Dp {
  static EDGEMT_ALWAYS_INLINE __m512i dp(__m512i acc, __m512i a, __m512i w) {
    return _mm512_dpbusd_epi32(acc, a, w);
  }
};

// The avxvnni level's kernel in its EVEX form (qs8_gemm_vnni256.h).
struct EvexDp {
  static constexpr size_t kMaxRows = 6;
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
  qs8_gemm_vnni512<Vnni512Dp>(m, n, k, q, ldq, sa, w, sw, wsum, c, ldc, ep);
}

}  // namespace edgemt::ops
