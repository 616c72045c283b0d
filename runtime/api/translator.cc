#include "runtime/api/translator.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string_view>

#include "ops/ops.h"
#include "runtime/api/model_input.h"
#include "runtime/core/utf8.h"
#include "runtime/nmt/engine.h"

namespace edgemt {

Translator::~Translator() = default;

const EngineLimits& Translator::limits() const { return engine_->limits(); }
Profiler& Translator::profiler() { return engine_->profiler(); }
size_t Translator::arena_bytes() const { return engine_->arena_bytes(); }

const char* active_isa() { return ops::isa_name(ops::active_isa()); }

Expected<std::unique_ptr<Translator>> Translator::create(const std::string& model_path,
                                                         const TranslatorOptions& options) {
  auto model = Model::load(model_path);
  if (!model) return model.status();
  return create(std::move(model.value()), options);
}

Expected<std::unique_ptr<Translator>> Translator::create(std::shared_ptr<const Model> model,
                                                         const TranslatorOptions& options) {
  if (model == nullptr) return invalid_argument("no model");
  const ModelConfig& cfg = model->config();
  const GenerationDefaults& gen = model->generation();
  EngineLimits lim;
  lim.max_batch = options.max_batch;
  lim.max_beam = options.max_beam > 0 ? options.max_beam : std::max(1, gen.num_beams);
  lim.max_source_length =
      options.max_source_length > 0 ? options.max_source_length : std::min(cfg.max_positions, 512);
  if (options.max_target_length > 0) {
    lim.max_target_length = options.max_target_length;
  } else {
    lim.max_target_length = gen.max_length > 1 ? gen.max_length - 1 : 256;
    lim.max_target_length = std::min(lim.max_target_length, cfg.max_positions);
  }
  lim.num_threads = options.num_threads;
  auto engine = Engine::create(model, lim);
  if (!engine) return engine.status();
  std::unique_ptr<Translator> t(new Translator());
  t->model_ = std::move(model);
  t->engine_ = std::move(engine.value());
  t->batch_src_.resize(static_cast<size_t>(lim.max_batch));
  t->batch_out_.resize(static_cast<size_t>(lim.max_batch));
  return t;
}

Expected<SearchParams> Translator::resolve(const TranslateOptions& o) const {
  const EngineLimits& lim = engine_->limits();
  const GenerationDefaults& gen = model_->generation();
  SearchParams p;
  p.sampling_topk = o.sampling_topk.value_or(1);
  if (p.sampling_topk < 1 || p.sampling_topk > kMaxSamplingTopK)
    return invalid_argument("sampling top-k " + std::to_string(p.sampling_topk) + " is outside [1, " +
                            std::to_string(kMaxSamplingTopK) + "]");
  p.sampling_temperature = o.sampling_temperature.value_or(1.0f);
  if (!(p.sampling_temperature > 0.0f) || !std::isfinite(p.sampling_temperature))
    return invalid_argument("sampling temperature " + std::to_string(p.sampling_temperature) +
                            " is not a finite number > 0");
  p.seed = o.seed.value_or(0);
  p.cancel = o.cancel;
  const bool sampling = p.sampling_topk > 1;
  p.beam = o.beam.value_or(sampling ? 1 : std::min(std::max(1, gen.num_beams), lim.max_beam));
  if (sampling && p.beam != 1)
    return invalid_argument("sampling (top-k " + std::to_string(p.sampling_topk) + ") needs beam 1, not " +
                            std::to_string(p.beam));
  if (p.beam < 1 || p.beam > lim.max_beam)
    return invalid_argument("beam " + std::to_string(p.beam) + " is outside [1, " +
                            std::to_string(lim.max_beam) + "] (this translator's max beam)");
  p.max_new_tokens = o.max_length.value_or(lim.max_target_length);
  if (p.max_new_tokens < 1 || p.max_new_tokens > lim.max_target_length)
    return invalid_argument("max length " + std::to_string(p.max_new_tokens) + " is outside [1, " +
                            std::to_string(lim.max_target_length) +
                            "] (this translator's max target length)");
  p.max_length_factor = o.max_length_factor.value_or(gen.max_length_factor);
  if (!std::isfinite(p.max_length_factor) || p.max_length_factor < 0.0f)
    return invalid_argument("max length factor " + std::to_string(p.max_length_factor) +
                            " is not a finite number >= 0");
  p.max_length_offset = o.max_length_offset.value_or(0);
  p.use_shortlist = o.use_shortlist.value_or(true);
  p.repetition_guard = o.repetition_guard.value_or(false);
  p.alignment_layer = o.alignment_layer.value_or(-1);
  if (!o.alignment_layer.has_value()) {  // the model's, when its converter named one (Marian's)
    for (const auto& [k, v] : model_->metadata()) {
      char* end = nullptr;
      const long x = std::strtol(v.c_str(), &end, 10);
      if (end == v.c_str() || *end != '\0' || x < 0) continue;  // (a value out of range is ignored)
      if (k == "alignment_layer" && x < model_->config().decoder_layers)
        p.alignment_layer = static_cast<int>(x);
      if (k == "alignment_head" && x < model_->config().decoder_heads) p.alignment_head = static_cast<int>(x);
    }
  }
  if (p.alignment_layer < -1 || p.alignment_layer >= model_->config().decoder_layers)
    return invalid_argument("alignment layer " + std::to_string(p.alignment_layer) + " is outside [0, " +
                            std::to_string(model_->config().decoder_layers - 1) + "] (the decoder's layers)");
  if (p.max_length_offset < -(1 << 20) || p.max_length_offset > (1 << 20))
    return invalid_argument("max length offset " + std::to_string(p.max_length_offset) + " is out of range");
  p.length_penalty = o.length_penalty.value_or(gen.length_penalty);
  if (!std::isfinite(p.length_penalty))
    return invalid_argument("length penalty " + std::to_string(p.length_penalty) + " is not a finite number");
  p.early_stopping =
      o.early_stopping.value_or(gen.early_stopping ? EarlyStopping::kTrue : EarlyStopping::kFalse);
  p.beam_style = o.beam_style.value_or(gen.beam_style);
  if (p.beam_style != BeamStyle::kTransformers && p.beam_style != BeamStyle::kMarian)
    return invalid_argument("beam style " + std::to_string(static_cast<int>(p.beam_style)) +
                            " is not one of kTransformers, kMarian");
  p.word_penalty = o.word_penalty.value_or(gen.word_penalty);
  if (!std::isfinite(p.word_penalty))
    return invalid_argument("word penalty " + std::to_string(p.word_penalty) + " is not a finite number");
  switch (p.early_stopping) {
    case EarlyStopping::kTrue:
    case EarlyStopping::kFalse:
    case EarlyStopping::kNever:
      break;
    default:
      return invalid_argument("early stopping " + std::to_string(static_cast<int>(p.early_stopping)) +
                              " is not one of kTrue, kFalse, kNever");
  }
  return p;
}

Status Translator::translate_batch_ids(std::span<const std::span<const int32_t>> sources,
                                       std::span<std::span<const int32_t>> results,
                                       const TranslateOptions& options) {
  auto p = resolve(options);
  if (!p) return p.status();
  return engine_->run(sources, p.value(), results);
}

Status Translator::run_chunks(std::span<const std::span<const int32_t>> sources, const SearchParams& params,
                              size_t nbest_count, std::vector<std::vector<std::vector<int32_t>>>* nbest,
                              std::vector<std::vector<float>>* scores,
                              std::vector<std::vector<std::vector<float>>>* token_logprobs,
                              std::vector<std::vector<std::vector<int32_t>>>* alignments) {
  if (token_logprobs != nullptr && scores == nullptr) return invalid_argument("token log-probs need scores");
  if (alignments != nullptr && (nbest == nullptr || !params.alignments))
    return invalid_argument("alignments need n-best results and params.alignments");
  const size_t limit = static_cast<size_t>(engine_->limits().max_source_length);
  const size_t piece = limit > 1 ? limit - 1 : 1;
  const int32_t eos = model_->config().eos_id;
  // Split into chunks of at most `piece` tokens + eos, back to back in one buffer (every
  // buffer here keeps its capacity: once grown to the largest call, none allocates).
  size_t nchunks = 0;
  chunk_owner_.clear();
  chunk_start_.clear();
  chunk_ids_.clear();
  chunk_end_.clear();
  for (size_t i = 0; i < sources.size(); ++i) {
    const std::span<const int32_t> src = sources[i];
    size_t n = src.size();
    if (n > 0 && src[n - 1] == eos) --n;
    size_t start = 0;
    do {
      const size_t len = std::min(piece, n - start);
      chunk_ids_.insert(chunk_ids_.end(), src.begin() + static_cast<std::ptrdiff_t>(start),
                        src.begin() + static_cast<std::ptrdiff_t>(start + len));
      chunk_ids_.push_back(eos);
      chunk_end_.push_back(chunk_ids_.size());
      ++nchunks;
      chunk_owner_.push_back(i);
      chunk_start_.push_back(static_cast<int32_t>(start));
      start += len;
    } while (start < n);
  }
  // Longest first, so a batch holds similar lengths (outputs do not depend on batching);
  // equal lengths by content, so equal chunks (a repeated line, a table's repeated cell)
  // sit together and run once: a chunk's outputs depend on its ids alone (sampling is
  // seeded from them too); then input order (std::sort with the index as tie-break:
  // stable_sort would allocate a buffer per call).
  order_.resize(nchunks);
  std::iota(order_.begin(), order_.end(), size_t{0});
  std::sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
    const std::span<const int32_t> ca = chunk(a), cb = chunk(b);
    if (ca.size() != cb.size()) return ca.size() > cb.size();
    const int c = std::memcmp(ca.data(), cb.data(), ca.size() * sizeof(int32_t));
    return c != 0 ? c < 0 : a < b;
  });
  unique_.clear();
  same_as_.resize(nchunks);
  for (size_t k = 0; k < nchunks; ++k) {
    const size_t c = order_[k];
    if (k > 0 && std::ranges::equal(chunk(c), chunk(unique_.back()))) {
      same_as_[c] = unique_.back();
    } else {
      same_as_[c] = c;
      unique_.push_back(c);
    }
  }
  // Outputs per chunk: a range of out_ids_ each (a repeated chunk shares the range of the
  // one that ran); gather() concatenates them in chunk order.
  out_ids_.clear();
  out_at_.resize(nchunks);
  if (nbest != nullptr && chunk_nbest_.size() < nchunks) chunk_nbest_.resize(nchunks);
  if (scores != nullptr && chunk_scores_.size() < nchunks) chunk_scores_.resize(nchunks);
  if (token_logprobs != nullptr && chunk_lps_.size() < nchunks) chunk_lps_.resize(nchunks);
  if (alignments != nullptr && chunk_align_.size() < nchunks) chunk_align_.resize(nchunks);
  const size_t bmax = batch_src_.size();
  const size_t nunique = unique_.size();
  for (size_t b = 0; b < nunique; b += bmax) {
    const size_t n = std::min(bmax, nunique - b);
    for (size_t i = 0; i < n; ++i) batch_src_[i] = chunk(unique_[b + i]);
    EDGEMT_RETURN_IF_ERROR(
        engine_->run(std::span(batch_src_.data(), n), params, std::span(batch_out_.data(), n)));
    for (size_t i = 0; i < n; ++i) {
      out_at_[unique_[b + i]] = {out_ids_.size(), batch_out_[i].size()};
      out_ids_.insert(out_ids_.end(), batch_out_[i].begin(), batch_out_[i].end());
    }
    if (nbest == nullptr) continue;
    for (size_t i = 0; i < n; ++i) {
      std::vector<std::vector<int32_t>>& hyps = chunk_nbest_[unique_[b + i]];
      hyps.resize(std::min(nbest_count, engine_->hypothesis_count(i)));
      for (size_t j = 0; j < hyps.size(); ++j) {
        const std::span<const int32_t> h = engine_->hypothesis(i, j);
        hyps[j].assign(h.begin(), h.end());
      }
      if (alignments != nullptr) {
        // Source positions in the whole sequence: the chunk's start added.
        std::vector<std::vector<int32_t>>& al = chunk_align_[unique_[b + i]];
        al.resize(hyps.size());
        const int32_t at = chunk_start_[unique_[b + i]];
        for (size_t j = 0; j < hyps.size(); ++j) {
          const std::span<const int32_t> a = engine_->hypothesis_alignment(i, j);
          al[j].clear();
          for (int32_t x : a) al[j].push_back(x < 0 ? x : x + at);
        }
      }
      if (scores == nullptr) continue;
      std::vector<float>& sc = chunk_scores_[unique_[b + i]];
      sc.resize(hyps.size());
      for (size_t j = 0; j < hyps.size(); ++j) sc[j] = engine_->hypothesis_score(i, j);
      if (token_logprobs == nullptr) continue;
      std::vector<std::vector<float>>& lp = chunk_lps_[unique_[b + i]];
      lp.resize(hyps.size());
      for (size_t j = 0; j < hyps.size(); ++j) {
        const std::span<const float> l = engine_->hypothesis_logprobs(i, j);
        lp[j].assign(l.begin(), l.end());
      }
    }
  }
  // Each repeated chunk gets the results of the one that ran (alignments moved to its
  // own start in its sequence).
  for (size_t c = 0; c < nchunks; ++c) {
    const size_t u = same_as_[c];
    if (u == c) continue;
    out_at_[c] = out_at_[u];
    if (nbest == nullptr) continue;
    chunk_nbest_[c] = chunk_nbest_[u];
    if (scores != nullptr) chunk_scores_[c] = chunk_scores_[u];
    if (token_logprobs != nullptr) chunk_lps_[c] = chunk_lps_[u];
    if (alignments != nullptr) {
      chunk_align_[c] = chunk_align_[u];
      const int32_t shift = chunk_start_[c] - chunk_start_[u];
      for (std::vector<int32_t>& al : chunk_align_[c])
        for (int32_t& x : al)
          if (x >= 0) x += shift;
    }
  }
  if (nbest != nullptr) {
    nbest->assign(sources.size(), {});
    if (scores != nullptr) scores->assign(sources.size(), {});
    if (token_logprobs != nullptr) token_logprobs->assign(sources.size(), {});
    if (alignments != nullptr) alignments->assign(sources.size(), {});
    for (size_t c = 0; c < nchunks; ++c) {
      std::vector<std::vector<int32_t>>& dst = (*nbest)[chunk_owner_[c]];
      const std::vector<std::vector<int32_t>>& hyps = chunk_nbest_[c];
      if (hyps.size() > dst.size()) {
        // More hypotheses than the earlier chunks had: they continue with their best.
        const std::vector<int32_t> best = dst.empty() ? std::vector<int32_t>() : dst[0];
        dst.resize(hyps.size(), best);
        if (scores != nullptr) {
          std::vector<float>& ds = (*scores)[chunk_owner_[c]];
          ds.resize(hyps.size(), ds.empty() ? 0.0f : ds[0]);
        }
        if (token_logprobs != nullptr) {
          std::vector<std::vector<float>>& dl = (*token_logprobs)[chunk_owner_[c]];
          const std::vector<float> best_lps = dl.empty() ? std::vector<float>() : dl[0];
          dl.resize(hyps.size(), best_lps);
        }
        if (alignments != nullptr) {
          std::vector<std::vector<int32_t>>& da = (*alignments)[chunk_owner_[c]];
          const std::vector<int32_t> best_al = da.empty() ? std::vector<int32_t>() : da[0];
          da.resize(hyps.size(), best_al);
        }
      }
      for (size_t j = 0; j < dst.size(); ++j) {
        const size_t from = j < hyps.size() ? j : 0;
        const std::span<const int32_t> h =
            hyps.empty() ? chunk_output(c) : std::span<const int32_t>(hyps[from]);
        dst[j].insert(dst[j].end(), h.begin(), h.end());
        if (scores != nullptr) (*scores)[chunk_owner_[c]][j] += hyps.empty() ? 0.0f : chunk_scores_[c][from];
        if (token_logprobs != nullptr && !hyps.empty()) {
          std::vector<float>& dl = (*token_logprobs)[chunk_owner_[c]][j];
          dl.insert(dl.end(), chunk_lps_[c][from].begin(), chunk_lps_[c][from].end());
        }
        if (alignments != nullptr && !hyps.empty()) {
          std::vector<int32_t>& da = (*alignments)[chunk_owner_[c]][j];
          da.insert(da.end(), chunk_align_[c][from].begin(), chunk_align_[c][from].end());
        }
      }
    }
  }
  return Status::ok();
}

