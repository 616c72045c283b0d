// Generic xsimd implementation of the f32 gemm family (contract in ops/ops.h).
// Compiled once per ISA by a generated source that only calls EDGEMT_INSTANTIATE_GEMM.
//
// f32_gemm: register tile of MR rows x (NP panels of 16 columns). Per k, each of the
// MR rows broadcasts A[i, k] and multiply-adds the panel row W[k][0..16) that all rows
// share. Every output element is acc = fma(A[i,k], W[k,j], acc) for k = 0..K-1 in
// order, then + bias, then activation: the same operations whatever tile or thread
// computes it, so results do not depend on batch composition or thread count.
// Weights are read in place (64-byte aligned panels, one 64-byte row per k); A is
// read directly with stride lda (rows are blocked so a block of A stays in L2).
#pragma once

#include "ops/common/simd.h"

namespace edgemt::ops {
namespace {

#if defined(__AVX512F__) || defined(__aarch64__)
constexpr size_t kVectorRegisters = 32;
#else
constexpr size_t kVectorRegisters = 16;
#endif

template <class Arch>
struct GemmTile {
  static constexpr size_t kW = xsimd::batch<float, Arch>::size;
  static constexpr size_t kNp = kW >= kPanel ? 2 : 1;  // panels per tile
  static constexpr size_t kNv = kNp * kPanel / kW;     // vectors per row
  static constexpr size_t kMrRaw = (kVectorRegisters - kNv - 1) / kNv;
  static constexpr size_t kMr = kMrRaw > 12 ? 12 : (kMrRaw < 1 ? 1 : kMrRaw);
};

// One register tile: rows x (np panels) over k (one block of the full depth).
// `cols` <= np * 16 valid columns. With k blocking, the first block starts from zero
// and later ones from the partial sums stored in C (a float stored and reloaded is the
// same float, so the arithmetic of every element is the fma chain over all of k in
// order either way); only the last block applies bias and activation. Partial-column
// tiles always run the whole depth in one block.
// Not inlined: each tile size is compiled once (keeps compile time and code size in
// check, notably under sanitizers); a call per tile over a block of k costs nothing.
// With Prefetch, `pf` is the same slice of the next tile column's panels: the tile asks
// for its line of each panel at every k (see f32_gemm_generic).
template <class Arch, size_t Rows, size_t Np, bool Prefetch>
__attribute__((noinline)) void gemm_tile(size_t k, const float* a, size_t lda, const float* w,
                                         size_t panel_stride, float* c, size_t ldc, size_t cols,
                                         const GemmEpilogue& ep, bool first, bool last, const float* pf) {
  using B = xsimd::batch<float, Arch>;
  constexpr size_t W = B::size;
  constexpr size_t Vp = kPanel / W;  // vectors per panel
  constexpr size_t Nv = Np * Vp;
  B acc[Rows][Nv];
  EDGEMT_UNROLL
  for (size_t r = 0; r < Rows; ++r) {
    EDGEMT_UNROLL
    for (size_t v = 0; v < Nv; ++v) acc[r][v] = first ? B(0.0f) : B::load_unaligned(c + r * ldc + v * W);
  }
  const float* wp[Np];
  EDGEMT_UNROLL
  for (size_t p = 0; p < Np; ++p) wp[p] = w + p * panel_stride;
  for (size_t kk = 0; kk < k; ++kk) {
    if constexpr (Prefetch) {
      EDGEMT_UNROLL
      for (size_t p = 0; p < Np; ++p) __builtin_prefetch(pf + p * panel_stride + kk * kPanel);
    }
    B b[Nv];
    EDGEMT_UNROLL
    for (size_t p = 0; p < Np; ++p) {
      EDGEMT_UNROLL
      for (size_t v = 0; v < Vp; ++v) b[p * Vp + v] = B::load_aligned(wp[p] + kk * kPanel + v * W);
    }
    EDGEMT_UNROLL
    for (size_t r = 0; r < Rows; ++r) {
      const B ar(a[r * lda + kk]);
      EDGEMT_UNROLL
      for (size_t v = 0; v < Nv; ++v) acc[r][v] = k_fma<Arch>(ar, b[v], acc[r][v]);
    }
  }
  if (!last) {  // a full-column tile between k blocks: keep the partial sums
    EDGEMT_UNROLL
    for (size_t r = 0; r < Rows; ++r) {
      EDGEMT_UNROLL
      for (size_t v = 0; v < Nv; ++v) acc[r][v].store_unaligned(c + r * ldc + v * W);
    }
    return;
  }
  // Epilogue. Bias is padded through a small buffer for partial tiles so that full
  // and partial tiles run the same vector operations.
  constexpr size_t Cols = Np * kPanel;
  alignas(64) float bias_buf[Cols];
  const float* bias = ep.bias;
  if (bias != nullptr && cols < Cols) {
    for (size_t j = 0; j < Cols; ++j) bias_buf[j] = j < cols ? ep.bias[j] : 0.0f;
    bias = bias_buf;
  }
  EDGEMT_UNROLL
  for (size_t r = 0; r < Rows; ++r) {
    alignas(64) float out_buf[Cols];
    float* out = cols < Cols ? out_buf : c + r * ldc;
    EDGEMT_UNROLL
    for (size_t v = 0; v < Nv; ++v) {
      B x = acc[r][v];
      if (bias != nullptr) x = x + B::load_unaligned(bias + v * W);
      x = act_batch<Arch>(x, ep.act);
      x.store_unaligned(out + v * W);
    }
    if (cols < Cols)
      for (size_t j = 0; j < cols; ++j) c[r * ldc + j] = out_buf[j];
  }
}

// Rows <= Mr of one tile column, as a sum of instantiated tile heights (Mr, 8, 4, 2,
// 1): a handful of tile sizes instead of Mr of them. Each element's arithmetic is the
// same in every tile height.
template <class Arch, size_t Np, size_t Mr, bool Prefetch>
EDGEMT_ALWAYS_INLINE void gemm_rows(size_t rows, size_t k, const float* a, size_t lda, const float* w,
                                    size_t ps, float* c, size_t ldc, size_t cols, const GemmEpilogue& ep,
                                    bool first, bool last, const float* pf) {
  size_t r = 0;
  while (r < rows) {
    const size_t left = rows - r;
    size_t h;
    if (left >= Mr) {
      gemm_tile<Arch, Mr, Np, Prefetch>(k, a + r * lda, lda, w, ps, c + r * ldc, ldc, cols, ep, first, last,
                                        pf);
      h = Mr;
    } else if (Mr > 8 && left >= 8) {
      gemm_tile<Arch, (Mr > 8 ? 8 : 1), Np, Prefetch>(k, a + r * lda, lda, w, ps, c + r * ldc, ldc, cols, ep,
                                                      first, last, pf);
      h = Mr > 8 ? 8 : 1;
    } else if (Mr > 4 && left >= 4) {
      gemm_tile<Arch, (Mr > 4 ? 4 : 1), Np, Prefetch>(k, a + r * lda, lda, w, ps, c + r * ldc, ldc, cols, ep,
                                                      first, last, pf);
      h = Mr > 4 ? 4 : 1;
    } else if (Mr > 2 && left >= 2) {
      gemm_tile<Arch, (Mr > 2 ? 2 : 1), Np, Prefetch>(k, a + r * lda, lda, w, ps, c + r * ldc, ldc, cols, ep,
                                                      first, last, pf);
      h = Mr > 2 ? 2 : 1;
    } else {
      gemm_tile<Arch, 1, Np, Prefetch>(k, a + r * lda, lda, w, ps, c + r * ldc, ldc, cols, ep, first, last,
                                       pf);
      h = 1;
    }
    r += h;
  }
}

template <class Arch>
void f32_gemm_generic(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* w, float* c,
                      size_t ldc, const GemmEpilogue& ep) {
  using T = GemmTile<Arch>;
  constexpr size_t Mr = T::kMr;
  constexpr size_t Np = T::kNp;
  if (m == 0 || n == 0) return;
  const size_t panels = (n + kPanel - 1) / kPanel;
  const size_t ps = k * kPanel;  // floats per panel
  // Depth blocks: the 16 KiB slice of a tile's panels (kc x 16 x Np floats) stays in L1
  // while the row tiles of a block of A go by. Only worth it with enough rows.
  size_t kc = 256 / Np;
  if (m < 2 * Mr || k <= kc + kc / 2) kc = k;
  // Rows per block: keep a block of A (rows x kc) within ~128 KiB (L2).
  size_t mc = (128 * 1024) / (kc * sizeof(float) + 1);
  mc = k_max<size_t>(Mr, mc / Mr * Mr);
  for (size_t i0 = 0; i0 < m; i0 += mc) {
    const size_t i1 = k_min(m, i0 + mc);
    for (size_t k0 = 0; k0 < k; k0 += kc) {
      const size_t kb = k_min(kc, k - k0);
      const bool first = k0 == 0, last = k0 + kb == k;
      for (size_t p = 0; p < panels; p += Np) {
        const size_t np = k_min(Np, panels - p);
        const size_t j0 = p * kPanel;
        const size_t cols = k_min(n - j0, np * kPanel);
        const bool whole = cols < np * kPanel;  // partial columns: all of k at once
        if (whole && !first) continue;
        const size_t kd = whole ? k : kb;
        GemmEpilogue tep = ep;
        if (ep.bias != nullptr) tep.bias = ep.bias + j0;
        const float* wb = w + p * ps + k0 * kPanel;
        // Weights that stay in no cache (the output projection: 119 MB for Opus-MT's 58k
        // vocabulary) left the first row tile of each tile column waiting on memory. When
        // a block has several row tiles, every tile prefetches the next tile column's
        // slice as it goes (as qs8_gemm_driver.h does; with one tile, one stream, the
        // hardware prefetcher keeps up). Prefetching changes no arithmetic.
        const bool prefetch = i1 - i0 > Mr && np == Np && p + 2 * Np <= panels;
        const float* pf = w + (p + Np) * ps + k0 * kPanel;
        for (size_t i = i0; i < i1; i += Mr) {
          const size_t rows = k_min(Mr, i1 - i);
          const float* ab = a + i * lda + k0;
          float* cb = c + i * ldc + j0;
          if (np != Np) {
            gemm_rows<Arch, 1, Mr, false>(rows, kd, ab, lda, wb, ps, cb, ldc, cols, tep, first, whole || last,
                                          nullptr);
          } else if (prefetch) {
            gemm_rows<Arch, Np, Mr, true>(rows, kd, ab, lda, wb, ps, cb, ldc, cols, tep, first, whole || last,
                                          pf);
          } else {
            gemm_rows<Arch, Np, Mr, false>(rows, kd, ab, lda, wb, ps, cb, ldc, cols, tep, first,
                                           whole || last, nullptr);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace edgemt::ops

#define EDGEMT_INSTANTIATE_GEMM(isa, Arch)                                                                 \
  namespace edgemt::ops {                                                                                  \
  void f32_gemm__##isa(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* w, float* c, \
                       size_t ldc, const GemmEpilogue& ep) {                                               \
    f32_gemm_generic<Arch>(m, n, k, a, lda, w, c, ldc, ep);                                                \
  }                                                                                                        \
  }
