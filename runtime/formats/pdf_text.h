// The text of a PDF file, paragraph by paragraph, for `translate --format pdf`.
//
// A PDF has no paragraphs, only glyphs at positions. poppler's pdftotext (Debian's
// poppler-utils, a well-kept PDF reader that handles fonts, encodings, compression and
// broken files) finds the reading order and groups words into lines and lines into blocks
// (`-bbox-layout`); each block becomes one paragraph here: its lines joined with spaces,
// and a word broken at a line end with a hyphen ("pro-" / "gram") joined again. The
// result is one paragraph a line, a blank line between paragraphs (and pages), ready to
// be translated as plain text. The layout (columns, fonts, positions) is not kept: the
// translation is text.
//
// pdftotext runs as a separate program (not linked: a malformed file can only make it
// fail) on a temporary copy of the bytes.
#pragma once

#include <string>
#include <string_view>

#include "runtime/core/status.h"

namespace edgemt {

// pdftotext -bbox-layout's XHTML (pages, flows, blocks, lines, words) to paragraphs:
// one a line, a blank line after each, entities decoded. Anything else gives "".
std::string pdf_layout_to_paragraphs(std::string_view xhtml);

// The paragraphs of a PDF file's bytes (pdf_layout_to_paragraphs of pdftotext's layout).
// Errors: not a PDF ("%PDF-" missing), pdftotext not installed (install poppler-utils),
// a file pdftotext cannot read (damaged, encrypted with a password), no text at all (a
// scanned document: images only).
Expected<std::string> pdf_paragraphs(std::string_view pdf);

}  // namespace edgemt
