// Cutting a request's text into the segments that are translated, and putting the
// translations back: plain text by lines (blank lines and the whitespace around each
// line kept as they are), HTML by text nodes (tags, comments, and the content of
// script/style/code/pre elements kept as they are; character references decoded before
// translation and the translation escaped again).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/text/sentence_splitter.h"

namespace edgemt {

struct Segmented {
  std::vector<std::string> pieces;  // the document, in order
  std::vector<size_t> text;         // indexes of the pieces to translate
  bool html = false;
};

Segmented segment_text(std::string_view text);
Segmented segment_html(std::string_view html);
// Each piece to translate cut into its sentences, the whitespace between them kept as
// pieces of their own (see runtime/text/sentence_splitter.h).
void split_sentences(Segmented* doc, SentenceSplitter& splitter);

// The document with piece text[i] replaced by translations[i] (escaped for HTML).
std::string reassemble(const Segmented& doc, const std::vector<std::string>& translations);

// HTML character references (&amp; &lt; &#233; &#xE9; ...) decoded to UTF-8; unknown
// ones are kept as written.
std::string decode_entities(std::string_view s);
// &, < and > escaped.
std::string escape_html(std::string_view s);

// Number of Unicode code points (bytes that are not UTF-8 continuation bytes).
size_t count_chars(std::string_view s);

}  // namespace edgemt