std::span<const int32_t> Translator::chunk(size_t c) const {
  const size_t begin = c == 0 ? 0 : chunk_end_[c - 1];
  return {chunk_ids_.data() + begin, chunk_end_[c] - begin};
}

std::span<const int32_t> Translator::chunk_output(size_t c) const {
  return {out_ids_.data() + out_at_[c].first, out_at_[c].second};
}

void Translator::gather(std::span<std::vector<int32_t>> results) const {
  for (size_t c = 0; c < chunk_owner_.size(); ++c) {
    if (c == 0 || chunk_owner_[c] != chunk_owner_[c - 1]) results[chunk_owner_[c]].clear();
    const std::span<const int32_t> out = chunk_output(c);
    results[chunk_owner_[c]].insert(results[chunk_owner_[c]].end(), out.begin(), out.end());
  }
}

void Translator::gather(IdSequences* results) const {
  results->clear();
  for (size_t c = 0; c < chunk_owner_.size(); ++c) {
    if (c == 0 || chunk_owner_[c] != chunk_owner_[c - 1]) results->start();
    results->extend(chunk_output(c));
  }
}

Status Translator::run_chunked(std::span<const std::span<const int32_t>> sources,
                               std::span<std::vector<int32_t>> results, const SearchParams& params,
                               size_t nbest_count, std::vector<std::vector<std::vector<int32_t>>>* nbest,
                               std::vector<std::vector<float>>* scores,
                               std::vector<std::vector<std::vector<float>>>* token_logprobs,
                               std::vector<std::vector<std::vector<int32_t>>>* alignments) {
  if (results.size() < sources.size())
    return invalid_argument("results has room for fewer sequences than sources");
  EDGEMT_RETURN_IF_ERROR(run_chunks(sources, params, nbest_count, nbest, scores, token_logprobs, alignments));
  gather(results);
  return Status::ok();
}

