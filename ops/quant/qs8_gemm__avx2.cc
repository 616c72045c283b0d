// qs8_gemm for AVX2 (contract in ops/ops.h), without saturation: int8 weights and
// activations are sign-extended to int16 and multiplied-and-pair-added with VPMADDWD
// into int32 (|products| <= 127 * 127, pair sums far below 2^31: exact). Not
// VPMADDUBSW, whose int16 pair sums saturate on unbounded inputs.
//
// Tile: 3 rows x one 16-column panel, in two passes of 8 columns (12 accumulators +
// 2 weight vectors + 1 activation vector = 15 of 16 registers). Per 4-deep k group,
// a pass widens 32 weight bytes (8 columns x 4 k) to two int16 vectors; each row
// broadcasts its 4 activations, pre-widened to int16 once per tile into a stack
// buffer, and accumulates 8 int32 lanes holding, per column, the sums of k pairs
// (0,1) and (2,3). Pairs are added at the end (VPHADDD + permute).
#include <immintrin.h>

#include "ops/declarations.h"
#include "ops/gemm/pack.h"
#include "ops/quant/qs8_epilogue.h"

namespace edgemt::ops {
namespace {

using Arch = xsimd::fma3<xsimd::avx2>;
constexpr size_t kMr = 3;
constexpr size_t kChunk = 256;  // k groups widened per chunk (stack: 3 x 256 x 8 bytes)

// Accumulates columns [8h, 8h + 8) of one panel for Rows rows over k groups [g0, g1).
template <size_t Rows>
EDGEMT_ALWAYS_INLINE void pass(const int64_t* a16 /* [Rows][kChunk] */, const int8_t* wp, size_t g0, size_t g1,
                               size_t h, __m256i (&acc)[Rows][2]) {
  for (size_t g = g0; g < g1; ++g) {
    const int8_t* wg = wp + g * kPanel * kPanelK8 + h * 32;
    const __m256i w0 = _mm256_cvtepi8_epi16(_mm_load_si128(reinterpret_cast<const __m128i*>(wg)));
    const __m256i w1 = _mm256_cvtepi8_epi16(_mm_load_si128(reinterpret_cast<const __m128i*>(wg + 16)));
    for (size_t r = 0; r < Rows; ++r) {
      const __m256i a = _mm256_set1_epi64x(a16[r * kChunk + (g - g0)]);
      acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(w0, a));
      acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(w1, a));
    }
  }
}

template <size_t Rows>
void tile(size_t kg, const int8_t* q, size_t ldq, const int8_t* wp, int32_t* out /* [Rows][16] */) {
  __m256i acc[2][Rows][2];
  for (size_t h = 0; h < 2; ++h)
    for (size_t r = 0; r < Rows; ++r) acc[h][r][0] = acc[h][r][1] = _mm256_setzero_si256();
  alignas(64) int64_t a16[Rows * kChunk];
  for (size_t g0 = 0; g0 < kg; g0 += kChunk) {
    const size_t g1 = kg - g0 < kChunk ? kg : g0 + kChunk;
    // Widen this chunk of activations to int16 quadwords once.
    for (size_t r = 0; r < Rows; ++r) {
      const int8_t* qr = q + r * ldq;
      for (size_t g = g0; g < g1; ++g) {
        int32_t a4;
        __builtin_memcpy(&a4, qr + g * kPanelK8, 4);
        a16[r * kChunk + (g - g0)] = _mm_cvtsi128_si64(_mm_cvtepi8_epi16(_mm_cvtsi32_si128(a4)));
      }
    }
    pass<Rows>(a16, wp, g0, g1, 0, acc[0]);
    pass<Rows>(a16, wp, g0, g1, 1, acc[1]);
  }
  // acc[h][r][v] lanes: [c0 k01, c0 k23, c1 k01, c1 k23 | c2 .., c3 ..] for columns 8h + 4v + 0..3.
  const __m256i order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
  for (size_t r = 0; r < Rows; ++r)
    for (size_t h = 0; h < 2; ++h)
      _mm256_store_si256(reinterpret_cast<__m256i*>(out + r * kPanel + 8 * h),
                         _mm256_permutevar8x32_epi32(_mm256_hadd_epi32(acc[h][r][0], acc[h][r][1]), order));
}

}  // namespace

void qs8_gemm__avx2(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq, const float* sa, const int8_t* w,
                    const float* sw, const int32_t* wsum, float* c, size_t ldc, const GemmEpilogue& ep) {
  (void)wsum;
  const size_t kg = qs8_k_padded(k) / kPanelK8;
  const size_t panels = (n + kPanel - 1) / kPanel;
  alignas(64) int32_t acc[kMr * kPanel];
  for (size_t p = 0; p < panels; ++p) {
    const int8_t* wp = w + p * kg * kPanel * kPanelK8;
    const size_t j0 = p * kPanel;
    const size_t cols = n - j0 < kPanel ? n - j0 : kPanel;
    const float* bias = ep.bias != nullptr ? ep.bias + j0 : nullptr;
    for (size_t i = 0; i < m; i += kMr) {
      const size_t rows = m - i < kMr ? m - i : kMr;
      switch (rows) {
        case 3: tile<3>(kg, q + i * ldq, ldq, wp, acc); break;
        case 2: tile<2>(kg, q + i * ldq, ldq, wp, acc); break;
        default: tile<1>(kg, q + i * ldq, ldq, wp, acc); break;
      }
      for (size_t r = 0; r < rows; ++r)
        qs8_store_panel_row<Arch>(acc + r * kPanel, sa[i + r], sw + j0, bias, ep.act, c + (i + r) * ldc + j0, cols);
    }
  }
}

}  // namespace edgemt::ops
