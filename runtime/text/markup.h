// Cutting a request's text into the segments that are translated, and putting the
// translations back: plain text by lines (blank lines and the whitespace around each
// line kept as they are), HTML by text nodes (tags, comments, the content of
// script/style/code/pre/textarea elements and of elements marked not to be translated
// kept as they are; character references decoded before translation and the
// translation escaped again).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/text/sentence_splitter.h"
#include "runtime/text/text_encoding.h"

namespace edgemt {

struct Segmented {
  std::vector<std::string> pieces;  // the document, in order
  std::vector<size_t> text;         // indexes of the pieces to translate
  // HTML: indexes of the pieces that are content kept as written, not markup (the
  // content of a raw element, everything inside an element not to be translated).
  std::vector<size_t> kept;
  bool html = false;
};

Segmented segment_text(std::string_view text);
// HTML. Kept as written: tags, comments, declarations; the content of script, style,
// code, pre and textarea; and the content of an element marked not to be translated, by
// HTML's translate="no" or the class "notranslate" (the convention of Google's and
// Microsoft's translators), of kbd and samp (what is typed or shown as it is), and, with
// a `source_language`, of an element inside the body whose lang names another language
// (unless it says translate="yes"), nested elements included (a translate="yes" inside
// one is not honoured). Such an element ends at its closing tag, at the end of the
// element around it, or, for an element whose end tag HTML lets a page leave out, at a
// start tag that ends it (a p at the next p or block, an li at the next li, a td at the
// next cell).
Segmented segment_html(std::string_view html, std::string_view source_language = {});
// The languages an HTML document names, made the translation's: the lang and xml:lang
// attributes of the root html element (added to it when it has none) and of every other
// element outside content kept as written whose language is `source`'s (its primary
// subtag: "en-GB" is English), and a <meta http-equiv="content-language">, become
// `target`. An element in another language (a quotation) keeps its own. Nothing when
// `target` is empty; with an empty `source` only the root and the meta element.
void set_html_language(Segmented* doc, std::string_view source, std::string_view target);
// Each piece to translate cut into its sentences, the whitespace between them kept as
// pieces of their own (see runtime/text/sentence_splitter.h).
void split_sentences(Segmented* doc, SentenceSplitter& splitter);

// The document with piece text[i] replaced by translations[i] (escaped for HTML).
std::string reassemble(const Segmented& doc, const std::vector<std::string>& translations);

// Inline tags (HTML). A sentence with inline elements ("Click <b>Save</b> now") is
// translated whole: its text nodes and the inline tags between them form a run whose
// source has each cluster of tags (with the whitespace around them) replaced by a
// placeholder "{tagN}", which the text layer protects like any placeholder (the model
// sees a number it copies; a dropped one comes back at the end of its sentence). The
// translation's placeholders become the tags again, provided the result nests as the
// source did and every element that held text still does; otherwise the caller
// translates the run's text nodes one by one (as without runs).
struct InlineRun {
  size_t first = 0, last = 0;         // the pieces it covers, [first, last]
  std::vector<size_t> nodes;          // indexes into Segmented::text of its text nodes
  std::string source;                 // what is translated (text decoded, placeholders)
  std::vector<std::string> holders;   // holders[c] stands for clusters[c]
  std::vector<std::string> clusters;  // raw tags and whitespace, byte for byte
  struct Tag {
    size_t cluster;
    int pair;  // -1: a void element (br, img, ...); else open and close share it
    bool open;
    std::string raw;
  };
  std::vector<Tag> tags;            // in source order
  std::vector<bool> pair_has_text;  // the source element held some text
  // The run's text without the tags (a space where a cluster held whitespace), and where
  // each cluster stands in it (bytes).
  std::string plain;
  std::vector<size_t> cluster_at;
  // Runs whose elements each hold one text node and no other tag ("Click <b>Save</b> or
  // <a href=..>Cancel</a>", no void element): element[p] is pair p's text. Empty otherwise.
  std::vector<std::string> element;
  // The run holds an inline element kept as written (code, kbd, translate="no"): inside one
  // cluster, so it reaches the model as a placeholder and comes back byte for byte. Its
  // words are not in `plain`, so such a run is placed by its placeholders alone.
  bool verbatim = false;
  // The pieces (indexes into Segmented::pieces) of the <wbr> tags inside words the run
  // goes without.
  std::vector<size_t> word_breaks;
};

// A translation of a run's plain text with its words aligned: each translated word's
// bytes in `text` and the bytes of the source word it is aligned to in the run's plain
// text (Translator::translate_scored's word alignment).
struct AlignedText {
  struct Word {
    TextSpan target, source;
  };
  std::string text;
  std::vector<Word> words;
};

// The runs of an HTML document (segment_html): maximal stretches of text nodes and
// inline tags whose tags pair up within them (a tag closing an element opened before
// the stretch, or the reverse, ends it). `flatten` maps a text node to what is
// translated (the caller's whitespace handling). Only runs of two or more text nodes.
// A <wbr> with text against it on both sides (inside a word or a URL) is no element of
// the run: its two text nodes are one word in `source` and `plain`, and the run's HTML
// goes without it.
std::vector<InlineRun> inline_runs(const Segmented& doc, std::string (*flatten)(std::string_view));
// A flat run's HTML from the translation of its plain text and of each element's
// text: each element's translation found in the sentence's (as a whole word sequence,
// its first letter in either case, not overlapping another's) is wrapped in its tags.
// False (and *out untouched) if one is not found.
bool wrap_found_elements(const InlineRun& run, std::string_view translation,
                         const std::vector<std::string>& element_translations, std::string* out);
// The run's HTML from an aligned translation of its plain text: each element's tags
// around the translated words aligned to its source words (the whole stretch from the
// first to the last of them, less punctuation at its edges the source element lacks), an
// element holding another around it in the translation too, and a void element (<br>)
// after the words aligned to the source word before it. False (and *out untouched) for a
// run holding content kept as written (InlineRun::verbatim), or if an
// element that held text gets no word, or two elements that did not nest would overlap.
bool place_aligned_tags(const InlineRun& run, const AlignedText& translation, std::string* out);
// The run's HTML from the translation of its source: text escaped, clusters put back
// (the spaces next to a placeholder dropped: a cluster carries its own whitespace).
// False (and *out untouched) if a placeholder is missing or repeated, the tags would
// not nest as in the source, or an element that held text would be empty.
bool place_inline_tags(const InlineRun& run, std::string_view translation, std::string* out);
// The document with each run replaced by run_html[r] where it is not empty, and every
// other text node i (an index into doc.text) by translations[i], escaped.
std::string reassemble_runs(const Segmented& doc, const std::vector<InlineRun>& runs,
                            const std::vector<std::string>& run_html,
                            const std::vector<std::string>& translations);

// HTML character references decoded to UTF-8 as an HTML parser reads text: every named
// reference of HTML5 (&amp; &eacute; &shy; &NotEqualTilde; ..., and the legacy ones also
// without the semicolon: "&copy 2024"), numeric ones (&#233; &#xE9;, the semicolon
// optional; &#128;-&#159; as Windows-1252's characters, invalid values as U+FFFD).
// What is no reference is kept as written ("AT&T", "&bogus;").
std::string decode_entities(std::string_view s);
// &, < and > escaped.
std::string escape_html(std::string_view s);

// The character encoding an HTML document declares: a byte order mark, else (in its first
// 1024 bytes, as a browser's prescan reads them) <meta charset>, <meta http-equiv=
// "content-type" content="...; charset=...">, or an XML declaration's encoding; lower
// case; for a byte order mark its encoding ("utf-8", "utf-16le", ...); "" where it
// declares none.
std::string declared_html_charset(std::string_view html);

// How translate_html reads an HTML document's bytes and writes its translation back
// (read_html_bytes, write_html_bytes). Text from JSON, Python or C strings is already
// Unicode, whatever its <meta charset> says, so a document is converted only where its
// bytes are not UTF-8 (and it does not declare UTF-8), or begin with a byte order mark of
// UTF-16 or UTF-32:
//   kAsIs      UTF-8: read and written as they are;
//   kAscii     declares another encoding, all its bytes ASCII (a page of entities):
//              read as it is, and every non-ASCII character of the translation written
//              as a numeric character reference (&#252;), right in any encoding;
//   kConverted decoded from its encoding (runtime/text/text_encoding.h): the one a
//              UTF-16/UTF-32 byte order mark names, else the one it declares
//              (windows-1252 and its labels iso-8859-1, latin1, us-ascii ... always; any
//              other encoding ICU knows where edgemt is built with ICU), else, declaring
//              none, windows-1252 (as browsers read a legacy page); the translation is
//              encoded back into it, characters it cannot hold as numeric character
//              references.
struct HtmlBytes {
  enum Kind { kAsIs, kAscii, kConverted } kind = kAsIs;
  std::string charset;    // as declared (or as the byte order mark names it)
  TextEncoding encoding;  // kConverted: the one it is read and written in
};
// Errors (kInvalidArgument): an encoding it cannot read, or bytes that are not in it.
// *utf8: the document in UTF-8 for kConverted (else untouched).
Expected<HtmlBytes> read_html_bytes(std::string_view html, std::string* utf8);
std::string write_html_bytes(std::string_view utf8, const HtmlBytes& how);

// Number of Unicode code points (bytes that are not UTF-8 continuation bytes).
size_t count_chars(std::string_view s);

}  // namespace edgemt
