// Plain value types shared by the engine and the public API: what an engine is planned
// for (its limits) and what one run searches with.
#pragma once

#include <cstdint>
#include <span>

#include "runtime/model/config.h"

namespace edgemt {

// What the arena is planned for. Exceeding a limit at run time is an error (the
// public API splits or truncates input first).
struct EngineLimits {
  int max_batch = 8;            // sentences per run
  int max_beam = 4;             // beam size
  int max_source_length = 256;  // source tokens incl. eos
  int max_target_length = 256;  // generated tokens incl. eos
  int num_threads = 1;
};

// What tests may ask an engine to keep readable after a run (never set by the public
// API): the raw logits of the first decoder step and the encoder output; costs
// [batch*beam][vocab] floats and keeps [batch*source][d] floats from being reused.
struct EngineProbes {
  bool keep_first_logits = false;
  // Every step computes the full [rows][vocab] logits and search reads them (the path of
  // sampling and forced steps), never the fused block-by-block top-k (score_top).
  bool full_logits = false;
  // Columns per block of the fused path (a multiple of 16; 0: the default, from the
  // vocabulary), so that tests can cut a small vocabulary into many blocks.
  int logit_block_columns = 0;
};

enum class EarlyStopping : uint8_t { kTrue, kFalse, kNever };

struct SearchParams {
  int beam = 1;
  int max_new_tokens = 256;  // <= limits.max_target_length
  float length_penalty = 1.0f;
  EarlyStopping early_stopping = EarlyStopping::kTrue;  // kTransformers only
  BeamStyle beam_style = BeamStyle::kTransformers;
  float word_penalty = 0.0f;  // kMarian only: subtracted per output token (eos included)
  // Source-relative limit (Marian's max-length-factor): sentence s generates at most
  // min(max_new_tokens, ceil(max_length_factor * source_tokens(s)) + max_length_offset)
  // tokens, eos included (source tokens with their eos). 0: no such limit.
  float max_length_factor = 0.0f;
  int max_length_offset = 0;
  // With a model that has a lexical shortlist: score only each sentence's candidates
  // (Marian's --shortlist). Ignored without one.
  bool use_shortlist = true;
  // Greedy search also scores its outputs (Engine::hypothesis_score and each token's
  // log-probability, Engine::hypothesis_logprobs; beam search always does): a
  // log-sum-exp over each step's logits, a cost only when asked.
  bool greedy_scores = false;
  // Repetition guard: a hypothesis whose last tokens are one n-gram repeated back to back
  // (SearchState::loops) can only end next (every token but eos is masked; eos keeps its
  // probability), so that no input makes a model loop until the length limit.
  bool repetition_guard = false;
  // Random sampling instead of greedy's argmax (beam 1 only): each step draws the next
  // token among the sampling_topk most likely (1: argmax, no sampling), with
  // probabilities softmax(logits / sampling_temperature) renormalised over them. Each
  // sentence draws from its own generator, seeded from `seed` and its source ids, so a
  // sentence gets the same sample whatever the batch or thread count, every time it is
  // translated with the same seed.
  // Cooperative cancellation: a flag (CancelFlag::flag()) another thread may set; the
  // search stops at its next step and Engine::run returns StatusCode::kCancelled.
  // nullptr: none.
  const int32_t* cancel = nullptr;
  int sampling_topk = 1;  // 1 .. kMaxSamplingTopK
  float sampling_temperature = 1.0f;
  uint64_t seed = 0;
  // Word alignment (Engine::hypothesis_alignment): each output token is aligned to the
  // source token that decoder layer alignment_layer's cross-attention (its heads
  // averaged, or alignment_head alone) weighs most when the token is chosen, the source's eos aside. -1: the
  // model's default layer (default_alignment_layer). A cost only when asked: one pass
  // over that layer's attention weights per step.
  bool alignments = false;
  int alignment_layer = -1;
  // The head of that layer whose weights align (Marian's guided alignment trains the
  // first); -1: the layer's heads averaged.
  int alignment_head = -1;
  // Forced decoding (scoring, as CTranslate2's score_batch): sentence s's output is
  // forced_targets[s] (target ids, no decoder start) then eos, whatever the model would
  // choose; each token's log-probability (Engine::hypothesis_logprobs) is the log-softmax
  // of the model's raw logits, without the search's processors. Needs beam 1, no
  // sampling; the shortlist is not used. Each target at most max_new_tokens - 1 ids.
  // Empty: a search.
  std::span<const std::span<const int32_t>> forced_targets;
};

// The decoder layer whose cross-attention aligns best when a model says nothing: the
// second to last of three or more (the last ones attend to what comes next; Garg et
// al. 2019 found the penultimate layer of a 6-layer decoder best), else the last.
inline int default_alignment_layer(int decoder_layers) {
  return decoder_layers >= 3 ? decoder_layers - 2 : decoder_layers - 1;
}

inline constexpr int kMaxSamplingTopK = 1024;

}  // namespace edgemt
