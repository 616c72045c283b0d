// int8 quantization of weights: symmetric, one scale per output channel (row):
//   scale[r] = max_k |W[r, k]| / 127,  q[r, k] = round(W[r, k] / scale[r]) in [-127, 127].
#pragma once

#include <string>
#include <vector>

#include "converter/model_spec.h"

namespace edgemt::convert {

// A linear weight [n, k] as PanelI8x16x4 with scales and row sums.
SpecTensor quantize_linear(const std::string& name, size_t n, size_t k, const std::vector<float>& w);
// An embedding table [rows, d], row-major int8 with one scale per row.
SpecTensor quantize_embedding(const std::string& name, size_t rows, size_t d, const std::vector<float>& w);

}  // namespace edgemt::convert
