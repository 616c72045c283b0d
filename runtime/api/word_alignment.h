// Word alignment of a translated sentence: which source word each translated word
// renders. The engine aligns tokens (SearchParams::alignments: each output token to the
// source token the decoder's cross-attention weighs most); this groups tokens into words
// on both sides (SentencePiece's U+2581 starts a word) and maps them to bytes of the
// source sentence and of its translation. Used by Translator::translate_scored (jsonl
// output) and to place HTML inline tags (append_aligned_sentence: Translator and
// edgemt-server).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/text/markup.h"
#include "runtime/text/protected_spans.h"
#include "runtime/text/sentence_splitter.h"
#include "runtime/tokenizer/tokenizer.h"

namespace edgemt {

// The source side of one sentence: its words (runs of non-space bytes of what was
// tokenized, a protected span one word) as bytes of `sentence`, and per source token
// (of `ids`, as encoded) the index of its word (-1 without words). kept: the sentence's
// protected spans (nullptr: the sentence was tokenized as it is).
struct SourceWords {
  std::vector<TextSpan> spans;
  std::vector<int32_t> word_of;
};
SourceWords source_words(const Tokenizer& tok, std::span<const int32_t> ids, std::string_view sentence,
                         const ProtectedSentence* kept);

// The target side: the translated words in order, each a run of target tokens [first,
// last) from one that starts a word to the next (the final eos belongs to none; a run with
// nothing visible is no word), its text (markers replaced by their spans with `kept`)
// and the source word most of its tokens are aligned to (the first of a tie; -1 if none
// is, or `alignment` is empty). alignment: per target token its source token position.
struct TargetWord {
  size_t first = 0, last = 0;
  std::string text;
  int source = -1;
};
std::vector<TargetWord> target_words(const Tokenizer& tok, std::span<const int32_t> ids,
                                     std::span<const int32_t> alignment, const std::vector<int32_t>& word_of,
                                     const ProtectedSentence* kept);

// Where each of `words` (in order) stands in `text`: spans[i] is the first occurrence of
// words[i] after spans[i-1]; {0, 0} for one not found (the search goes on from the last
// found).
std::vector<TextSpan> locate_words(std::string_view text, const std::vector<std::string_view>& words);

// One sentence of a text whose translation is assembled with its words aligned (HTML
// inline runs): `sentence` stands at byte `source_at` of the text; `source_ids` are its
// tokens as encoded (of kept->text when protected); `translation` is what takes its
// place (spans restored); `target_ids` and `alignment` are that translation's tokens and
// each one's aligned source position (empty: no word of it is aligned, e.g. a sentence
// given back as it was).
struct AlignedSentence {
  std::string_view sentence;
  size_t source_at = 0;
  std::span<const int32_t> source_ids;
  std::string_view translation;
  std::span<const int32_t> target_ids, alignment;
  const ProtectedSentence* kept = nullptr;
};
// Appends the sentence's translation to out->text and, for each of its words aligned to
// a source word and found in it, the pair {its bytes in out->text, the source word's
// bytes in the text}. The caller appends what stands between sentences to out->text.
void append_aligned_sentence(const Tokenizer& tok, const AlignedSentence& s, AlignedText* out);

}  // namespace edgemt
