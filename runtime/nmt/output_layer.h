// The output projection: decoder output [rows][d] to logits [rows][target vocab]
// (the tied embedding table or the model's own weight, plus final_logits_bias).
#pragma once

#include <cstddef>

#include "runtime/core/arena.h"
#include "runtime/nmt/context.h"

namespace edgemt {

class OutputLayer {
 public:
  explicit OutputLayer(const NmtContext& c);
  void declare(ArenaLayout& layout);
  // Logits of `rows` rows at step t; the first step's are also kept when the engine's
  // probes ask for it (tests).
  float* project(size_t rows, size_t t, const float* in, const QuantBuffers& q);
  const float* first_logits() const { return first_logits_; }

 private:
  const NmtContext& c_;
  LinearWeights weights_;
  float* logits_ = nullptr;        // [max_rows][vocab]
  float* first_logits_ = nullptr;  // [max_rows][vocab], only with keep_first_logits
};

}  // namespace edgemt
