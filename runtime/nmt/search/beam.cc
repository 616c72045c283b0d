#include "runtime/nmt/search/beam.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "runtime/core/cancel.h"

namespace edgemt {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
// transformers' beam search marks impossible continuations with this score.
constexpr float kBeamMasked = -1.0e9f;

}  // namespace

void BeamSearch::declare(ArenaLayout& layout) {
  const Dims& d = c_.dims;
  const size_t rows = d.max_rows, k2 = 2 * d.max_beam;
  layout.add(&running_scores_, "running scores", rows, kPhaseDecode, kPhaseDecode);
  layout.add(&finished_tokens_, "finished hypotheses", rows * d.max_target, kPhaseDecode, kPhaseDecode);
  layout.add(&finished_logprobs_, "finished log-probs", rows * d.max_target, kPhaseDecode, kPhaseDecode);
  layout.add(&finished_sources_, "finished alignments", rows * d.max_target, kPhaseDecode, kPhaseDecode);
  layout.add(&finished_lengths_, "finished lengths", rows, kPhaseDecode, kPhaseDecode);
  layout.add(&finished_scores_, "finished scores", rows, kPhaseDecode, kPhaseDecode);
  layout.add(&finished_counts_, "finished counts", d.max_batch, kPhaseDecode, kPhaseDecode);
  layout.add(&candidate_scores_, "candidate scores", rows * k2, kPhaseDecode, kPhaseDecode);
  layout.add(&candidate_ids_, "candidate ids", rows * k2, kPhaseDecode, kPhaseDecode);
  layout.add(&merged_scores_, "merge scores", k2 * d.max_beam, kPhaseDecode, kPhaseDecode);
  layout.add(&merged_ids_, "merge ids", k2 * d.max_beam, kPhaseDecode, kPhaseDecode);
  layout.add(&merged_lps_, "merge log-probs", k2 * d.max_beam, kPhaseDecode, kPhaseDecode);
  layout.add(&parents_, "beam parents", rows, kPhaseDecode, kPhaseDecode);
  layout.add(&live_, "live hypotheses", d.max_batch, kPhaseDecode, kPhaseDecode);
}

void BeamSearch::run(size_t sentences, size_t max_new, const SearchParams& params, TokenScorer& scorer) {
  const size_t K = static_cast<size_t>(params.beam);
  beam_ = K;
  length_penalty_ = params.length_penalty;
  early_stopping_ = params.early_stopping;
  style_ = params.beam_style;
  sentences_ = sentences;
  word_penalty_ = params.word_penalty;
  repetition_guard_ = params.repetition_guard;
  aligned_ = nullptr;
  aligns_ = false;
  const bool marian = style_ == BeamStyle::kMarian;
  const StepRows& step = state_.rows;
  size_t rows = 0;
  for (size_t s = 0; s < sentences; ++s) {
    finished_counts_[s] = 0;
    state_.output_lengths[s] = 0;
    live_[s] = static_cast<int32_t>(K);  // kMarian: the first step takes the K best of one row
    // The first step decodes one row per sentence in both styles: its K beams are the same
    // hypothesis (the start token), and transformers' K - 1 masked copies of it would give
    // the same logits. select() reads that row for each of them.
    step.slot[rows] = static_cast<int32_t>(s * K);
    step.sentence[rows] = static_cast<int32_t>(s);
    step.token[rows] = c_.config->decoder_start_id;
    ++rows;
    for (size_t i = 0; i < K; ++i) running_scores_[s * K + i] = i == 0 ? 0.0f : kBeamMasked;
  }
  current_ = 0;
  for (size_t t = 0; t < max_new && rows > 0 && !CancelFlag::is_set(params.cancel); ++t) {
    columns_ = scorer.columns();
    column_ids_ = scorer.column_ids();
    if (!fused_candidates(scorer, rows, t)) {
      logits_ = scorer.score(rows, t);
      candidates(rows, t);
    }
    aligned_ = scorer.aligned_sources();
    aligns_ = aligned_ != nullptr;
    rows = marian ? select_marian(t, rows) : select(t, rows);
    // The kept sentences' decoder state follows their beams' parents.
    for (size_t r0 = 0; r0 < rows;) {
      const size_t s = static_cast<size_t>(step.sentence[r0]);
      const size_t n = marian ? static_cast<size_t>(live_[s]) : K;
      scorer.reorder(s * K, parents_ + s * K, n, t);
      r0 += n;
    }
    current_ = 1 - current_;
  }
}

