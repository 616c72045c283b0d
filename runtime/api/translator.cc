#include "runtime/api/translator.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <string_view>

#include "ops/ops.h"
#include "runtime/api/model_input.h"
#include "runtime/api/word_alignment.h"
#include "runtime/core/utf8.h"
#include "runtime/formats/html_document.h"
#include "runtime/formats/pdf_text.h"
#include "runtime/nmt/engine.h"
#include "runtime/text/markup.h"

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

Status Translator::set_reranker(std::unique_ptr<Translator> reverse, float weight) {
  if (reverse == nullptr) {
    reverse_.reset();
    rerank_weight_ = 0.0f;
    return Status::ok();
  }
  if (!std::isfinite(weight) || weight < 0.0f)
    return invalid_argument("rerank weight " + std::to_string(weight) + " is not a finite number >= 0");
  if (reverse.get() == this) return invalid_argument("a translator cannot rerank its own output");
  const Model& r = reverse->model();
  const std::string &src = model_->source_language(), &tgt = model_->target_language();
  if (!src.empty() && !tgt.empty() && !r.source_language().empty() && !r.target_language().empty() &&
      (r.source_language() != tgt || r.target_language() != src))
    return invalid_argument("the reranker's model translates " + r.source_language() + " to " +
                            r.target_language() + ", not " + tgt + " to " + src +
                            " (it must translate this model's output back)");
  reverse_ = std::move(reverse);
  rerank_weight_ = weight;
  return Status::ok();
}

Expected<float> Translator::call_rerank_weight(const TranslateOptions& options) const {
  if (!options.rerank_weight.has_value()) return reverse_ != nullptr ? rerank_weight_ : 0.0f;
  const float w = *options.rerank_weight;
  if (!std::isfinite(w) || w < 0.0f)
    return invalid_argument("rerank weight " + std::to_string(w) + " is not a finite number >= 0");
  if (w > 0.0f && reverse_ == nullptr)
    return invalid_argument("rerank weight " + std::to_string(w) + " without a reranker (set_reranker)");
  return w;
}

Status Translator::run_segments(const std::vector<std::string>& texts, Segments* seg,
                                const SearchParams& params, std::vector<std::vector<int32_t>>* best,
                                size_t nbest_count, std::vector<std::vector<std::vector<int32_t>>>* nbest,
                                std::vector<std::vector<float>>* scores,
                                std::vector<std::vector<std::vector<float>>>* token_logprobs,
                                std::vector<std::vector<std::vector<int32_t>>>* alignments,
                                float rerank_weight) {
  if (!(rerank_weight > 0.0f) || reverse_ == nullptr || params.beam < 2)
    return run_protected(texts, seg, params, best, nbest_count, nbest, scores, token_logprobs, alignments);
  // Every hypothesis of the beam, with its score, is a candidate.
  std::vector<std::vector<std::vector<int32_t>>> own_nbest;
  std::vector<std::vector<float>> own_scores;
  std::vector<std::vector<std::vector<int32_t>>>* hyps = nbest != nullptr ? nbest : &own_nbest;
  std::vector<std::vector<float>>* sc = scores != nullptr ? scores : &own_scores;
  const size_t keep = nbest != nullptr ? nbest_count : 1;
  EDGEMT_RETURN_IF_ERROR(run_protected(texts, seg, params, best,
                                       std::max(nbest_count, static_cast<size_t>(params.beam)), hyps, sc,
                                       token_logprobs, alignments));
  std::vector<std::vector<size_t>> order;
  EDGEMT_RETURN_IF_ERROR(rerank_segments(texts, *seg, *hyps, *sc, rerank_weight, &order));
  auto permute = [](auto& v, const std::vector<size_t>& o, size_t n) {
    if (v.size() != o.size()) {  // (not a list of the hypotheses: only cut)
      if (v.size() > n) v.resize(n);
      return;
    }
    std::remove_reference_t<decltype(v)> out;
    out.reserve(n);
    for (size_t j = 0; j < o.size() && j < n; ++j) out.push_back(std::move(v[o[j]]));
    v = std::move(out);
  };
  for (size_t k = 0; k < order.size(); ++k) {
    std::vector<size_t>& o = order[k];
    if (o.empty()) {  // not reranked: the search's order, as many as asked for
      o.resize((*hyps)[k].size());
      std::iota(o.begin(), o.end(), size_t{0});
    }
    if (o.empty()) continue;
    (*best)[k] = (*hyps)[k][o[0]];
    const size_t n = std::max<size_t>(keep, 1);
    permute((*hyps)[k], o, n);
    permute((*sc)[k], o, n);
    if (token_logprobs != nullptr) permute((*token_logprobs)[k], o, n);
    if (alignments != nullptr) permute((*alignments)[k], o, n);
  }
  return Status::ok();
}

Status Translator::rerank_segments(const std::vector<std::string>& texts, const Segments& seg,
                                   const std::vector<std::vector<std::vector<int32_t>>>& nbest,
                                   const std::vector<std::vector<float>>& scores, float weight,
                                   std::vector<std::vector<size_t>>* order) {
  const Tokenizer& tok = model_->tokenizer();
  return rerank_core(
      seg.ids.size(),
      [&](size_t k, std::string_view* sentence) {
        if (!seg.kept.empty() && seg.kept[k].verbatim) return false;
        const std::string_view text = texts[seg.text[k]];
        *sentence = seg.span.empty() ? text : text.substr(seg.span[k].begin, seg.span[k].size());
        return true;
      },
      [&](size_t k, size_t h) { return seg.finish(k, tok.decode(nbest[k][h])); }, nbest, scores, weight,
      order);
}

