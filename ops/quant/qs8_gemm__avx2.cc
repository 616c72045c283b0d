// qs8_gemm for AVX2 (contract in ops/ops.h), without saturation: int8 weights and
// activations are sign-extended to int16 and multiplied-and-pair-added with VPMADDWD
// into int32 (|products| <= 127 * 127, pair sums far below 2^31: exact). Not
// VPMADDUBSW, whose int16 pair sums saturate on unbounded inputs.
//
// Tile: up to 4 rows x one 16-column panel, in two passes of 8 columns (8 accumulators +
// 2 weight vectors + 1 activation vector = 11 of 16 registers, per pass). Per 4-deep k group,
// a pass widens 32 weight bytes (8 columns x 4 k) to two int16 vectors; each row
// broadcasts its 4 activations (widened to int16 once per block of rows, into a stack
// buffer shared by every panel) and accumulates 8 int32 lanes holding, per column, the
// sums of k pairs (0,1) and (2,3). Pairs are added at the end (VPHADDD + permute).
#include <immintrin.h>

#include "ops/declarations.h"
#include "ops/gemm/pack.h"
#include "ops/quant/qs8_gemm_driver.h"

namespace edgemt::ops {
namespace {

using Arch = xsimd::fma3<xsimd::avx2>;
constexpr size_t kMr = 4;       // one pass holds 4 rows x 2 accumulators + 2 weights + 1 activation
constexpr size_t kChunk = 256;  // k groups widened per chunk (stack: 4 x 256 x 8 bytes)

// Widens rows [0, rows) of Q, k groups [g0, g1), to int16 quadwords: out[r * ld + g - g0].
inline void widen(const int8_t* q, size_t ldq, size_t rows, size_t g0, size_t g1, int64_t* out, size_t ld) {
  for (size_t r = 0; r < rows; ++r) {
    const int8_t* qr = q + r * ldq;
    for (size_t g = g0; g < g1; ++g) {
      int32_t a4;
      __builtin_memcpy(&a4, qr + g * kPanelK8, 4);
      out[r * ld + (g - g0)] = _mm_cvtsi128_si64(_mm_cvtepi8_epi16(_mm_cvtsi32_si128(a4)));
    }
  }
}

// One pass (8 columns, half h of the panel) over k groups [g0, g1), with pre-widened
// activations (row stride lda16); with Prefetch, also the next panel's line g (pf, see
// qs8_gemm_driver.h).
template <size_t Rows, bool Prefetch>
EDGEMT_ALWAYS_INLINE void tile_pass(const int64_t* a16, size_t lda16, const int8_t* wp, const int8_t* pf,
                                    size_t h, size_t g0, size_t g1, __m256i (&acc)[Rows][2]) {
  for (size_t g = g0; g < g1; ++g) {
    const int8_t* wg = wp + g * kPanel * kPanelK8 + h * 32;
    if constexpr (Prefetch)
      _mm_prefetch(reinterpret_cast<const char*>(pf + g * kPanel * kPanelK8), _MM_HINT_T0);
    const __m256i w0 = _mm256_cvtepi8_epi16(_mm_load_si128(reinterpret_cast<const __m128i*>(wg)));
    const __m256i w1 = _mm256_cvtepi8_epi16(_mm_load_si128(reinterpret_cast<const __m128i*>(wg + 16)));
    for (size_t r = 0; r < Rows; ++r) {
      const __m256i a = _mm256_set1_epi64x(a16[r * lda16 + (g - g0)]);
      acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(w0, a));
      acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(w1, a));
    }
  }
}

// One tile over k groups [g0, g1), adding to acc; with Prefetch, pf is the next panel.
template <size_t Rows, bool Prefetch = false>
EDGEMT_ALWAYS_INLINE void tile_acc(const int64_t* a16, size_t lda16, const int8_t* wp, const int8_t* pf,
                                   size_t g0, size_t g1, __m256i (&acc)[2][Rows][2]) {
  tile_pass<Rows, Prefetch>(a16, lda16, wp, pf, 0, g0, g1, acc[0]);
  tile_pass<Rows, false>(a16, lda16, wp, pf, 1, g0, g1, acc[1]);
}

