// The Translator's scored and n-best text calls: confidences, word alignments, and the
// aligned translations that HTML's tag placement uses.
#include <algorithm>
#include <cmath>
#include <string_view>

#include "runtime/api/text_calls.h"
#include "runtime/api/translator.h"
#include "runtime/api/word_alignment.h"
#include "runtime/core/utf8.h"
#include "runtime/nmt/engine.h"
#include "runtime/text/markup.h"

namespace edgemt {

using text_calls::protection;
using text_calls::text_defaults;
using text_calls::visible_texts;

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

}  // namespace edgemt