Status Translator::rerank_hypotheses(const std::vector<std::string>& sources,
                                     const std::vector<std::vector<std::vector<int32_t>>>& hypotheses,
                                     const std::vector<std::vector<float>>& scores,
                                     std::vector<std::vector<size_t>>* order, std::optional<float> weight) {
  if (reverse_ == nullptr) return invalid_argument("rerank_hypotheses: no reranker (set_reranker)");
  const float w = weight.value_or(rerank_weight_);
  if (!std::isfinite(w) || w < 0.0f)
    return invalid_argument("rerank weight " + std::to_string(w) + " is not a finite number >= 0");
  if (hypotheses.size() != sources.size() || scores.size() != sources.size())
    return invalid_argument("rerank_hypotheses: " + std::to_string(sources.size()) + " sources, " +
                            std::to_string(hypotheses.size()) + " hypothesis lists and " +
                            std::to_string(scores.size()) + " score lists");
  const Tokenizer& tok = model_->tokenizer();
  return rerank_core(
      sources.size(),
      [&](size_t k, std::string_view* sentence) {
        *sentence = sources[k];
        return true;
      },
      [&](size_t k, size_t h) { return tok.decode(hypotheses[k][h]); }, hypotheses, scores, w, order);
}

Status Translator::rerank_core(size_t n, const std::function<bool(size_t, std::string_view*)>& sentence_of,
                               const std::function<std::string(size_t, size_t)>& hypothesis_of,
                               const std::vector<std::vector<std::vector<int32_t>>>& nbest,
                               const std::vector<std::vector<float>>& scores, float weight,
                               std::vector<std::vector<size_t>>* order) {
  order->assign(n, {});
  if (!(weight > 0.0f)) return Status::ok();
  const Tokenizer& rtok = reverse_->model().tokenizer();
  const EngineLimits& rlim = reverse_->limits();
  // The backward pairs: (hypothesis as the reverse model's source, sentence as its target).
  struct Pair {
    size_t k, h;
  };
  std::vector<Pair> pairs;
  std::vector<std::vector<int32_t>> rsrc, rtgt;
  std::vector<int32_t> sentence_ids;
  // Candidates: the hypotheses whose search score is within kRerankMargin * weight of the
  // best's (one further behind would need a backward score that much better per token to
  // win, which practically never happens: on 800-sentence samples of the bundled pair's
  // four sets at weight 0.3, BLEU moved by at most 0.02 and 60-85% of the hypotheses
  // were scored).
  std::vector<std::vector<char>> candidate(n);
  for (size_t k = 0; k < n; ++k) {
    if (k >= nbest.size() || nbest[k].size() < 2 || k >= scores.size() || scores[k].size() != nbest[k].size())
      continue;
    const float best = *std::max_element(scores[k].begin(), scores[k].end());
    candidate[k].resize(nbest[k].size());
    size_t count = 0;
    for (size_t h = 0; h < nbest[k].size(); ++h) {
      candidate[k][h] = scores[k][h] >= best - kRerankMargin * weight;
      count += candidate[k][h];
    }
    if (count < 2) continue;
    std::string_view sentence;
    if (!sentence_of(k, &sentence)) continue;
    sentence_ids.clear();
    EDGEMT_RETURN_IF_ERROR(rtok.encode_target(sentence, &sentence_ids));
    if (sentence_ids.size() + 1 > static_cast<size_t>(rlim.max_target_length)) continue;
    const size_t first = pairs.size();
    bool fits = true;
    for (size_t h = 0; h < nbest[k].size() && fits; ++h) {
      if (!candidate[k][h]) continue;
      std::vector<int32_t> src;
      EDGEMT_RETURN_IF_ERROR(rtok.encode(hypothesis_of(k, h), &src));
      fits = src.size() <= static_cast<size_t>(rlim.max_source_length);
      pairs.push_back({k, h});
      rsrc.push_back(std::move(src));
      rtgt.push_back(sentence_ids);
    }
    if (!fits) {  // this sentence keeps the search's order
      pairs.resize(first);
      rsrc.resize(first);
      rtgt.resize(first);
    }
  }
  if (pairs.empty()) return Status::ok();
  // Longest sources first, so that each batch holds similar lengths.
  std::vector<size_t> by_length(pairs.size());
  std::iota(by_length.begin(), by_length.end(), size_t{0});
  std::sort(by_length.begin(), by_length.end(), [&](size_t a, size_t b) {
    return rsrc[a].size() != rsrc[b].size() ? rsrc[a].size() > rsrc[b].size() : a < b;
  });
  std::vector<std::span<const int32_t>> src_views, tgt_views;
  for (size_t i : by_length) {
    src_views.emplace_back(rsrc[i]);
    tgt_views.emplace_back(rtgt[i]);
  }
  std::vector<std::vector<float>> lps;
  EDGEMT_RETURN_IF_ERROR(reverse_->score_ids(src_views, tgt_views, &lps));
  std::vector<std::vector<float>> combined(n);
  for (size_t j = 0; j < by_length.size(); ++j) {
    const Pair& p = pairs[by_length[j]];
    const std::vector<float>& lp = lps[j];
    double sum = 0.0;
    for (float x : lp) sum += x;
    if (combined[p.k].empty()) combined[p.k].assign(nbest[p.k].size(), 0.0f);
    combined[p.k][p.h] = scores[p.k][p.h] + weight * static_cast<float>(sum / std::max<size_t>(1, lp.size()));
  }
  // The candidates by their reranked score, then the others in the search's order.
  for (size_t k = 0; k < n; ++k) {
    if (combined[k].empty()) continue;
    std::vector<size_t>& o = (*order)[k];
    o.resize(combined[k].size());
    std::iota(o.begin(), o.end(), size_t{0});
    std::stable_sort(o.begin(), o.end(), [&](size_t a, size_t b) {
      if (candidate[k][a] != candidate[k][b]) return candidate[k][a] > candidate[k][b];
      return candidate[k][a] && combined[k][a] > combined[k][b];
    });
  }
  return Status::ok();
}

