#include "runtime/text/csv_document.h"

#include <algorithm>
#include <array>

#include "runtime/text/text_kind.h"
#include "runtime/text/utf8.h"

namespace edgemt {
namespace {

constexpr std::array<char, 4> kDelimiters = {',', ';', '\t', '|'};

// How many times `d` separates fields in each of the first records (quotes respected).
std::vector<size_t> counts_per_record(std::string_view text, char d) {
  std::vector<size_t> counts;
  size_t n = 0;
  bool quoted = false, any = false;
  for (size_t i = 0; i < text.size() && counts.size() < 50; ++i) {
    const char c = text[i];
    if (c == '"') quoted = !quoted;
    if (quoted) continue;
    if (c == d) ++n;
    if (c == '\n') {
      if (any || n > 0) counts.push_back(n);
      n = 0;
      any = false;
    } else if (!is_ascii_space(c)) {
      any = true;
    }
  }
  if ((any || n > 0) && counts.size() < 50) counts.push_back(n);
  return counts;
}

// The delimiter whose count is the same in most records (the first record's count, more
// than none); ',' where none separates anything.
char detect_delimiter(std::string_view text) {
  char best = ',';
  size_t best_score = 0;
  for (char d : kDelimiters) {
    const std::vector<size_t> c = counts_per_record(text, d);
    if (c.empty() || c[0] == 0) continue;
    const auto score = static_cast<size_t>(std::count(c.begin(), c.end(), c[0]));
    if (score > best_score) {
      best = d;
      best_score = score;
    }
  }
  return best;
}

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

}  // namespace

CsvDocument CsvDocument::parse(std::string_view text) {
  CsvDocument doc;
  doc.delimiter_ = detect_delimiter(text);
  const char d = doc.delimiter_;
  size_t i = 0;
  if (text.starts_with("\xEF\xBB\xBF")) {  // Excel's UTF-8 byte order mark
    doc.pieces_.keep(text.substr(0, 3));
    i = 3;
  }
  auto flush_cell = [&](std::string_view raw, std::string_view value, bool quoted) {
    // value: the cell's text (unquoted); raw: its bytes as written.
    const TrimmedText t = trim_text(value, [](char c) { return c == ' ' || c == '\t'; });
    if (t.core.empty() || !has_letter(t.core) || is_identifier(t.core))
      doc.pieces_.keep(raw);
    else
      doc.pieces_.add_unit(t, quoted ? 1 : 0);
  };
  while (i < text.size()) {
    // One field, from i.
    const size_t start = i;
    if (text[i] == '"') {
      std::string value;
      size_t k = i + 1;
      bool closed = false;
      while (k < text.size()) {
        if (text[k] == '"') {
          if (k + 1 < text.size() && text[k + 1] == '"') {
            value.push_back('"');
            k += 2;
            continue;
          }
          closed = true;
          ++k;
          break;
        }
        value.push_back(text[k++]);
      }
      // After the closing quote, up to the delimiter or the line end: spaces only, or the
      // field is kept as it is (it is not what a spreadsheet writes).
      size_t end = k;
      while (end < text.size() && text[end] != d && text[end] != '\n' && text[end] != '\r') ++end;
      bool clean = closed;
      for (size_t j = k; j < end; ++j) clean = clean && (text[j] == ' ' || text[j] == '\t');
      if (clean && end == k)
        flush_cell(text.substr(start, end - start), value, true);
      else
        doc.pieces_.keep(text.substr(start, end - start));
      i = end;
    } else {
      size_t end = i;
      while (end < text.size() && text[end] != d && text[end] != '\n' && text[end] != '\r') ++end;
      flush_cell(text.substr(start, end - start), text.substr(start, end - start), false);
      i = end;
    }
    // The delimiter, or the record's end.
    if (i < text.size() && text[i] == d) {
      doc.pieces_.keep(d);
      ++i;
    } else if (i < text.size()) {
      const size_t n = text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n' ? 2 : 1;
      doc.pieces_.keep(text.substr(i, n));
      i += n;
    }
  }
  return doc;
}

std::string CsvDocument::render(const std::vector<std::string>& translations) const {
  const std::string breaks = std::string("\r\n") + delimiter_;
  return pieces_.render(translations, [&](const std::string& cell, uint32_t quoted, std::string* out) {
    // Quotes where a reader would otherwise split the cell or unquote it; a quote inside
    // an unquoted cell ('5" screen') is read as itself.
    const bool needs_quotes = cell.find_first_of(breaks) != std::string::npos || cell.starts_with('"');
    *out += quoted != 0 || needs_quotes ? quote(cell) : cell;
  });
}

}  // namespace edgemt
