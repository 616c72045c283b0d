#include "runtime/nmt/output_layer.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "ops/gemm/pack.h"

namespace edgemt {

OutputLayer::OutputLayer(const NmtContext& c) : c_(c), weights_(c.weights->output) {
  if (c.weights->final_logits_bias != nullptr) weights_.bias = c.weights->final_logits_bias;
}

void OutputLayer::declare(ArenaLayout& layout) {
  const Dims& d = c_.dims;
  layout.add(&logits_, "logits", d.max_rows * d.target_vocab, kPhaseDecode, kPhaseDecode);
  if (c_.probes.keep_first_logits)
    layout.add(&first_logits_, "first-step logits", d.max_rows * d.target_vocab, kPhaseDecode, kPhaseResults);
  if (!c_.model->shortlist().present()) return;
  // Half the vocabulary (at least 4096 columns): a run whose sentences together have
  // more candidates computes every logit instead.
  const size_t v = d.target_vocab;
  capacity_ = std::min(v, (std::max<size_t>(4096, v / 2) + ops::kPanel - 1) / ops::kPanel * ops::kPanel);
  const size_t cap_rows = (capacity_ + ops::kPanel - 1) / ops::kPanel * ops::kPanel;
  layout.add(&ids_, "shortlist ids", capacity_, kPhaseDecode, kPhaseDecode);
  if (weights_.type == WeightType::kF32) {
    layout.add(&compact_f32_, "shortlist output weights", ops::f32_panel_size(cap_rows, d.model),
               kPhaseDecode, kPhaseDecode);
  } else {
    layout.add(&compact_i8_, "shortlist output weights", ops::qs8_panel_size(cap_rows, d.model), kPhaseDecode,
               kPhaseDecode);
    layout.add(&compact_scales_, "shortlist output scales", cap_rows, kPhaseDecode, kPhaseDecode);
    layout.add(&compact_sums_, "shortlist output row sums", cap_rows, kPhaseDecode, kPhaseDecode);
  }
  if (weights_.bias != nullptr)
    layout.add(&compact_bias_, "shortlist output bias", cap_rows, kPhaseDecode, kPhaseDecode);
  layout.add(&compact_logits_, "shortlist logits", d.max_rows * capacity_, kPhaseDecode, kPhaseDecode);
}

void OutputLayer::prepare_shortlist(const uint8_t* masks, size_t sentences, bool active) {
  compact_active_ = false;
  if (!active || capacity_ == 0) return;
  ScopedProf sp(c_.profiler, ProfOp::kDecShortlist);
  const size_t v = c_.dims.target_vocab, k = c_.dims.model;
  size_t n = 0;
  for (size_t id = 0; id < v; ++id) {
    bool any = false;
    for (size_t s = 0; s < sentences && !any; ++s) any = masks[s * v + id] != 0;
    if (!any) continue;
    if (n == capacity_) return;  // too many: every logit is computed
    ids_[n++] = static_cast<uint32_t>(id);
  }
  const size_t padded = (n + ops::kPanel - 1) / ops::kPanel * ops::kPanel;
  compact_ = weights_;
  compact_.n = n;
  if (weights_.type == WeightType::kF32) {
    // Row r of a PanelF32x16 weight: k floats, kPanel apart.
    for (size_t j = 0; j < padded; ++j) {
      float* dst = compact_f32_ + ops::f32_panel_row_offset(k, j);
      if (j >= n) {
        for (size_t c = 0; c < k; ++c) dst[c * ops::kPanel] = 0.0f;
        continue;
      }
      const float* src = weights_.w + ops::f32_panel_row_offset(k, ids_[j]);
      for (size_t c = 0; c < k; ++c) dst[c * ops::kPanel] = src[c * ops::kPanel];
    }
    compact_.w = compact_f32_;
  } else {
    // Row r of a PanelI8x16x4 weight: groups of 4 bytes, kPanel * 4 bytes apart.
    const size_t groups = ops::qs8_k_padded(k) / ops::kPanelK8, step = ops::kPanel * ops::kPanelK8;
    for (size_t j = 0; j < padded; ++j) {
      int8_t* dst = compact_i8_ + ops::qs8_panel_row_offset(k, j);
      if (j >= n) {
        for (size_t g = 0; g < groups; ++g) std::memset(dst + g * step, 0, ops::kPanelK8);
        compact_scales_[j] = 0.0f;
        compact_sums_[j] = 0;
        continue;
      }
      const int8_t* src = weights_.w8 + ops::qs8_panel_row_offset(k, ids_[j]);
      for (size_t g = 0; g < groups; ++g) std::memcpy(dst + g * step, src + g * step, ops::kPanelK8);
      compact_scales_[j] = weights_.scales[ids_[j]];
      compact_sums_[j] = weights_.row_sums != nullptr ? weights_.row_sums[ids_[j]] : 0;
    }
    compact_.w8 = compact_i8_;
    compact_.scales = compact_scales_;
    compact_.row_sums = weights_.row_sums != nullptr ? compact_sums_ : nullptr;
  }
  if (weights_.bias != nullptr) {
    for (size_t j = 0; j < n; ++j) compact_bias_[j] = weights_.bias[ids_[j]];
    compact_.bias = compact_bias_;
  }
  compact_active_ = n > 0;
}

float* OutputLayer::project(size_t rows, size_t t, const float* in, const QuantBuffers& q) {
  const size_t vocab = c_.dims.target_vocab;
  if (compact_active_) {
    const size_t n = compact_.n;
    c_.linear(compact_, rows, in, c_.dims.model, compact_logits_, n, ops::Activation::kNone, q,
              ProfOp::kDecGemmLogits, ProfOp::kDecQuantize);
    if (t == 0 && first_logits_ != nullptr) {
      constexpr float kNegInf = -std::numeric_limits<float>::infinity();
      for (size_t r = 0; r < rows; ++r) {
        float* row = first_logits_ + r * vocab;
        std::fill(row, row + vocab, kNegInf);
        for (size_t j = 0; j < n; ++j) row[ids_[j]] = compact_logits_[r * n + j];
      }
    }
    return compact_logits_;
  } else {
    c_.linear(weights_, rows, in, c_.dims.model, logits_, vocab, ops::Activation::kNone, q,
              ProfOp::kDecGemmLogits, ProfOp::kDecQuantize);
  }
  if (t == 0 && first_logits_ != nullptr) std::memcpy(first_logits_, logits_, rows * vocab * sizeof(float));
  return logits_;
}

}  // namespace edgemt