Status Translator::run_protected(const std::vector<std::string>& texts, Segments* seg,
                                 const SearchParams& params, std::vector<std::vector<int32_t>>* best,
                                 size_t nbest_count, std::vector<std::vector<std::vector<int32_t>>>* nbest,
                                 std::vector<std::vector<float>>* scores,
                                 std::vector<std::vector<std::vector<float>>>* token_logprobs,
                                 std::vector<std::vector<std::vector<int32_t>>>* alignments) {
  best->resize(seg->ids.size());
  EDGEMT_RETURN_IF_ERROR(
      run_chunked(views_of(seg->ids), *best, params, nbest_count, nbest, scores, token_logprobs, alignments));
  if (seg->kept.empty()) return Status::ok();
  const Tokenizer& tok = model_->tokenizer();
  std::vector<size_t> redo;
  for (size_t k = 0; k < seg->ids.size(); ++k) {
    const ProtectedSentence& p = seg->kept[k];
    if (p.in_place.empty() || p.verbatim || seg->ids[k].size() <= 1) continue;
    bool kept = spans_kept(tok.decode((*best)[k]), p);
    if (nbest != nullptr)
      for (size_t h = 0; kept && h < (*nbest)[k].size(); ++h)
        kept = spans_kept(tok.decode((*nbest)[k][h]), p);
    if (!kept) redo.push_back(k);
  }
  if (redo.empty()) return Status::ok();
  std::vector<std::vector<int32_t>> ids(redo.size()), best2(redo.size());
  for (size_t r = 0; r < redo.size(); ++r) {
    const size_t k = redo[r];
    const std::string_view text = texts[seg->text[k]];
    const std::string_view sentence =
        seg->span.empty() ? text : text.substr(seg->span[k].begin, seg->span[k].size());
    seg->kept[k] =
        protect_for_model(tok, sentence, seg->protect.glossary, seg->protect.spans, SpanMode::kMarkers);
    EDGEMT_RETURN_IF_ERROR(tok.encode(seg->kept[k].text, &ids[r]));
    seg->ids[k] = ids[r];
  }
  std::vector<std::vector<std::vector<int32_t>>> nbest2, aligns2;
  std::vector<std::vector<float>> scores2;
  std::vector<std::vector<std::vector<float>>> lps2;
  EDGEMT_RETURN_IF_ERROR(run_chunked(views_of(ids), best2, params, nbest_count, nbest ? &nbest2 : nullptr,
                                     scores ? &scores2 : nullptr, token_logprobs ? &lps2 : nullptr,
                                     alignments ? &aligns2 : nullptr));
  for (size_t r = 0; r < redo.size(); ++r) {
    const size_t k = redo[r];
    (*best)[k] = std::move(best2[r]);
    if (nbest != nullptr) (*nbest)[k] = std::move(nbest2[r]);
    if (scores != nullptr) (*scores)[k] = std::move(scores2[r]);
    if (token_logprobs != nullptr) (*token_logprobs)[k] = std::move(lps2[r]);
    if (alignments != nullptr) (*alignments)[k] = std::move(aligns2[r]);
  }
  return Status::ok();
}

namespace {
// texts, or where one holds a break hint (U+00AD, U+2060, U+FEFF: runtime/core/utf8.h)
// *store, every text without them: what is translated and what the translations are
// put into.
const std::vector<std::string>& visible_texts(const std::vector<std::string>& texts,
                                              std::vector<std::string>* store) {
  if (std::none_of(texts.begin(), texts.end(), [](const std::string& t) { return has_break_hints(t); }))
    return texts;
  store->clear();
  store->reserve(texts.size());
  for (const std::string& t : texts) store->push_back(without_break_hints(t));
  return *store;
}
}  // namespace

