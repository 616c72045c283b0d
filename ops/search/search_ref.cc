// Scalar reference of f32_topk (contract in ops/ops.h).
#include "ops/ops.h"
#include "ops/search/topk_common.h"

namespace edgemt::ops {

void f32_topk__ref(size_t n, const float* x, size_t k, float* values, uint32_t* indices) {
  size_t filled = 0;
  for (size_t i = 0; i < n; ++i) topk_offer(x[i], static_cast<uint32_t>(i), k, &filled, values, indices);
}

}  // namespace edgemt::ops
