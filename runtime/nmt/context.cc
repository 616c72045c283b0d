#include "runtime/nmt/context.h"

#include <algorithm>
#include <cmath>

#include "ops/gemm/pack.h"

namespace edgemt {

Dims make_dims(const Model& model, const EngineLimits& limits) {
  const ModelConfig& cfg = model.config();
  Dims d;
  d.model = static_cast<size_t>(cfg.d_model);
  d.encoder_heads = static_cast<size_t>(cfg.encoder_heads);
  d.encoder_head_dim = d.model / d.encoder_heads;
  d.decoder_heads = static_cast<size_t>(cfg.decoder_heads);
  d.decoder_head_dim = d.model / d.decoder_heads;
  d.encoder_ffn = static_cast<size_t>(cfg.encoder_ffn_dim);
  d.decoder_ffn = static_cast<size_t>(cfg.decoder_ffn_dim);
  d.encoder_layers = model.weights().encoder.size();
  d.decoder_layers = model.weights().decoder.size();
  d.target_vocab = static_cast<size_t>(cfg.target_vocab_size);
  d.max_source = static_cast<size_t>(limits.max_source_length);
  d.max_target = static_cast<size_t>(limits.max_target_length);
  d.max_batch = static_cast<size_t>(limits.max_batch);
  d.max_beam = static_cast<size_t>(limits.max_beam);
  d.max_rows = d.max_batch * d.max_beam;
  d.max_source_tokens = d.max_batch * d.max_source;
  d.source_key_blocks = (d.max_source + ops::kKeyBlock - 1) / ops::kKeyBlock;
  d.target_key_blocks = (d.max_target + ops::kKeyBlock - 1) / ops::kKeyBlock;
  d.encoder_wide = std::max(3 * d.model, d.encoder_ffn);
  d.decoder_wide = std::max(3 * d.model, d.decoder_ffn);
  d.encoder_q8_row = ops::qs8_k_padded(std::max(d.model, d.encoder_ffn));
  d.decoder_q8_row = ops::qs8_k_padded(std::max(d.model, d.decoder_ffn));
  d.quantized = model.is_quantized() || model.weights().output.type == WeightType::kI8;
  d.encoder_attention_scale = static_cast<float>(std::pow(static_cast<double>(d.encoder_head_dim), -0.5));
  d.decoder_attention_scale = static_cast<float>(std::pow(static_cast<double>(d.decoder_head_dim), -0.5));
  return d;
}

void NmtContext::linear(const LinearWeights& w, size_t rows, const float* x, size_t ldx, float* y, size_t ldy,
                        ops::Activation act, const QuantBuffers& q, ProfOp op, ProfOp quant_op) const {
  const size_t panels = (w.n + ops::kPanel - 1) / ops::kPanel;
  // At least ~64k multiply-adds per thread, or threads cost more than they save.
  const size_t per_panel = rows * w.k * ops::kPanel;
  const size_t min_panels = std::max<size_t>(1, (size_t{1} << 16) / std::max<size_t>(per_panel, 1));
  quantize_input(w, rows, x, ldx, q, quant_op);
  ScopedProf sp(profiler, op);
  pool->parallel_for(
      panels,
      [&](size_t b, size_t e, int) {
        linear_panels(w, rows, x, ldx, q, b, e, y + b * ops::kPanel, ldy, act);
      },
      min_panels);
}

void NmtContext::quantize_input(const LinearWeights& w, size_t rows, const float* x, size_t ldx,
                                const QuantBuffers& q, ProfOp quant_op) const {
  if (w.type == WeightType::kF32) return;
  ScopedProf sq(profiler, quant_op);
  pool->parallel_for(
      rows,
      [&](size_t b, size_t e, int) {
        kernels->qs8_quantize(e - b, w.k, x + b * ldx, ldx, q.values + b * q.row_bytes, q.row_bytes,
                              q.scales + b);
      },
      16);
}

void NmtContext::linear_panels(const LinearWeights& w, size_t rows, const float* x, size_t ldx,
                               const QuantBuffers& q, size_t p0, size_t p1, float* y, size_t ldy,
                               ops::Activation act) const {
  const ops::Kernels& k = *kernels;
  const size_t j0 = p0 * ops::kPanel, j1 = std::min(p1 * ops::kPanel, w.n);
  const ops::GemmEpilogue ep{w.bias != nullptr ? w.bias + j0 : nullptr, act};
  if (w.type == WeightType::kF32) {
    k.f32_gemm(rows, j1 - j0, w.k, x, ldx, w.w + p0 * w.k * ops::kPanel, y, ldy, ep);
    return;
  }
  const size_t kp = ops::qs8_k_padded(w.k);
  // 7-bit weights (Tensor.max_abs <= 64): the same results, faster on AVX2 (ops.h).
  const ops::Qs8GemmFn gemm = w.w7 ? k.qs8_gemm_w7 : k.qs8_gemm;
  gemm(rows, j1 - j0, w.k, q.values, q.row_bytes, q.scales, w.w8 + p0 * ops::kPanel * kp, w.scales + j0,
       w.row_sums != nullptr ? w.row_sums + j0 : nullptr, y, ldy, ep);
}

void NmtContext::layernorm(size_t rows, const float* x, float* y, const NormWeights& n, ProfOp op) const {
  ScopedProf sp(profiler, op);
  const float eps = config->layer_norm_epsilon;
  const size_t d = dims.model;
  pool->parallel_for(
      rows,
      [&](size_t b, size_t e, int) {
        kernels->f32_add_layernorm(e - b, d, x + b * d, d, nullptr, 0, n.gamma, n.beta, eps, y + b * d, d);
      },
      8);
}

void NmtContext::add_layernorm(size_t rows, const float* x, float* resid, const NormWeights& n,
                               ProfOp op) const {
  ScopedProf sp(profiler, op);
  const float eps = config->layer_norm_epsilon;
  const size_t d = dims.model;
  pool->parallel_for(
      rows,
      [&](size_t b, size_t e, int) {
        kernels->f32_add_layernorm(e - b, d, x + b * d, d, resid + b * d, d, n.gamma, n.beta, eps,
                                   resid + b * d, d);
      },
      8);
}

void NmtContext::add_inplace(size_t rows, const float* x, float* resid) const {
  const size_t d = dims.model;
  pool->parallel_for(
      rows,
      [&](size_t b, size_t e, int) {
        kernels->f32_add((e - b) * d, x + b * d, resid + b * d, resid + b * d);
      },
      8);
}

}  // namespace edgemt
