// Generic xsimd implementation of the attention family (contract in ops/ops.h).
//
// Queries are processed in blocks of QB (4, or 2 on 16-register ISAs with 4-wide
// vectors). Scores of a query block against a key block are a small register-tiled
// gemm: for each d, the aligned 64-byte line KT[d, block] is loaded once and
// multiply-added into the QB query rows, so no horizontal sums are needed. Only
// QB x lk scores are materialised. Then a softmax per row, and O = P V vectorised over
// the head dimension.
#pragma once

#include "ops/common/simd.h"
#include "ops/softmax/softmax_impl.h"

namespace edgemt::ops {
namespace {

#if defined(__AVX512F__) || defined(__aarch64__)
constexpr size_t kAttnVectorRegisters = 32;
#else
constexpr size_t kAttnVectorRegisters = 16;
#endif

template <class Arch, size_t Qb>
EDGEMT_ALWAYS_INLINE void attn_scores_block(size_t hd, const float* const* qp, const float* kb, float scale,
                                            float* s, size_t lds) {
  using B = xsimd::batch<float, Arch>;
  constexpr size_t W = B::size;
  constexpr size_t Nv = kKeyBlock / W;
  B acc[Qb][Nv];
  EDGEMT_UNROLL
  for (size_t r = 0; r < Qb; ++r) {
    EDGEMT_UNROLL
    for (size_t v = 0; v < Nv; ++v) acc[r][v] = B(0.0f);
  }
  for (size_t d = 0; d < hd; ++d) {
    B kv[Nv];
    EDGEMT_UNROLL
    for (size_t v = 0; v < Nv; ++v) kv[v] = B::load_aligned(kb + d * kKeyBlock + v * W);
    EDGEMT_UNROLL
    for (size_t r = 0; r < Qb; ++r) {
      const B qd(qp[r][d]);
      EDGEMT_UNROLL
      for (size_t v = 0; v < Nv; ++v) acc[r][v] = k_fma<Arch>(qd, kv[v], acc[r][v]);
    }
  }
  const B vs(scale);
  EDGEMT_UNROLL
  for (size_t r = 0; r < Qb; ++r) {
    EDGEMT_UNROLL
    for (size_t v = 0; v < Nv; ++v) (acc[r][v] * vs).store_unaligned(s + r * lds + v * W);
  }
}

// O[d0 .. d0 + Nv*W) = sum_j p[j] V[j, d0 ..]
template <class Arch, size_t Nv>
EDGEMT_ALWAYS_INLINE void attn_pv_block(size_t lk, const float* p, const float* v, size_t ldv, size_t d0,
                                        float* o) {
  using B = xsimd::batch<float, Arch>;
  constexpr size_t W = B::size;
  B acc[Nv];
  EDGEMT_UNROLL
  for (size_t t = 0; t < Nv; ++t) acc[t] = B(0.0f);
  for (size_t j = 0; j < lk; ++j) {
    const B pj(p[j]);
    EDGEMT_UNROLL
    for (size_t t = 0; t < Nv; ++t)
      acc[t] = k_fma<Arch>(pj, B::load_unaligned(v + j * ldv + d0 + t * W), acc[t]);
  }
  EDGEMT_UNROLL
  for (size_t t = 0; t < Nv; ++t) acc[t].store_unaligned(o + d0 + t * W);
}

template <class Arch, size_t Qb>
void attention_blocks(size_t lq, size_t lk, size_t hd, const float* q, size_t ldq, const float* kt,
                      size_t ldkb, const float* v, size_t ldv, float* o, size_t ldo, float scale,
                      float* scratch) {
  using B = xsimd::batch<float, Arch>;
  constexpr size_t W = B::size;
  const size_t nblocks = (lk + kKeyBlock - 1) / kKeyBlock;
  const size_t lds = nblocks * kKeyBlock;
  for (size_t i0 = 0; i0 < lq; i0 += Qb) {
    const size_t qb = k_min(Qb, lq - i0);
    // Rows past the end of the block repeat the last query; their scores are unused.
    const float* qp[Qb];
    for (size_t r = 0; r < Qb; ++r) qp[r] = q + (i0 + k_min(r, qb - 1)) * ldq;
    for (size_t b = 0; b < nblocks; ++b)
      attn_scores_block<Arch, Qb>(hd, qp, kt + b * ldkb, scale, scratch + b * kKeyBlock, lds);
    for (size_t r = 0; r < qb; ++r) {
      float* p = scratch + r * lds;
      f32_softmax_generic<Arch>(lk, lk, p, p);
      float* orow = o + (i0 + r) * ldo;
      size_t d0 = 0;
      for (; d0 + 4 * W <= hd; d0 += 4 * W) attn_pv_block<Arch, 4>(lk, p, v, ldv, d0, orow);
      for (; d0 + W <= hd; d0 += W) attn_pv_block<Arch, 1>(lk, p, v, ldv, d0, orow);
      for (; d0 < hd; ++d0) {
        float acc = 0.0f;
        for (size_t jj = 0; jj < lk; ++jj) acc = k_fma1(p[jj], v[jj * ldv + d0], acc);
        orow[d0] = acc;
      }
    }
  }
}

template <class Arch>
void f32_attention_generic(size_t lq, size_t lk, size_t hd, const float* q, size_t ldq, const float* kt,
                           size_t ldkb, const float* v, size_t ldv, float* o, size_t ldo, float scale,
                           float* scratch) {
  constexpr size_t W = xsimd::batch<float, Arch>::size;
  constexpr size_t Qb = (W >= 8 || kAttnVectorRegisters >= 32) ? 4 : 2;
  // One query (decoding): no padding rows. A query's scores are computed the same way in
  // either path (per key, sum over d in order), so results do not depend on lq.
  if (lq == 1) {
    attention_blocks<Arch, 1>(lq, lk, hd, q, ldq, kt, ldkb, v, ldv, o, ldo, scale, scratch);
  } else {
    attention_blocks<Arch, Qb>(lq, lk, hd, q, ldq, kt, ldkb, v, ldv, o, ldo, scale, scratch);
  }
}

template <class Arch>
void f32_pack_keys_generic(size_t n, size_t hd, const float* k, size_t ldk, float* kt, size_t ldkb, size_t j0,
                           bool zero_tail) {
  for (size_t i = 0; i < n; ++i) {
    const size_t j = j0 + i;
    float* dst = kt + (j / kKeyBlock) * ldkb + j % kKeyBlock;
    const float* src = k + i * ldk;
    for (size_t d = 0; d < hd; ++d) dst[d * kKeyBlock] = src[d];
  }
  if (zero_tail && n > 0) {
    const size_t end = j0 + n;
    const size_t block_end = (end + kKeyBlock - 1) / kKeyBlock * kKeyBlock;
    for (size_t j = end; j < block_end; ++j) {
      float* dst = kt + (j / kKeyBlock) * ldkb + j % kKeyBlock;
      for (size_t d = 0; d < hd; ++d) dst[d * kKeyBlock] = 0.0f;
    }
  }
}

}  // namespace
}  // namespace edgemt::ops

#define EDGEMT_INSTANTIATE_ATTENTION(isa, Arch)                                                           \
  namespace edgemt::ops {                                                                                 \
  void f32_attention__##isa(size_t lq, size_t lk, size_t hd, const float* q, size_t ldq, const float* kt, \
                            size_t ldkb, const float* v, size_t ldv, float* o, size_t ldo, float scale,   \
                            float* scratch) {                                                             \
    f32_attention_generic<Arch>(lq, lk, hd, q, ldq, kt, ldkb, v, ldv, o, ldo, scale, scratch);            \
  }                                                                                                       \
  void f32_pack_keys__##isa(size_t n, size_t hd, const float* k, size_t ldk, float* kt, size_t ldkb,      \
                            size_t j0, bool zero_tail) {                                                  \
    f32_pack_keys_generic<Arch>(n, hd, k, ldk, kt, ldkb, j0, zero_tail);                                  \
  }                                                                                                       \
  }
