#include "runtime/api/word_alignment.h"

#include <algorithm>

#include "runtime/core/utf8.h"

namespace edgemt {
namespace {

constexpr std::string_view kWordStart = "\xE2\x96\x81";  // SentencePiece's U+2581

bool starts_word(std::string_view piece) { return piece.substr(0, kWordStart.size()) == kWordStart; }

}  // namespace

SourceWords source_words(const Tokenizer& tok, std::span<const int32_t> ids, std::string_view sentence,
                         const ProtectedSentence* kept) {
  SourceWords w;
  const std::string_view text = kept != nullptr ? std::string_view(kept->text) : sentence;
  for (size_t i = 0; i < text.size();) {
    if (is_ascii_space(text[i])) {
      ++i;
      continue;
    }
    size_t e = i;
    while (e < text.size() && !is_ascii_space(text[e])) ++e;
    w.spans.push_back(kept != nullptr ? sentence_span(*kept, {i, e}) : TextSpan{i, e});
    i = e;
  }
  // The i-th run of pieces from one that starts a word is the i-th word (SentencePiece
  // splits at spaces, and only there starts a piece with U+2581).
  int32_t group = -1;
  const auto last = static_cast<int32_t>(w.spans.size()) - 1;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i == 0 || starts_word(tok.source_piece(ids[i]))) ++group;
    w.word_of.push_back(w.spans.empty() ? -1 : std::min(group, last));
  }
  return w;
}

std::vector<TargetWord> target_words(const Tokenizer& tok, std::span<const int32_t> ids,
                                     std::span<const int32_t> alignment, const std::vector<int32_t>& word_of,
                                     const ProtectedSentence* kept) {
  std::vector<TargetWord> words;
  auto source_of = [&](size_t i) {
    if (i >= alignment.size() || alignment[i] < 0 || static_cast<size_t>(alignment[i]) >= word_of.size())
      return -1;
    return static_cast<int>(word_of[static_cast<size_t>(alignment[i])]);
  };
  size_t w0 = 0;
  auto flush = [&](size_t w1) {
    if (w1 <= w0) return;
    const std::string text = tok.decode(ids.subspan(w0, w1 - w0));
    const size_t b = text.find_first_not_of(' '), e = text.find_last_not_of(' ');
    if (b != std::string::npos) {  // else nothing visible (unk, a lone space): no word
      TargetWord w;
      w.first = w0;
      w.last = w1;
      w.text = text.substr(b, e - b + 1);
      if (kept != nullptr) w.text = replace_markers(w.text, *kept);
      // The source word most of its tokens are aligned to, the first of a tie.
      int votes = 0;
      for (size_t i = w0; i < w1; ++i) {
        const int s = source_of(i);
        if (s < 0) continue;
        int n = 0;
        for (size_t j = w0; j < w1; ++j) n += source_of(j) == s;
        if (n > votes) {
          votes = n;
          w.source = s;
        }
      }
      words.push_back(std::move(w));
    }
    w0 = w1;
  };
  for (size_t i = 1; i < ids.size(); ++i)
    if (starts_word(tok.target_piece(ids[i]))) flush(i);
  flush(ids.size());
  return words;
}

std::vector<TextSpan> locate_words(std::string_view text, const std::vector<std::string_view>& words) {
  std::vector<TextSpan> spans;
  size_t at = 0;
  for (std::string_view w : words) {
    const size_t found = w.empty() ? std::string_view::npos : text.find(w, at);
    if (found == std::string_view::npos) {
      spans.push_back({});
      continue;
    }
    spans.push_back({found, found + w.size()});
    at = found + w.size();
  }
  return spans;
}

void append_aligned_sentence(const Tokenizer& tok, const AlignedSentence& s, AlignedText* out) {
  const size_t target_at = out->text.size();
  out->text += s.translation;
  if (s.target_ids.empty() || s.alignment.empty()) return;
  const SourceWords sw = source_words(tok, s.source_ids, s.sentence, s.kept);
  const std::vector<TargetWord> tw = target_words(tok, s.target_ids, s.alignment, sw.word_of, s.kept);
  std::vector<std::string_view> texts;
  for (const TargetWord& w : tw) texts.push_back(w.text);
  const std::vector<TextSpan> spans = locate_words(s.translation, texts);
  for (size_t w = 0; w < tw.size(); ++w) {
    if (tw[w].source < 0 || static_cast<size_t>(tw[w].source) >= sw.spans.size() || spans[w].size() == 0)
      continue;
    const TextSpan src = sw.spans[static_cast<size_t>(tw[w].source)];
    out->words.push_back({{spans[w].begin + target_at, spans[w].end + target_at},
                          {src.begin + s.source_at, src.end + s.source_at}});
  }
}

}  // namespace edgemt