Status Translator::segment(const std::vector<std::string>& texts, bool split, Protection protect,
                           Segments* seg) {
  ScopedProf sp(&engine_->profiler(), ProfOp::kTokenize);
  seg->protect = protect;
  if (!split) {
    for (size_t i = 0; i < texts.size(); ++i) {
      std::vector<int32_t> v;
      EDGEMT_RETURN_IF_ERROR(encode_sentence(texts[i], protect, seg, &v));
      const bool verbatim = protect.any() && seg->kept.back().verbatim;
      if (v.size() <= 1 && !verbatim) {  // nothing but eos: empty or whitespace-only text
        if (protect.any()) seg->kept.pop_back();
        continue;
      }
      seg->ids.push_back(std::move(v));
      seg->text.push_back(i);
    }
    return Status::ok();
  }
  if (splitter_ == nullptr) {
    auto s = SentenceSplitter::create(model_->source_language());
    if (!s) return s.status();
    splitter_ = std::move(s.value());
  }
  const size_t limit = static_cast<size_t>(engine_->limits().max_source_length);
  std::vector<TextSpan> sentences;
  std::vector<TextSpan> todo;  // a stack: the next sentence (or half of one) on top
  for (size_t i = 0; i < texts.size(); ++i) {
    const std::string& text = texts[i];
    sentences.clear();
    splitter_->split(text, &sentences);
    for (auto it = sentences.rbegin(); it != sentences.rend(); ++it) todo.push_back(*it);
    while (!todo.empty()) {
      const TextSpan span = todo.back();
      todo.pop_back();
      std::vector<int32_t> v;
      EDGEMT_RETURN_IF_ERROR(
          encode_sentence(std::string_view(text).substr(span.begin, span.size()), protect, seg, &v));
      TextSpan first, second;
      if (v.size() > limit && split_long_sentence(text, span, &first, &second)) {
        if (protect.any()) seg->kept.pop_back();
        todo.push_back(second);
        todo.push_back(first);
        continue;
      }
      // A sentence with no token (nothing the tokenizer keeps, or nothing but protected
      // spans) still has a place: it is given back as it was (see assemble).
      seg->ids.push_back(std::move(v));
      seg->text.push_back(i);
      seg->span.push_back(span);
    }
  }
  return Status::ok();
}

template <typename F>
std::string Translator::assemble(const std::string& text, const Segments& seg, size_t first, size_t last,
                                 F translation) const {
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  size_t at = 0;
  for (size_t k = first; k < last; ++k) {
    const TextSpan& sp = seg.span[k];
    out.append(text, at, sp.begin - at);
    if (seg.ids[k].size() <= 1 && (seg.kept.empty() || !seg.kept[k].verbatim))
      out.append(text, sp.begin, sp.size());
    else
      out += translation(k);
    at = sp.end;
  }
  out.append(text, at, std::string::npos);
  return out;
}

namespace {
Translator::Protection protection(const TranslateOptions& o) {
  return {o.protect_spans.value_or(true), o.glossary.get()};
}
// The text calls' defaults (see TranslateOptions).
TranslateOptions text_defaults(const TranslateOptions& o) {
  TranslateOptions t = o;
  if (!t.repetition_guard.has_value()) t.repetition_guard = true;
  return t;
}

TranslateOptions as_plain_text(const TranslateOptions& o) {
  TranslateOptions t = o;
  t.format = TextFormat::kText;
  return t;
}

TranslateOptions as_html(const TranslateOptions& o) {
  TranslateOptions t = o;
  t.format = TextFormat::kHtml;
  return t;
}

}  // namespace

Expected<std::vector<std::string>> Translator::translate_units(
    const std::vector<std::unique_ptr<Document>>& docs, const TranslateOptions& options) {
  std::vector<std::string> units;
  for (const auto& d : docs) units.insert(units.end(), d->units().begin(), d->units().end());
  auto t = translate(units, options);
  if (!t) return t.status();
  std::vector<std::string> result;
  size_t at = 0;
  for (const auto& d : docs) {
    const auto first = t.value().begin() + static_cast<std::ptrdiff_t>(at);
    std::vector<std::string> mine(first, first + static_cast<std::ptrdiff_t>(d->units().size()));
    result.push_back(d->render(mine, model_->target_language(), model_->source_language()));
    at += d->units().size();
  }
  return result;
}

Expected<std::string> Translator::translate_pdf(std::string_view pdf, const TranslateOptions& options) {
  auto text = pdf_paragraphs(pdf);
  if (!text) return text.status();
  std::vector<std::string> paragraphs;
  for (size_t at = 0; at < text.value().size();) {
    size_t end = text.value().find('\n', at);
    if (end == std::string::npos) end = text.value().size();
    if (end > at) paragraphs.push_back(text.value().substr(at, end - at));
    at = end + 1;
  }
  TranslateOptions o = options;
  o.format = TextFormat::kText;
  auto t = translate(paragraphs, o);
  if (!t) return t.status();
  std::string out;
  for (const std::string& p : t.value()) {
    if (!out.empty()) out += '\n';
    out += p;
    out += '\n';
  }
  return out;
}

