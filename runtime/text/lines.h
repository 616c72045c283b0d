// Lines of a document for the line-based formats (po_catalog, markdown): each line's
// body and its line end ("\n", "\r\n", or "" for a last line without one), so that a
// document is written back with its own line ends.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/utf8.h"

namespace edgemt {

struct LineSpan {
  size_t begin;     // the line's first byte
  size_t body_end;  // one past its body (before "\r\n" or "\n")
  size_t end;       // one past its line end
};

inline std::vector<LineSpan> split_lines(std::string_view text) {
  std::vector<LineSpan> lines;
  for (size_t b = 0; b < text.size();) {
    size_t e = text.find('\n', b);
    const size_t next = e == std::string_view::npos ? text.size() : e + 1;
    if (e == std::string_view::npos) e = text.size();
    size_t body_end = e;
    if (body_end > b && text[body_end - 1] == '\r' && e < text.size()) --body_end;
    lines.push_back({b, body_end, next});
    b = next;
  }
  return lines;
}

// The words of `text` (runs without spaces or tabs), greedily in lines of at most `width`
// characters shown, the first line starting at column `first_col`, the others at
// `next_col`; a word longer than a line gets one of its own. `may_start_line(word)`
// false keeps a word on the line before (a Markdown block marker). No lines for no words.
template <typename MayStartLine>
std::vector<std::string> wrap_words(std::string_view text, size_t first_col, size_t next_col, size_t width,
                                    MayStartLine may_start_line) {
  std::vector<std::string> lines;
  size_t col = first_col;
  for (size_t b = 0; b < text.size();) {
    while (b < text.size() && (text[b] == ' ' || text[b] == '\t')) ++b;
    if (b >= text.size()) break;
    size_t e = text.find_first_of(" \t", b);
    if (e == std::string_view::npos) e = text.size();
    const std::string_view word = text.substr(b, e - b);
    const size_t w = count_utf8_chars(word);
    if (lines.empty() || (!lines.back().empty() && col + 1 + w > width && may_start_line(word))) {
      if (!lines.empty()) col = next_col;
      lines.emplace_back();
    } else {
      lines.back() += ' ';
      ++col;
    }
    lines.back().append(word);
    col += w;
    b = e;
  }
  return lines;
}

}  // namespace edgemt
