// Beam search, in two styles (BeamStyle):
// - transformers' (generation/utils.py, _beam_search): top 2K candidates over K beams;
//   eos candidates ranked in the top K finish (score normalised by generated_length **
//   length_penalty); the next beams are the best K candidates that did not finish; a
//   sentence is done when it has K finished hypotheses (early_stopping) or none of its
//   running beams can beat the worst finished one; at the length limit the top K
//   candidates finish.
// - Marian's (translator/beam_search.cpp, History): a sentence with k live hypotheses
//   takes the top k of their expansions; those ending in eos finish (score (sum -
//   word_penalty * length) / length ** length_penalty, the eos counted) and the beam
//   shrinks to the others; the sentence is done when none is left, or at the length
//   limit, where every live one finishes. The result is the best finished one.
// Each sentence has its own limit (state.max_new[s], at most run()'s max_new), as if it
// were searched alone with it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "runtime/core/arena.h"
#include "runtime/nmt/context.h"
#include "runtime/nmt/params.h"
#include "runtime/nmt/scorer.h"
#include "runtime/nmt/search/search_state.h"

namespace edgemt {

class BeamSearch {
 public:
  BeamSearch(const NmtContext& c, SearchState& state) : c_(c), state_(state) {}
  void declare(ArenaLayout& layout);
  // params.beam <= dims.max_beam (buffers are laid out for max_beam; a smaller beam uses
  // a prefix); its beam_style, length_penalty, early_stopping, word_penalty are used.
  void run(size_t sentences, size_t max_new, const SearchParams& params, TokenScorer& scorer);

  // After run(): sentence s's finished hypotheses, best first (at most beam), each
  // without its final eos; hypothesis 0 is the sentence's result. Valid until the next run.
  size_t hypothesis_count(size_t s) const { return static_cast<size_t>(finished_counts_[s]); }
  std::span<const int32_t> hypothesis(size_t s, size_t i) const;
  // Its score: sum of log-probs / length^length_penalty (transformers' beam score), or
  // Marian's (with the word penalty).
  float hypothesis_score(size_t s, size_t i) const { return finished_scores_[s * beam_ + i]; }
  // Its tokens' log-probabilities (each the log-softmax value the search added; the
  // final eos included): they sum to its log-probability.
  std::span<const float> hypothesis_logprobs(size_t s, size_t i) const;
  // Its tokens' aligned source positions (TokenScorer::aligned_sources), when the scorer
  // aligned; else empty.
  std::span<const int32_t> hypothesis_sources(size_t s, size_t i) const;

 private:
  // Per row: the top 2K log-probs (logits - logsumexp, after the logits processors) at step t.
  void candidates(size_t rows, size_t t);
  // The same from the scorer's score_top() (no logits matrix), when the step allows it
  // (no row with a forced token); false: call score() and candidates().
  bool fused_candidates(TokenScorer& scorer, size_t rows, size_t t);
  // Candidates -> finished hypotheses, next beams (parents_) and done sentences.
  // Returns the rows kept.
  size_t select(size_t t, size_t rows);
  size_t select_marian(size_t t, size_t rows);
  // Sentence s's candidates from its n rows r0.. (each its top 2K plus the row's score)
  // into merged_*, best first; returns their count.
  size_t merge(size_t s, size_t r0, size_t n, bool one_row);
  // Adds a finished hypothesis to sentence s's list (best first, at most K): tokens
  // [0, t) of row `row` of `from`, then `tok` (log-probability tok_lp, aligned to
  // tok_src) at t.
  void finish(size_t s, const Trails& from, size_t row, size_t t, int32_t tok, float tok_lp, int32_t tok_src,
              float score);
  Trails finished() const {
    return {finished_tokens_, finished_logprobs_, finished_sources_, c_.dims.max_target};
  }
  // The source position decoder row r's step output is aligned to (-1: not aligning).
  int32_t source_of(size_t r) const { return aligned_ != nullptr ? aligned_[r] : -1; }

  const NmtContext& c_;
  SearchState& state_;
  // The current run's parameters.
  size_t beam_ = 1;
  float length_penalty_ = 1.0f;
  EarlyStopping early_stopping_ = EarlyStopping::kTrue;
  BeamStyle style_ = BeamStyle::kTransformers;
  size_t sentences_ = 0;
  float word_penalty_ = 0.0f;
  bool repetition_guard_ = false;
  int current_ = 0;          // which half of state_.hypotheses is current
  float* logits_ = nullptr;  // the scorer's current logits [rows][columns_]
  size_t columns_ = 0;
  const uint32_t* column_ids_ = nullptr;  // column -> token (null: identity)
  float* running_scores_ = nullptr;       // [max_rows]
  int32_t* finished_tokens_ = nullptr;    // [max_rows][max_target], per sentence best first
  float* finished_logprobs_ = nullptr;    // [max_rows][max_target] their tokens' log-probs
  int32_t* finished_sources_ = nullptr;   // [max_rows][max_target] their aligned source positions
  const int32_t* aligned_ = nullptr;      // the scorer's aligned_sources() this step
  bool aligns_ = false;                   // the last run aligned
  int32_t* finished_lengths_ = nullptr;   // [max_rows]
  float* finished_scores_ = nullptr;      // [max_rows]
  int32_t* finished_counts_ = nullptr;    // [max_batch]
  float* candidate_scores_ = nullptr;     // [max_rows][2 max_beam] per-row top 2K
  uint32_t* candidate_ids_ = nullptr;     // [max_rows][2 max_beam]
  float* merged_scores_ = nullptr;        // [max_beam * 2 max_beam] one sentence's candidates
  int32_t* merged_ids_ = nullptr;         // [max_beam * 2 max_beam] beam * vocab + token
  float* merged_lps_ = nullptr;           // [max_beam * 2 max_beam] the token's log-prob
  int32_t* parents_ = nullptr;            // [max_rows]
  int32_t* live_ = nullptr;               // [max_batch] kMarian: live hypotheses per sentence
};

}  // namespace edgemt
