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
#include "runtime/nmt/scorer.h"

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
  // project() fused with what search reads from it (TokenScorer::score_top): the columns go
  // in blocks (about a 16th of the vocabulary, 512 to 4096 columns: enough blocks for the
  // threads, and few enough that the weights stream on); each block's logits, still in
  // cache, are filtered and reduced to each row's log-sum-exp and top k, and the blocks'
  // results are combined in column order (so the result does not depend on the threads).
  // Possible when k <= 2 * max_beam and no probe wants step t's full logits.
  bool can_reduce(size_t t, size_t k) const {
    return k >= 1 && k <= max_top_ && !c_.probes.full_logits && !(t == 0 && first_logits_ != nullptr);
  }
  void reduce(size_t rows, const float* in, const QuantBuffers& q, const LogitFilter& filter,
              const TopColumns& out);
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
  // reduce(): per thread a block of logits [max_rows][kReduceBlock]; per block and row its
  // log-sum-exp; per range of blocks (at its first block) and row a top-k list.
  size_t max_top_ = 0;
  size_t block_ = 0;  // columns per block
  float* block_logits_ = nullptr;
  float* block_lse_ = nullptr;
  float* range_values_ = nullptr;      // [blocks][max_rows][max_top_]
  uint32_t* range_columns_ = nullptr;  // [blocks][max_rows][max_top_]
  size_t* range_filled_ = nullptr;     // [blocks][max_rows]
  uint8_t* range_starts_ = nullptr;    // [blocks]: 1 where a range starts
};

}  // namespace edgemt
