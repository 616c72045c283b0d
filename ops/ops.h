// edgemt kernels: the contract every kernel family follows.
//
// Kernels are plain functions over raw pointers, sizes and strides (in elements).
// They use no heap and raise no exceptions, and know nothing about tensors, files or
// threads.
// Each family lives in its own folder with a header stating its formula and contract,
// a scalar reference (the oracle), a generic xsimd template instantiated once per ISA
// (see kernel_list.h), and tests/benchmarks generated from kernel_list.h.
//
// ISA selection happens once: ops::kernels() returns the table for the best ISA the
// CPU supports, or the one forced with the environment variable EDGEMT_ISA.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__x86_64__) || defined(_M_X64)
#define EDGEMT_ARCH_X86 1
#else
#define EDGEMT_ARCH_X86 0
#endif
#if defined(__aarch64__)
#define EDGEMT_ARCH_ARM64 1
#else
#define EDGEMT_ARCH_ARM64 0
#endif
#if defined(__arm__)
#define EDGEMT_ARCH_ARM32 1
#else
#define EDGEMT_ARCH_ARM32 0
#endif
// 32-bit ARM: the build decides (CMake option EDGEMT_ARM_NEON) whether NEON kernels
// exist; ARMv6 builds (Raspberry Pi 1/Zero) have the scalar kernels only. It must be
// the same in every translation unit, so it is a build-wide definition, not __ARM_NEON.
#ifndef EDGEMT_HAVE_NEON
#define EDGEMT_HAVE_NEON 0
#endif

#include "ops/kernel_list.h"

