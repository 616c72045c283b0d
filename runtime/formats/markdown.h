// Markdown documents for the text layer (issue 15, TextFormat::kMarkdown): what is
// prose is translated, what is code or markup comes back byte for byte.
//
// Blocks (CommonMark's, line by line): fenced and indented code blocks, HTML blocks,
// link reference definitions, front matter, thematic breaks and table delimiter rows are
// kept as they are. Headings (ATX and setext), paragraphs, list items, block quotes and
// table cells are translated, their markers ("## ", "- ", "1. ", "> ", "|") kept. A
// paragraph's lines are translated together (a sentence may cross them) and the result
// is wrapped again at the paragraph's widest line, each line with its original prefix.
// As in CommonMark, a setext underline ("===", "---") makes the paragraph above it, all
// its lines, a heading, and a line without the quote markers of the paragraph it follows
// continues it (a lazy continuation line).
//
// Inline markup becomes HTML inline elements, so that the HTML path (html_document.h,
// markup.h InlineRun) places them around the right words or falls back node by node:
// *emphasis* and **strong** (with _ or *), [links](url) (the text translated, the
// destination kept) and, as placeholders kept verbatim, images, autolinks, raw inline
// HTML and backslash escapes. `code` spans stay in the text, where span protection
// keeps them verbatim.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace edgemt {

class MarkdownDocument {
 public:
  static MarkdownDocument parse(std::string_view text);

  // The units to translate, as HTML fragments (text escaped, inline markup as tags).
  const std::vector<std::string>& units() const { return units_; }
  // The document with units()[i] replaced by html[i] (a translated fragment: the same
  // tags, translated text).
  std::string render(const std::vector<std::string>& html) const;

 private:
  struct Piece {
    std::string verbatim;  // kept as it is (when unit is npos)
    size_t unit = std::string::npos;
    size_t wrap = 0;           // > 0: wrap the unit's text at this width
    std::string first_prefix;  // before the unit's first line
    std::string next_prefix;   // before each further line when wrapped
    std::string after;         // after the unit (its line end, a closing "#", "|")
  };
  void add_unit(std::string_view md, std::string first_prefix, std::string next_prefix, size_t wrap,
                std::string after);
  std::vector<Piece> pieces_;
  std::vector<std::string> units_;
  std::vector<std::vector<std::string>> originals_;  // per unit: the markup its tags stand for
};

// Inline Markdown to an HTML fragment: text escaped (&, <, >), markup as tags whose
// markup is kept in *originals (the tags' data-md index it).
std::string markdown_inline_to_html(std::string_view md, std::vector<std::string>* originals);
// Back: tags to their markup, text unescaped.
std::string markdown_inline_from_html(std::string_view html, const std::vector<std::string>& originals);

}  // namespace edgemt
