// Insertion step shared by the f32_topk reference and its vector variant.
#pragma once

#include <cstddef>
#include <cstdint>

namespace edgemt::ops {
namespace {

// Offers (v, i) to the sorted list values[0..*filled) (descending, capacity k).
// Candidates arrive in increasing index order, so an equal value never displaces an
// earlier one: ties keep the lower index first. NaN is never kept once the list is full.
inline void topk_offer(float v, uint32_t i, size_t k, size_t* filled, float* values, uint32_t* indices) {
  size_t pos;
  if (*filled < k) {
    pos = (*filled)++;
  } else {
    if (!(v > values[k - 1])) return;
    pos = k - 1;
  }
  while (pos > 0 && v > values[pos - 1]) {
    values[pos] = values[pos - 1];
    indices[pos] = indices[pos - 1];
    --pos;
  }
  values[pos] = v;
  indices[pos] = i;
}

}  // namespace
}  // namespace edgemt::ops