Expected<std::vector<std::string>> Translator::translate(const std::vector<std::string>& texts,
                                                         const TranslateOptions& options) {
  // Every document's units at once: as HTML fragments (Markdown's prose, subtitle cues,
  // XLIFF segments, Android strings and Office paragraphs: their inline markup and
  // formatting tags) or as plain text (the other formats' values).
  if (const DocumentFormat& format = document_format(options.format.value_or(TextFormat::kText));
      format.document()) {
    // (a translation table: the model's source language's column into its target's)
    auto docs = parse_documents(format, texts, {model_->source_language(), model_->target_language()});
    if (!docs) return docs.status();
    return translate_units(docs.value(), format.html_units ? as_html(options) : as_plain_text(options));
  }
  if (options.format.value_or(TextFormat::kText) == TextFormat::kHtml) {
    const TranslateOptions plain = as_plain_text(options);
    auto docs = translate_html(
        texts, plain.protect_spans.value_or(true),
        [&](const std::vector<std::string>& units) -> Expected<std::vector<std::vector<std::string>>> {
          auto t = translate(units, plain);
          if (!t) return t.status();
          std::vector<std::vector<std::string>> one;
          one.reserve(t.value().size());
          for (std::string& x : t.value()) one.push_back({std::move(x)});
          return one;
        },
        aligner(plain, 1), HtmlLanguages{model_->source_language(), model_->target_language()});
    if (!docs) return docs.status();
    std::vector<std::string> result;
    result.reserve(texts.size());
    for (std::vector<std::string>& d : docs.value()) result.push_back(std::move(d[0]));
    return result;
  }
  auto p = resolve(text_defaults(options));
  if (!p) return p.status();
  auto rerank = call_rerank_weight(options);
  if (!rerank) return rerank.status();
  const bool split = options.split_sentences.value_or(true);
  std::vector<std::string> store;
  const std::vector<std::string>& src = visible_texts(texts, &store);
  Segments seg;
  EDGEMT_RETURN_IF_ERROR(segment(src, split, protection(options), &seg));
  std::vector<std::vector<int32_t>> out;
  EDGEMT_RETURN_IF_ERROR(
      run_segments(src, &seg, p.value(), &out, 0, nullptr, nullptr, nullptr, nullptr, rerank.value()));
  // A text with no sentence (nothing but whitespace) comes back as it was when split,
  // its spacing kept as around sentences.
  std::vector<std::string> result = split ? src : std::vector<std::string>(texts.size());
  const Tokenizer& tok = model_->tokenizer();
  ScopedProf sp(&engine_->profiler(), ProfOp::kDetokenize);
  for (size_t j = 0; j < seg.ids.size();) {
    const size_t i = seg.text[j];
    size_t last = j + 1;
    if (!split) {
      result[i] = seg.finish(j, tok.decode(out[j]));
    } else {
      while (last < seg.ids.size() && seg.text[last] == i) ++last;
      result[i] = assemble(src[i], seg, j, last, [&](size_t k) { return seg.finish(k, tok.decode(out[k])); });
    }
    j = last;
  }
  return result;
}

Status Translator::translate_ids_nbest(std::span<const std::span<const int32_t>> sources,
                                       size_t num_hypotheses,
                                       std::vector<std::vector<std::vector<int32_t>>>* results,
                                       const TranslateOptions& options,
                                       std::vector<std::vector<float>>* scores,
                                       std::vector<std::vector<std::vector<float>>>* token_logprobs,
                                       std::vector<std::vector<std::vector<int32_t>>>* alignments) {
  auto p = resolve(options);
  if (!p) return p.status();
  if (num_hypotheses < 1) return invalid_argument("num_hypotheses must be at least 1");
  p.value().greedy_scores = scores != nullptr;
  p.value().alignments = alignments != nullptr;
  std::vector<std::vector<int32_t>> best(sources.size());
  if (token_logprobs != nullptr && scores == nullptr) return invalid_argument("token_logprobs needs scores");
  return run_chunked(sources, best, p.value(), num_hypotheses, results, scores, token_logprobs, alignments);
}

Expected<std::vector<std::vector<std::string>>> Translator::translate_nbest(
    const std::vector<std::string>& texts, size_t num_hypotheses, const TranslateOptions& options) {
  if (options.format.value_or(TextFormat::kText) != TextFormat::kText &&
      options.format.value_or(TextFormat::kText) != TextFormat::kHtml) {  // one document each: the best
    auto t = translate(texts, options);
    if (!t) return t.status();
    std::vector<std::vector<std::string>> result;
    for (std::string& x : t.value()) result.push_back({std::move(x)});
    return result;
  }
  if (options.format.value_or(TextFormat::kText) == TextFormat::kHtml) {
    const TranslateOptions plain = as_plain_text(options);
    return translate_html(
        texts, plain.protect_spans.value_or(true),
        [&](const std::vector<std::string>& units) { return translate_nbest(units, num_hypotheses, plain); },
        aligner(plain, num_hypotheses), HtmlLanguages{model_->source_language(), model_->target_language()});
  }
  NbestRun run;
  EDGEMT_RETURN_IF_ERROR(run_text_nbest(texts, num_hypotheses, options, false, false, &run));
  const bool split = options.split_sentences.value_or(true);
  const Segments& seg = run.seg;
  const std::vector<std::vector<std::vector<int32_t>>>& hyps = run.hyps;
  const Tokenizer& tok = model_->tokenizer();
  std::vector<std::vector<std::string>> result(texts.size(), std::vector<std::string>(1));
  for (size_t j = 0; j < seg.ids.size();) {
    const size_t i = seg.text[j];
    std::vector<std::string>& r = result[i];
    r.clear();
    size_t last = j + 1;
    if (!split) {
      for (const std::vector<int32_t>& h : hyps[j]) r.push_back(seg.finish(j, tok.decode(h)));
    } else {
      // Hypothesis h puts each sentence's h-th (or its best, where it has fewer) in place;
      // each sentence's hypotheses are decoded once.
      while (last < seg.ids.size() && seg.text[last] == i) ++last;
      size_t count = 1;
      std::vector<std::vector<std::string>> decoded(last - j);
      for (size_t k = j; k < last; ++k) {
        count = std::max(count, hyps[k].size());
        for (const std::vector<int32_t>& h : hyps[k]) decoded[k - j].push_back(seg.finish(k, tok.decode(h)));
      }
      for (size_t h = 0; h < count; ++h)
        r.push_back(assemble((*run.texts)[i], seg, j, last, [&](size_t k) {
          const std::vector<std::string>& d = decoded[k - j];
          return d.empty() ? std::string() : d[std::min(h, d.size() - 1)];
        }));
    }
    j = last;
  }
  return result;
}

