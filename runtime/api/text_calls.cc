// The Translator's text calls: sentences split, protected, translated (again with
// markers where a span was lost), put back; documents through their format's reader.
#include "runtime/api/text_calls.h"

#include <algorithm>
#include <numeric>
#include <string_view>

#include "runtime/api/model_input.h"
#include "runtime/api/translator.h"
#include "runtime/core/utf8.h"
#include "runtime/formats/html_document.h"
#include "runtime/formats/pdf_text.h"
#include "runtime/nmt/engine.h"
#include "runtime/text/markup.h"

namespace edgemt {

using text_calls::as_html;
using text_calls::as_plain_text;
using text_calls::protection;
using text_calls::text_defaults;
using text_calls::visible_texts;

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

namespace text_calls {
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
}  // namespace text_calls

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

namespace text_calls {
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

}  // namespace text_calls

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

}  // namespace edgemt
