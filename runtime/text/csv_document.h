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
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/text/text_pieces.h"

namespace edgemt {

class CsvDocument {
 public:
  static CsvDocument parse(std::string_view text);

  // The texts to translate, in order (each cell unquoted and trimmed of spaces).
  const std::vector<std::string>& units() const { return pieces_.units(); }
  // The file with units()[i] replaced by translations[i].
  std::string render(const std::vector<std::string>& translations) const;
  char delimiter() const { return delimiter_; }

 private:
  TextPieces pieces_;  // a unit's mark: 1 where its cell was in quotes
  char delimiter_ = ',';
};

}  // namespace edgemt
