// Sentence splitting for the text layer: a paragraph (a line of text, a LibreTranslate
// `q`) becomes sentences that are translated one by one and put back in place, with the
// whitespace, line breaks and blank lines between them kept byte for byte.
//
// Two implementations:
//   icu    ICU's sentence break iterator (UAX #29) with the language's abbreviation
//          suppressions ("Mr.", "z. B.": locale keyword ss=standard); when edgemt is built
//          with ICU (Debian's libicu-dev, found by CMake).
//   rules  a small rule-based splitter for builds without ICU (the cross builds): a
//          sentence ends at . ! ? … (and the full-width 。！？) plus closing quotes and
//          brackets, before whitespace and a word that does not start in lower case, unless
//          the word before the period is an initial, a number (German ordinals) or a known
//          abbreviation.
// Both treat a line break as the end of a sentence, and a tab (a column separator: cells
// pasted from a spreadsheet, TSV), never return a sentence that starts
// or ends with whitespace, and cover every non-whitespace byte of the text exactly once.
// An instance is not thread-safe (ICU's iterator keeps state); use one per translator.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/status.h"

namespace edgemt {

// Byte range [begin, end) inside a text.
struct TextSpan {
  size_t begin = 0;
  size_t end = 0;
  size_t size() const { return end - begin; }
  bool operator==(const TextSpan&) const = default;
};

class SentenceSplitter {
 public:
  enum class Kind { kAuto, kIcu, kRules };  // kAuto: ICU when built with it, else rules

  // language: the text's language, BCP 47 ("en", "de", "pt-BR"); "" for language-neutral
  // rules. kIcu in a build without ICU is an error.
  static Expected<std::unique_ptr<SentenceSplitter>> create(const std::string& language,
                                                            Kind kind = Kind::kAuto);
  static bool icu_available();

  virtual ~SentenceSplitter() = default;
  // Appends the sentences of `text` to *out, in order. Any bytes are accepted (invalid
  // UTF-8 is passed through inside a sentence).
  void split(std::string_view text, std::vector<TextSpan>* out);
  virtual const char* name() const = 0;

 protected:
  // One line (no line break inside); spans relative to `line`, untrimmed.
  virtual void split_line(std::string_view line, std::vector<TextSpan>* out) = 0;

  bool ordinal_period_ = false;  // the language writes ordinals with a period ("3. Mai")
};

// Where to cut a sentence that is too long to translate at once: the best break inside
// `span` of `text`, as the two trimmed halves, preferring a clause boundary (after ; : or
// a dash, then after a comma) near the middle, else a space nearest the middle. Returns
// false when the span has no whitespace to cut at.
bool split_long_sentence(std::string_view text, TextSpan span, TextSpan* first, TextSpan* second);

// The span without leading/trailing whitespace (ASCII, no-break and other Unicode
// spaces); empty (begin == end) when it is all whitespace.
TextSpan trim_space(std::string_view text, TextSpan span);

}  // namespace edgemt
