#include "runtime/formats/csv_document.h"

#include <algorithm>
#include <array>

#include "runtime/core/utf8.h"
#include "runtime/formats/text_kind.h"
#include "runtime/text/language_names.h"

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

struct Cell {
  std::string_view raw;   // as written
  std::string value;      // its text: unquoted where it was cleanly quoted
  bool quoted = false;    // cleanly quoted (closed, and nothing after its closing quote)
  bool odd = false;       // quoted, and not as a spreadsheet writes it: kept as it is
  bool unclosed = false;  // a quote never closed: the cell runs to the file's end
};
struct Record {
  std::vector<Cell> cells;
  std::string_view end;  // its line end ("\n", "\r\n", "\r"; "" at the file's end)
};

// The file's records, from `i` (after a byte order mark).
std::vector<Record> read_records(std::string_view text, size_t i, char d) {
  std::vector<Record> records(1);
  while (i < text.size()) {
    // One field, from i.
    const size_t start = i;
    Cell cell;
    if (text[i] == '"') {
      size_t k = i + 1;
      bool closed = false;
      while (k < text.size()) {
        if (text[k] == '"') {
          if (k + 1 < text.size() && text[k + 1] == '"') {
            cell.value.push_back('"');
            k += 2;
            continue;
          }
          closed = true;
          ++k;
          break;
        }
        cell.value.push_back(text[k++]);
      }
      // After the closing quote, up to the delimiter or the line end: spaces only, or the
      // field is kept as it is (it is not what a spreadsheet writes).
      size_t end = k;
      while (end < text.size() && text[end] != d && text[end] != '\n' && text[end] != '\r') ++end;
      bool clean = closed;
      for (size_t j = k; j < end; ++j) clean = clean && (text[j] == ' ' || text[j] == '\t');
      cell.quoted = clean && end == k;
      cell.odd = !cell.quoted;
      cell.unclosed = !closed;
      cell.raw = text.substr(start, end - start);
      i = end;
    } else {
      size_t end = i;
      while (end < text.size() && text[end] != d && text[end] != '\n' && text[end] != '\r') ++end;
      cell.raw = text.substr(start, end - start);
      cell.value.assign(cell.raw);
      i = end;
    }
    records.back().cells.push_back(std::move(cell));
    // The delimiter, or the record's end.
    if (i < text.size() && text[i] == d) {
      ++i;
      if (i == text.size()) records.back().cells.emplace_back();  // an empty last field
    } else if (i < text.size()) {
      const size_t n = text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n' ? 2 : 1;
      records.back().end = text.substr(i, n);
      i += n;
      if (i < text.size()) records.emplace_back();
    }
  }
  if (records.back().cells.empty()) records.pop_back();
  return records;
}

TrimmedText trimmed(std::string_view value) {
  return trim_text(value, [](char c) { return c == ' ' || c == '\t'; });
}

// Does the cell's text hold words to translate?
bool has_words(std::string_view value) {
  const std::string_view t = trimmed(value).core;
  return !t.empty() && has_letter(t) && !is_identifier(t);
}

// A language tag lowercased with '-' between its subtags ("pt-br" for "pt_BR" and
// "pt_BR.UTF-8"); "" for what is no tag (its first subtag 2 or 3 letters, the others 1
// to 8 letters or digits).
std::string language_tag(std::string_view s) {
  s = trimmed(s).core;
  s = s.substr(0, std::min(s.find('.'), s.find('@')));
  std::string tag;
  size_t subtag = 0, length = 0;
  for (const char c : s) {
    if (c == '-' || c == '_') {
      if (length == 0 || (subtag == 0 && length < 2)) return {};
      tag.push_back('-');
      ++subtag;
      length = 0;
      continue;
    }
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!letter && !(subtag > 0 && c >= '0' && c <= '9')) return {};
    if (++length > (subtag == 0 ? 3 : 8)) return {};
    tag.push_back(static_cast<char>(c | 0x20));
  }
  if (length == 0 || (subtag == 0 && length < 2)) return {};
  return tag;
}

std::string_view primary_subtag(std::string_view tag) { return tag.substr(0, tag.find('-')); }

// How a header names its languages: by code ("en"), English name ("English") or the
// language's own ("Deutsch").
enum class Naming { kCode, kEnglish, kNative };

// The language a header cell names: its tag, or the code of the language it names
// ("English", "Deutsch"); "" for neither.
std::string header_language(std::string_view cell, Naming* naming) {
  std::string tag = language_tag(cell);
  *naming = Naming::kCode;
  if (!tag.empty()) return tag;
  bool native = false;
  const LanguageName* n = language_named(trimmed(cell).core, &native);
  if (n == nullptr) return {};
  *naming = native ? Naming::kNative : Naming::kEnglish;
  return std::string(n->code);
}

