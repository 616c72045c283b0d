// Comma-separated values (TextFormat::kCsv): tables as spreadsheets and databases export
// them (RFC 4180: fields in double quotes may hold the delimiter, line breaks and ""),
// with the delimiter read from the file: ',' or ';' (what Excel writes in German, French
// and other locales whose decimal comma takes ','), a tab or '|'.
//
// Each cell that holds words is translated as plain text (a quoted cell's line breaks
// kept); the rest of the file comes back byte for byte: delimiters, quoting, line ends,
// empty cells, numbers, dates, prices, and cells that are identifiers (one token with
// '_', '.', '/', '@', ':', a digit or an inner capital: "app.title", "btn_ok", "SKU42",
// "user@example.org", "camelCase"), as the keys of a translation table are. A translation
// that needs quotes (it holds the delimiter or a line break, or starts with a quote) gets
// them. A quote
// that a cell never closes runs to the end of the file, as spreadsheets read it.
//
// A translation table (Godot's translation CSV "keys,en,de", and the sheets apps and
// game engines keep their strings in) names its languages' columns in its first record.
// Where one of those names the source language ("en", "en_US", "EN-gb", or by its name in
// English or its own, "English", "Deutsch": language_names.h), its cells are
// the units and their translations go in the target language's column, the column's
// source text staying as it is: into the cells of the column the header names the target
// language, where they are empty (a translation already there is kept), or into a new
// last column headed with the target language where no column is (by its code, or by its
// name where the source's column is named so: "English" gets "German" beside it, "Deutsch"
// "English"). The header is not translated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/formats/text_pieces.h"

namespace edgemt {

class CsvDocument {
 public:
  // `source` and `target`: the translation's languages (BCP 47 or POSIX), for a
  // translation table; without `source` every cell with words is translated in place.
  static CsvDocument parse(std::string_view text, std::string_view source = {}, std::string_view target = {});

  // The texts to translate, in order (each cell unquoted and trimmed of spaces).
  const std::vector<std::string>& units() const { return pieces_.units(); }
  // The file with units()[i] replaced by translations[i] (in a translation table, put in
  // the target language's column; a cell without a translation stays empty there).
  std::string render(const std::vector<std::string>& translations) const;
  char delimiter() const { return delimiter_; }
  // A translation table's columns (0-based): the source language's and the target's
  // (SIZE_MAX where the file is not one).
  size_t source_column() const { return source_column_; }
  size_t target_column() const { return target_column_; }

 private:
  TextPieces pieces_;  // a unit's mark: kQuoted where its cell was in quotes
  char delimiter_ = ',';
  size_t source_column_ = SIZE_MAX, target_column_ = SIZE_MAX;
};

}  // namespace edgemt
