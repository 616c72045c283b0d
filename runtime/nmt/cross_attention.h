// Cross-attention: every decoder layer attends to the encoder's output. CrossMemory
// projects the encoder output to each layer's keys and values once per run; each
// decoder step then only projects its queries.
#pragma once

#include <cstddef>

#include "runtime/core/arena.h"
#include "runtime/nmt/context.h"
#include "runtime/nmt/source_batch.h"

namespace edgemt {

class CrossMemory {
 public:
  explicit CrossMemory(const NmtContext& c) : c_(c) {}
  void declare(ArenaLayout& layout);

  // Keys and values of every decoder layer from the encoder output [tokens][d].
  void build(const SourceBatch& src, const float* encoder_out, const QuantBuffers& q);

  // One decoder step's cross-attention sub-layer for `rows` rows (row r reads source
  // sentence step.sentence[r]). queries: [rows][d], context, out: [rows][d].
  // weights (optional, [rows][ldw]): row r's attention probabilities over its source
  // tokens, summed over the heads (in head order, so the same whatever the threads), or
  // head weight_head's alone (>= 0).
  void attend(const DecoderLayerWeights& layer, size_t layer_index, const SourceBatch& src,
              const StepRows& step, size_t rows, const float* in, float* queries, float* context, float* out,
              const QuantBuffers& q, float* weights = nullptr, size_t ldw = 0, int weight_head = -1) const;

 private:
  float* keys(size_t layer, size_t sentence, size_t head) const {
    const Dims& d = c_.dims;
    return keys_ + ((layer * d.max_batch + sentence) * d.decoder_heads + head) * head_key_floats();
  }
  float* values(size_t layer) const { return values_ + layer * c_.dims.max_source_tokens * c_.dims.model; }
  size_t head_key_floats() const {
    return c_.dims.source_key_blocks * c_.dims.decoder_head_dim * ops::kKeyBlock;
  }

  const NmtContext& c_;
  float* projection_ = nullptr;  // [tokens][2d]: k|v of one layer
  float* keys_ = nullptr;        // [layers][max_batch][heads][key blocks][head_dim][kKeyBlock]
  float* values_ = nullptr;      // [layers][max_source_tokens][d]
};

}  // namespace edgemt
