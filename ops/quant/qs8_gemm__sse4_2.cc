// qs8_gemm for SSE4.1/SSE4.2 (contract in ops/ops.h), 128-bit intrinsics only, without
// saturation: int8 weights and activations are sign-extended to int16 (PMOVSXBW) and
// multiplied-and-pair-added with PMADDWD into int32 (|products| <= 128 * 128, pair sums
// far below 2^31: exact). Not PMADDUBSW, whose int16 pair sums saturate.
//
// Layout: a k group of one panel is 64 bytes, [16 columns][4 k]. Eight bytes (2 columns
// x 4 k) widen to one int16 vector; PMADDWD with a row's 4 activations (int16, repeated
// twice) gives [c0 k01, c0 k23, c1 k01, c1 k23]. Pairs are added at the end (PHADDD).
//
// Tile: Rows rows x one 16-column panel, in Rows passes of 16 / Rows columns, so every
// pass holds 8 accumulators (Rows x 8 / Rows vectors), 8 / Rows widened weight vectors
// and one activation vector: 4 rows x 4 columns (11 of 16 registers), 2 x 8 (13),
// 1 x 16 (weights streamed, each used once). Activations are widened to int16 once per
// block of rows into a stack buffer (at most 64 KiB) shared by every panel; each row's
// 4 activations of a group are then one MOVDDUP.
#include <immintrin.h>

#include "ops/declarations.h"
#include "ops/gemm/pack.h"
#include "ops/quant/qs8_gemm_driver.h"

namespace edgemt::ops {
namespace {

using Arch = xsimd::sse4_2;
constexpr size_t kChunk = 256;  // k groups widened per chunk when K is too deep (stack: 4 x 256 x 8 bytes)
constexpr size_t kGroupBytes = kPanel * kPanelK8;  // 64

// Widens rows [0, rows) of Q, k groups [g0, g1), to int16 quadwords: out[r * ld + g - g0].
inline void widen(const int8_t* q, size_t ldq, size_t rows, size_t g0, size_t g1, int64_t* out, size_t ld) {
  for (size_t r = 0; r < rows; ++r) {
    const int8_t* qr = q + r * ldq;
    for (size_t g = g0; g < g1; ++g) {
      int32_t a4;
      __builtin_memcpy(&a4, qr + g * kPanelK8, 4);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(out + r * ld + (g - g0)),
                       _mm_cvtepi8_epi16(_mm_cvtsi32_si128(a4)));
    }
  }
}

// One pass (columns [h * Cols, (h + 1) * Cols) of the panel) over k groups [g0, g1) with
// pre-widened activations a16 (row stride lda16, entry 0 = group g0). Writes (or, if Add,
// adds to) the exact column sums at out[r * kPanel + h * Cols + j].
template <size_t Rows, bool Add>
EDGEMT_ALWAYS_INLINE void tile_pass(const int64_t* a16, size_t lda16, const int8_t* wp, size_t g0, size_t g1,
                                    size_t h, int32_t* out) {
  constexpr size_t kCols = kPanel / Rows;
  constexpr size_t kV = kCols / 2;  // int16 weight vectors per group and pass
  __m128i acc[Rows][kV];
  EDGEMT_UNROLL
  for (size_t r = 0; r < Rows; ++r) {
    EDGEMT_UNROLL
    for (size_t v = 0; v < kV; ++v) acc[r][v] = _mm_setzero_si128();
  }
  const int8_t* wg = wp + g0 * kGroupBytes + h * kCols * kPanelK8;
  for (size_t g = 0; g < g1 - g0; ++g, wg += kGroupBytes) {
    __m128i wv[kV];
    EDGEMT_UNROLL
    for (size_t v = 0; v < kV; ++v)
      wv[v] = _mm_cvtepi8_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(wg + 8 * v)));
    EDGEMT_UNROLL
    for (size_t r = 0; r < Rows; ++r) {
      const __m128i a =
          _mm_castpd_si128(_mm_loaddup_pd(reinterpret_cast<const double*>(a16 + r * lda16 + g)));
      EDGEMT_UNROLL
      for (size_t v = 0; v < kV; ++v) acc[r][v] = _mm_add_epi32(acc[r][v], _mm_madd_epi16(wv[v], a));
    }
  }
  EDGEMT_UNROLL
  for (size_t r = 0; r < Rows; ++r) {
    EDGEMT_UNROLL
    for (size_t v = 0; v < kV; v += 2) {
      // [c 2v, c 2v+1, c 2v+2, c 2v+3] of this pass; 16-byte aligned (out is, Cols >= 4).
      __m128i* o = reinterpret_cast<__m128i*>(out + r * kPanel + h * kCols + 2 * v);
      __m128i s = _mm_hadd_epi32(acc[r][v], acc[r][v + 1]);
      if (Add) s = _mm_add_epi32(s, _mm_load_si128(o));
      _mm_store_si128(o, s);
    }
  }
}

template <size_t Rows>
__attribute__((noinline)) void tile(const int64_t* a16, size_t lda16, size_t kg, const int8_t* wp,
                                    int32_t* out) {
  for (size_t h = 0; h < Rows; ++h) tile_pass<Rows, false>(a16, lda16, wp, 0, kg, h, out);
}

// Depth too large for the widened block (K > 8192): widen chunk by chunk per tile.
template <size_t Rows>
__attribute__((noinline)) void tile_chunked(size_t kg, const int8_t* q, size_t ldq, const int8_t* wp,
                                            int32_t* out) {
  for (size_t i = 0; i < Rows * kPanel; ++i) out[i] = 0;
  alignas(64) int64_t a16[Rows * kChunk];
  for (size_t g0 = 0; g0 < kg; g0 += kChunk) {
    const size_t g1 = kg - g0 < kChunk ? kg : g0 + kChunk;
    widen(q, ldq, Rows, g0, g1, a16, kChunk);
    for (size_t h = 0; h < Rows; ++h) tile_pass<Rows, true>(a16, kChunk, wp, g0, g1, h, out);
  }
}

// The tiles, for the shared driver (qs8_gemm_driver.h).
struct Tiles {
  static void widen_rows(const int8_t* q, size_t ldq, size_t rows, size_t g0, size_t g1, int64_t* out,
                         size_t ld) {
    widen(q, ldq, rows, g0, g1, out, ld);
  }
  template <size_t Rows>
  static void widened_tile(const int64_t* a16, size_t lda16, size_t kg, const int8_t* wp, const int8_t*,
                           int32_t* out) {
    tile<Rows>(a16, lda16, kg, wp, out);
  }
  template <size_t Rows>
  static void chunked_tile(size_t kg, const int8_t* q, size_t ldq, const int8_t* wp, int32_t* out) {
    tile_chunked<Rows>(kg, q, ldq, wp, out);
  }
};

}  // namespace

void qs8_gemm__sse4_2(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq, const float* sa,
                      const int8_t* w, const float* sw, const int32_t* wsum, float* c, size_t ldc,
                      const GemmEpilogue& ep) {
  Qs8WidenedLevel<Tiles> level;
  qs8_gemm_drive<Arch>(level, m, n, k, q, ldq, sa, w, sw, wsum, c, ldc, ep);
}

}  // namespace edgemt::ops