void BeamSearch::finish(size_t s, const Trails& from, size_t row, size_t t, int32_t tok, float tok_lp,
                        int32_t tok_src, float score) {
  const size_t K = beam_;
  const Trails fin = finished();
  int32_t* fin_len = finished_lengths_;
  float* fin_score = finished_scores_;
  int32_t& cnt = finished_counts_[s];
  size_t pos = static_cast<size_t>(cnt);
  if (cnt == static_cast<int32_t>(K)) {
    if (!(score > fin_score[s * K + K - 1])) return;
    pos = K - 1;
  } else {
    ++cnt;
  }
  while (pos > 0 && score > fin_score[s * K + pos - 1]) {
    fin_score[s * K + pos] = fin_score[s * K + pos - 1];
    fin_len[s * K + pos] = fin_len[s * K + pos - 1];
    fin.copy(s * K + pos, fin, s * K + pos - 1, static_cast<size_t>(fin_len[s * K + pos - 1]));
    --pos;
  }
  fin_score[s * K + pos] = score;
  fin_len[s * K + pos] = static_cast<int32_t>(t + 1);
  fin.copy(s * K + pos, from, row, t);
  fin.put(s * K + pos, t, tok, tok_lp, tok_src);
}

std::span<const int32_t> BeamSearch::hypothesis_sources(size_t s, size_t i) const {
  if (!aligns_) return {};
  return {finished_sources_ + (s * beam_ + i) * c_.dims.max_target,
          static_cast<size_t>(finished_lengths_[s * beam_ + i])};
}

std::span<const float> BeamSearch::hypothesis_logprobs(size_t s, size_t i) const {
  return {finished_logprobs_ + (s * beam_ + i) * c_.dims.max_target,
          static_cast<size_t>(finished_lengths_[s * beam_ + i])};
}

std::span<const int32_t> BeamSearch::hypothesis(size_t s, size_t i) const {
  const int32_t* toks = finished_tokens_ + (s * beam_ + i) * c_.dims.max_target;
  size_t len = static_cast<size_t>(finished_lengths_[s * beam_ + i]);
  if (len > 0 && toks[len - 1] == c_.config->eos_id) --len;
  return {toks, len};
}

bool BeamSearch::fused_candidates(TokenScorer& scorer, size_t rows, size_t t) {
  // Only steps where every row is plain: no forced eos, no repetition guard ending a loop.
  const size_t K2 = 2 * beam_;
  if (columns_ < K2 || !state_.plain_step(rows, t, state_.running(current_).ids, repetition_guard_))
    return false;
  const StepFilter filter(state_, columns_, column_ids_);
  const TopColumns top{K2, candidate_scores_, candidate_ids_, state_.row_lse};
  if (!scorer.score_top(rows, t, filter, top)) return false;
  // As candidates(): log-probs are the logits less the row's log-sum-exp.
  for (size_t r = 0; r < rows; ++r) {
    float* cv = candidate_scores_ + r * K2;
    uint32_t* ci = candidate_ids_ + r * K2;
    for (size_t j = 0; j < K2; ++j) cv[j] -= state_.row_lse[r];
    if (column_ids_ != nullptr)
      for (size_t j = 0; j < K2; ++j) ci[j] = column_ids_[ci[j]];
  }
  return true;
}