namespace {

// A word's text with any protected-span marker in it (a run of digits equal to one)
// replaced by its span.
float confidence_of(double log_prob, size_t tokens) {
  return tokens == 0 ? 1.0f : static_cast<float>(std::exp(log_prob / static_cast<double>(tokens)));
}

// Each word's span in `text` (locate_words).
void locate(std::string_view text, std::vector<ScoredTranslation::Word>* words) {
  std::vector<std::string_view> w;
  for (const ScoredTranslation::Word& x : *words) w.push_back(x.text);
  const std::vector<TextSpan> spans = locate_words(text, w);
  for (size_t i = 0; i < words->size(); ++i) (*words)[i].span = spans[i];
}

}  // namespace

ScoredTranslation Translator::score_hypothesis(const Segments& seg, size_t k, const std::vector<int32_t>& ids,
                                               const std::vector<float>& lps, float score,
                                               const std::vector<int32_t>& alignment,
                                               const std::vector<int32_t>& word_of) const {
  const Tokenizer& tok = model_->tokenizer();
  const ProtectedSentence* kept = seg.kept.empty() ? nullptr : &seg.kept[k];
  ScoredTranslation t;
  t.text = seg.finish(k, tok.decode(ids));
  t.score = score;
  double sum = 0.0;
  for (float x : lps) sum += static_cast<double>(x);
  t.log_prob = static_cast<float>(sum);
  t.tokens = lps.size();
  t.confidence = confidence_of(sum, t.tokens);
  for (TargetWord& w : target_words(tok, ids, alignment, word_of, kept)) {
    double lp = 0.0;
    size_t n = 0;
    for (size_t i = w.first; i < w.last && i < lps.size(); ++i, ++n) lp += static_cast<double>(lps[i]);
    t.words.push_back({std::move(w.text), n > 0 ? confidence_of(lp, n) : 1.0f, TextSpan{}, w.source});
  }
  locate(t.text, &t.words);
  return t;
}

Expected<std::vector<ScoredText>> Translator::translate_scored(const std::vector<std::string>& texts,
                                                               size_t num_hypotheses,
                                                               const TranslateOptions& options) {
  if (options.format.value_or(TextFormat::kText) != TextFormat::kText)
    return invalid_argument(
        "translate_scored takes plain text lines (not HTML, po, Markdown, subtitles, wrapped text, CSV or "
        "JSON)");
  NbestRun run;
  EDGEMT_RETURN_IF_ERROR(run_text_nbest(texts, num_hypotheses, options, true, true, &run));
  const bool split = options.split_sentences.value_or(true);
  const Segments& seg = run.seg;
  const std::vector<std::vector<std::vector<int32_t>>>& hyps = run.hyps;
  const std::vector<std::vector<std::vector<int32_t>>>& aligns = run.aligns;
  const std::vector<std::vector<float>>& scores = run.scores;
  const std::vector<std::vector<std::vector<float>>>& lps = run.lps;
  ScopedProf sp(&engine_->profiler(), ProfOp::kDetokenize);
  std::vector<ScoredText> result(texts.size());
  for (size_t j = 0; j < seg.ids.size();) {
    const size_t i = seg.text[j];
    size_t last = j + 1;
    if (split)
      while (last < seg.ids.size() && seg.text[last] == i) ++last;
    ScoredText& r = result[i];
    size_t count = 1;
    for (size_t k = j; k < last; ++k) {
      ScoredSentence s;
      s.source = split ? (*run.texts)[i].substr(seg.span[k].begin, seg.span[k].size()) : (*run.texts)[i];
      const bool verbatim = !seg.kept.empty() && seg.kept[k].verbatim;
      if (verbatim || seg.ids[k].size() <= 1) {  // given back as it is
        ScoredTranslation t;
        t.text = verbatim ? restore_spans("", seg.kept[k]) : s.source;
        s.hypotheses.push_back(std::move(t));
      } else {
        SourceWords sw = source_words(model_->tokenizer(), seg.ids[k], s.source,
                                      seg.kept.empty() ? nullptr : &seg.kept[k]);
        s.source_words = std::move(sw.spans);
        for (size_t h = 0; h < hyps[k].size(); ++h)
          s.hypotheses.push_back(
              score_hypothesis(seg, k, hyps[k][h], lps[k][h], scores[k][h], aligns[k][h], sw.word_of));
      }
      count = std::max(count, s.hypotheses.size());
      r.sentences.push_back(std::move(s));
    }
    for (size_t k = j; k < last; ++k)
      for (const TextSpan& w : r.sentences[k - j].source_words) {
        const size_t at = split ? seg.span[k].begin : 0;
        r.source_words.push_back({w.begin + at, w.end + at});
      }
    // The text's hypotheses: each sentence's h-th (or its best) in place.
    for (size_t h = 0; h < count; ++h) {
      ScoredTranslation t;
      double sum = 0.0;
      auto pick = [&](size_t k) -> const ScoredTranslation& {
        const std::vector<ScoredTranslation>& v = r.sentences[k - j].hypotheses;
        return v[std::min(h, v.size() - 1)];
      };
      int first_word = 0;  // the sentence's first source word among the text's
      for (size_t k = j; k < last; ++k) {
        const ScoredTranslation& x = pick(k);
        t.score += x.score;
        sum += static_cast<double>(x.log_prob);
        t.tokens += x.tokens;
        for (ScoredTranslation::Word w : x.words) {
          if (w.source >= 0) w.source += first_word;
          t.words.push_back(std::move(w));
        }
        first_word += static_cast<int>(r.sentences[k - j].source_words.size());
      }
      t.log_prob = static_cast<float>(sum);
      t.confidence = confidence_of(sum, t.tokens);
      t.text = split ? assemble((*run.texts)[i], seg, j, last, [&](size_t k) { return pick(k).text; })
                     : pick(j).text;
      locate(t.text, &t.words);
      r.hypotheses.push_back(std::move(t));
    }
    j = last;
  }
  // A blank text: no sentence; its translation is "".
  for (ScoredText& r : result)
    if (r.hypotheses.empty()) r.hypotheses.emplace_back();
  return result;
}

