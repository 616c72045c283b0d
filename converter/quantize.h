// int8 quantization of weights: symmetric, one scale per output channel (row):
//   scale[r] = max_k |W[r, k]| / L,  q[r, k] = round(W[r, k] / scale[r]) in [-L, L],
// L = 127 (8-bit weights) or 63 (7-bit: --int8-weight-bits 7, for qs8_gemm_w7 on AVX2 and AVX-512 without
// VNNI), except rows that already hold int8 values (steps[r] > 0: W[r, k] = q * steps[r], as Marian's
// intgemm8 matrices): those keep their values and step (no second rounding).
#pragma once

#include <string>
#include <vector>

#include "converter/model_spec.h"

namespace edgemt::convert {

// A linear weight [n, k] as PanelI8x16x4 with scales and row sums.
// levels: L above (the largest |q|), 127 or 63.
SpecTensor quantize_linear(const std::string& name, size_t n, size_t k, const std::vector<float>& w,
                           const std::vector<float>& steps = {}, int levels = 127);
// An embedding table [rows, d], int8 with one scale per row: row-major, or in the
// PanelI8x16x4 layout with row sums when it is also the (tied) output projection.
// levels applies to the output projection (a gemm's weights); lookup-only tables keep 127.
SpecTensor quantize_embedding(const std::string& name, size_t rows, size_t d, const std::vector<float>& w,
                              bool as_output_projection, float step = 0.0f, int levels = 127);

}  // namespace edgemt::convert
