// The decoder: target embeddings, then the decoder layers (self-attention over the
// KvCache, cross-attention over the CrossMemory, feed-forward; the model's norm
// placement), then the output layer. It scores the next token of the rows that search
// writes into its StepRows.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/arena.h"
#include "runtime/nmt/context.h"
#include "runtime/nmt/cross_attention.h"
#include "runtime/nmt/decoder_state.h"
#include "runtime/nmt/output_layer.h"
#include "runtime/nmt/scorer.h"
#include "runtime/nmt/source_batch.h"

namespace edgemt {

class Decoder final : public TokenScorer {
 public:
  // `step` is read at each score() call; `src` is the run's source batch.
  Decoder(const NmtContext& c, const SourceBatch& src, const StepRows& step)
      : c_(c), src_(src), step_(step), cross_(c), cache_(c), ssru_(c), output_(c) {}
  void declare(ArenaLayout& layout);

  // Once per run, after the encoder: every layer's cross-attention keys and values.
  void prepare(const float* encoder_out, const QuantBuffers& encoder_quant) {
    cross_.build(src_, encoder_out, encoder_quant);
  }

  // For the next run: capture alignments from decoder layer `layer`'s cross-attention
  // (its heads averaged, or head `head` alone), or none (layer -1).
  void set_alignment(int layer, int head) {
    align_layer_ = layer;
    align_head_ = head;
  }
  float* score(size_t rows, size_t t) override;
  bool score_top(size_t rows, size_t t, const LogitFilter& filter, const TopColumns& out) override;
  // Row r's output aligned to the source token that layer's cross-attention weighs most,
  // its final eos aside (-1 for a source that is nothing but eos).
  const int32_t* aligned_sources() const override { return align_layer_ >= 0 ? aligned_ : nullptr; }
  size_t columns() const override { return output_.columns(); }
  const uint32_t* column_ids() const override { return output_.column_ids(); }
  void reorder(size_t first_slot, const int32_t* parents, size_t beams, size_t t) override {
    if (ssru_layers())
      ssru_.reorder(first_slot, parents, beams, t);
    else
      cache_.reorder(first_slot, parents, beams, t);
  }

  const float* first_logits() const { return output_.first_logits(); }
  // Once per run, after the search built its shortlist masks.
  void prepare_shortlist(const uint8_t* masks, size_t sentences, bool active) {
    output_.prepare_shortlist(masks, sentences, active);
  }
  size_t shortlist_columns() const { return output_.shortlist_columns(); }

 private:
  bool ssru_layers() const { return c_.config->decoder_layer_kind == DecoderLayerKind::kSsru; }
  // The decoder layers for step t: the output layer's input [rows][d].
  const float* layers(size_t rows, size_t t);

  const NmtContext& c_;
  const SourceBatch& src_;
  const StepRows& step_;
  CrossMemory cross_;
  KvCache cache_;   // self-attention layers
  SsruState ssru_;  // SSRU layers
  OutputLayer output_;
  float* hidden_ = nullptr;    // [rows][d]: the residual stream
  float* wide_ = nullptr;      // [rows][decoder_wide]: q|k|v, cross queries or the FFN hidden layer
  float* context_ = nullptr;   // [rows][d]: attention context, then the FFN output
  float* sublayer_ = nullptr;  // [rows][d]: a sub-layer's output (or normalised input)
  QuantBuffers quant_;
  int align_layer_ = -1, align_head_ = -1;
  float* attention_ = nullptr;  // [rows][max_source]: the alignment layer's weights
  int32_t* aligned_ = nullptr;  // [rows]
};

}  // namespace edgemt
