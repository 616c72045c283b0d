// The single lists of kernel entries and ISA levels. Declarations (declarations.h),
// dispatch tables (dispatch.cc), per-ISA tests (tests/ops) and benchmarks
// (bench/ops_bench.cc) are all generated from these two lists, so they cannot drift.
#pragma once

// ---- Kernel entries: X(name, function_type, source, ...) ------------------------------
//   source = by_base: the entry is the generic xsimd template instantiated for the
//                     ISA's base level (see the ISA list);
//   source = by_own:  every ISA level has its own symbol name__<isa> (int8 gemms, whose
//                     levels differ in integer instructions, not in vector width).
#define EDGEMT_KERNELS(X, ...)                                  \
  X(f32_gemm, F32GemmFn, by_base, __VA_ARGS__)                  \
  X(qs8_quantize, Qs8QuantizeFn, by_base, __VA_ARGS__)          \
  X(qs8_gemm, Qs8GemmFn, by_own, __VA_ARGS__)                   \
  X(f32_activation, F32ActivationFn, by_base, __VA_ARGS__)      \
  X(f32_softmax, F32SoftmaxFn, by_base, __VA_ARGS__)            \
  X(f32_logsumexp, F32LogSumExpFn, by_base, __VA_ARGS__)         \
  X(f32_add_layernorm, F32AddLayerNormFn, by_base, __VA_ARGS__) \
  X(f32_add, F32AddFn, by_base, __VA_ARGS__)                    \
  X(f32_embed, F32EmbedFn, by_base, __VA_ARGS__)                \
  X(qs8_embed, Qs8EmbedFn, by_base, __VA_ARGS__)                \
  X(f32_attention, F32AttentionFn, by_base, __VA_ARGS__)        \
  X(f32_pack_keys, F32PackKeysFn, by_base, __VA_ARGS__)        \
  X(f32_topk, F32TopKFn, by_base, __VA_ARGS__)

// ---- ISA levels: X(token, family, base) -------------------------------------------------
//   token:  xsimd's arch name, used in symbols (f32_gemm__avx2), generated file names,
//           CMake and EDGEMT_ISA=<token> at run time;
//   family: the CPU family that runs it;
//   base:   the level whose generic kernels this level uses: the token itself, except
//           for int8-only levels (avx512vnni, neon64_dot), which differ from the level
//           below only in their own int8 kernels.
// Within a family, later entries are higher levels. ref (scalar) always exists and is
// the oracle. The xsimd arch type of each level is in ops/common/isa_arch.h.
#if EDGEMT_ARCH_X86
#define EDGEMT_ISAS_ARCH(X)          \
  X(sse4_2, x86, sse4_2)             \
  X(avx2, x86, avx2)                 \
  X(avx512, x86, avx512)             \
  X(avx512vnni, x86, avx512)
#elif EDGEMT_ARCH_ARM64
#define EDGEMT_ISAS_ARCH(X)          \
  X(neon64, arm, neon64)             \
  X(neon64_dot, arm, neon64)
#elif EDGEMT_ARCH_ARM32 && EDGEMT_HAVE_NEON
#define EDGEMT_ISAS_ARCH(X) X(neon, arm, neon)
#else
#define EDGEMT_ISAS_ARCH(X)
#endif
#define EDGEMT_ISAS(X) X(ref, any, ref) EDGEMT_ISAS_ARCH(X)
