// Scalar reference of the attention family (contract in ops/ops.h).
#include <math.h>

#include "ops/ops.h"

namespace edgemt::ops {

void f32_softmax__ref(size_t n, size_t n_total, const float* x, float* y);

void f32_attention__ref(size_t lq, size_t lk, size_t hd, const float* q, size_t ldq, const float* kt,
                        size_t ldkb, const float* v, size_t ldv, float* o, size_t ldo, float scale,
                        float* scratch) {
  float* s = scratch;
  for (size_t i = 0; i < lq; ++i) {
    for (size_t j = 0; j < lk; ++j) {
      float acc = 0.0f;
      for (size_t d = 0; d < hd; ++d)
        acc += q[i * ldq + d] * kt[(j / kKeyBlock) * ldkb + d * kKeyBlock + j % kKeyBlock];
      s[j] = acc * scale;
    }
    f32_softmax__ref(lk, lk, s, s);
    for (size_t d = 0; d < hd; ++d) {
      float acc = 0.0f;
      for (size_t j = 0; j < lk; ++j) acc += s[j] * v[j * ldv + d];
      o[i * ldo + d] = acc;
    }
  }
}

void f32_pack_keys__ref(size_t n, size_t hd, const float* k, size_t ldk, float* kt, size_t ldkb, size_t j0,
                        bool zero_tail) {
  for (size_t i = 0; i < n; ++i) {
    const size_t j = j0 + i;
    for (size_t d = 0; d < hd; ++d)
      kt[(j / kKeyBlock) * ldkb + d * kKeyBlock + j % kKeyBlock] = k[i * ldk + d];
  }
  if (zero_tail && n > 0) {
    const size_t end = j0 + n;
    const size_t block_end = (end + kKeyBlock - 1) / kKeyBlock * kKeyBlock;
    for (size_t j = end; j < block_end; ++j)
      for (size_t d = 0; d < hd; ++d) kt[(j / kKeyBlock) * ldkb + d * kKeyBlock + j % kKeyBlock] = 0.0f;
  }
}

}  // namespace edgemt::ops