void BeamSearch::candidates(size_t rows, size_t t) {
  // Per row: log-probs are logits - logsumexp(logits) (torch's log_softmax, over every
  // token), then the processors (banned -> -inf; at the last step forced eos gets 0 and
  // everything else -inf). Only the top 2K are needed, and the order of logits is the
  // order of log-probs, so the full log-softmax row is never written. The last step is
  // each sentence's own (its length limit).
  // With a lexical shortlist, the columns are its candidates (ids_ maps them to tokens).
  const size_t K2 = 2 * beam_, columns = columns_;
  const uint32_t* ids = column_ids_;
  const size_t k_eff = std::min(K2, columns);
  ScopedProf sp(c_.profiler, ProfOp::kSearchSoftmax);
  const bool has_forced = c_.model->generation().forced_eos_id >= 0;
  const StepRows& step = state_.rows;
  // Each row's history (t tokens): its slot in the current half of the double buffer.
  const int32_t* histories = state_.running(current_).ids;
  c_.pool->parallel_for(
      rows,
      [&](size_t b, size_t e, int) {
        for (size_t r = b; r < e; ++r) {
          const size_t s = static_cast<size_t>(step.sentence[r]);
          const bool forced = has_forced && t + 1 >= static_cast<size_t>(state_.max_new[s]);
          float* row = logits_ + r * columns;
          // Before the softmax: Marian normalises over a sentence's candidates only.
          state_.apply_shortlist(row, columns, ids, s);
          float* cv = candidate_scores_ + r * K2;
          uint32_t* ci = candidate_ids_ + r * K2;
          if (forced) {
            state_.process_logits(row, columns, ids, true);
            c_.kernels->f32_topk(columns, row, 0, k_eff, 0, cv, ci);
          } else {
            const float lse = c_.kernels->f32_logsumexp(columns, row);
            state_.process_logits(row, columns, ids, false);
            if (repetition_guard_ &&
                SearchState::loops(histories + static_cast<size_t>(step.slot[r]) * c_.dims.max_target, t))
              state_.force_end(row, columns, ids);
            c_.kernels->f32_topk(columns, row, 0, k_eff, 0, cv, ci);
            for (size_t j = 0; j < k_eff; ++j) cv[j] = cv[j] - lse;
          }
          for (size_t j = k_eff; j < K2; ++j) {  // fewer columns than candidates wanted
            cv[j] = kNegInf;
            ci[j] = ci[0];
          }
          if (ids != nullptr)
            for (size_t j = 0; j < K2; ++j) ci[j] = ids[ci[j]];
        }
      },
      4);
}

size_t BeamSearch::merge(size_t s, size_t r0, size_t n, bool one_row) {
  // The n per-beam lists (rows r0.., each its top 2K; one_row: row r0 for every beam) plus
  // the beams' scores, sorted by (score desc, beam * vocab + token asc): insertion sort,
  // n * 2K is small.
  const size_t K = beam_, K2 = 2 * K, vt = c_.dims.target_vocab;
  size_t nm = 0;
  for (size_t i = 0; i < n; ++i) {
    const float base = running_scores_[s * K + i];
    const size_t row = r0 + (one_row ? 0 : i);
    for (size_t j = 0; j < K2; ++j) {
      const float lp = candidate_scores_[row * K2 + j];
      const float v = lp + base;
      merged_scores_[nm] = std::isnan(v) ? kNegInf : v;
      merged_lps_[nm] = std::isnan(lp) ? kNegInf : lp;
      merged_ids_[nm] = static_cast<int32_t>(i * vt + candidate_ids_[row * K2 + j]);
      ++nm;
    }
  }
  for (size_t a = 1; a < nm; ++a) {
    const float v = merged_scores_[a], lp = merged_lps_[a];
    const int32_t ix = merged_ids_[a];
    size_t b = a;
    while (b > 0 && (merged_scores_[b - 1] < v || (merged_scores_[b - 1] == v && merged_ids_[b - 1] > ix))) {
      merged_scores_[b] = merged_scores_[b - 1];
      merged_ids_[b] = merged_ids_[b - 1];
      merged_lps_[b] = merged_lps_[b - 1];
      --b;
    }
    merged_scores_[b] = v;
    merged_ids_[b] = ix;
    merged_lps_[b] = lp;
  }
  return nm;
}

