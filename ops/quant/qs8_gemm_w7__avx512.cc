// qs8_gemm_w7 for AVX-512 without VNNI (Skylake-SP/X; contract in ops/ops.h): weights in
// [-64, 64]. The 512-bit kernel of qs8_gemm_vnni512.h with VPMADDUBSW (unsigned
// activations q + 128 times signed weights, int16 pair sums of at most 255 * 64 * 2 =
// 32640: no saturation) + VPMADDWD by ones + VPADDD in place of VPDPBUSD: the same
// integers as the scalar reference. This level's qs8_gemm is the 256-bit AVX2 kernel on
// int16-widened operands (qs8_gemm__avx512.cc).
#include "ops/declarations.h"
#include "ops/quant/qs8_gemm_vnni512.h"

namespace edgemt::ops {
namespace {

struct Ubs512Dp {
  static EDGEMT_ALWAYS_INLINE __m512i dp(__m512i acc, __m512i a, __m512i w) {
    return _mm512_add_epi32(acc, _mm512_madd_epi16(_mm512_maddubs_epi16(a, w), _mm512_set1_epi16(1)));
  }
};

}  // namespace

void qs8_gemm_w7__avx512(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq, const float* sa,
                         const int8_t* w, const float* sw, const int32_t* wsum, float* c, size_t ldc,
                         const GemmEpilogue& ep) {
  qs8_gemm_vnni512<Ubs512Dp>(m, n, k, q, ldq, sa, w, sw, wsum, c, ldc, ep);
}

}  // namespace edgemt::ops
