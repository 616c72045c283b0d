// Office documents and e-books (TextFormat::kOffice; edgemt-server's /translate_file):
// Word .docx, PowerPoint .pptx, Excel .xlsx, OpenDocument text, presentations,
// spreadsheets and drawings (.odt, .odp, .ods, .odg) and EPUB books. Each is a ZIP
// archive (runtime/formats/zip_archive.h) of XML parts; the translated document is the same
// archive with the text of those parts translated and every other entry (images, fonts,
// metadata) kept byte for byte.
//
// Word, PowerPoint, Excel and OpenDocument: each paragraph (w:p, a:p, text:p, text:h,
// also those in tables, cells, text boxes, headers, footers, footnotes and speaker notes;
// Excel's shared and inline strings) is one unit, translated whole, so a sentence split
// into runs by formatting or by the editor's revision marks is translated as one
// sentence. Its formatting travels as inline HTML: the text of the paragraph's most
// common formatting is plain, each other formatting (bold, a hyperlink, a character
// style) is a <span>, and what is not text (an image, a footnote mark, a field) is an
// <img> (a line break or a tab a <br>), so the translator's inline markup
// (runtime/formats/html_document.h) puts each where its words went. The paragraph is then
// rebuilt: its properties first, runs with the formatting each piece of text came back
// with, the objects as they were. Fields (page numbers, dates, merge fields) are kept as
// they were, untranslated, but for those whose result is text from words: a HYPERLINK's
// (the link's text), a REF's or STYLEREF's (a bookmark's or heading's text, copied), a
// FORMTEXT's, and TITLE, SUBJECT and DOCPROPERTY; those results are translated as a
// w:hyperlink's text is. Tracked deletions and equations are kept too.
//
// EPUB: each XHTML content document (and the NCX table of contents) is one HTML unit; the
// package document's title and description are units too.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/status.h"

namespace edgemt {

class OfficeDocument {
 public:
  enum class Kind { kDocx, kPptx, kXlsx, kOpenDocument, kEpub };

  // Fails, with a message saying why, on what is not such a document, or one whose
  // entries hold more than `max_bytes` uncompressed.
  static Expected<OfficeDocument> parse(std::string_view bytes, size_t max_bytes = size_t{512} << 20);

  Kind kind() const;
  // What is translated: HTML (paragraphs' inline markup, or whole XHTML documents).
  const std::vector<std::string>& units() const;
  // The document (the archive's bytes) with units()[i] replaced by translations[i];
  // a missing or empty translation keeps that unit's text as it was. With `language` (a
  // BCP 47 code, "de"), the document says its text is in that language where it names
  // its text's language: Word's w:lang (as "de-DE") in the translated parts and the style
  // defaults, PowerPoint's lang (also in its default text styles), OpenDocument's fo:language and fo:country
  // and its metadata, EPUB's lang and xml:lang and its package's dc:language; so spelling, hyphenation and a
  // screen reader's voice follow the translation.
  std::string render(const std::vector<std::string>& translations, std::string_view language = {}) const;

  // The file types handled, as extensions (".docx", ...).
  static const std::vector<std::string>& extensions();

  struct State;

 private:
  std::shared_ptr<const State> state_;
};

}  // namespace edgemt
