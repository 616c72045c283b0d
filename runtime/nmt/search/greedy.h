// Greedy search: each sentence takes its most likely next token until eos or its
// length limit (transformers' greedy decoding, with the same logits processors; the
// limit of sentence s is state.max_new[s], at most max_new).
#pragma once

#include <cstddef>

#include "runtime/nmt/context.h"
#include "runtime/nmt/params.h"
#include "runtime/nmt/scorer.h"
#include "runtime/nmt/search/search_state.h"

namespace edgemt {

class GreedySearch {
 public:
  GreedySearch(const NmtContext& c, SearchState& state) : c_(c), state_(state) {}
  // With params.greedy_scores, state.output_scores[s] is sentence s's score: the sum of
  // its tokens' log-probabilities (forced tokens add 0, as in beam search) over
  // length^length_penalty, less word_penalty * length first for BeamStyle::kMarian.
  void run(size_t sentences, size_t max_new, const SearchParams& params, TokenScorer& scorer);

 private:
  const NmtContext& c_;
  SearchState& state_;
};

}  // namespace edgemt
