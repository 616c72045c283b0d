// Generic xsimd implementation of f32_topk: a vector compare of W candidates against
// the current k-th value rejects almost everything; survivors go through the scalar
// insertion shared with the reference, so the result is identical to it.
#pragma once

#include "ops/common/simd.h"
#include "ops/search/topk_common.h"

namespace edgemt::ops {
namespace {

template <class Arch>
size_t f32_topk_generic(size_t n, const float* x, uint32_t first, size_t k, size_t filled, float* values,
                        uint32_t* indices) {
  using B = xsimd::batch<float, Arch>;
  constexpr size_t W = B::size;
  size_t i = 0;
  for (; i < n && filled < k; ++i)
    topk_offer(x[i], first + static_cast<uint32_t>(i), k, &filled, values, indices);
  for (; i + W <= n; i += W) {
    const B c = B::load_unaligned(x + i);
    if (xsimd::any(c > B(values[k - 1]))) {
      for (size_t j = 0; j < W; ++j)
        topk_offer(x[i + j], first + static_cast<uint32_t>(i + j), k, &filled, values, indices);
    }
  }
  for (; i < n; ++i) topk_offer(x[i], first + static_cast<uint32_t>(i), k, &filled, values, indices);
  return filled;
}

}  // namespace
}  // namespace edgemt::ops

#define EDGEMT_INSTANTIATE_SEARCH(isa, Arch)                                                               \
  namespace edgemt::ops {                                                                                  \
  size_t f32_topk__##isa(size_t n, const float* x, uint32_t first, size_t k, size_t filled, float* values, \
                         uint32_t* indices) {                                                              \
    return f32_topk_generic<Arch>(n, x, first, k, filled, values, indices);                                \
  }                                                                                                        \
  }
