#include "runtime/nmt/encoder.h"

#include <cstring>

#include "runtime/nmt/embedding.h"
#include "runtime/nmt/feed_forward.h"
#include "runtime/nmt/self_attention.h"

namespace edgemt {

void Encoder::declare(ArenaLayout& layout) {
  const Dims& d = c_.dims;
  const size_t n = d.max_source_tokens;
  // With debug outputs the encoder output stays readable after the run.
  layout.add(&hidden_, "encoder hidden", n * d.model, kPhaseEncode,
             c_.probes.keep_first_logits ? kPhaseResults : kPhaseCrossMemory);
  layout.add(&wide_, "encoder qkv/ffn", n * d.encoder_wide, kPhaseEncode, kPhaseEncode);
  layout.add(&context_, "encoder context", n * d.model, kPhaseEncode, kPhaseEncode);
  layout.add(&sublayer_, "encoder sublayer out", n * d.model, kPhaseEncode, kPhaseEncode);
  if (d.quantized) {
    quant_.row_bytes = d.encoder_q8_row;
    layout.add(&quant_.values, "encoder int8 activations", n * d.encoder_q8_row, kPhaseEncode,
               kPhaseCrossMemory);
    layout.add(&quant_.scales, "encoder int8 scales", n, kPhaseEncode, kPhaseCrossMemory);
  }
}

void Encoder::run(const SourceBatch& src) {
  const ModelWeights& w = *c_.weights;
  const size_t n = src.tokens;
  embed_rows(c_, w.source_embed, w.source_positions, n, src.ids, src.positions, 0, hidden_,
             ProfOp::kEncEmbed);
  const Residual res(c_, ProfOp::kEncLayerNorm);
  for (const EncoderLayerWeights& layer : w.encoder) {
    const float* in = res.input(n, hidden_, sublayer_, layer.self_norm);
    encoder_self_attention(c_, layer, src, in, wide_, context_, sublayer_, quant_);
    res.add(n, sublayer_, hidden_, layer.self_norm);
    in = res.input(n, hidden_, sublayer_, layer.final_norm);
    feed_forward(c_, layer.fc1, layer.fc2, n, in, wide_, c_.dims.encoder_wide, context_, quant_,
                 kEncoderFeedForwardProf);
    res.add(n, context_, hidden_, layer.final_norm);
  }
  if (res.pre_norm()) {
    c_.layernorm(n, hidden_, sublayer_, w.encoder_norm, ProfOp::kEncLayerNorm);
    std::memcpy(hidden_, sublayer_, n * c_.dims.model * sizeof(float));
  }
}

}  // namespace edgemt
