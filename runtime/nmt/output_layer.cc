#include "runtime/nmt/output_layer.h"

#include <cstring>

namespace edgemt {

OutputLayer::OutputLayer(const NmtContext& c) : c_(c), weights_(c.weights->output) {
  if (c.weights->final_logits_bias != nullptr) weights_.bias = c.weights->final_logits_bias;
}

void OutputLayer::declare(ArenaLayout& layout) {
  const Dims& d = c_.dims;
  layout.add(&logits_, "logits", d.max_rows * d.target_vocab, kPhaseDecode, kPhaseDecode);
  if (c_.probes.keep_first_logits)
    layout.add(&first_logits_, "first-step logits", d.max_rows * d.target_vocab, kPhaseDecode, kPhaseResults);
}

float* OutputLayer::project(size_t rows, size_t t, const float* in, const QuantBuffers& q) {
  const size_t vocab = c_.dims.target_vocab;
  c_.linear(weights_, rows, in, c_.dims.model, logits_, vocab, ops::Activation::kNone, q,
            ProfOp::kDecGemmLogits, ProfOp::kDecQuantize);
  if (t == 0 && first_logits_ != nullptr) std::memcpy(first_logits_, logits_, rows * vocab * sizeof(float));
  return logits_;
}

}  // namespace edgemt