Status Translator::run_text_nbest(const std::vector<std::string>& texts, size_t num_hypotheses,
                                  const TranslateOptions& options, bool scored, bool aligned, NbestRun* run) {
  if (num_hypotheses < 1) return invalid_argument("num_hypotheses must be at least 1");
  auto p = resolve(text_defaults(options));
  if (!p) return p.status();
  auto rerank = call_rerank_weight(options);
  if (!rerank) return rerank.status();
  p.value().greedy_scores = scored;
  p.value().alignments = aligned;
  run->texts = &visible_texts(texts, &run->visible);
  const std::vector<std::string>& src = *run->texts;
  EDGEMT_RETURN_IF_ERROR(
      segment(src, options.split_sentences.value_or(true), protection(options), &run->seg));
  return run_segments(src, &run->seg, p.value(), &run->best, num_hypotheses, &run->hyps,
                      scored ? &run->scores : nullptr, scored ? &run->lps : nullptr,
                      aligned ? &run->aligns : nullptr, rerank.value());
}

Translator::Aligner Translator::aligner(const TranslateOptions& options, size_t num_hypotheses) {
  return [this, options, num_hypotheses](
             const std::vector<std::string>& texts) -> Expected<std::vector<std::vector<AlignedText>>> {
    NbestRun run;
    EDGEMT_RETURN_IF_ERROR(run_text_nbest(texts, num_hypotheses, options, false, true, &run));
    const bool split = options.split_sentences.value_or(true);
    const Segments& seg = run.seg;
    const std::vector<std::vector<std::vector<int32_t>>>& hyps = run.hyps;
    const std::vector<std::vector<std::vector<int32_t>>>& aligns = run.aligns;
    const Tokenizer& tok = model_->tokenizer();
    std::vector<std::vector<AlignedText>> out(texts.size());
    for (size_t j = 0; j < seg.ids.size();) {
      const size_t i = seg.text[j];
      const std::string& text = (*run.texts)[i];
      size_t last = j + 1;
      if (split)
        while (last < seg.ids.size() && seg.text[last] == i) ++last;
      size_t count = 1;
      for (size_t k = j; k < last; ++k) count = std::max(count, hyps[k].size());
      // Hypothesis h: each sentence's h-th (or its best) in place, as translate_nbest's.
      for (size_t h = 0; h < count; ++h) {
        AlignedText a;
        size_t at = 0;
        for (size_t k = j; k < last; ++k) {
          const TextSpan sp = split ? seg.span[k] : TextSpan{0, text.size()};
          a.text.append(text, at, sp.begin - at);
          AlignedSentence s;
          s.sentence = std::string_view(text).substr(sp.begin, sp.size());
          s.source_at = sp.begin;
          const ProtectedSentence* kept = seg.kept.empty() ? nullptr : &seg.kept[k];
          std::string t;
          if (kept != nullptr && kept->verbatim) {
            t = restore_spans("", *kept);
          } else if (seg.ids[k].size() <= 1 || hyps[k].empty()) {  // given back as it is
            t = s.sentence;
          } else {
            const size_t x = std::min(h, hyps[k].size() - 1);
            t = seg.finish(k, tok.decode(hyps[k][x]));
            s.source_ids = seg.ids[k];
            s.target_ids = hyps[k][x];
            if (x < aligns[k].size()) s.alignment = aligns[k][x];
            s.kept = kept;
          }
          s.translation = t;
          append_aligned_sentence(tok, s, &a);
          at = sp.end;
        }
        if (split) a.text.append(text, at, std::string::npos);
        out[i].push_back(std::move(a));
      }
      j = last;
    }
    // A blank text: no sentence; its translation is "".
    for (std::vector<AlignedText>& r : out)
      if (r.empty()) r.emplace_back();
    return out;
  };
}

namespace {

// The folders that may hold bundled models, in order: $EDGEMT_MODELS_DIR, installed
// (<prefix>/bin/translate -> <prefix>/share/edgemt/models/), beside the executable (an
// unpacked archive), the source tree.
std::vector<std::filesystem::path> model_dirs() {
  namespace fs = std::filesystem;
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("EDGEMT_MODELS_DIR"); env != nullptr && *env != '\0')
    dirs.emplace_back(env);
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) {
    buf[n] = '\0';
    const fs::path exe(buf);
    dirs.push_back(exe.parent_path().parent_path() / "share" / "edgemt" / "models");
    dirs.push_back(exe.parent_path() / "models");
  }
  dirs.emplace_back(EDGEMT_SOURCE_MODELS_DIR);
  return dirs;
}

}  // namespace

std::string default_model_path() {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (const char* env = std::getenv("EDGEMT_MODEL"); env != nullptr && *env != '\0') return env;
  for (const fs::path& dir : model_dirs())
    if (const fs::path p = dir / EDGEMT_DEFAULT_MODEL_NAME; fs::exists(p, ec)) return p.string();
  return "";
}

