// qs8_gemm for AVX2 (contract in ops/ops.h), without saturation: int8 weights and
// activations are sign-extended to int16 and multiplied-and-pair-added with VPMADDWD
// into int32 (|products| <= 127 * 127, pair sums far below 2^31: exact). Not
// VPMADDUBSW, whose int16 pair sums saturate on unbounded inputs.
//
// Tile: up to 6 rows x one 16-column panel, in two passes of 8 columns (12 accumulators +
// 2 weight vectors + 1 activation vector + 1 product = 16 registers, per pass). Per 4-deep
// k group, a pass widens 32 weight bytes (8 columns x 4 k) to two int16 vectors; each row
// broadcasts its 4 activations (widened to int16 once per block of rows, into a stack
// buffer shared by every panel) and accumulates 8 int32 lanes holding, per column, the
// sums of k pairs (0,1) and (2,3). Pairs are added at the end (VPHADDD + permute).
//
// The accumulators are named locals, not an array: GCC 12 kept an array of them in
// registers only with a register copy per accumulator and a spill in every k group
// (36 instructions per 4-row group against 24). With locals the loop is 2 widening
// loads and, per row, 1 broadcast, 2 VPMADDWD and 2 VPADDD: 37 instructions per 6-row
// group. On Zen 4 that is 62-63% of the VPMADDWD peak at 16 and 64 rows (was 57-60%);
// the adds and broadcasts share the four vector pipes with the multiplies.
#include <immintrin.h>

#include "ops/declarations.h"
#include "ops/gemm/pack.h"
#include "ops/quant/qs8_gemm_driver.h"

namespace edgemt::ops {
namespace {

using Arch = xsimd::fma3<xsimd::avx2>;
constexpr size_t kMaxRows = 6;  // 12 accumulators + 2 weights + 1 activation + 1 product
constexpr size_t kChunk = 256;  // k groups widened per chunk (stack: 6 x 256 x 8 bytes)

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

// One row of a k group: c0, c1 += its 4 widened activations (*a) times w0, w1.
EDGEMT_ALWAYS_INLINE void madd_row(const int64_t* a, __m256i w0, __m256i w1, __m256i& c0, __m256i& c1) {
  const __m256i av = _mm256_set1_epi64x(*a);
  c0 = _mm256_add_epi32(c0, _mm256_madd_epi16(w0, av));
  c1 = _mm256_add_epi32(c1, _mm256_madd_epi16(w1, av));
}

// c0, c1 lanes: [c0 k01, c0 k23, c1 k01, c1 k23 | c2 .., c3 ..] for columns 0..3 and 4..7
// of the pass; out gets the 8 column sums.
EDGEMT_ALWAYS_INLINE void store_row(__m256i c0, __m256i c1, int32_t* out) {
  const __m256i order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
  _mm256_store_si256(reinterpret_cast<__m256i*>(out),
                     _mm256_permutevar8x32_epi32(_mm256_hadd_epi32(c0, c1), order));
}

// out[Rows][16] = the tile's sums over k groups [0, kg) of the widened rows a16 (row
// stride lda16); with Prefetch, also the next panel pf (one 64-byte line per group).
template <size_t Rows, bool Prefetch>
__attribute__((noinline)) void tile(const int64_t* a16, size_t lda16, size_t kg, const int8_t* wp,
                                    const int8_t* pf, int32_t* out) {
  static_assert(Rows >= 1 && Rows <= kMaxRows);
  for (size_t h = 0; h < 2; ++h) {
    __m256i c00 = _mm256_setzero_si256(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00,
            c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00;
    const int8_t* wg = wp + 32 * h;
    const int8_t* pg = pf;
    const int64_t* ag = a16;
    for (size_t n = kg; n != 0; --n) {
      if (Prefetch && h == 0) _mm_prefetch(reinterpret_cast<const char*>(pg), _MM_HINT_T0);
      const __m256i w0 = _mm256_cvtepi8_epi16(_mm_load_si128(reinterpret_cast<const __m128i*>(wg)));
      const __m256i w1 = _mm256_cvtepi8_epi16(_mm_load_si128(reinterpret_cast<const __m128i*>(wg + 16)));
      madd_row(ag, w0, w1, c00, c01);
      if constexpr (Rows > 1) madd_row(ag + lda16, w0, w1, c10, c11);
      if constexpr (Rows > 2) madd_row(ag + 2 * lda16, w0, w1, c20, c21);
      if constexpr (Rows > 3) madd_row(ag + 3 * lda16, w0, w1, c30, c31);
      if constexpr (Rows > 4) madd_row(ag + 4 * lda16, w0, w1, c40, c41);
      if constexpr (Rows > 5) madd_row(ag + 5 * lda16, w0, w1, c50, c51);
      wg += kPanel * kPanelK8;
      if constexpr (Prefetch) pg += kPanel * kPanelK8;  // pf is null without Prefetch
      ++ag;
    }
    int32_t* o = out + 8 * h;
    store_row(c00, c01, o);
    if constexpr (Rows > 1) store_row(c10, c11, o + kPanel);
    if constexpr (Rows > 2) store_row(c20, c21, o + 2 * kPanel);
    if constexpr (Rows > 3) store_row(c30, c31, o + 3 * kPanel);
    if constexpr (Rows > 4) store_row(c40, c41, o + 4 * kPanel);
    if constexpr (Rows > 5) store_row(c50, c51, o + 5 * kPanel);
  }
}

// Depth too large for the widened block (K > 8192 for 4-row tiles): widens kChunk groups
// at a time and adds each chunk's exact int32 sums.
template <size_t Rows>
__attribute__((noinline)) void tile_chunked(size_t kg, const int8_t* q, size_t ldq, const int8_t* wp,
                                            int32_t* out) {
  alignas(64) int64_t a16[Rows * kChunk];
  alignas(32) int32_t part[Rows * kPanel];
  for (size_t g0 = 0; g0 < kg; g0 += kChunk) {
    const size_t g1 = kg - g0 < kChunk ? kg : g0 + kChunk;
    widen(q, ldq, Rows, g0, g1, a16, kChunk);
    tile<Rows, false>(a16, kChunk, g1 - g0, wp + g0 * kPanel * kPanelK8, nullptr, g0 == 0 ? out : part);
    if (g0 != 0)
      for (size_t i = 0; i < Rows * kPanel; i += 8) {
        const __m256i* pi = reinterpret_cast<const __m256i*>(part + i);
        __m256i* oi = reinterpret_cast<__m256i*>(out + i);
        _mm256_store_si256(oi, _mm256_add_epi32(_mm256_load_si256(oi), _mm256_load_si256(pi)));
      }
  }
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
  Qs8WidenedLevel<Tiles, kMaxRows> level;
  qs8_gemm_drive<Arch>(level, m, n, k, q, ldq, sa, w, sw, wsum, c, ldc, ep);
}

}  // namespace edgemt::ops
