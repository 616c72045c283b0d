#include "runtime/nmt/search/greedy.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime/core/cancel.h"

namespace edgemt {

void GreedySearch::sample(size_t s, const float* row, size_t columns, size_t k, float temperature,
                          float* value, uint32_t* column) {
  k = std::min({k, columns, static_cast<size_t>(kMaxSamplingTopK)});
  float* v = state_.sample_values;
  uint32_t* c = state_.sample_columns;
  c_.kernels->f32_topk(columns, row, 0, k, 0, v, c);  // best first
  // Impossible tokens (-inf after the processors) are never drawn; the best is finite
  // (eos at least is left by every processor).
  size_t n = 0;
  while (n < k && v[n] > -std::numeric_limits<float>::infinity()) ++n;
  if (n == 0) n = 1;
  double total = 0.0;
  const double inv_t = 1.0 / static_cast<double>(temperature);
  for (size_t j = 0; j < n; ++j) total += std::exp((static_cast<double>(v[j]) - v[0]) * inv_t);
  double u = state_.uniform(s) * total;
  size_t j = 0;
  for (; j + 1 < n; ++j) {
    u -= std::exp((static_cast<double>(v[j]) - v[0]) * inv_t);
    if (u < 0.0) break;
  }
  *value = v[j];
  *column = c[j];
}

void GreedySearch::pick(size_t s, float* row, size_t columns, const SearchParams& params, float* value,
                        uint32_t* column) {
  if (params.sampling_topk > 1)
    sample(s, row, columns, static_cast<size_t>(params.sampling_topk), params.sampling_temperature, value,
           column);
  else
    c_.kernels->f32_topk(columns, row, 0, 1, 0, value, column);
}

void GreedySearch::run(size_t sentences, size_t max_new, const SearchParams& params, TokenScorer& scorer) {
  const size_t max_target = c_.dims.max_target;
  const Trails history_of = state_.running(0);  // row s: sentence s
  const StepRows& rows_of = state_.rows;
  size_t rows = sentences;
  for (size_t s = 0; s < sentences; ++s) {
    rows_of.slot[s] = static_cast<int32_t>(s);
    rows_of.sentence[s] = static_cast<int32_t>(s);
    rows_of.token[s] = c_.config->decoder_start_id;
    state_.output_lengths[s] = 0;
    state_.output_scores[s] = 0.0f;
    state_.output_scored[s] = 0;
  }
  const std::span<const std::span<const int32_t>> forced = params.forced_targets;
  const bool forcing = !forced.empty();  // scoring given targets (SearchParams::forced_targets)
  const bool scores = params.greedy_scores || forcing;
  const bool has_forced = c_.model->generation().forced_eos_id >= 0;
  for (size_t t = 0; t < max_new && rows > 0 && !CancelFlag::is_set(params.cancel); ++t) {
    const size_t columns = scorer.columns();
    const uint32_t* ids = scorer.column_ids();
    // A step where no row samples or has a forced token needs only each row's best
    // column (and log-sum-exp): score_top(), without a logits matrix.
    // Row r's history is sentence s's: slot s of the running trails.
    bool fused = !forcing && params.sampling_topk <= 1 &&
                 state_.plain_step(rows, t, history_of.ids, params.repetition_guard);
    if (fused) {
      const StepFilter filter(state_, columns, ids);
      const TopColumns top{1, state_.top_values, state_.top_columns, scores ? state_.row_lse : nullptr};
      fused = scorer.score_top(rows, t, filter, top);
    }
    float* logits = fused ? nullptr : scorer.score(rows, t);
    const int32_t* aligned = scorer.aligned_sources();
    size_t kept = 0;
    ScopedProf sp(c_.profiler, ProfOp::kSearchTopK);
    for (size_t r = 0; r < rows; ++r) {
      const size_t s = static_cast<size_t>(rows_of.sentence[r]);
      const bool last = t + 1 >= static_cast<size_t>(state_.max_new[s]);
      int32_t* history = history_of.ids + s * max_target;
      float best_val;
      uint32_t best;
      float lse = 0.0f;
      if (fused) {
        best_val = state_.top_values[r];
        best = state_.top_columns[r];
        if (scores) lse = state_.row_lse[r];
      } else {
        float* row = logits + r * columns;
        state_.apply_shortlist(row, columns, ids, s);
        // The log-softmax's normaliser before the processors (as beam search's).
        if (scores) lse = c_.kernels->f32_logsumexp(columns, row);
        if (forcing) {
          // The given token (every column: no shortlist when forcing), then eos; its raw
          // log-softmax, no processors.
          best = t < forced[s].size() ? static_cast<uint32_t>(forced[s][t])
                                      : static_cast<uint32_t>(c_.config->eos_id);
          best_val = row[best];
        } else {
          state_.process_logits(row, columns, ids, last);
          if (params.repetition_guard && SearchState::loops(history, t)) state_.force_end(row, columns, ids);
          pick(s, row, columns, params, &best_val, &best);
        }
      }
      float* history_lps = history_of.lps + s * max_target;
      history_of.sources[s * max_target + t] = aligned != nullptr ? aligned[r] : -1;
      if (scores) {
        history_lps[t] = (last && has_forced && !forcing) ? best_val : best_val - lse;
        state_.output_scores[s] += history_lps[t];
      }
      if (ids != nullptr && !forcing) best = ids[best];
      history[t] = static_cast<int32_t>(best);
      if (forcing ? t >= forced[s].size() || last : static_cast<int32_t>(best) == c_.config->eos_id || last) {
        state_.write_output(s, history_of, s, t + 1, scores, aligned != nullptr);
        if (scores) {
          const float len = static_cast<float>(t + 1);
          float& sc = state_.output_scores[s];
          if (params.beam_style == BeamStyle::kMarian) sc -= params.word_penalty * len;
          sc /= std::pow(len, params.length_penalty);
        }
      } else {
        rows_of.slot[kept] = rows_of.slot[r];
        rows_of.sentence[kept] = rows_of.sentence[r];
        rows_of.token[kept] = static_cast<int32_t>(best);
        ++kept;
      }
    }
    rows = kept;
  }
}

}  // namespace edgemt
