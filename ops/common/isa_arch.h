// The xsimd arch type of each ISA level (used by the generated per-ISA sources).
#pragma once

#include <xsimd/xsimd.hpp>

#define EDGEMT_XSIMD_ARCH_sse4_2 xsimd::sse4_2
#define EDGEMT_XSIMD_ARCH_avx2 xsimd::fma3<xsimd::avx2>
#define EDGEMT_XSIMD_ARCH_avx512 xsimd::avx512bw
#define EDGEMT_XSIMD_ARCH_neon xsimd::neon
#define EDGEMT_XSIMD_ARCH_neon64 xsimd::neon64