namespace edgemt::ops {

// Instruction-set levels, one per entry of EDGEMT_ISAS (in that order).
enum class Isa : uint8_t {
#define EDGEMT_ISA_ENUM(token, family, base, arch, flags, detect) token,
  EDGEMT_ISAS(EDGEMT_ISA_ENUM)
#undef EDGEMT_ISA_ENUM
      kCount
};

enum class Activation : uint8_t { kNone = 0, kRelu, kGelu, kSwish, kGeluTanh };

// Panel width of packed linear weights (the converter writes this layout).
inline constexpr size_t kPanel = 16;
// int8 panels group K by 4 (one 32-bit lane holds 4 consecutive k of one column).
inline constexpr size_t kPanelK8 = 4;

// ---- gemm ------------------------------------------------------------------------
// Epilogue of a linear layer: y = act(acc + bias[n]); bias may be null.
struct GemmEpilogue {
  const float* bias = nullptr;
  Activation act = Activation::kNone;
};

// f32_gemm: C[i, j] = act(sum_k A[i, k] * W[j, k] + bias[j]), i < m, j < n.
// W is packed (Layout PanelF32x16): ceil(n/16) panels of [k][16] floats, 64-byte
// aligned, columns past n zero. Reads whole panels, writes only j < n.
// Each C element is computed by the same sequence of operations whatever m, the
// tile it falls in or the thread that runs it: results are batch- and
// thread-invariant.
using F32GemmFn = void (*)(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* w, float* c,
                           size_t ldc, const GemmEpilogue& ep);

// qs8_quantize: per-row symmetric quantization of activations.
// scale[i] = max_k |A[i, k]| / 127 (1 when the row is all zero);
// Q[i, k] = round_half_away(A[i, k] / scale[i]) for k < k, 0 for k in [k, ldq).
// ldq must be a multiple of 4 and >= k.
using Qs8QuantizeFn = void (*)(size_t m, size_t k, const float* a, size_t lda, int8_t* q, size_t ldq,
                               float* scale);

// qs8_gemm: C[i, j] = act(float(sum_k Q[i, k] * W8[j, k]) * (sa[i] * sw[j]) + bias[j]).
// W8 is packed (Layout PanelI8x16x4): ceil(n/16) panels of [ceil(k/4)][16][4] bytes;
// wsum[j] = sum_k W8[j, k] (used by the unsigned-shift trick of VNNI kernels);
// Q is row-major with ldq a multiple of 4 and zero padding up to round_up(k, 4).
// The int32 sums are exact on every ISA, and the float epilogue uses the same
// operations in the same order: results equal the reference bit for bit.
using Qs8GemmFn = void (*)(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq, const float* sa,
                           const int8_t* w, const float* sw, const int32_t* wsum, float* c, size_t ldc,
                           const GemmEpilogue& ep);
// qs8_gemm_w7: qs8_gemm for weights known to lie in [-64, 64] (7-bit weights: a model
// quantized with 63 levels per side), the same results bit for bit. The bound lets the
// AVX2 and AVX-512 (without VNNI) levels multiply unsigned activations (q + 128) by signed
// weights with VPMADDUBSW, whose int16 pair sums cannot then saturate (255 * 64 * 2 =
// 32640); other levels run their qs8_gemm. Weights outside the bound give wrong results
// on those two levels.

// ---- elementwise / rows ------------------------------------------------------------
// f32_activation: y[i] = act(x[i]); y may equal x.
using F32ActivationFn = void (*)(size_t n, const float* x, float* y, Activation act);

// f32_softmax: y[i] = exp(x[i] - max) / sum_j exp(x[j] - max) for i < n;
// y[i] = 0 for n <= i < n_total (masked positions). y may equal x. n >= 1.
using F32SoftmaxFn = void (*)(size_t n, size_t n_total, const float* x, float* y);

// f32_logsumexp: max + log(sum_i exp(x[i] - max)) over i < n (n >= 1): the log-softmax
// of x[i] is x[i] - logsumexp, as in torch's log_softmax. Beam search needs it only
// for its 2*beam candidates, so the full log-softmax row is never written.
using F32LogSumExpFn = float (*)(size_t n, const float* x);

// f32_add_layernorm, for each of `rows` rows of length d:
//   s = x + r (r may be null: s = x);  y = (s - mean(s)) / sqrt(var(s) + eps) * gamma + beta
// var is the biased variance (as torch.nn.LayerNorm). y may equal x or r.
using F32AddLayerNormFn = void (*)(size_t rows, size_t d, const float* x, size_t ldx, const float* r,
                                   size_t ldr, const float* gamma, const float* beta, float eps, float* y,
                                   size_t ldy);

// ---- elementwise -------------------------------------------------------------------
// f32_add: y[i] = x[i] + r[i]. y may equal x or r.
using F32AddFn = void (*)(size_t n, const float* x, const float* r, float* y);

// ---- recurrent ---------------------------------------------------------------------
// f32_ssru: one step of an SSRU cell (Marian's dec-cell ssru) over n units, in float:
//   f = 1 / (1 + exp(-g[i])),  c[i] = f * (first ? 0 : c[i]) + (1 - f) * x[i],
//   y[i] = max(c[i], 0).
// c is the cell state, updated in place. y may equal x or g.
using F32SsruFn = void (*)(size_t n, const float* x, const float* g, float* c, bool first, float* y);

// f32_embed: y[i] = e[i * stride] * scale + p[i] (p may be null) for i < d. Row-major
// tables have stride 1; a row of a PanelF32x16 table (an embedding that is also the
// tied output projection, read in place by the gemm) has stride 16.
using F32EmbedFn = void (*)(size_t d, const float* e, size_t stride, float scale, const float* p, float* y);

// qs8_embed: y[i] = float(e(i)) * (escale * scale) + p[i] (p may be null), where the
// row's elements come in groups of 4 consecutive bytes, group_stride bytes apart:
// e(i) = e[(i / 4) * group_stride + i % 4]. Row-major rows have group_stride 4; a row
// of a PanelI8x16x4 table (an int8 embedding that is also the output projection) has
// group_stride 64.
using Qs8EmbedFn = void (*)(size_t d, const int8_t* e, size_t group_stride, float escale, float scale,
                            const float* p, float* y);

// ---- attention ---------------------------------------------------------------------
// Keys are stored in blocks of 16 ("key blocks"), transposed within a block: element
// (d, j) of the keys of one head is at kt[(j / 16) * ldkb + d * 16 + j % 16], with
// ldkb >= 16 * hd the distance between blocks. A block row KT[d, 16b .. 16b+16) is one
// aligned 64-byte line, scores are vectorised over keys without horizontal sums, and a
// KV cache in this layout grows block by block (memory touched follows the length).
inline constexpr size_t kKeyBlock = 16;

// f32_attention, one head: for each query i < lq,
//   s[j] = scale * sum_d Q[i, d] * K[j, d]   (j < lk)
//   p = softmax(s);  O[i, d] = sum_j p[j] * V[j, d]   (d < hd)
// Q, O: [lq][hd] with row strides ldq, ldo; K in key blocks (above), 64-byte aligned;
// the last block is read whole (its entries past lk are ignored but must be readable);
// V: [lk][hd] with row stride ldv. Masked keys are simply not passed (lk = number of
// visible keys). scratch: at least 4 * round_up(lk, 16) floats. Writes scratch and O.
using F32AttentionFn = void (*)(size_t lq, size_t lk, size_t hd, const float* q, size_t ldq, const float* kt,
                                size_t ldkb, const float* v, size_t ldv, float* o, size_t ldo, float scale,
                                float* scratch);

// f32_pack_keys: writes keys j0 .. j0+n-1 (rows of K, [n][hd] with stride ldk) into
// key blocks kt (ldkb as above). When `zero_tail`, the rest of the last block touched
// is zeroed (so whole-block reads see defined values).
using F32PackKeysFn = void (*)(size_t n, size_t hd, const float* k, size_t ldk, float* kt, size_t ldkb,
                               size_t j0, bool zero_tail);

// ---- search ------------------------------------------------------------------------
// f32_topk: the k largest x[i] (i < n) in descending order, ties broken by lower
// index, added to a list that may hold some already: values/indices[0 .. filled) (k <= 64,
// sorted so, from earlier calls with lower indices). x[i] has index first + i. Returns
// the list's length after the call, min(k, filled + n). A whole list in one call: first
// 0, filled 0. In parts (column blocks, say), in increasing index order, it gives the
// same list.
using F32TopKFn = size_t (*)(size_t n, const float* x, uint32_t first, size_t k, size_t filled, float* values,
                             uint32_t* indices);

// The table of one ISA. EDGEMT_KERNELS lists its entries.
struct Kernels {
#define EDGEMT_KERNEL_FIELD(name, type, source, folder, unused) type name;
  EDGEMT_KERNELS(EDGEMT_KERNEL_FIELD, 0)
#undef EDGEMT_KERNEL_FIELD
};

const char* isa_name(Isa isa);
// Parses an ISA token ("avx2"); returns false when unknown.
bool isa_from_name(const char* name, Isa* isa);
// True when this CPU can run kernels of `isa` (and the build contains them).
bool isa_supported(Isa isa);
// The best ISA this CPU supports.
Isa best_isa();
// Table of `isa`, or null when this build or CPU does not have it.
const Kernels* kernels_for(Isa isa);
// The table in use, chosen once: best_isa(), or EDGEMT_ISA when set (a higher ISA
// than the CPU has, or an unknown token, falls back to best_isa() with a warning).
const Kernels& kernels();
Isa active_isa();

}  // namespace edgemt::ops
