#include "converter/quantize.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "ops/gemm/pack.h"

namespace edgemt::convert {
namespace {

// Row r's values as int8 multiples of `step` (exactly, within float rounding of q *
// step, and in [-levels, levels]); false if they are not.
bool keep_int8_row(const float* w, size_t k, float step, float levels, int8_t* q) {
  if (!(step > 0.0f)) return false;
  for (size_t c = 0; c < k; ++c) {
    const float v = w[c] / step;
    const float r = std::round(v);
    if (!(std::fabs(v - r) <= 1e-3f) || r < -levels || r > levels) return false;
    q[c] = static_cast<int8_t>(r);
  }
  return true;
}

// Quantizes rows of w [n][k]; returns int8 row-major and fills scales.
std::vector<int8_t> quantize_rows(size_t n, size_t k, const std::vector<float>& w, std::vector<float>* scales,
                                  const std::vector<float>& steps, int levels) {
  const float lv = static_cast<float>(levels);
  std::vector<int8_t> q(n * k);
  scales->resize(n);
  for (size_t r = 0; r < n; ++r) {
    if (r < steps.size() && keep_int8_row(w.data() + r * k, k, steps[r], lv, q.data() + r * k)) {
      (*scales)[r] = steps[r];
      continue;
    }
    float mx = 0.0f;
    for (size_t c = 0; c < k; ++c) mx = std::max(mx, std::fabs(w[r * k + c]));
    const float scale = mx > 0.0f ? mx / lv : 1.0f;
    (*scales)[r] = scale;
    for (size_t c = 0; c < k; ++c) {
      const float v = std::round(w[r * k + c] / scale);
      q[r * k + c] = static_cast<int8_t>(std::max(-lv, std::min(lv, v)));
    }
  }
  return q;
}

}  // namespace

SpecTensor quantize_linear(const std::string& name, size_t n, size_t k, const std::vector<float>& w,
                           const std::vector<float>& steps, int levels) {
  SpecTensor t;
  t.name = name;
  t.dtype = TensorDType::kI8;
  t.layout = TensorLayout::kPanelI8x16x4;
  t.shape = {static_cast<int64_t>(n), static_cast<int64_t>(k)};
  const std::vector<int8_t> q = quantize_rows(n, k, w, &t.scales, steps, levels);
  t.row_sums.resize(n);
  int mx = 0;
  for (size_t r = 0; r < n; ++r) {
    int32_t s = 0;
    for (size_t c = 0; c < k; ++c) {
      s += q[r * k + c];
      mx = std::max(mx, std::abs(static_cast<int>(q[r * k + c])));
    }
    t.row_sums[r] = s;
  }
  t.max_abs = static_cast<uint8_t>(mx);
  t.data.resize(ops::qs8_panel_size(n, k));
  ops::pack_qs8_panels(n, k, q.data(), reinterpret_cast<int8_t*>(t.data.data()));
  return t;
}

SpecTensor quantize_embedding(const std::string& name, size_t rows, size_t d, const std::vector<float>& w,
                              bool as_output_projection, float step, int levels) {
  const std::vector<float> steps(step > 0.0f ? rows : 0, step);
  if (as_output_projection) return quantize_linear(name, rows, d, w, steps, levels);
  SpecTensor t;
  t.name = name;
  t.dtype = TensorDType::kI8;
  t.layout = TensorLayout::kRowMajor;
  t.shape = {static_cast<int64_t>(rows), static_cast<int64_t>(d)};
  const std::vector<int8_t> q = quantize_rows(rows, d, w, &t.scales, steps, 127);
  t.data.assign(reinterpret_cast<const uint8_t*>(q.data()),
                reinterpret_cast<const uint8_t*>(q.data()) + q.size());
  return t;
}

}  // namespace edgemt::convert