size_t BeamSearch::select_marian(size_t t, size_t rows) {
  const size_t K = beam_, T = c_.dims.max_target, vt = c_.dims.target_vocab;
  const int32_t eos = c_.config->eos_id;
  const StepRows& step = state_.rows;
  ScopedProf sp(c_.profiler, ProfOp::kSearchTopK);
  const Trails cur = state_.running(current_), nxt = state_.running(1 - current_);
  // Marian's History::add: length = tokens so far, eos included.
  const float len = static_cast<float>(t + 1);
  const float denom = std::pow(len, length_penalty_);
  const float penalty = word_penalty_ * len;
  for (size_t r0 = 0; r0 < rows;) {
    const size_t s = static_cast<size_t>(step.sentence[r0]);
    size_t n = 1;  // the sentence's rows (one at the first step, then its live hypotheses)
    while (r0 + n < rows && step.sentence[r0 + n] == step.sentence[r0]) ++n;
    const size_t take = static_cast<size_t>(live_[s]);
    const bool last = t + 1 >= static_cast<size_t>(state_.max_new[s]);
    const size_t nm = merge(s, r0, n, false);
    // The best `take` expansions (Marian's toHyps: no more than the beam had; impossible
    // ones, -inf, are dropped); eos ends a hypothesis, the length limit ends them all.
    size_t nb = 0;
    for (size_t j = 0; j < nm && j < take; ++j) {
      const float v = merged_scores_[j];
      if (!(v > kNegInf)) break;
      const size_t parent = static_cast<size_t>(merged_ids_[j]) / vt;
      const int32_t tok = static_cast<int32_t>(static_cast<size_t>(merged_ids_[j]) % vt);
      const int32_t src = source_of(r0 + parent);
      if (tok == eos || last) {
        finish(s, cur, s * K + parent, t, tok, merged_lps_[j], src, (v - penalty) / denom);
        continue;
      }
      parents_[s * K + nb] = static_cast<int32_t>(parent);
      nxt.copy(s * K + nb, cur, s * K + parent, t);
      nxt.put(s * K + nb, t, tok, merged_lps_[j], src);
      running_scores_[s * K + nb] = v;
      ++nb;
    }
    live_[s] = static_cast<int32_t>(nb);
    r0 += n;
    if (nb == 0) {
      if (finished_counts_[s] > 0) {
        state_.write_output(s, finished(), s * K, static_cast<size_t>(finished_lengths_[s * K]), true,
                            aligns_);
      } else {  // no possible expansion at all
        state_.write_output(s, cur, s * K, t, true, aligns_);
      }
    }
  }
  // The next step's rows, once every sentence is read (at the first step a sentence
  // goes from one row to K).
  size_t kept = 0;
  for (size_t s = 0; s < sentences_; ++s) {
    for (size_t i = 0; i < static_cast<size_t>(live_[s]); ++i) {
      step.slot[kept + i] = static_cast<int32_t>(s * K + i);
      step.sentence[kept + i] = static_cast<int32_t>(s);
      step.token[kept + i] = nxt.ids[(s * K + i) * T + t];
    }
    kept += static_cast<size_t>(live_[s]);
  }
  return kept;
}

