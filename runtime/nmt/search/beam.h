// Beam search with transformers' semantics (generation/utils.py, _beam_search): top 2K
// candidates over K beams; eos candidates ranked in the top K finish (score normalised
// by generated_length ** length_penalty); the next beams are the best K candidates
// that did not finish; a sentence is done when it has K finished hypotheses
// (early_stopping) or none of its running beams can beat the worst finished one; at
// the length limit the top K candidates finish. Each sentence has its own limit
// (state.max_new[s], at most run()'s max_new), as if it were searched alone with it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "runtime/core/arena.h"
#include "runtime/nmt/context.h"
#include "runtime/nmt/scorer.h"
#include "runtime/nmt/search/search_state.h"

namespace edgemt {

class BeamSearch {
 public:
  BeamSearch(const NmtContext& c, SearchState& state) : c_(c), state_(state) {}
  void declare(ArenaLayout& layout);
  // beam <= dims.max_beam (buffers are laid out for max_beam; a smaller beam uses a prefix).
  void run(size_t sentences, size_t max_new, size_t beam, float length_penalty, EarlyStopping early_stopping,
           TokenScorer& scorer);

  // After run(): sentence s's finished hypotheses, best first (at most beam), each
  // without its final eos; hypothesis 0 is the sentence's result. Valid until the next run.
  size_t hypothesis_count(size_t s) const { return static_cast<size_t>(finished_counts_[s]); }
  std::span<const int32_t> hypothesis(size_t s, size_t i) const;
  // Its score: sum of log-probs / length^length_penalty (transformers' beam score).
  float hypothesis_score(size_t s, size_t i) const { return finished_scores_[s * beam_ + i]; }

 private:
  // Per row: the top 2K log-probs (logits - logsumexp, after the logits processors) at step t.
  void candidates(size_t rows, size_t t);
  // Candidates -> finished hypotheses, next beams (parents_) and done sentences.
  // Returns the rows kept.
  size_t select(size_t t, size_t rows);

  const NmtContext& c_;
  SearchState& state_;
  // The current run's parameters.
  size_t beam_ = 1;
  float length_penalty_ = 1.0f;
  EarlyStopping early_stopping_ = EarlyStopping::kTrue;
  int current_ = 0;          // which half of state_.hypotheses is current
  float* logits_ = nullptr;  // the scorer's current logits [rows][columns_]
  size_t columns_ = 0;
  const uint32_t* column_ids_ = nullptr;  // column -> token (null: identity)
  float* running_scores_ = nullptr;       // [max_rows]
  int32_t* finished_tokens_ = nullptr;    // [max_rows][max_target], per sentence best first
  int32_t* finished_lengths_ = nullptr;   // [max_rows]
  float* finished_scores_ = nullptr;      // [max_rows]
  int32_t* finished_counts_ = nullptr;    // [max_batch]
  float* candidate_scores_ = nullptr;     // [max_rows][2 max_beam] per-row top 2K
  uint32_t* candidate_ids_ = nullptr;     // [max_rows][2 max_beam]
  float* merged_scores_ = nullptr;        // [max_beam * 2 max_beam] one sentence's candidates
  int32_t* merged_ids_ = nullptr;         // [max_beam * 2 max_beam] beam * vocab + token
  int32_t* parents_ = nullptr;            // [max_rows]
};

}  // namespace edgemt
