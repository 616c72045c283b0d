#include "runtime/nmt/decoder.h"

#include "runtime/nmt/embedding.h"
#include "runtime/nmt/feed_forward.h"
#include "runtime/nmt/self_attention.h"

namespace edgemt {

void Decoder::declare(ArenaLayout& layout) {
  const Dims& d = c_.dims;
  const size_t rows = d.max_rows;
  cross_.declare(layout);
  if (ssru_layers())
    ssru_.declare(layout);
  else
    cache_.declare(layout);
  layout.add(&hidden_, "decoder hidden", rows * d.model, kPhaseDecode, kPhaseDecode);
  layout.add(&wide_, "decoder qkv/ffn", rows * d.decoder_wide, kPhaseDecode, kPhaseDecode);
  layout.add(&context_, "decoder context", rows * d.model, kPhaseDecode, kPhaseDecode);
  layout.add(&sublayer_, "decoder sublayer out", rows * d.model, kPhaseDecode, kPhaseDecode);
  if (d.quantized) {
    quant_.row_bytes = d.decoder_q8_row;
    layout.add(&quant_.values, "decoder int8 activations", rows * d.decoder_q8_row, kPhaseDecode,
               kPhaseDecode);
    layout.add(&quant_.scales, "decoder int8 scales", rows, kPhaseDecode, kPhaseDecode);
  }
  layout.add(&attention_, "alignment weights", rows * d.max_source, kPhaseDecode, kPhaseDecode);
  layout.add(&aligned_, "aligned sources", rows, kPhaseDecode, kPhaseDecode);
  output_.declare(layout);
}

namespace {

// The source token each row's weights peak at, eos (the last) aside; the first of ties.
void peak_sources(const float* weights, size_t ldw, const SourceBatch& src, const StepRows& step, size_t rows,
                  int32_t* out) {
  for (size_t r = 0; r < rows; ++r) {
    const size_t len = src.length(static_cast<size_t>(step.sentence[r]));
    const float* w = weights + r * ldw;
    int32_t best = -1;
    for (size_t j = 0; j + 1 < len; ++j)
      if (best < 0 || w[j] > w[best]) best = static_cast<int32_t>(j);
    out[r] = best;
  }
}

}  // namespace

float* Decoder::score(size_t rows, size_t t) { return output_.project(rows, t, layers(rows, t), quant_); }

bool Decoder::score_top(size_t rows, size_t t, const LogitFilter& filter, const TopColumns& out) {
  if (!output_.can_reduce(t, out.k)) return false;
  output_.reduce(rows, layers(rows, t), quant_, filter, out);
  return true;
}

const float* Decoder::layers(size_t rows, size_t t) {
  const ModelWeights& w = *c_.weights;
  embed_rows(c_, w.target_embed, w.target_positions, rows, step_.token, nullptr, static_cast<int32_t>(t),
             hidden_, ProfOp::kDecEmbed);
  const Residual res(c_, ProfOp::kDecLayerNorm);
  if (t == 0 && !ssru_layers()) cache_.reset();
  for (size_t l = 0; l < w.decoder.size(); ++l) {
    const DecoderLayerWeights& layer = w.decoder[l];
    const float* in = nullptr;
    if (ssru_layers()) {
      in = res.input(rows, hidden_, sublayer_, layer.ssru_norm);
      c_.linear(layer.ssru, rows, in, c_.dims.model, wide_, c_.dims.decoder_wide, ops::Activation::kNone,
                quant_, ProfOp::kDecGemmSsru, ProfOp::kDecQuantize);
      ssru_.step(l, rows, step_.slot, t, wide_, c_.dims.decoder_wide, sublayer_);
      res.add(rows, sublayer_, hidden_, layer.ssru_norm);
    } else {
      in = res.input(rows, hidden_, sublayer_, layer.self_norm);
      decoder_self_attention(c_, layer, l, cache_, step_, rows, t, in, wide_, context_, sublayer_, quant_);
      res.add(rows, sublayer_, hidden_, layer.self_norm);
    }
    in = res.input(rows, hidden_, sublayer_, layer.cross_norm);
    const bool align = static_cast<int>(l) == align_layer_;
    cross_.attend(layer, l, src_, step_, rows, in, wide_, context_, sublayer_, quant_,
                  align ? attention_ : nullptr, c_.dims.max_source, align_head_);
    if (align) peak_sources(attention_, c_.dims.max_source, src_, step_, rows, aligned_);
    res.add(rows, sublayer_, hidden_, layer.cross_norm);
    in = res.input(rows, hidden_, sublayer_, layer.final_norm);
    feed_forward(c_, layer.fc1, layer.fc2, rows, in, wide_, c_.dims.decoder_wide, context_, quant_,
                 kDecoderFeedForwardProf);
    res.add(rows, context_, hidden_, layer.final_norm);
  }
  const float* out = hidden_;
  if (res.pre_norm()) {
    c_.layernorm(rows, hidden_, sublayer_, w.decoder_norm, ProfOp::kDecLayerNorm);
    out = sublayer_;
  }
  return out;
}

}  // namespace edgemt
