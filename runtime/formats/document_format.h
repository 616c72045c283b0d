// The seam between the translator and the document formats: what a text call's texts
// are (TextFormat), a document read as units to translate and rendered again with their
// translations (Document), and one description of each format (DocumentFormat), all
// generated from runtime/formats/format_list.h.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/status.h"
#include "runtime/formats/format_list.h"

namespace edgemt {

// What a text call's texts are: plain text, HTML documents whose text nodes are
// translated (tags, comments, attributes and the content of script, style, code, pre and
// textarea elements kept byte for byte; character references decoded for translation,
// and &, < and > escaped again in the translations), or documents of one of the formats
// of format_list.h: gettext catalogs (.po) whose untranslated messages get translations,
// flagged fuzzy (po_catalog.h); Markdown documents that keep code, markup and structure
// and translate their prose (markdown.h); subtitle files (SubRip .srt, WebVTT .vtt) that
// translate each cue's text, broken into as many lines as it had (subtitles.h); wrapped
// plain text, each paragraph's wrapped lines translated together and wrapped again
// (runtime/text/wrapped_text.h); office documents, the bytes of a .docx, .pptx, .xlsx,
// .odt, .odp, .ods or .epub file, each paragraph translated with its formatting, the rest
// of the file kept, and the file saying it is in the model's target language
// (office_document.h); tables, JSON, XLIFF, Android, Java, Apple, .NET, Xcode and YAML
// localization files (docs/formats.md, docs/localization-formats.md).
enum class TextFormat {
#define EDGEMT_FORMAT_ENUM(Id, CValue, CName, Doc, Units, Names, Extensions, Flags) Id,
  EDGEMT_DOCUMENT_FORMATS(EDGEMT_FORMAT_ENUM)
#undef EDGEMT_FORMAT_ENUM
};

// A document read as the units to translate, and put together again around their
// translations (one per unit, in order).
class Document {
 public:
  virtual ~Document() = default;
  virtual const std::vector<std::string>& units() const = 0;
  // `target`: the translations' language (plural categories, a language attribute or
  // key the document gets); `source`: the language the units were in.
  virtual std::string render(const std::vector<std::string>& translations, std::string_view target,
                             std::string_view source) const = 0;
};

// What a format's reader is given besides the text.
struct ParseOptions {
  std::string_view source_language;      // a table's column to translate from
  std::string_view target_language;      // and its column to fill in
  size_t max_bytes = size_t{512} << 20;  // what a ZIP archive may inflate to
};

struct FileExtension {
  std::string_view extension;     // ".po"
  std::string_view content_type;  // "text/x-gettext-translation" (a text file's gets a charset)
};

struct DocumentFormat {
  TextFormat id;
  int c_value;              // edgemt_format; -1: none
  std::string_view c_name;  // EDGEMT_FORMAT_<c_name>
  std::string_view name;    // its own name (the first of names)
  std::vector<std::string_view> names;
  std::vector<FileExtension> extensions;
  bool html_units;       // the units are HTML fragments
  bool text_file;        // read in its encoding and written back in it
  bool filled_once;      // through a pivot: units through every model, rendered once
  bool reads_languages;  // its reader takes the languages (a table's columns)
  bool has_reader;       // a document format (all but text and HTML, the text pipeline's own)
  // Reads a document; null for text and HTML, and for a format left out of the build
  // (CMake's EDGEMT_FORMATS). A reader that cannot fail always gives a document.
  Expected<std::unique_ptr<Document>> (*parse)(std::string_view text, const ParseOptions& options);
  // Where formats share an extension (.xml), whether a file's content is this one's
  // (an XML root element); null: every file of its extensions.
  bool (*recognizes)(std::string_view content);
  bool document() const { return has_reader; }
  bool built() const { return !has_reader || parse != nullptr; }
  // Its Content-Type for `extension` (one of its own); "" where it has none.
  std::string_view content_type(std::string_view extension) const;
};

// Every format, in the table's order.
std::span<const DocumentFormat> document_formats();
const DocumentFormat& document_format(TextFormat id);
// By one of its names ("po", "srt", "docx"); null where none has it.
const DocumentFormat* document_format_named(std::string_view name);
// The formats whose files have `extension` (".po", lower case, with the dot), in the
// table's order: none, one, or several that a file's content tells apart (.xml:
// XLIFF or Qt Linguist, or Android string resources).
std::vector<const DocumentFormat*> document_formats_with_extension(std::string_view extension);
// Of those, the one `content` is: the first whose reader takes it where several claim
// the extension (an .xml file's root element), the only one otherwise; null for none.
const DocumentFormat* document_format_of_file(std::string_view extension, std::string_view content);

// What a call of a format left out of this build gets (kUnsupported, saying so).
Status left_out(const DocumentFormat& format);

// `texts` read as documents of `format` (a document format); the first refusal, naming
// the document ("document 2: ...") where there are several; left_out() for a format
// this build does not have.
Expected<std::vector<std::unique_ptr<Document>>> parse_documents(const DocumentFormat& format,
                                                                 const std::vector<std::string>& texts,
                                                                 const ParseOptions& options);

}  // namespace edgemt
