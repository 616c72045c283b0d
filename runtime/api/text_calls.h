// What the Translator's text calls share (text_calls.cc, scored_calls.cc, rerank.cc,
// bundled_models.cc): the options as the text pipeline reads them, and the texts it
// translates.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "runtime/api/translator.h"

namespace edgemt::text_calls {

// Whether spans are protected, and the glossary.
Translator::Protection protection(const TranslateOptions& o);
// The text calls' defaults (see TranslateOptions).
TranslateOptions text_defaults(const TranslateOptions& o);
// The options with the units read as plain text, or as HTML fragments.
TranslateOptions as_plain_text(const TranslateOptions& o);
TranslateOptions as_html(const TranslateOptions& o);
// `texts`, or where one holds a break hint, *store: every text without them.
const std::vector<std::string>& visible_texts(const std::vector<std::string>& texts,
                                              std::vector<std::string>* store);

}  // namespace edgemt::text_calls

namespace edgemt {

// A text with its sentences [first, last) of `seg` replaced by translation(k), the rest
// (the spacing around and between them) kept.
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

}  // namespace edgemt
