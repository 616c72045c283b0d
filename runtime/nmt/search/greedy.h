// Greedy search: each sentence takes its most likely next token until eos or its
// length limit (transformers' greedy decoding, with the same logits processors; the
// limit of sentence s is state.max_new[s], at most max_new). With
// params.sampling_topk > 1 it draws the next token instead (top-k sampling with a
// temperature, each sentence from its own seeded generator: SearchState::uniform).
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
  // Draws one of the k best columns of `row` (processed logits) with probabilities
  // softmax(logit / temperature) over them: *value its logit, *column its column.
  // A row's token after the processors: sampled, or the best.
  void pick(size_t s, float* row, size_t columns, const SearchParams& params, float* value, uint32_t* column);
  void sample(size_t s, const float* row, size_t columns, size_t k, float temperature, float* value,
              uint32_t* column);

  const NmtContext& c_;
  SearchState& state_;
};

}  // namespace edgemt
