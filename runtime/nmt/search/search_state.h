// What every search strategy shares: the decoder's input rows, the token history of
// each hypothesis, the logits processors and each sentence's output ids.
//
// A strategy (greedy.h, beam.h; sampling or n-best would be another file) drives a
// TokenScorer: it writes the rows, asks for their logits, picks tokens, and writes each
// sentence's result with write_output().
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "runtime/core/arena.h"
#include "runtime/nmt/context.h"
#include "runtime/nmt/scorer.h"

namespace edgemt {

// Hypotheses' per-token records, one row of `stride` tokens each: ids, their
// log-probabilities and the source positions they are aligned to (views into the arena).
struct Trails {
  int32_t* ids = nullptr;
  float* lps = nullptr;
  int32_t* sources = nullptr;
  size_t stride = 0;
  // Row `to` gets the first n tokens of row `from` of `src`.
  void copy(size_t to, const Trails& src, size_t from, size_t n) const;
  // Token t of row `row`.
  void put(size_t row, size_t t, int32_t id, float lp, int32_t source) const {
    ids[row * stride + t] = id;
    lps[row * stride + t] = lp;
    sources[row * stride + t] = source;
  }
};

class SearchState {
 public:
  explicit SearchState(const NmtContext& c) : c_(c) {}
  void declare(ArenaLayout& layout);

  // Logits processors, in transformers' order: banned tokens get -inf, then at the last
  // step forced eos (every token -inf, eos 0).
  // `columns` logits; column j is token ids[j] (ids null: token j).
  void process_logits(float* row, size_t columns, const uint32_t* ids, bool last_step) const;
  // The model's lexical shortlist for this run's sentences (each its own candidate set,
  // whatever the batch): off when `use` is false or the model has none.
  void build_shortlist(std::span<const std::span<const int32_t>> sources, bool use);
  // Non-candidates of sentence s get -inf (before the softmax: candidates only are
  // normalised, as Marian's shortlisted output layer).
  void apply_shortlist(float* row, size_t columns, const uint32_t* ids, size_t sentence) const;
  // The same two on columns [col0, col0 + n) of a row of `columns` (x: column col0), for
  // score_top(): apply_shortlist, and process_logits before the last step (banned tokens).
  void apply_shortlist(float* x, size_t col0, size_t n, const uint32_t* ids, size_t sentence) const;
  void ban_tokens(float* x, size_t col0, size_t n, size_t columns, const uint32_t* ids) const;
  // The repetition guard's test: the history's last tokens are one n-gram of n <= 16
  // tokens repeated back to back, 8 times for a single token, else 4 times.
  static bool loops(const int32_t* history, size_t len);
  // Whether step t of `rows` rows (row r: sentence rows.sentence[r], its t-token history
  // at histories + rows.slot[r] * max_target) is plain, as score_top() needs: no row at
  // its length limit with a forced eos, none ending a loop (with the repetition guard).
  bool plain_step(size_t rows, size_t t, const int32_t* histories, bool repetition_guard) const;
  // Every column but eos gets -inf (eos keeps its value); false when eos has no column.
  bool force_end(float* row, size_t columns, const uint32_t* ids) const;
  // Sampling: seeds each sentence's generator from `seed` and its source ids.
  void seed_sentences(std::span<const std::span<const int32_t>> sources, uint64_t seed);
  // Sampling: the next uniform number in [0, 1) of sentence s's generator.
  double uniform(size_t s);
  // Sentence s's output: the first len tokens of row `row` of `from`, less a final eos;
  // with `scored`, each of the len tokens' log-probability (the final eos included), with
  // `aligned` their source positions.
  void write_output(size_t s, const Trails& from, size_t row, size_t len, bool scored, bool aligned);
  std::span<const int32_t> result(size_t s) const {
    return {output_ids + s * c_.dims.max_target, static_cast<size_t>(output_lengths[s])};
  }
  // Its tokens' log-probabilities (the final eos included), when the search gave them.
  std::span<const float> result_logprobs(size_t s) const {
    return {output_logprobs + s * c_.dims.max_target, static_cast<size_t>(output_scored[s])};
  }
  // Its tokens' aligned source positions (the final eos included), when the search gave them.
  std::span<const int32_t> result_sources(size_t s) const {
    return {output_sources + s * c_.dims.max_target, static_cast<size_t>(output_aligned[s])};
  }
  // Half h of the running hypotheses' double buffer.
  Trails running(int h) const {
    const size_t n = static_cast<size_t>(h) * c_.dims.max_rows * c_.dims.max_target;
    return {hypotheses + n, hypothesis_logprobs + n, hypothesis_sources + n, c_.dims.max_target};
  }

  StepRows rows;                          // the decoder's input rows
  int32_t* hypotheses = nullptr;          // [2][max_rows][max_target] token histories (double buffer)
  float* hypothesis_logprobs = nullptr;   // [2][max_rows][max_target] each history token's log-prob
  int32_t* hypothesis_sources = nullptr;  // [2][max_rows][max_target] each one's aligned source position
  int32_t* output_ids = nullptr;          // [max_batch][max_target]
  int32_t* output_lengths = nullptr;      // [max_batch]
  float* output_scores = nullptr;         // [max_batch] greedy with scores: each output's score
  float* output_logprobs = nullptr;       // [max_batch][max_target] each output token's log-prob
  int32_t* output_scored = nullptr;       // [max_batch] how many (0: not scored)
  int32_t* output_sources = nullptr;      // [max_batch][max_target] each output token's source position
  int32_t* output_aligned = nullptr;      // [max_batch] how many (0: not aligned)
  int32_t* max_new = nullptr;             // [max_batch] each sentence's length limit (set by the engine)
  uint8_t* shortlist_mask = nullptr;      // [max_batch][target vocab] with a shortlist: 1 = candidate
  bool shortlist_active = false;
  uint64_t* rng = nullptr;             // [max_batch] sampling: each sentence's generator state
  float* sample_values = nullptr;      // [min(vocab, kMaxSamplingTopK)] sampling: one row's top k
  uint32_t* sample_columns = nullptr;  // [min(vocab, kMaxSamplingTopK)]
  float* top_values = nullptr;         // [max_rows] score_top() results for greedy search: the best
  uint32_t* top_columns = nullptr;     // [max_rows] value and column of each row
  float* row_lse = nullptr;            // [max_rows] and its log-sum-exp

 private:
  const NmtContext& c_;
};

// A step's processors for score_top(): the shortlist of each row's sentence, then the
// banned tokens. Steps where a row has a forced token (forced eos at the length limit,
// the repetition guard ending a loop) or samples use score() instead.
class StepFilter final : public LogitFilter {
 public:
  StepFilter(const SearchState& state, size_t columns, const uint32_t* ids)
      : state_(state), columns_(columns), ids_(ids) {}
  void before_normalizer(size_t r, size_t col0, float* x, size_t n) const override {
    state_.apply_shortlist(x, col0, n, ids_, static_cast<size_t>(state_.rows.sentence[r]));
  }
  void after_normalizer(size_t, size_t col0, float* x, size_t n) const override {
    state_.ban_tokens(x, col0, n, columns_, ids_);
  }

 private:
  const SearchState& state_;
  size_t columns_;
  const uint32_t* ids_;
};

}  // namespace edgemt
