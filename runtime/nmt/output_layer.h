// The output projection: decoder output [rows][d] to logits [rows][target vocab]
// (the tied embedding table or the model's own weight, plus final_logits_bias).
//
// With a lexical shortlist, the run's candidate tokens (the union of its sentences'
// sets) have their weight rows gathered once per run into a compact weight, so the
// logits gemm covers only them; the other logits are -inf (and the search masks each
// sentence's non-candidates). Each logit is the same dot product either way (the gemm's
// columns are independent), so outputs do not depend on the batch.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/arena.h"
#include "runtime/nmt/context.h"

namespace edgemt {

class OutputLayer {
 public:
  explicit OutputLayer(const NmtContext& c);
  void declare(ArenaLayout& layout);
  // Once per run: masks[s][v] != 0 for sentence s's candidates (or active false: none).
  // A union larger than the planned capacity falls back to every logit.
  void prepare_shortlist(const uint8_t* masks, size_t sentences, bool active);
  // Logits of `rows` rows at step t, [rows][columns()]; the first step's are also kept
  // (over the whole vocabulary, -inf where not computed) when the engine's probes ask for
  // it (tests).
  float* project(size_t rows, size_t t, const float* in, const QuantBuffers& q);
  // project()'s columns: the shortlist's candidates when one is active, else the vocabulary.
  size_t columns() const { return compact_active_ ? compact_.n : c_.dims.target_vocab; }
  const uint32_t* column_ids() const { return compact_active_ ? ids_ : nullptr; }
  const float* first_logits() const { return first_logits_; }
  // Columns the last prepare_shortlist kept (0: every logit is computed).
  size_t shortlist_columns() const { return compact_active_ ? compact_.n : 0; }

 private:
  const NmtContext& c_;
  LinearWeights weights_;
  float* logits_ = nullptr;        // [max_rows][vocab]
  float* first_logits_ = nullptr;  // [max_rows][vocab], only with keep_first_logits
  // Shortlist (models with one): capacity columns.
  size_t capacity_ = 0;
  uint32_t* ids_ = nullptr;          // [capacity] the candidates, ascending
  float* compact_f32_ = nullptr;     // PanelF32x16 [capacity][d]
  int8_t* compact_i8_ = nullptr;     // PanelI8x16x4 [capacity][d]
  float* compact_scales_ = nullptr;  // [capacity]
  int32_t* compact_sums_ = nullptr;  // [capacity]
  float* compact_bias_ = nullptr;    // [capacity]
  float* compact_logits_ = nullptr;  // [max_rows][capacity]
  LinearWeights compact_;
  bool compact_active_ = false;
};

}  // namespace edgemt
