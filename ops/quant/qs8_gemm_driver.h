// The loop every qs8_gemm level shares (contract in ops/ops.h), parameterised by the
// level's tiles. Rows go in blocks that the level may prepare once (widening the
// activations to int16, say); for each 16-column panel of W8 the block's rows go in
// tiles of at most Level::kMaxRows rows, and each tile's exact int32 sums go through the
// common float epilogue (qs8_epilogue.h). A level supplies:
//
//   static constexpr size_t kMaxRows;                    // rows per tile call
//   size_t block_rows(size_t m, size_t kg);              // rows per block (>= 1)
//   void prepare(const int8_t* q, size_t ldq, size_t rows, size_t kg);  // once per block
//   void tile(size_t r, size_t rows, const int8_t* q, size_t ldq, size_t kg,
//             const int8_t* panel, const int32_t* wsum, size_t cols, const int8_t* prefetch,
//             int32_t* out);
//       // block rows r .. r+rows (q points at row r): out[rows][16] int32 sums; a tile may
//       // prefetch the kg * 64 bytes at `prefetch` (not null: the next panel) as it goes
//
// Prefetching: when a block has more than one tile per panel, its tiles get the next
// panel to prefetch as they go (every tile: when only the first did, half the gain was
// lost). The output projection's weights (30 MB for Opus-MT's 58k vocabulary) stay in no
// cache, and the hardware prefetcher alone leaves the tiles waiting: edgemt-bench-ops
// logits on Zen 4, median of 3 alternating runs: VNNI 1.22x at 16 rows, 1.15x at 64; AVX2
// 1.07x and 1.05x. With one tile per panel (one stream, which the hardware prefetcher
// keeps up with) prefetching was up to 10% slower, so then nothing is prefetched.
//
// kg is the number of 4-byte k groups (qs8_k_padded(k) / 4). Included only by the
// per-level sources; its templates are instantiated with each level's own types, so no
// inline code is shared between files compiled with different flags.
#pragma once

#include <type_traits>

#include "ops/gemm/pack.h"
#include "ops/quant/qs8_epilogue.h"

namespace edgemt::ops {
namespace {

// Calls f(std::integral_constant<size_t, R>{}) with R = min(rows, Max), rows >= 1: one
// tile instantiation per height.
template <size_t Max, class F>
EDGEMT_ALWAYS_INLINE void qs8_with_rows(size_t rows, F&& f) {
  if constexpr (Max > 1) {
    if (rows >= Max) {
      f(std::integral_constant<size_t, Max>{});
      return;
    }
    qs8_with_rows<Max - 1>(rows, f);
  } else {
    (void)rows;
    f(std::integral_constant<size_t, 1>{});
  }
}

template <class Arch, class Level>
EDGEMT_ALWAYS_INLINE void qs8_gemm_drive(Level& level, size_t m, size_t n, size_t k, const int8_t* q,
                                         size_t ldq, const float* sa, const int8_t* w, const float* sw,
                                         const int32_t* wsum, float* c, size_t ldc, const GemmEpilogue& ep) {
  constexpr size_t Mr = Level::kMaxRows;
  const size_t kg = qs8_k_padded(k) / kPanelK8;
  const size_t panels = (n + kPanel - 1) / kPanel;
  alignas(64) int32_t acc[Mr * kPanel];
  const size_t mc = level.block_rows(m, kg);
  for (size_t i0 = 0; i0 < m; i0 += mc) {
    const size_t i1 = m - i0 < mc ? m : i0 + mc;
    level.prepare(q + i0 * ldq, ldq, i1 - i0, kg);
    for (size_t p = 0; p < panels; ++p) {
      const int8_t* wp = w + p * kg * kPanel * kPanelK8;
      const size_t j0 = p * kPanel;
      const size_t cols = n - j0 < kPanel ? n - j0 : kPanel;
      const float* bias = ep.bias != nullptr ? ep.bias + j0 : nullptr;
      for (size_t i = i0; i < i1; i += Mr) {
        const size_t rows = i1 - i < Mr ? i1 - i : Mr;
        const int8_t* prefetch = i1 - i0 > Mr && p + 1 < panels ? wp + kg * kPanel * kPanelK8 : nullptr;
        level.tile(i - i0, rows, q + i * ldq, ldq, kg, wp, wsum != nullptr ? wsum + j0 : nullptr, cols,
                   prefetch, acc);
        for (size_t r = 0; r < rows; ++r)
          qs8_store_panel_row<Arch>(acc + r * kPanel, sa[i + r], sw + j0, bias, ep.act,
                                    c + (i + r) * ldc + j0, cols);
      }
    }
  }
}

// The int16-widening levels (SSE4.2, AVX2): a block's rows are widened once into a stack
// buffer (2048 k groups per tile row: at most 64 KiB for 4-row tiles, 96 KiB for 6) that
// every panel reuses; a depth too large for it (K > 8192) widens chunk by chunk inside
// each tile instead. Tiles are MaxRows high, and a shorter tail goes in tiles of 4, 2 and
// 1 rows (5 = 4 + 1, 3 = 2 + 1). Tiles provides widen_rows(q, ldq, rows, g0, g1, a16,
// lda16), widened_tile<R>(a16, lda16, kg, panel, prefetch, out) and chunked_tile<R>(kg, q,
// ldq, panel, out) (chunked tiles do not prefetch).
template <class Tiles, size_t MaxRows = 4>
struct Qs8WidenedLevel {
  static_assert(MaxRows >= 4);
  static constexpr size_t kMaxRows = MaxRows;
  static constexpr size_t kWidened = 2048 * MaxRows;  // int64 entries (4 int16 activations each)
  alignas(64) int64_t a16[kWidened];
  bool widened = false;