template <size_t Rows>
EDGEMT_ALWAYS_INLINE void tile_store(__m256i (&acc)[2][Rows][2], int32_t* out) {
  // acc[h][r][v] lanes: [c0 k01, c0 k23, c1 k01, c1 k23 | c2 .., c3 ..] for columns 8h + 4v + 0..3.
  const __m256i order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
  for (size_t r = 0; r < Rows; ++r)
    for (size_t h = 0; h < 2; ++h)
      _mm256_store_si256(reinterpret_cast<__m256i*>(out + r * kPanel + 8 * h),
                         _mm256_permutevar8x32_epi32(_mm256_hadd_epi32(acc[h][r][0], acc[h][r][1]), order));
}

template <size_t Rows, bool Prefetch>
__attribute__((noinline)) void tile(const int64_t* a16, size_t lda16, size_t kg, const int8_t* wp,
                                    const int8_t* pf, int32_t* out) {
  __m256i acc[2][Rows][2];
  for (size_t h = 0; h < 2; ++h)
    for (size_t r = 0; r < Rows; ++r) acc[h][r][0] = acc[h][r][1] = _mm256_setzero_si256();
  tile_acc<Rows, Prefetch>(a16, lda16, wp, pf, 0, kg, acc);
  tile_store<Rows>(acc, out);
}

// Depth too large for the widened block (K > 8192): widen chunk by chunk per tile.
template <size_t Rows>
__attribute__((noinline)) void tile_chunked(size_t kg, const int8_t* q, size_t ldq, const int8_t* wp,
                                            int32_t* out) {
  __m256i acc[2][Rows][2];
  for (size_t h = 0; h < 2; ++h)
    for (size_t r = 0; r < Rows; ++r) acc[h][r][0] = acc[h][r][1] = _mm256_setzero_si256();
  alignas(64) int64_t a16[Rows * kChunk];
  for (size_t g0 = 0; g0 < kg; g0 += kChunk) {
    const size_t g1 = kg - g0 < kChunk ? kg : g0 + kChunk;
    widen(q, ldq, Rows, g0, g1, a16, kChunk);
    tile_acc<Rows>(a16, kChunk, wp, nullptr, g0, g1, acc);
  }
  tile_store<Rows>(acc, out);
}

// The tiles, for the shared driver (qs8_gemm_driver.h).
struct Tiles {
  static void widen_rows(const int8_t* q, size_t ldq, size_t rows, size_t g0, size_t g1, int64_t* out,
                         size_t ld) {
    widen(q, ldq, rows, g0, g1, out, ld);
  }
  template <size_t Rows>
  static void widened_tile(const int64_t* a16, size_t lda16, size_t kg, const int8_t* wp, const int8_t* pf,
                           int32_t* out) {
    if (pf != nullptr)
      tile<Rows, true>(a16, lda16, kg, wp, pf, out);
    else
      tile<Rows, false>(a16, lda16, kg, wp, nullptr, out);
  }
  template <size_t Rows>
  static void chunked_tile(size_t kg, const int8_t* q, size_t ldq, const int8_t* wp, int32_t* out) {
    tile_chunked<Rows>(kg, q, ldq, wp, out);
  }
};

}  // namespace

void qs8_gemm__avx2(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq, const float* sa,
                    const int8_t* w, const float* sw, const int32_t* wsum, float* c, size_t ldc,
                    const GemmEpilogue& ep) {
  Qs8WidenedLevel<Tiles> level;
  qs8_gemm_drive<Arch>(level, m, n, k, q, ldq, sa, w, sw, wsum, c, ldc, ep);
}

}  // namespace edgemt::ops
