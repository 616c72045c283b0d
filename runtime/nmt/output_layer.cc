#include "runtime/nmt/output_layer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
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
  max_top_ = 2 * std::max<size_t>(1, d.max_beam);
  block_ = std::clamp<size_t>((d.target_vocab / 16 + 255) / 256 * 256, 512, 4096);
  if (c_.probes.logit_block_columns > 0)
    block_ =
        (static_cast<size_t>(c_.probes.logit_block_columns) + ops::kPanel - 1) / ops::kPanel * ops::kPanel;
  const size_t blocks = (d.target_vocab + block_ - 1) / block_;
  const size_t threads = static_cast<size_t>(std::max(1, c_.limits.num_threads));
  layout.add(&block_logits_, "logit blocks", threads * d.max_rows * block_, kPhaseDecode, kPhaseDecode);
  layout.add(&block_lse_, "logit block log-sum-exps", blocks * d.max_rows, kPhaseDecode, kPhaseDecode);
  layout.add(&range_values_, "logit range top values", blocks * d.max_rows * max_top_, kPhaseDecode,
             kPhaseDecode);
  layout.add(&range_columns_, "logit range top columns", blocks * d.max_rows * max_top_, kPhaseDecode,
             kPhaseDecode);
  layout.add(&range_filled_, "logit range list lengths", blocks * d.max_rows, kPhaseDecode, kPhaseDecode);
  layout.add(&range_starts_, "logit range starts", blocks, kPhaseDecode, kPhaseDecode);
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

void OutputLayer::reduce(size_t rows, const float* in, const QuantBuffers& q, const LogitFilter& filter,
                         const TopColumns& out) {
  constexpr float kNegInf = -std::numeric_limits<float>::infinity();
  const LinearWeights& w = compact_active_ ? compact_ : weights_;
  const size_t n = w.n, k = out.k, d = c_.dims.model, max_rows = c_.dims.max_rows;
  const size_t blocks = (n + block_ - 1) / block_;
  const ops::Kernels& kern = *c_.kernels;
  c_.quantize_input(w, rows, in, d, q, ProfOp::kDecQuantize);
  // Each range of blocks a thread takes keeps one top-k list per row (at its first block),
  // continued block by block (the k-th value so far rejects almost every logit); each
  // block has its own log-sum-exp per row.
  std::fill(range_starts_, range_starts_ + blocks, uint8_t{0});
  {
    ScopedProf sp(c_.profiler, ProfOp::kDecLogitsTop);
    c_.pool->parallel_for(
        blocks,
        [&](size_t b, size_t e, int thread) {
          float* buf = block_logits_ + static_cast<size_t>(thread) * max_rows * block_;
          range_starts_[b] = 1;
          for (size_t r = 0; r < rows; ++r) range_filled_[b * max_rows + r] = 0;
          for (size_t blk = b; blk < e; ++blk) {
            const size_t j0 = blk * block_, nb = std::min(block_, n - j0);
            c_.linear_panels(w, rows, in, d, q, j0 / ops::kPanel, (j0 + nb + ops::kPanel - 1) / ops::kPanel,
                             buf, block_, ops::Activation::kNone);
            for (size_t r = 0; r < rows; ++r) {
              float* x = buf + r * block_;
              filter.before_normalizer(r, j0, x, nb);
              if (out.lse != nullptr) block_lse_[blk * max_rows + r] = kern.f32_logsumexp(nb, x);
              filter.after_normalizer(r, j0, x, nb);
              const size_t at = b * max_rows + r;
              range_filled_[at] =
                  kern.f32_topk(nb, x, static_cast<uint32_t>(j0), k, range_filled_[at],
                                range_values_ + at * max_top_, range_columns_ + at * max_top_);
            }
          }
        },
        1);
  }
  // Per row, the ranges' lists merged in column order (a value goes after equal ones of
  // earlier ranges: lower columns first, as one f32_topk over the row), and the blocks'
  // log-sum-exps combined in block order, in double.
  ScopedProf sp(c_.profiler, ProfOp::kSearchSoftmax);
  for (size_t r = 0; r < rows; ++r) {
    float* best = out.values + r * k;
    uint32_t* best_col = out.columns + r * k;
    size_t have = 0;
    for (size_t b = 0; b < blocks; ++b) {
      if (range_starts_[b] == 0) continue;
      const size_t at = b * max_rows + r;
      const float* v = range_values_ + at * max_top_;
      const uint32_t* c = range_columns_ + at * max_top_;
      for (size_t j = 0; j < range_filled_[at]; ++j) {
        size_t pos = have;
        while (pos > 0 && v[j] > best[pos - 1]) --pos;
        if (pos >= k) break;  // the range's later values are no better
        for (size_t i = have < k ? have : k - 1; i > pos; --i) {
          best[i] = best[i - 1];
          best_col[i] = best_col[i - 1];
        }
        best[pos] = v[j];
        best_col[pos] = c[j];
        if (have < k) ++have;
      }
    }
    for (; have < k; ++have) best[have] = kNegInf, best_col[have] = 0;  // fewer columns than k
    if (out.lse != nullptr) {
      float m = kNegInf;
      for (size_t blk = 0; blk < blocks; ++blk) m = std::max(m, block_lse_[blk * max_rows + r]);
      double sum = 0.0;
      if (m > kNegInf)
        for (size_t blk = 0; blk < blocks; ++blk) {
          const float l = block_lse_[blk * max_rows + r];
          if (l > kNegInf) sum += std::exp(static_cast<double>(l) - static_cast<double>(m));
        }
      out.lse[r] = m > kNegInf ? static_cast<float>(static_cast<double>(m) + std::log(sum)) : m;
    }
  }
}

}  // namespace edgemt
