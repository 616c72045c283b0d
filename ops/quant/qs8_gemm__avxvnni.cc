// qs8_gemm for the avxvnni level: 256-bit VPDPBUSD (see qs8_gemm_vnni256.h). A CPU with
// AVX-VNNI runs the VEX form compiled here; the level also counts as supported on AVX-512
// VNNI CPUs (kernel_list.h), which have no VEX form (Zen 4) and run the EVEX twin instead.
#include "ops/common/cpu_x86.h"
#include "ops/declarations.h"
#include "ops/quant/qs8_gemm_vnni256.h"

namespace edgemt::ops {
namespace {

struct VexDp {
  static constexpr size_t kMaxRows = 6;
  static EDGEMT_ALWAYS_INLINE __m256i dp(__m256i acc, __m256i a, __m256i w) {
    return _mm256_dpbusd_avx_epi32(acc, a, w);
  }
};

}  // namespace

void qs8_gemm__avxvnni(size_t m, size_t n, size_t k, const int8_t* q, size_t ldq, const float* sa,
                       const int8_t* w, const float* sw, const int32_t* wsum, float* c, size_t ldc,
                       const GemmEpilogue& ep) {
  if (!cpu_has_avx_vnni()) {
    qs8_gemm_vnni256_evex(m, n, k, q, ldq, sa, w, sw, wsum, c, ldc, ep);
    return;
  }
  qs8_gemm_vnni256<VexDp>(m, n, k, q, ldq, sa, w, sw, wsum, c, ldc, ep);
}

}  // namespace edgemt::ops