size_t BeamSearch::select(size_t t, size_t rows) {
  const size_t K = beam_, K2 = 2 * K, T = c_.dims.max_target, vt = c_.dims.target_vocab;
  const int32_t eos = c_.config->eos_id;
  const float lp = length_penalty_;
  const EarlyStopping es = early_stopping_;
  const StepRows& step = state_.rows;
  ScopedProf sp(c_.profiler, ProfOp::kSearchTopK);
  const Trails cur = state_.running(current_), nxt = state_.running(1 - current_);
  int32_t* fin_len = finished_lengths_;
  float* fin_score = finished_scores_;
  size_t kept = 0;
  // The first step has one row per sentence, row s for sentence s (run()): beam b's row is
  // r0 + row_of * b. Its K next rows per sentence overwrite rows not read yet, so the
  // sentence comes from the row number, not from step.sentence.
  const size_t row_of = t == 0 ? 0 : 1;
  for (size_t r0 = 0; r0 < rows; r0 += t == 0 ? 1 : K) {
    const size_t s = t == 0 ? r0 : static_cast<size_t>(step.sentence[r0]);
    const size_t max_new = static_cast<size_t>(state_.max_new[s]);
    const bool last = t + 1 >= max_new;
    merge(s, r0, K, t == 0);
    const float denom = static_cast<float>(std::pow(static_cast<double>(t + 1), static_cast<double>(lp)));
    // Finished hypotheses from the top K ranks.
    for (size_t j = 0; j < K; ++j) {
      const size_t beam = static_cast<size_t>(merged_ids_[j]) / vt;
      const int32_t tok = static_cast<int32_t>(static_cast<size_t>(merged_ids_[j]) % vt);
      if (!(tok == eos || last)) continue;
      finish(s, cur, s * K + row_of * beam, t, tok, merged_lps_[j], source_of(r0 + row_of * beam),
             merged_scores_[j] / denom);
    }
    // Next running beams: the best K candidates that are not eos.
    bool is_done = last;
    if (!last) {
      size_t nb = 0;
      for (size_t j = 0; j < K2 && nb < K; ++j) {
        const size_t beam = static_cast<size_t>(merged_ids_[j]) / vt;
        const int32_t tok = static_cast<int32_t>(static_cast<size_t>(merged_ids_[j]) % vt);
        if (tok == eos) continue;
        parents_[s * K + nb] = static_cast<int32_t>(row_of * beam);
        nxt.copy(s * K + nb, cur, s * K + row_of * beam, t);
        nxt.put(s * K + nb, t, tok, merged_lps_[j], source_of(r0 + row_of * beam));
        running_scores_[s * K + nb] = merged_scores_[j];
        ++nb;
      }
      for (; nb < K; ++nb) {  // cannot happen with one eos id; keep the state defined
        parents_[s * K + nb] = 0;
        nxt.copy(s * K + nb, cur, s * K, t + 1);
        running_scores_[s * K + nb] = kNegInf;
      }
      // Is the sentence done?
      if (finished_counts_[s] == static_cast<int32_t>(K)) {
        if (es == EarlyStopping::kTrue) {
          is_done = true;
        } else {
          const double len = (es == EarlyStopping::kNever && lp > 0.0f) ? static_cast<double>(max_new)
                                                                        : static_cast<double>(t + 1);
          const float best =
              running_scores_[s * K] / static_cast<float>(std::pow(len, static_cast<double>(lp)));
          if (!(best > fin_score[s * K + K - 1])) is_done = true;
        }
      }
    }
    if (is_done) {
      if (finished_counts_[s] > 0) {
        state_.write_output(s, finished(), s * K, static_cast<size_t>(fin_len[s * K]), true, aligns_);
      } else {
        state_.write_output(s, cur, s * K, t, true, aligns_);
      }
      continue;
    }
    for (size_t i = 0; i < K; ++i) {
      step.slot[kept + i] = static_cast<int32_t>(s * K + i);
      step.sentence[kept + i] = static_cast<int32_t>(s);
      step.token[kept + i] = nxt.ids[(s * K + i) * T + t];
    }
    kept += K;
  }
  return kept;
}

}  // namespace edgemt
