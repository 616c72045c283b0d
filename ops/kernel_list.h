// The single list of kernel entries and the single list of ISA levels. Everything else
// is generated from these two lists, so nothing can drift:
//   C++:   declarations (declarations.h), the Isa enum and dispatch tables, CPU
//          detection (dispatch.cc), one test per kernel and ISA (tests/ops), one
//          benchmark per kernel (bench/ops_bench.cc: a kernel without one does not compile);
//   CMake: ops/CMakeLists.txt reads this file: the reference sources (one per folder),
//          the generated per-ISA sources (one per folder with by_base entries, with the
//          level's xsimd arch), the by_own sources, and each level's compiler flags.
// Adding a kernel: an entry below, its contract in ops.h, its folder's ref/impl, a
// test_<name> in tests/ops and a bench_<name> in bench/ops_bench.cc. Adding an ISA
// level: an entry below (flags, detection) and, for by_own entries, their sources.
#pragma once

// clang-format off
// ---- Kernel entries: X(name, function_type, source, folder, ...) -----------------------
//   source = by_base: the generic xsimd template of ops/<folder>/<folder>_impl.h,
//                     instantiated for the ISA's base level (see the ISA list);
//   source = by_own:  every ISA level has its own symbol name__<isa>, from
//                     ops/<folder>/<name>__<isa>.cc (int8 gemms, whose levels differ in
//                     integer instructions, not in vector width), or, for levels without
//                     that file, from ops/<folder>/<name>__default.cc.in (generated).
// Every folder has a scalar reference, ops/<folder>/<folder>_ref.cc.
#define EDGEMT_KERNELS(X, ...)                                                \
  X(f32_gemm, F32GemmFn, by_base, gemm, __VA_ARGS__)                          \
  X(qs8_quantize, Qs8QuantizeFn, by_base, quant, __VA_ARGS__)                 \
  X(qs8_gemm, Qs8GemmFn, by_own, quant, __VA_ARGS__)                          \
  X(qs8_gemm_w7, Qs8GemmFn, by_own, quant, __VA_ARGS__)                       \
  X(f32_activation, F32ActivationFn, by_base, activation, __VA_ARGS__)        \
  X(f32_softmax, F32SoftmaxFn, by_base, softmax, __VA_ARGS__)                 \
  X(f32_logsumexp, F32LogSumExpFn, by_base, softmax, __VA_ARGS__)             \
  X(f32_add_layernorm, F32AddLayerNormFn, by_base, layernorm, __VA_ARGS__)    \
  X(f32_add, F32AddFn, by_base, elementwise, __VA_ARGS__)                     \
  X(f32_embed, F32EmbedFn, by_base, embedding, __VA_ARGS__)                   \
  X(qs8_embed, Qs8EmbedFn, by_base, embedding, __VA_ARGS__)                   \
  X(f32_attention, F32AttentionFn, by_base, attention, __VA_ARGS__)           \
  X(f32_pack_keys, F32PackKeysFn, by_base, attention, __VA_ARGS__)            \
  X(f32_topk, F32TopKFn, by_base, search, __VA_ARGS__)                       \
  X(f32_ssru, F32SsruFn, by_base, recurrent, __VA_ARGS__)

