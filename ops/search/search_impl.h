// Generic xsimd implementation of f32_topk: a vector compare of W candidates against
// the current k-th value rejects almost everything; survivors go through the scalar
// insertion shared with the reference, so the result is identical to it.
#pragma once

#include "ops/common/simd.h"
#include "ops/search/topk_common.h"

namespace edgemt::ops {
namespace {

template <class Arch>
void f32_topk_generic(size_t n, const float* x, size_t k, float* values, uint32_t* indices) {
  using B = xsimd::batch<float, Arch>;
  constexpr size_t W = B::size;
  size_t filled = 0;
  size_t i = 0;
  for (; i < n && filled < k; ++i) topk_offer(x[i], static_cast<uint32_t>(i), k, &filled, values, indices);
  for (; i + W <= n; i += W) {
    const B c = B::load_unaligned(x + i);
    if (xsimd::any(c > B(values[k - 1]))) {
      for (size_t j = 0; j < W; ++j)
        topk_offer(x[i + j], static_cast<uint32_t>(i + j), k, &filled, values, indices);
    }
  }
  for (; i < n; ++i) topk_offer(x[i], static_cast<uint32_t>(i), k, &filled, values, indices);
}

}  // namespace
}  // namespace edgemt::ops

#define EDGEMT_INSTANTIATE_SEARCH(isa, Arch)                                                   \
  namespace edgemt::ops {                                                                      \
  void f32_topk__##isa(size_t n, const float* x, size_t k, float* values, uint32_t* indices) { \
    f32_topk_generic<Arch>(n, x, k, values, indices);                                          \
  }                                                                                            \
  }