std::span<const std::span<const int32_t>> Translator::views_of(
    const std::vector<std::vector<int32_t>>& sources) {
  views_.resize(sources.size());
  for (size_t i = 0; i < sources.size(); ++i) views_[i] = sources[i];
  return views_;
}

Status Translator::translate_ids(std::span<const std::span<const int32_t>> sources,
                                 std::span<std::vector<int32_t>> results, const TranslateOptions& options) {
  auto p = resolve(options);
  if (!p) return p.status();
  return run_chunked(sources, results, p.value());
}

Status Translator::translate_ids(std::span<const std::span<const int32_t>> sources, IdSequences* results,
                                 const TranslateOptions& options) {
  auto p = resolve(options);
  if (!p) return p.status();
  EDGEMT_RETURN_IF_ERROR(run_chunks(sources, p.value()));
  gather(results);
  return Status::ok();
}

Status Translator::translate_ids(const std::vector<std::vector<int32_t>>& sources,
                                 std::vector<std::vector<int32_t>>* results,
                                 const TranslateOptions& options) {
  auto p = resolve(options);
  if (!p) return p.status();
  results->resize(sources.size());
  return run_chunked(views_of(sources), *results, p.value());
}

Status Translator::score_ids(std::span<const std::span<const int32_t>> sources,
                             std::span<const std::span<const int32_t>> targets,
                             std::vector<std::vector<float>>* token_logprobs) {
  if (targets.size() != sources.size())
    return invalid_argument("score: " + std::to_string(sources.size()) + " sources but " +
                            std::to_string(targets.size()) + " targets");
  const EngineLimits& lim = engine_->limits();
  const int32_t eos = model_->config().eos_id;
  token_logprobs->assign(sources.size(), {});
  SearchParams p;
  p.beam = 1;
  p.max_new_tokens = lim.max_target_length;
  p.use_shortlist = false;
  const size_t batch = static_cast<size_t>(lim.max_batch);
  std::vector<std::vector<int32_t>> with_eos;  // sources that lacked their final eos
  std::vector<std::span<const int32_t>> src, tgt, out(batch);
  for (size_t at = 0; at < sources.size(); at += batch) {
    const size_t n = std::min(batch, sources.size() - at);
    src.clear();
    tgt.clear();
    with_eos.clear();
    with_eos.reserve(n);
    for (size_t i = at; i < at + n; ++i) {
      if (sources[i].empty() || sources[i].back() != eos) {
        with_eos.emplace_back(sources[i].begin(), sources[i].end());
        with_eos.back().push_back(eos);
        src.push_back(with_eos.back());
      } else {
        src.push_back(sources[i]);
      }
      if (src.back().size() > static_cast<size_t>(lim.max_source_length))
        return out_of_range("score: source " + std::to_string(i) + " has " +
                            std::to_string(src.back().size()) + " tokens, more than max_source_length (" +
                            std::to_string(lim.max_source_length) + ")");
      tgt.push_back(targets[i]);
    }
    p.forced_targets = tgt;
    EDGEMT_RETURN_IF_ERROR(engine_->run(src, p, std::span(out.data(), n)));
    for (size_t j = 0; j < n; ++j) {
      const std::span<const float> lp = engine_->hypothesis_logprobs(j, 0);
      (*token_logprobs)[at + j].assign(lp.begin(), lp.end());
    }
  }
  return Status::ok();
}

