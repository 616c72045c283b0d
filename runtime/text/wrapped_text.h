// Plain text whose paragraphs are wrapped at a width (TextFormat::kWrapped): e-mails,
// README.txt files, books, the output of fmt. Line by line, such a paragraph would be
// translated as fragments ("The package will be shipped" / "tomorrow morning and should
// arrive within three" / "working days."); here the lines a paragraph was wrapped into are
// translated together and the translation is wrapped again at the paragraph's width,
// with its indentation.
//
// A line continues into the next when it was wrapped: both hold text, the line does not
// end a sentence (". ! ? …"), the next line's first word would not have fitted on it
// within the text's width (what 90% of its lines stay within, at least 30 characters;
// less a tenth, for text wrapped by hand), the next line is not indented deeper, and it
// does not start a list item ("- ", "* ", "1. ", "a) "). So short lines (a greeting, a
// signature, an address, a list, a poem) and files of one sentence a line stay lines,
// each translated alone, and blank lines and line ends come back as they were.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace edgemt {

class WrappedText {
 public:
  static WrappedText parse(std::string_view text);

  // The units to translate: each paragraph's lines joined with spaces (plain text).
  const std::vector<std::string>& units() const { return units_; }
  // The text with units()[i] replaced by translations[i], wrapped again.
  std::string render(const std::vector<std::string>& translations) const;
  // The text's wrap width, in characters (0 when it has no text).
  size_t width() const { return width_; }

 private:
  struct Piece {
    std::string verbatim;  // kept as it is (a blank line with its end), when unit is npos
    size_t unit = std::string::npos;
    size_t lines = 1;                    // how many lines the unit was
    size_t wrap = 0;                     // the width to wrap at (lines > 1)
    std::string first_indent;            // before the first line
    std::string next_indent;             // before each further line
    std::vector<std::string> line_ends;  // the lines' ends, in order
    std::string original;                // the lines as they were, when nothing comes back
  };
  std::vector<Piece> pieces_;
  std::vector<std::string> units_;
  size_t width_ = 0;
};

}  // namespace edgemt
