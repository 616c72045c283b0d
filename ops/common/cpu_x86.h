// x86 CPU features that the compilers' __builtin_cpu_supports does not name everywhere
// (clang 14, which builds the fuzzers, lacks "avxvnni"). Internal linkage: included by
// files compiled with different ISA flags, which must not share an inline copy.
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

namespace edgemt::ops {
namespace {

// AVX-VNNI, VPDPBUSD in a VEX encoding: CPUID.(EAX=7, ECX=1):EAX bit 4. The OS saves ymm
// state wherever AVX2 is usable, which the avxvnni level also requires.
inline bool cpu_has_avx_vnni() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid_count(7, 1, &a, &b, &c, &d) == 0) return false;
  return ((a >> 4) & 1u) != 0;
}

}  // namespace
}  // namespace edgemt::ops
#endif
