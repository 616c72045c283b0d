#include "runtime/model/weights.h"

#include "ops/gemm/pack.h"
#include "runtime/model/names.h"

namespace edgemt {

using names::Stack;

const float* EmbeddingWeights::f32_row(size_t r) const {
  return panel ? f32 + ops::f32_panel_row_offset(d, r) : f32 + r * d;
}

const int8_t* EmbeddingWeights::i8_row(size_t r) const {
  return panel ? i8 + ops::qs8_panel_row_offset(d, r) : i8 + r * d;
}

Status EncoderLayerWeights::load(const TensorTable& t, const ModelConfig& cfg, int i) {
  const size_t d = static_cast<size_t>(cfg.d_model), ffn = static_cast<size_t>(cfg.encoder_ffn_dim);
  EDGEMT_RETURN_IF_ERROR(t.linear(names::layer(Stack::kEncoder, i, names::kSelfQkv), 3 * d, d, &qkv));
  EDGEMT_RETURN_IF_ERROR(t.linear(names::layer(Stack::kEncoder, i, names::kSelfOut), d, d, &out));
  EDGEMT_RETURN_IF_ERROR(t.norm(names::layer(Stack::kEncoder, i, names::kSelfNorm), d, &self_norm));
  EDGEMT_RETURN_IF_ERROR(t.linear(names::layer(Stack::kEncoder, i, names::kFc1), ffn, d, &fc1));
  EDGEMT_RETURN_IF_ERROR(t.linear(names::layer(Stack::kEncoder, i, names::kFc2), d, ffn, &fc2));
  return t.norm(names::layer(Stack::kEncoder, i, names::kFinalNorm), d, &final_norm);
}

Status DecoderLayerWeights::load(const TensorTable& t, const ModelConfig& cfg, int i) {
  const size_t d = static_cast<size_t>(cfg.d_model), ffn = static_cast<size_t>(cfg.decoder_ffn_dim);
  if (cfg.decoder_layer_kind == DecoderLayerKind::kSsru) {
    EDGEMT_RETURN_IF_ERROR(t.linear(names::layer(Stack::kDecoder, i, names::kSsruProj), 2 * d, d, &ssru));
    if (ssru.bias == nullptr)
      return invalid_model(names::layer(Stack::kDecoder, i, names::kSsruProj) +
                           " has no bias (the forget gate's)");
    EDGEMT_RETURN_IF_ERROR(t.norm(names::layer(Stack::kDecoder, i, names::kSsruNorm), d, &ssru_norm));
  } else {
    EDGEMT_RETURN_IF_ERROR(t.linear(names::layer(Stack::kDecoder, i, names::kSelfQkv), 3 * d, d, &qkv));
    EDGEMT_RETURN_IF_ERROR(t.linear(names::layer(Stack::kDecoder, i, names::kSelfOut), d, d, &out));
    EDGEMT_RETURN_IF_ERROR(t.norm(names::layer(Stack::kDecoder, i, names::kSelfNorm), d, &self_norm));
  }
  EDGEMT_RETURN_IF_ERROR(t.linear(names::layer(Stack::kDecoder, i, names::kCrossQ), d, d, &cross_q));
  EDGEMT_RETURN_IF_ERROR(t.linear(names::layer(Stack::kDecoder, i, names::kCrossKv), 2 * d, d, &cross_kv));
  EDGEMT_RETURN_IF_ERROR(t.linear(names::layer(Stack::kDecoder, i, names::kCrossOut), d, d, &cross_out));
  EDGEMT_RETURN_IF_ERROR(t.norm(names::layer(Stack::kDecoder, i, names::kCrossNorm), d, &cross_norm));
  EDGEMT_RETURN_IF_ERROR(t.linear(names::layer(Stack::kDecoder, i, names::kFc1), ffn, d, &fc1));
  EDGEMT_RETURN_IF_ERROR(t.linear(names::layer(Stack::kDecoder, i, names::kFc2), d, ffn, &fc2));
  return t.norm(names::layer(Stack::kDecoder, i, names::kFinalNorm), d, &final_norm);
}

std::vector<const LinearWeights*> ModelWeights::linears() const {
  std::vector<const LinearWeights*> out;
  for (const EncoderLayerWeights& l : encoder) out.insert(out.end(), {&l.qkv, &l.out, &l.fc1, &l.fc2});
  for (const DecoderLayerWeights& l : decoder)
    out.insert(out.end(), {&l.qkv, &l.out, &l.ssru, &l.cross_q, &l.cross_kv, &l.cross_out, &l.fc1, &l.fc2});
  out.push_back(&output);
  return out;
}

Status ModelWeights::load(const TensorTable& t, const ModelConfig& cfg) {
  const size_t d = static_cast<size_t>(cfg.d_model);
  const size_t sv = static_cast<size_t>(cfg.source_vocab_size),
               tv = static_cast<size_t>(cfg.target_vocab_size);
  const int64_t dp = cfg.d_model, mp = cfg.max_positions;
  EDGEMT_RETURN_IF_ERROR(t.embedding(names::kEncoderEmbedTokens, sv, d, &source_embed));
  if (cfg.shared_embeddings) {
    target_embed = source_embed;
  } else {
    EDGEMT_RETURN_IF_ERROR(t.embedding(names::kDecoderEmbedTokens, tv, d, &target_embed));
  }
  EDGEMT_RETURN_IF_ERROR(t.f32(names::kEncoderEmbedPositions, {mp, dp}, &source_positions));
  if (t.has(names::kDecoderEmbedPositions)) {
    EDGEMT_RETURN_IF_ERROR(t.f32(names::kDecoderEmbedPositions, {mp, dp}, &target_positions));
  } else {
    target_positions = source_positions;
  }
  encoder.resize(static_cast<size_t>(cfg.encoder_layers));
  for (int i = 0; i < cfg.encoder_layers; ++i)
    EDGEMT_RETURN_IF_ERROR(encoder[static_cast<size_t>(i)].load(t, cfg, i));
  decoder.resize(static_cast<size_t>(cfg.decoder_layers));
  for (int i = 0; i < cfg.decoder_layers; ++i)
    EDGEMT_RETURN_IF_ERROR(decoder[static_cast<size_t>(i)].load(t, cfg, i));
  if (cfg.norm_placement == NormPlacement::kPre) {
    EDGEMT_RETURN_IF_ERROR(t.norm(names::kEncoderLayerNorm, d, &encoder_norm));
    EDGEMT_RETURN_IF_ERROR(t.norm(names::kDecoderLayerNorm, d, &decoder_norm));
  }
  output_tied = cfg.tied_output;
  if (!cfg.tied_output) {
    EDGEMT_RETURN_IF_ERROR(t.linear(names::kOutputProjection, tv, d, &output));
  } else {
    // A tied projection is the embedding table itself, stored in the gemm's panels.
    if (!target_embed.panel)
      return invalid_model(
          "the embedding table used as the tied output projection must be in a panel layout");
    output.type = target_embed.type;
    output.n = tv;
    output.k = d;
    output.w = target_embed.f32;
    output.w8 = target_embed.i8;
    output.scales = target_embed.scales;
    output.row_sums = target_embed.row_sums;
    output.w7 = target_embed.w7;
  }
  if (cfg.has_final_logits_bias)
    EDGEMT_RETURN_IF_ERROR(t.f32(names::kFinalLogitsBias, {static_cast<int64_t>(tv)}, &final_logits_bias));
  return Status::ok();
}

}  // namespace edgemt
