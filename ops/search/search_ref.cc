// Scalar reference of f32_topk (contract in ops/ops.h).
#include "ops/ops.h"
#include "ops/search/topk_common.h"

namespace edgemt::ops {

size_t f32_topk__ref(size_t n, const float* x, uint32_t first, size_t k, size_t filled, float* values,
                     uint32_t* indices) {
  for (size_t i = 0; i < n; ++i)
    topk_offer(x[i], first + static_cast<uint32_t>(i), k, &filled, values, indices);
  return filled;
}

}  // namespace edgemt::ops