// The header's column that names `language`: the first that names it as it is, else the
// first of its primary language ("en" for "en-US", "en_GB" for "en", "English" for
// both); SIZE_MAX if none, and other than `other`. *naming: how that column names it.
size_t language_column(const Record& header, std::string_view language, size_t other, Naming* naming) {
  const std::string want = language_tag(language);
  if (want.empty()) return SIZE_MAX;
  size_t found = SIZE_MAX;
  for (size_t c = 0; c < header.cells.size(); ++c) {
    if (c == other || header.cells[c].odd) continue;
    Naming how = Naming::kCode;
    const std::string tag = header_language(header.cells[c].value, &how);
    if (tag == want) {
      *naming = how;
      return c;
    }
    if (found == SIZE_MAX && !tag.empty() && primary_subtag(tag) == primary_subtag(want)) {
      found = c;
      *naming = how;
    }
  }
  return found;
}

constexpr uint32_t kQuoted = 1;

}  // namespace

CsvDocument CsvDocument::parse(std::string_view text, std::string_view source, std::string_view target) {
  CsvDocument doc;
  doc.delimiter_ = detect_delimiter(text);
  const char d = doc.delimiter_;
  size_t i = 0;
  if (text.starts_with("\xEF\xBB\xBF")) {  // Excel's UTF-8 byte order mark
    doc.pieces_.keep(text.substr(0, 3));
    i = 3;
  }
  const std::vector<Record> records = read_records(text, i, d);
  // A translation table: the header names the source language's column (and the target's).
  const std::string to = language_tag(target);
  Naming naming = Naming::kCode;  // the source column's, which a new target column follows
  if (!records.empty() && !to.empty() && primary_subtag(language_tag(source)) != primary_subtag(to)) {
    doc.source_column_ = language_column(records[0], source, SIZE_MAX, &naming);
    if (doc.source_column_ != SIZE_MAX) {
      Naming ignored = Naming::kCode;
      doc.target_column_ = language_column(records[0], target, doc.source_column_, &ignored);
      if (doc.target_column_ == SIZE_MAX) doc.target_column_ = records[0].cells.size();
    }
  }
  const size_t from = doc.source_column_, into = doc.target_column_;
  for (size_t r = 0; r < records.size(); ++r) {
    const Record& rec = records[r];
    if (from == SIZE_MAX) {  // every cell with words, in place
      for (size_t c = 0; c < rec.cells.size(); ++c) {
        if (c > 0) doc.pieces_.keep(d);
        const Cell& cell = rec.cells[c];
        if (!cell.odd && has_words(cell.value))
          doc.pieces_.add_unit(trimmed(cell.value), cell.quoted ? kQuoted : 0);
        else
          doc.pieces_.keep(cell.raw);
      }
      doc.pieces_.keep(rec.end);
      continue;
    }
    // The table's header (with the new column's name), or a row whose source cell has
    // words and whose target cell is empty or missing: its translation goes there.
    const Cell* from_cell = from < rec.cells.size() ? &rec.cells[from] : nullptr;
    // (not after a quote never closed: what came after it would be inside it)
    const bool unit =
        r > 0 && from_cell != nullptr && !from_cell->odd && has_words(from_cell->value) &&
        (into >= rec.cells.size() ? !rec.cells.back().unclosed
                                  : !rec.cells[into].unclosed && trimmed(rec.cells[into].value).core.empty());
    for (size_t c = 0; c < std::max(rec.cells.size(), unit ? into + 1 : 0); ++c) {
      if (c > 0) doc.pieces_.keep(d);
      if (c == into && unit)
        doc.pieces_.add_unit({{}, trimmed(from_cell->value).core, {}}, from_cell->quoted ? kQuoted : 0);
      else if (c < rec.cells.size())
        doc.pieces_.keep(rec.cells[c].raw);
    }
    if (r == 0 && into == rec.cells.size()) {  // the new column, named as the source's is
      doc.pieces_.keep(d);
      const LanguageName* name = naming == Naming::kCode ? nullptr : language_name_of(to);
      if (name == nullptr)
        doc.pieces_.keep(trimmed(target).core);
      else
        doc.pieces_.keep(naming == Naming::kEnglish ? name->english : name->native);
    }
    doc.pieces_.keep(rec.end);
  }
  return doc;
}

std::string CsvDocument::render(const std::vector<std::string>& translations) const {
  const std::string breaks = std::string("\r\n") + delimiter_;
  std::vector<std::string> padded;
  if (source_column_ != SIZE_MAX &&
      translations.size() < units().size()) {  // no source text in the target's column
    padded = translations;
    padded.resize(units().size());
  }
  return pieces_.render(padded.empty() ? translations : padded, [&](const std::string& cell, uint32_t quoted,
                                                                    std::string* out) {
    if (cell.empty() && source_column_ != SIZE_MAX) return;  // a table's target cell left empty
    // Quotes where a reader would otherwise split the cell or unquote it; a quote inside
    // an unquoted cell ('5" screen') is read as itself.
    const bool needs_quotes = cell.find_first_of(breaks) != std::string::npos || cell.starts_with('"');
    *out += quoted != 0 || needs_quotes ? quote(cell) : cell;
  });
}

}  // namespace edgemt