Expected<std::vector<std::vector<float>>> Translator::score(const std::vector<std::string>& sources,
                                                            const std::vector<std::string>& targets,
                                                            std::vector<std::vector<int32_t>>* target_ids) {
  if (targets.size() != sources.size())
    return invalid_argument("score: " + std::to_string(sources.size()) + " sources but " +
                            std::to_string(targets.size()) + " targets");
  const Tokenizer& tok = model_->tokenizer();
  std::vector<std::vector<int32_t>> src(sources.size()), tgt(targets.size());
  // Soft hyphens and other break hints are left out, as the text calls leave them out
  // (no vocabulary has a piece for them: utf8.h).
  auto visible = [](const std::string& t) { return has_break_hints(t) ? without_break_hints(t) : t; };
  for (size_t i = 0; i < sources.size(); ++i) {
    EDGEMT_RETURN_IF_ERROR(tok.encode(visible(sources[i]), &src[i]));
    EDGEMT_RETURN_IF_ERROR(tok.encode_target(visible(targets[i]), &tgt[i]));
  }
  const std::vector<std::span<const int32_t>> src_views(src.begin(), src.end()),
      tgt_views(tgt.begin(), tgt.end());
  std::vector<std::vector<float>> out;
  EDGEMT_RETURN_IF_ERROR(score_ids(src_views, tgt_views, &out));
  if (target_ids != nullptr) *target_ids = std::move(tgt);
  return out;
}

Status Translator::encode_sentence(std::string_view sentence, Protection protect, Segments* seg,
                                   std::vector<int32_t>* ids) {
  const Tokenizer& tok = model_->tokenizer();
  if (!protect.any()) return tok.encode(sentence, ids);
  ProtectedSentence p = protect_for_model(tok, sentence, protect.glossary, protect.spans, SpanMode::kInPlace);
  const Status st = tok.encode(p.verbatim ? std::string_view() : std::string_view(p.text), ids);
  seg->kept.push_back(std::move(p));
  return st;
}

}  // namespace edgemt