std::vector<BundledModel> bundled_models() {
  namespace fs = std::filesystem;
  for (const fs::path& dir : model_dirs()) {
    std::error_code ec;
    std::vector<BundledModel> found;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      BundledModel m;
      if (name.rfind("edgemt-", 0) != 0 || !it->is_regular_file(ec) ||
          !Model::language_pair_of_file(name, &m.source, &m.target))
        continue;
      m.path = it->path().string();
      found.push_back(std::move(m));
    }
    if (!found.empty()) {
      std::sort(found.begin(), found.end(),
                [](const BundledModel& a, const BundledModel& b) { return a.path < b.path; });
      return found;
    }
  }
  return {};
}

namespace {

// bundled_model_path over the models `all`.
Expected<std::string> bundled_model_in(const std::vector<BundledModel>& all, std::string_view source,
                                       std::string_view target) {
  std::vector<const BundledModel*> match;
  std::string pairs;
  for (const BundledModel& m : all) {
    pairs += (pairs.empty() ? "" : ", ") + m.source + "->" + m.target;
    if ((source.empty() || m.source == source) && (target.empty() || m.target == target)) match.push_back(&m);
  }
  if (match.size() == 1) return match[0]->path;
  const std::string asked =
      std::string(source.empty() ? "any" : source) + "->" + std::string(target.empty() ? "any" : target);
  if (all.empty()) return not_found("no bundled models were found (pass a model file)");
  if (match.empty()) return not_found("no bundled model translates " + asked + "; bundled: " + pairs);
  return invalid_argument("several bundled models translate " + asked + " (" + pairs +
                          "): name both languages");
}

}  // namespace

Expected<std::string> bundled_model_path(std::string_view source, std::string_view target) {
  return bundled_model_in(bundled_models(), source, target);
}

std::vector<size_t> language_route(const std::vector<LanguagePair>& pairs, std::string_view source,
                                   std::string_view target) {
  if (source == target) return {};
  auto find = [&](std::string_view from, std::string_view to) -> size_t {
    for (size_t i = 0; i < pairs.size(); ++i)
      if (pairs[i].first == from && pairs[i].second == to) return i;
    return pairs.size();
  };
  if (const size_t m = find(source, target); m < pairs.size()) return {m};
  std::vector<size_t> best;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const std::string& pivot = pairs[i].second;
    if (pairs[i].first != source || pivot == source || pivot == target) continue;
    const size_t second = find(pivot, target);
    if (second == pairs.size()) continue;
    if (best.empty() || (pivot == "en" && pairs[best[0]].second != "en")) best = {i, second};
  }
  return best;
}

Expected<std::vector<std::string>> bundled_model_route(std::string_view source, std::string_view target) {
  const std::vector<BundledModel> all = bundled_models();
  auto direct = bundled_model_in(all, source, target);
  if (direct || source.empty() || target.empty()) {
    if (!direct) return direct.status();
    return std::vector<std::string>{direct.value()};
  }
  std::vector<LanguagePair> pairs;
  for (const BundledModel& m : all) pairs.emplace_back(m.source, m.target);
  const std::vector<size_t> route = language_route(pairs, source, target);
  if (route.empty()) return direct.status();
  std::vector<std::string> paths;
  for (size_t i : route) paths.push_back(all[i].path);
  return paths;
}

namespace {

// A catalog's, XLIFF document's or table's texts through the chain, filled in once.
Expected<std::vector<std::string>> fill_in_through(std::span<Translator* const> chain,
                                                   const std::vector<std::unique_ptr<Document>>& docs,
                                                   const TranslateOptions& unit_options) {
  std::vector<std::string> units;
  for (const auto& d : docs) units.insert(units.end(), d->units().begin(), d->units().end());
  for (Translator* t : chain) {
    auto r = t->translate(units, unit_options);
    if (!r) return r.status();
    units = std::move(r.value());
  }
  std::vector<std::string> result;
  size_t at = 0;
  for (const auto& d : docs) {
    const auto first = units.begin() + static_cast<std::ptrdiff_t>(at);
    const std::vector<std::string> mine(first, first + static_cast<std::ptrdiff_t>(d->units().size()));
    result.push_back(
        d->render(mine, chain.back()->model().target_language(), chain.front()->model().source_language()));
    at += d->units().size();
  }
  return result;
}

}  // namespace

Expected<std::vector<std::string>> translate_through(std::span<Translator* const> chain,
                                                     const std::vector<std::string>& texts,
                                                     const TranslateOptions& options) {
  if (chain.empty()) return invalid_argument("translate_through needs at least one translator");
  // A catalog, an XLIFF document, a String Catalog or a table: its units through every
  // model, filled in once (a table's source column into the last target's); the other
  // formats: each model translates the documents the last gave.
  if (const DocumentFormat& format = document_format(options.format.value_or(TextFormat::kText));
      chain.size() > 1 && format.filled_once) {
    auto docs = parse_documents(
        format, texts, {chain.front()->model().source_language(), chain.back()->model().target_language()});
    if (!docs) return docs.status();
    return fill_in_through(chain, docs.value(),
                           format.html_units ? as_html(options) : as_plain_text(options));
  }
  std::vector<std::string> current = texts;
  for (Translator* t : chain) {
    auto r = t->translate(current, options);
    if (!r) return r.status();
    current = std::move(r.value());
  }
  return current;
}

}  // namespace edgemt
