// Lines of a document for the line-based formats (po_catalog, markdown): each line's
// body and its line end ("\n", "\r\n", or "" for a last line without one), so that a
// document is written back with its own line ends.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

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

}  // namespace edgemt