  size_t block_rows(size_t, size_t kg) {
    size_t mc = kWidened / (kg > 0 ? kg : 1) / kMaxRows * kMaxRows;
    if (mc > 96) mc = 96;
    widened = mc > 0;
    return widened ? mc : kMaxRows;
  }
  void prepare(const int8_t* q, size_t ldq, size_t rows, size_t kg) {
    if (widened) Tiles::widen_rows(q, ldq, rows, 0, kg, a16, kg);
  }
  template <size_t R>
  void tile_of(size_t r, const int8_t* q, size_t kg, size_t ldq, const int8_t* wp, const int8_t* prefetch,
               int32_t* out) {
    if (widened)
      Tiles::template widened_tile<R>(a16 + r * kg, kg, kg, wp, prefetch, out);
    else
      Tiles::template chunked_tile<R>(kg, q, ldq, wp, out);
  }
  void tile(size_t r, size_t rows, const int8_t* q, size_t ldq, size_t kg, const int8_t* wp, const int32_t*,
            size_t, const int8_t* prefetch, int32_t* acc) {
    for (size_t r0 = 0; r0 < rows;) {
      const size_t left = rows - r0;
      const size_t h = left >= MaxRows ? MaxRows : left >= 4 ? 4 : left >= 2 ? 2 : 1;
      int32_t* out = acc + r0 * kPanel;
      const int8_t* qr = q + r0 * ldq;
      if (h == MaxRows)
        tile_of<MaxRows>(r + r0, qr, kg, ldq, wp, prefetch, out);
      else if (h == 4)
        tile_of<4>(r + r0, qr, kg, ldq, wp, prefetch, out);
      else if (h == 2)
        tile_of<2>(r + r0, qr, kg, ldq, wp, prefetch, out);
      else
        tile_of<1>(r + r0, qr, kg, ldq, wp, prefetch, out);
      r0 += h;
    }
  }
};

// Levels whose tiles read int8 activations directly: one block, nothing to prepare.
// Tiles::tile<R, Prefetch>(kg, q, ldq, panel, wsum, cols, prefetch, out) computes R rows
// of one panel; Tiles::kPrefetches says whether it reads `prefetch` (then it is
// instantiated with Prefetch true for a non-null one, and false with nullptr).
template <size_t MaxRows, class Tiles>
struct Qs8DirectLevel {
  static constexpr size_t kMaxRows = MaxRows;
  size_t block_rows(size_t m, size_t) { return m > 0 ? m : 1; }
  void prepare(const int8_t*, size_t, size_t, size_t) {}
  void tile(size_t, size_t rows, const int8_t* q, size_t ldq, size_t kg, const int8_t* wp,
            const int32_t* wsum, size_t cols, const int8_t* prefetch, int32_t* out) {
    qs8_with_rows<MaxRows>(rows, [&](auto r) {
      constexpr size_t R = decltype(r)::value;
      if (Tiles::kPrefetches && prefetch != nullptr)
        Tiles::template tile<R, Tiles::kPrefetches>(kg, q, ldq, wp, wsum, cols, prefetch, out);
      else
        Tiles::template tile<R, false>(kg, q, ldq, wp, wsum, cols, nullptr, out);
    });
  }
};

}  // namespace
}  // namespace edgemt::ops