// ---- ISA levels: X(token, family, base, xsimd_arch, "flags", detect) -------------------
//   token:      used in symbols (f32_gemm__avx2), generated file names, CMake and
//               EDGEMT_ISA=<token> at run time;
//   family:     x86, arm64 or arm32: the CPUs that run it (CMake builds a family's
//               levels for that architecture);
//   base:       the level whose generic kernels this level uses: the token itself, except
//               for int8-only levels (avxvnni, avx512vnni, neon64_dot), which differ from
//               the level below only in their by_own kernels;
//   xsimd_arch: the xsimd arch type the base level's generic kernels are compiled for;
//   "flags":    compiler flags of the level's sources (one string; CMake splits it);
//   detect:     a C++ expression, true when this CPU runs the level (dispatch.cc).
// Within a family, later entries are higher levels; an int8-only level may be missing on a
// CPU that has a higher one (avxvnni on Skylake-SP's AVX-512 without VNNI). avxvnni is for
// AVX-VNNI without AVX-512 (Alder Lake and later Intel client cores); AVX-512 VNNI CPUs
// run it too, with EVEX encodings (qs8_gemm_vnni256.h), so that it is tested there, but
// select avx512vnni. ref (scalar) always exists and is
// the oracle. One entry per line: CMake reads them with a regular expression.
//
// GCC 12's arm_neon.h declares vdotq_s32 under target "arch=armv8.2-a+dotprod", so the
// neon64_dot caller needs all of armv8.2-a (LSE atomics, RDM too), not just
// armv8-a+dotprod: its sources must stay free of inline functions that other files also
// instantiate (std::atomic, shared_ptr, ...), or the linker could keep an armv8.2 copy
// for code run on a Pi 3/4. 32-bit ARM: only the NEON sources get NEON (+VFPv4 FMA).
#define EDGEMT_ISAS_x86(X)                                                                                 \
  X(sse4_2, x86, sse4_2, xsimd::sse4_2, "-msse4.2 -mpopcnt", EDGEMT_X86_HAS("sse4.2"))                       \
  X(avx2, x86, avx2, xsimd::fma3<xsimd::avx2>, "-mavx2 -mfma -mf16c",                                        \
    EDGEMT_X86_HAS("avx2") && EDGEMT_X86_HAS("fma"))                                                         \
  X(avxvnni, x86, avx2, xsimd::fma3<xsimd::avx2>, "-mavx2 -mfma -mf16c -mavxvnni",                           \
    cpu_has(Isa::avx2) && (cpu_has_avx_vnni() || cpu_has(Isa::avx512vnni)))                          \
  X(avx512, x86, avx512, xsimd::avx512bw, "-mavx2 -mfma -mf16c -mavx512f -mavx512bw -mavx512dq -mavx512vl -mavx512cd", \
    EDGEMT_X86_HAS("avx512f") && EDGEMT_X86_HAS("avx512bw") && EDGEMT_X86_HAS("avx512dq") &&                 \
        EDGEMT_X86_HAS("avx512vl") && EDGEMT_X86_HAS("fma"))                                                 \
  X(avx512vnni, x86, avx512, xsimd::avx512bw, "-mavx2 -mfma -mf16c -mavx512f -mavx512bw -mavx512dq -mavx512vl -mavx512cd -mavx512vnni", \
    cpu_has(Isa::avx512) && EDGEMT_X86_HAS("avx512vnni"))
#define EDGEMT_ISAS_arm64(X)                                                                               \
  X(neon64, arm64, neon64, xsimd::neon64, "", true) /* Advanced SIMD is mandatory on AArch64 */             \
  X(neon64_dot, arm64, neon64, xsimd::neon64, "-march=armv8.2-a+dotprod", EDGEMT_ARM_HWCAP(1UL << 20)) /* ASIMDDP */
#define EDGEMT_ISAS_arm32(X) \
  X(neon, arm32, neon, xsimd::neon, "-mfpu=neon-vfpv4", EDGEMT_ARM_HWCAP(1UL << 12)) /* HWCAP_NEON */

#if EDGEMT_ARCH_X86
#define EDGEMT_ISAS_ARCH(X) EDGEMT_ISAS_x86(X)
#elif EDGEMT_ARCH_ARM64
#define EDGEMT_ISAS_ARCH(X) EDGEMT_ISAS_arm64(X)
#elif EDGEMT_ARCH_ARM32 && EDGEMT_HAVE_NEON
#define EDGEMT_ISAS_ARCH(X) EDGEMT_ISAS_arm32(X)
#else
#define EDGEMT_ISAS_ARCH(X)
#endif
#define EDGEMT_ISAS(X) X(ref, any, ref, void, "", true) EDGEMT_ISAS_ARCH(X)
// clang-format on
