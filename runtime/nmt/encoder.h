// The encoder: source embeddings, then the encoder layers (self-attention and
// feed-forward sub-layers with the model's norm placement), over every sentence of the
// batch at once (rows packed sentence after sentence).
#pragma once

#include "runtime/core/arena.h"
#include "runtime/nmt/context.h"
#include "runtime/nmt/source_batch.h"

namespace edgemt {

class Encoder {
 public:
  explicit Encoder(const NmtContext& c) : c_(c) {}
  void declare(ArenaLayout& layout);
  // Encodes `src`; output() then holds [src.tokens][d].
  void run(const SourceBatch& src);

  const float* output() const { return hidden_; }
  // int8 activations, free once the encoder is done (the cross-memory projection reuses them).
  const QuantBuffers& quant() const { return quant_; }

 private:
  const NmtContext& c_;
  float* hidden_ = nullptr;    // [tokens][d]: the residual stream, then the output
  float* wide_ = nullptr;      // [tokens][encoder_wide]: q|k|v or the FFN hidden layer
  float* context_ = nullptr;   // [tokens][d]: attention context, then the FFN output
  float* sublayer_ = nullptr;  // [tokens][d]: a sub-layer's output (or normalised input)
  QuantBuffers quant_;
};

}  // namespace edgemt
