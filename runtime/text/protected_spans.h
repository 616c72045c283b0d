// Protected spans for the text layer: parts of a sentence that must come through a
// translation verbatim (issue 15 item 3).
//
//   URLs          https://example.org/a?b=1, ftp://..., www.example.org/x
//   e-mail        user.name+tag@example.co.uk
//   file paths    /usr/share/doc, ~/.config/x, ./run.sh, ../x, C:\Users\x
//   code          `make install` (backquoted)
//   placeholders  printf's %s %d %5.2f %1$s %(name)s, {name} {0} {{name}}, ${HOME} $HOME $1
//   numbers with units   5 km, 3.5GB, 100 %, 20°C, 1,5 MiB
//   long tokens   64 or more ASCII letters, digits and + / = _ - . without a space:
//                 base64, hex digests, keys, IDs (no word is that long)
//   unknown characters   what the model's vocabulary has no piece for, which a
//                 translation would drop: "20 €", "François", "日本語", emoji (given by
//                 the caller: Tokenizer::unknown_spans)
//
// Before a sentence is translated each span is replaced by a marker the model copies (a
// number not otherwise in the sentence); after, each marker in the translation is replaced
// by its span. A marker the model dropped gets its span back at the end of the
// translation (before its final punctuation), and a marker it repeated is kept once:
// every span comes out exactly once. A sentence that is nothing but spans, punctuation
// and whitespace is not translated at all.
//
// Markers cost the model some quality: it was trained on sentences holding URLs, paths and
// placeholders, not numbers standing for them, and it drops a word beside a marker now
// and then. SpanMode::kInPlace leaves the builtin spans in the sentence as they are
// instead; the caller checks the translation with spans_kept() and translates a sentence
// whose spans did not all come through again with markers (SpanMode::kMarkers), so every
// span still comes out exactly once, verbatim.
//
// A user glossary rides on the same markers: a source term found in the sentence (as a
// whole word) is replaced by a marker, and the marker by the term's target.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/core/status.h"
#include "runtime/text/sentence_splitter.h"

namespace edgemt {

// Terms that must be translated one way: `source` (as a whole word, case-sensitive; a
// term written in lower case also matches with its first letter capitalized, and its
// target is then capitalized too) becomes `target`.
class Glossary {
 public:
  // Tab-separated UTF-8 lines "source<TAB>target"; blank lines and lines starting with
  // '#' are skipped; a later line for the same source replaces an earlier one. A line
  // without a tab, or with an empty side, is an error naming the line.
  static Expected<std::shared_ptr<const Glossary>> parse(std::string_view tsv);
  static Expected<std::shared_ptr<const Glossary>> load(const std::string& path);

  size_t size() const { return terms_.size(); }
  // The longest term whose source starts at text[i] as a whole word: its length in the
  // text, and its target in *target; 0 when none does.
  size_t match(std::string_view text, size_t i, std::string* target) const;

 private:
  struct Term {
    std::string source, target;
  };
  std::vector<Term> terms_;                   // longest source first
  std::vector<std::vector<uint32_t>> first_;  // by the source's first byte (lower-cased)
};

// Appends the protected spans of `text` to *out, in order, without overlaps.
void find_protected_spans(std::string_view text, std::vector<TextSpan>* out);

// How builtin spans (URLs, paths, placeholders...) reach the model: replaced by markers,
// or left as they are (a span touching another span, or a glossary term, still gets a
// marker). Glossary terms always get markers.
enum class SpanMode { kMarkers, kInPlace };

struct ProtectedSentence {
  std::string text;                    // what is translated: spans replaced by markers
  std::vector<std::string> in_place;   // builtin spans left as they are in `text` (kInPlace)
  std::vector<std::string> markers;    // markers[i] stands for originals[i]
  std::vector<std::string> originals;  // what comes back: the span verbatim, or a
                                       // glossary term's target
  bool verbatim = false;               // nothing to translate (only spans, or with
                                       // builtin spans no letter at all: "12", "--:--"):
                                       // the sentence is `text` with its markers replaced
  std::vector<size_t> marker_at;       // where markers[i] stands in `text`
  std::vector<TextSpan> spans;         // the sentence bytes markers[i] replaced
  bool capitals = false;               // the sentence was written in capitals and `text`
                                       // is it recased (recase_capitals; set by the
                                       // caller): restore_spans and replace_markers give
                                       // capitals back (to_capitals)
};

// A span of p.text as the sentence's bytes: markers become the spans they replaced.
TextSpan sentence_span(const ProtectedSentence& p, TextSpan in_text);

// glossary: optional (nullptr: none); builtin_spans false: the glossary's terms only.
// unknown: the byte ranges of `sentence` the model's vocabulary has no piece for
// (Tokenizer::unknown_spans), copied through with builtin spans: each widened to its whole
// word ("François"), symbols alone to a number beside them ("20 €", "§ 5"), ranges with
// no letter between them joined. The model cannot write them: they get markers, but in
// place (kInPlace) a word whose unknown letters all have an ASCII spelling goes as that
// stand-in ("Francois" for "François"; in `in_place` and `markers`, checked by
// spans_kept, put back by restore_spans and replace_markers).
ProtectedSentence protect_spans(std::string_view sentence, const Glossary* glossary = nullptr,
                                bool builtin_spans = true, SpanMode mode = SpanMode::kMarkers,
                                std::span<const std::pair<size_t, size_t>> unknown = {});

// Whether every span left in place came through `translation` (a decoded output, before
// restore_spans) as it is, as a whole (not inside a longer word or number), and as many
// times as it stands in p.text. Always true without spans left in place.
bool spans_kept(std::string_view translation, const ProtectedSentence& p);

// The translation with each marker replaced by its span (see above); for a verbatim
// sentence, whatever the translation, its own text with the markers replaced.
std::string restore_spans(std::string_view translation, const ProtectedSentence& p);

// A piece of a translation (one word, say) with each marker in it replaced by its span and
// nothing else: no span is added back or dropped (restore_spans does that for a sentence).
std::string replace_markers(std::string_view text, const ProtectedSentence& p);

}  // namespace edgemt
