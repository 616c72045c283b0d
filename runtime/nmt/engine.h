// The translation engine: its parts (context.h lists them: source batch, encoder,
// decoder with its state, output layer, search strategies) over one arena planned at
// creation from the buffers each part states. From token ids in to token ids out it
// allocates nothing. Internal to the runtime; the public API is runtime/api/translator.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "ops/ops.h"
#include "runtime/core/arena.h"
#include "runtime/core/profiler.h"
#include "runtime/core/status.h"
#include "runtime/core/thread_pool.h"
#include "runtime/model/model.h"
#include "runtime/nmt/params.h"

namespace edgemt {

class Engine {
 public:
  // Plans and reserves the arena and starts the thread pool. `isa` null: the process
  // default (ops::kernels()).
  static Expected<std::unique_ptr<Engine>> create(std::shared_ptr<const Model> model,
                                                  const EngineLimits& limits,
                                                  const ops::Kernels* isa = nullptr,
                                                  const EngineProbes& probes = {});
  ~Engine();

  // Translates sources.size() <= max_batch sentences of token ids (each 1 ..
  // max_source_length long, ending with eos, ids < source vocab). results[i] receives
  // a view of sentence i's generated ids (without decoder start and final eos), valid
  // until the next call. No heap allocation.
  Status run(std::span<const std::span<const int32_t>> sources, const SearchParams& params,
             std::span<std::span<const int32_t>> results);

  // After run(): how many hypotheses sentence s has (beam search: its finished ones, at
  // most the beam; greedy: 1) and hypothesis i (best first, 0 = results[s], no final
  // eos), valid until the next call.
  size_t hypothesis_count(size_t s) const;
  std::span<const int32_t> hypothesis(size_t s, size_t i) const;
  // Its score as the beam search ranked it (BeamStyle); after a greedy run, the same
  // formula over its one hypothesis if params.greedy_scores was set, else NaN.
  float hypothesis_score(size_t s, size_t i) const;
  // Each of its tokens' log-probability (the log-softmax value the search added, after the
  // logits processors; the final eos included when it ended with one, so one more than
  // hypothesis(s, i) has). Empty after a greedy run without params.greedy_scores.
  std::span<const float> hypothesis_logprobs(size_t s, size_t i) const;
  // With params.alignments: each of its tokens' aligned source position (an index into
  // sentence s's source ids; -1 when the source is nothing but eos), the final eos
  // included, as hypothesis_logprobs. Empty otherwise.
  std::span<const int32_t> hypothesis_alignment(size_t s, size_t i) const;

  // Encoder output of the last run (rows packed sentence after sentence, [tokens][d]),
  // when probes.keep_first_logits is set (otherwise its memory is reused by decoding).
  const float* last_encoder_output() const;
  // Raw logits (before any processing) of row r of the first decoder step of the last
  // run, when probes.keep_first_logits is set (else null). Rows: sentence-major, then
  // beam. For tests.
  const float* first_logits(int row) const;
  // Output-layer columns the last run computed with its lexical shortlist (the union of
  // its sentences' candidates); 0 when it computed every logit.
  size_t shortlist_columns() const;

  const EngineLimits& limits() const { return limits_; }
  const Model& model() const { return *model_; }
  size_t arena_bytes() const { return arena_.size(); }
  // What the same buffers would need without lifetime-based sharing.
  size_t unshared_bytes() const { return planned_unshared_; }
  // The plan, one line per buffer (translate --stats --verbose).
  std::string describe_plan() const;
  Profiler& profiler() { return profiler_; }
  // True when p lies inside this engine's arena.
  bool in_arena(const void* p) const {
    const auto* b = static_cast<const uint8_t*>(p);
    return b >= arena_.data() && b < arena_.data() + arena_.size();
  }

  struct Impl;

 private:
  Engine() = default;

  std::shared_ptr<const Model> model_;
  EngineLimits limits_;
  Arena arena_;
  Profiler profiler_;
  std::unique_ptr<ThreadPool> pool_;
  std::unique_ptr<Impl> impl_;
  std::string plan_text_;
  size_t planned_unshared_ = 0;
};

}  // namespace edgemt
