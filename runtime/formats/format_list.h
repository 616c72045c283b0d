// The document formats, one line each. Every list of them is generated from this table:
// TextFormat (runtime/formats/document_format.h), the reader behind each (parse_document),
// translate --format's names and the formats it suggests for a file, edgemt-server's
// upload extensions and Content-Types, the C API's edgemt_format mapping, Python's
// format= names and docs/formats.md's table (tests/formats/document_format_test.cc
// checks that the docs list them all). Adding a format: its reader and writer in
// runtime/formats/ (parse, units(), render) and one line here.
//
// EDGEMT_DOCUMENT_FORMATS(X): X(Id, CValue, CName, Doc, Units, Names, Extensions, Flags)
//   Id          the TextFormat value
//   CValue      its edgemt_format value in include/edgemt.h, EDGEMT_FORMAT_<CName>
//               (runtime/api/c_api.cc checks that they agree); -1 and NONE: none (office
//               documents are bytes, translated by edgemt_translate_document)
//   Doc         the class that reads and writes it (void: text and HTML, which the
//               text pipeline translates itself)
//   Units       kHtml: its units are HTML fragments (their inline markup kept as tags);
//               kPlain: plain text
//   Names       its names for translate --format and Python's format=, the first the
//               format's own, separated by spaces
//   Extensions  its file extensions and each one's Content-Type (extension=type,
//               separated by spaces): what edgemt-server takes and translate suggests
//   Flags       kTextFile: a text file, read in its encoding (UTF-16, windows-1252, ...)
//               and written back in it; kFilledOnce: through a pivot language its units
//               go through every model and the document is rendered once, in the last
//               target language (a catalog filled in, a table's column, a localization
//               added); otherwise each model translates the documents the last gave.
// Line order is the order lists show them in. The Content-Types of text files get the
// file's charset.
#define EDGEMT_DOCUMENT_FORMATS(X)                                                                           \
  X(kText, 0, TEXT, void, kPlain, "text", "", kNoFlags)                                                      \
  X(kWrapped, 5, WRAPPED, WrappedText, kPlain, "wrapped", ".txt=text/plain", kTextFile)                      \
  X(kHtml, 1, HTML, void, kHtml, "html", ".html=text/html .htm=text/html .xhtml=text/html", kNoFlags)        \
  X(kMarkdown, 3, MARKDOWN, MarkdownDocument, kHtml, "markdown",                                             \
    ".md=text/markdown .markdown=text/markdown", kTextFile)                                                  \
  X(kPo, 2, PO, PoCatalog, kPlain, "po", ".po=text/x-gettext-translation .pot=text/x-gettext-translation",   \
    kTextFile | kFilledOnce)                                                                                 \
  X(kSubtitles, 4, SUBTITLES, SubtitleDocument, kHtml, "srt vtt", ".srt=application/x-subrip .vtt=text/vtt", \
    kTextFile)                                                                                               \
  X(kCsv, 6, CSV, CsvDocument, kPlain, "csv tsv", ".csv=text/csv .tsv=text/tab-separated-values",            \
    kTextFile | kFilledOnce)                                                                                 \
  X(kJson, 7, JSON, JsonDocument, kPlain, "json arb", ".json=application/json .arb=application/json",        \
    kTextFile)                                                                                               \
  X(kXliff, 8, XLIFF, XliffDocument, kHtml, "xliff xlf ts",                                                  \
    ".xlf=application/xliff+xml .xliff=application/xliff+xml .ts=application/xml .xml=application/xml",      \
    kTextFile | kFilledOnce)                                                                                 \
  X(kAndroid, 9, ANDROID, AndroidStrings, kHtml, "android", ".xml=application/xml", kTextFile)               \
  X(kProperties, 10, PROPERTIES, PropertiesFile, kPlain, "properties", ".properties=text/x-java-properties", \
    kTextFile)                                                                                               \
  X(kStrings, 11, STRINGS, AppleStrings, kPlain, "strings", ".strings=text/plain", kTextFile)                \
  X(kResx, 12, RESX, ResxDocument, kPlain, "resx", ".resx=application/xml", kTextFile)                       \
  X(kXcstrings, 13, XCSTRINGS, XcstringsDocument, kPlain, "xcstrings", ".xcstrings=application/json",        \
    kTextFile | kFilledOnce)                                                                                 \
  X(kYaml, 14, YAML, YamlDocument, kPlain, "yaml yml", ".yml=application/yaml .yaml=application/yaml",       \
    kTextFile)                                                                                               \
  X(kStringsdict, 15, STRINGSDICT, StringsdictDocument, kPlain, "stringsdict",                               \
    ".stringsdict=application/xml", kTextFile)                                                               \
  X(kOffice, -1, NONE, OfficeDocument, kHtml, "docx pptx xlsx odt odp ods epub",                             \
    ".docx=application/vnd.openxmlformats-officedocument.wordprocessingml.document "                         \
    ".pptx=application/vnd.openxmlformats-officedocument.presentationml.presentation "                       \
    ".xlsx=application/vnd.openxmlformats-officedocument.spreadsheetml.sheet "                               \
    ".odt=application/vnd.oasis.opendocument.text .odp=application/vnd.oasis.opendocument.presentation "     \
    ".ods=application/vnd.oasis.opendocument.spreadsheet .epub=application/epub+zip",                        \
    kNoFlags)
