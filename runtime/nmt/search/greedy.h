// Greedy search: each sentence takes its most likely next token until eos or its
// length limit (transformers' greedy decoding, with the same logits processors; the
// limit of sentence s is state.max_new[s], at most max_new).
#pragma once

#include <cstddef>

#include "runtime/nmt/context.h"
#include "runtime/nmt/scorer.h"
#include "runtime/nmt/search/search_state.h"

namespace edgemt {

class GreedySearch {
 public:
  GreedySearch(const NmtContext& c, SearchState& state) : c_(c), state_(state) {}
  void run(size_t sentences, size_t max_new, TokenScorer& scorer);

 private:
  const NmtContext& c_;
  SearchState& state_;
};

}  // namespace edgemt
