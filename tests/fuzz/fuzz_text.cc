// Arbitrary bytes through the text layer's sentence splitting (ICU's where built with it,
// and the rules), with the language chosen by the first byte. Invariants, which the
// translator's reassembly relies on:
//   - sentences are in order, non-empty, inside the text, and do not overlap;
//   - none starts or ends with whitespace or holds a line break;
//   - every byte outside them is whitespace (nothing is lost);
//   - cutting a sentence (split_long_sentence) gives two ordered, trimmed, non-empty
//     halves inside it with only whitespace between them.
// And through span protection: spans are ordered and inside the text; restoring the
// protected text itself gives the text back; restoring any translation (here: the
// protected text's second half, so that markers go missing) keeps every span, with and
// without unknown characters.
// UTF-8: walking by decoded lengths visits every byte once; walking back
// (utf8_start_before) and cutting (utf8_boundary_before) land on the same characters; a
// well-formed character encodes to its own bytes.
// And through gettext catalog parsing: a catalog rendered with its messages translated
// as themselves parses again with none left to translate. And Markdown: inline markup
// survives the trip to HTML and back, and rendering keeps the words in order. And
// subtitles: a file rendered with its cues translated as themselves keeps its timing
// lines and (SubRip) its words in order. And wrapped text: rendered with its units as
// themselves, it keeps its words in order. And HTML: the pieces are the document (text
// decoded), kept content is never text, inline runs placed as themselves give the
// document their nodes give, and marking the language changes tags alone. And CSV: a
// table rendered with its cells as themselves is itself, and with every cell translated
// as a text holding the delimiter and quotes it parses again into as many cells. And
// JSON: rendered with its strings as themselves or with escapes, it parses again into
// the same strings. And
// text encodings: UTF-16, UTF-32 and windows-1252 round trips of UTF-8 text.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/utf8.h"
#include "runtime/formats/android_strings.h"
#include "runtime/formats/apple_strings.h"
#include "runtime/formats/csv_document.h"
#include "runtime/formats/icu_message.h"
#include "runtime/formats/json_document.h"
#include "runtime/formats/markdown.h"
#include "runtime/formats/pdf_text.h"
#include "runtime/formats/po_catalog.h"
#include "runtime/formats/properties_file.h"
#include "runtime/formats/resx_document.h"
#include "runtime/formats/stringsdict_document.h"
#include "runtime/formats/subtitles.h"
#include "runtime/formats/xcstrings_document.h"
#include "runtime/formats/xliff_document.h"
#include "runtime/formats/xml_tree.h"
#include "runtime/formats/yaml_document.h"
#include "runtime/text/language_id.h"
#include "runtime/text/letter_case.h"
#include "runtime/text/markup.h"
#include "runtime/text/protected_spans.h"
#include "runtime/text/sentence_splitter.h"
#include "runtime/text/text_encoding.h"
#include "runtime/text/wrapped_text.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

using edgemt::SentenceSplitter;
using edgemt::TextSpan;

void check(SentenceSplitter& s, std::string_view text) {
  std::vector<TextSpan> spans;
  s.split(text, &spans);
  size_t at = 0;
  for (const TextSpan& sp : spans) {
    EDGEMT_FUZZ_CHECK(at <= sp.begin && sp.begin < sp.end && sp.end <= text.size(),
                      "%s: span [%zu, %zu) after %zu in %zu bytes", s.name(), sp.begin, sp.end, at,
                      text.size());
    EDGEMT_FUZZ_CHECK(edgemt::trim_space(text, {at, sp.begin}).size() == 0, "%s: bytes [%zu, %zu) are lost",
                      s.name(), at, sp.begin);
    EDGEMT_FUZZ_CHECK(edgemt::trim_space(text, sp) == sp, "%s: sentence [%zu, %zu) is not trimmed", s.name(),
                      sp.begin, sp.end);
    const std::string_view body = text.substr(sp.begin, sp.size());
    EDGEMT_FUZZ_CHECK(body.find_first_of("\r\n") == std::string_view::npos,
                      "%s: a line break inside [%zu, %zu)", s.name(), sp.begin, sp.end);
    TextSpan a, b;
    if (edgemt::split_long_sentence(text, sp, &a, &b)) {
      EDGEMT_FUZZ_CHECK(
          sp.begin <= a.begin && a.begin < a.end && a.end < b.begin && b.begin < b.end && b.end <= sp.end,
          "cut of [%zu, %zu) gave [%zu, %zu) [%zu, %zu)", sp.begin, sp.end, a.begin, a.end, b.begin, b.end);
      EDGEMT_FUZZ_CHECK(edgemt::trim_space(text, a) == a && edgemt::trim_space(text, b) == b &&
                            edgemt::trim_space(text, {a.end, b.begin}).size() == 0,
                        "cut of [%zu, %zu) is not at whitespace", sp.begin, sp.end);
    }
    at = sp.end;
  }
  EDGEMT_FUZZ_CHECK(edgemt::trim_space(text, {at, text.size()}).size() == 0, "%s: the tail from %zu is lost",
                    s.name(), at);
}

void check_protection(std::string_view text) {
  std::vector<TextSpan> spans;
  edgemt::find_protected_spans(text, &spans);
  size_t at = 0;
  for (const TextSpan& sp : spans) {
    EDGEMT_FUZZ_CHECK(at <= sp.begin && sp.begin < sp.end && sp.end <= text.size(),
                      "protected span [%zu, %zu)", sp.begin, sp.end);
    at = sp.end;
  }
  const edgemt::ProtectedSentence p = edgemt::protect_spans(text);
  EDGEMT_FUZZ_CHECK(p.markers.size() == p.originals.size() && p.originals.size() <= spans.size(),
                    "%zu markers for %zu spans", p.markers.size(), spans.size());
  EDGEMT_FUZZ_CHECK(edgemt::restore_spans(p.text, p) == text, "restoring the protected text changed it");
  const std::string half = p.text.substr(p.text.size() / 2);
  const std::string out = edgemt::restore_spans(half, p);
  for (const std::string& o : p.originals)
    EDGEMT_FUZZ_CHECK(out.find(o) != std::string::npos, "a span was lost from a translation");
  // In place: without markers (touching spans get one) the text is the sentence; it
  // keeps its own spans.
  const edgemt::ProtectedSentence in = edgemt::protect_spans(text, nullptr, true, edgemt::SpanMode::kInPlace);
  EDGEMT_FUZZ_CHECK(in.markers.size() <= p.markers.size() && in.in_place.size() <= spans.size() &&
                        (!in.markers.empty() || in.text == text),
                    "spans left in place changed the text");
  EDGEMT_FUZZ_CHECK(edgemt::restore_spans(in.text, in) == text,
                    "restoring a text with spans in place changed it");
  EDGEMT_FUZZ_CHECK(edgemt::spans_kept(in.text, in), "a text does not keep its own spans");
  (void)edgemt::spans_kept(half, in);
  // Unknown characters (as a tokenizer would give them: here every run of bytes >= 0x80,
  // and every '~'): copied through like the other spans, in both modes.
  std::vector<std::pair<size_t, size_t>> unknown;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool odd = static_cast<unsigned char>(text[i]) >= 0x80 || text[i] == '~';
    if (!odd) continue;
    if (!unknown.empty() && unknown.back().second == i)
      unknown.back().second = i + 1;
    else
      unknown.emplace_back(i, i + 1);
  }
  for (edgemt::SpanMode mode : {edgemt::SpanMode::kMarkers, edgemt::SpanMode::kInPlace}) {
    const edgemt::ProtectedSentence u = edgemt::protect_spans(text, nullptr, true, mode, unknown);
    EDGEMT_FUZZ_CHECK(edgemt::restore_spans(u.text, u) == text,
                      "restoring with unknown characters changed it");
    const std::string uout = edgemt::restore_spans(u.text.substr(u.text.size() / 2), u);
    for (const std::string& o : u.originals)
      EDGEMT_FUZZ_CHECK(uout.find(o) != std::string::npos, "an unknown span was lost from a translation");
  }
}

}  // namespace

// UTF-8 decoding (see the header comment).
void check_utf8(std::string_view text) {
  std::vector<size_t> starts;
  size_t chars = 0;
  for (size_t i = 0; i < text.size();) {
    const edgemt::Utf8Char c = edgemt::decode_utf8(text, i);
    EDGEMT_FUZZ_CHECK(c.length >= 1 && c.length <= 4 && i + c.length <= text.size(), "bad length %u at %zu",
                      c.length, i);
    if (c.well_formed) {
      std::string again;
      edgemt::append_utf8(c.code_point, &again);
      EDGEMT_FUZZ_CHECK(again == text.substr(i, c.length), "U+%X at %zu does not encode to its bytes",
                        c.code_point, i);
    } else {
      EDGEMT_FUZZ_CHECK(c.length == 1 && c.code_point == static_cast<unsigned char>(text[i]),
                        "malformed byte at %zu", i);
    }
    if (i > 0) {
      EDGEMT_FUZZ_CHECK(edgemt::utf8_start_before(text, i) == starts.back(), "walking back from %zu", i);
    }
    starts.push_back(i);
    i += c.length;
    ++chars;
  }
  if (!text.empty()) {
    EDGEMT_FUZZ_CHECK(edgemt::utf8_start_before(text, text.size()) == starts.back(),
                      "walking back from the end");
  }
  EDGEMT_FUZZ_CHECK(edgemt::count_utf8_chars(text) == chars, "count");
  size_t k = 0;  // starts[k]: the last start at or before n
  for (size_t n = 0; n <= text.size(); ++n) {
    while (k + 1 < starts.size() && starts[k + 1] <= n) ++k;
    const size_t want = n == text.size() ? n : starts.empty() ? 0 : starts[k];
    EDGEMT_FUZZ_CHECK(edgemt::utf8_boundary_before(text, n) == want, "cut at %zu", n);
  }
}

// A gettext catalog: parsing never crashes; one that parses, with every message
// translated as itself, parses again with nothing left to translate.
void check_po(std::string_view text) {
  auto c = edgemt::PoCatalog::parse(text);
  if (!c) return;
  const std::string out = c.value().render(c.value().texts());
  auto again = edgemt::PoCatalog::parse(out);
  EDGEMT_FUZZ_CHECK(again.has_value(), "a rendered catalog does not parse: %s",
                    again.status().to_string().c_str());
  EDGEMT_FUZZ_CHECK(again.value().texts().empty(), "%zu messages still untranslated",
                    again.value().texts().size());
  // Into languages whose headers and plural forms differ (a template's header filled in).
  for (const char* language : {"ar", "ja", "ru"}) {
    auto filled = edgemt::PoCatalog::parse(c.value().render(c.value().texts(), language));
    EDGEMT_FUZZ_CHECK(filled.has_value() && filled.value().texts().empty(),
                      "the catalog rendered for %s does not parse, or has messages untranslated", language);
  }
}

// Markdown: inline markup to HTML and back is the identity; a document rendered with its
// units as themselves has the same words in the same order (only whitespace and block
// quote markers of re-wrapped paragraph lines may change). A '>' that starts a word is
// no part of it: a line indented by a tab ("\t>x" continuing a paragraph) holds a literal
// '>' that a re-wrapped line glues to its word (">x"), where the line took it as a marker.
std::vector<std::string_view> md_words(std::string_view s) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  std::vector<std::string_view> w;
  for (size_t b = 0; b < s.size();) {
    size_t e = s.find('\n', b);
    if (e == std::string_view::npos) e = s.size();
    const std::string_view line = s.substr(b, e - b);
    // A line's block quote markers are not words: a re-wrapped line may gain or lose
    // them, glued to its first word or not.
    size_t i = 0;
    while (i < line.size() && (line[i] == '>' || space(line[i]))) ++i;
    while (i < line.size()) {
      while (i < line.size() && space(line[i])) ++i;
      size_t k = i;
      while (k < line.size() && !space(line[k])) ++k;
      std::string_view x = line.substr(i, k - i);
      while (!x.empty() && x.front() == '>') x.remove_prefix(1);
      if (!x.empty()) w.push_back(x);
      i = k;
    }
    b = e + 1;
  }
  return w;
}

void check_markdown(std::string_view text) {
  std::vector<std::string> originals;
  const std::string html = edgemt::markdown_inline_to_html(text, &originals);
  const std::string back = edgemt::markdown_inline_from_html(html, originals);
  EDGEMT_FUZZ_CHECK(back == text, "inline round trip changed the text (%zu -> %zu bytes)", text.size(),
                    back.size());
  const edgemt::MarkdownDocument d = edgemt::MarkdownDocument::parse(text);
  const std::string out = d.render(d.units());
  EDGEMT_FUZZ_CHECK(md_words(out) == md_words(text), "rendering changed the words (%zu -> %zu bytes)",
                    text.size(), out.size());
}

size_t timing_lines(std::string_view text) {
  size_t n = 0;
  for (size_t b = 0; b <= text.size();) {
    size_t e = text.find('\n', b);
    if (e == std::string_view::npos) e = text.size();
    std::string_view line = text.substr(b, e - b);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    n += edgemt::is_subtitle_timing_line(line);
    b = e + 1;
  }
  return n;
}

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> w;
  std::string cur;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      if (!cur.empty()) w.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) w.push_back(std::move(cur));
  return w;
}

void check_subtitles(std::string_view text) {
  const edgemt::SubtitleDocument d = edgemt::SubtitleDocument::parse(text);
  const std::string out = d.render(d.units());
  EDGEMT_FUZZ_CHECK(timing_lines(out) == timing_lines(text), "subtitles: %zu timing lines became %zu",
                    timing_lines(text), timing_lines(out));
  if (!d.webvtt()) {
    // A text line's "-->" comes back as "->" (it must not look like a timing line).
    std::string in(text);
    for (size_t p; (p = in.find("-->")) != std::string::npos;) in.replace(p, 3, "->");
    std::string got = out;
    for (size_t p; (p = got.find("-->")) != std::string::npos;) got.replace(p, 3, "->");
    EDGEMT_FUZZ_CHECK(words(got) == words(in), "subtitles: rendering changed the words (%zu -> %zu bytes)",
                      text.size(), out.size());
  }
}

void check_wrapped(std::string_view text) {
  const edgemt::WrappedText d = edgemt::WrappedText::parse(text);
  const std::string out = d.render(d.units());
  EDGEMT_FUZZ_CHECK(words(out) == words(text), "wrapped text: rendering changed the words (%zu -> %zu bytes)",
                    text.size(), out.size());
}

void check_csv(std::string_view text) {
  const edgemt::CsvDocument doc = edgemt::CsvDocument::parse(text);
  EDGEMT_FUZZ_CHECK(doc.render(doc.units()) == text,
                    "csv: rendering the cells as themselves changed the file");
  // Translations that need quoting are quoted: the rendered table has as many cells.
  std::vector<std::string> odd(doc.units().size(), std::string("x") + doc.delimiter() + "\"y\"\nz");
  const edgemt::CsvDocument again = edgemt::CsvDocument::parse(doc.render(odd));
  if (again.delimiter() == doc.delimiter())
    EDGEMT_FUZZ_CHECK(again.units().size() >= doc.units().size(),
                      "csv: a translation broke the table (%zu -> %zu)", doc.units().size(),
                      again.units().size());
  // As a translation table from English into German: its translations fill the German
  // column (a new one where there was none), and read so, nothing is left to translate.
  const edgemt::CsvDocument table = edgemt::CsvDocument::parse(text, "en", "de");
  EDGEMT_FUZZ_CHECK(table.units().size() <= doc.units().size(), "csv: a table has more units than cells");
  if (table.source_column() == SIZE_MAX) return;
  const edgemt::CsvDocument filled = edgemt::CsvDocument::parse(table.render(odd), "en", "de");
  if (filled.delimiter() == table.delimiter())
    EDGEMT_FUZZ_CHECK(filled.source_column() == table.source_column() && filled.units().empty(),
                      "csv: a filled table has %zu units still to translate", filled.units().size());
}

void check_json(std::string_view text) {
  auto doc = edgemt::JsonDocument::parse(text);
  if (!doc) return;
  // Rendered with its units as themselves, and with translations that need escapes, it
  // parses again into the same units (the same strings, escaped as JSON escapes them).
  const std::string same = doc.value().render(doc.value().units());
  auto again = edgemt::JsonDocument::parse(same);
  EDGEMT_FUZZ_CHECK(again.has_value() && again.value().units() == doc.value().units(),
                    "json: rendering the strings as themselves changed them (%zu bytes)", text.size());
  std::vector<std::string> odd(doc.value().units().size(), "Odd \"text\"\n\\ \x01 \xC3\xA9 \xF0\x9F\x8E\x89");
  auto odd_again = edgemt::JsonDocument::parse(doc.value().render(odd));
  EDGEMT_FUZZ_CHECK(odd_again.has_value() && odd_again.value().units() == odd,
                    "json: a translation with escapes did not parse back");
  // Into a language with six plural categories (i18next's keys and ICU plurals added): JSON.
  EDGEMT_FUZZ_CHECK(edgemt::JsonDocument::parse(doc.value().render(odd, "ar")).has_value(),
                    "json: the document translated into Arabic is not JSON");
  // From a language of three forms (JSON v3's numbered keys: "x" and "x_plural" added in
  // English, three more in Arabic): JSON, with at least the units it had.
  for (const char* language : {"en", "ar"}) {
    auto from_ru = edgemt::JsonDocument::parse(doc.value().render(odd, language, "ru"));
    EDGEMT_FUZZ_CHECK(from_ru.has_value() && from_ru.value().units().size() >= odd.size(),
                      "json: the document translated from Russian into %s is not JSON, or lost units",
                      language);
  }
}

// ICU messages: rendered with their own leaves (no language), they read back as the same
// leaves; into a language with six plural categories, and with translations holding
// ICU's syntax characters, they are still messages.
void check_icu_message(std::string_view text) {
  auto m = edgemt::IcuMessage::parse(text);
  if (!m) return;
  auto same = edgemt::IcuMessage::parse(m->render(m->units()));
  EDGEMT_FUZZ_CHECK(same.has_value() && same->units() == m->units(),
                    "icu: a message rendered with its own leaves did not read back as them");
  std::vector<std::string> odd(m->units().size(), "It's {#} '{x}' # ''{y'");
  for (const char* language : {"ar", "cy"})  // six plural categories; Welsh six ordinal ones too
    EDGEMT_FUZZ_CHECK(edgemt::IcuMessage::parse(m->render(odd, language)).has_value(),
                      "icu: the message rendered into %s with odd leaves is not a message", language);
}

void check_xliff(std::string_view text) {
  auto doc = edgemt::XliffDocument::parse(text);
  if (!doc) return;
  // What the server looks at to tell an .xml file's kind agrees with the parser.
  const std::string_view root = edgemt::xml_local_name(edgemt::xml_root_element(text));
  EDGEMT_FUZZ_CHECK(root == "xliff" || root == "TS", "xliff: parsed, but its root element was read as <%.*s>",
                    static_cast<int>(root.size()), root.data());
  // Untranslated, the file comes back byte for byte; with every unit given a target (its
  // own markup, and text that needs escapes) it is still XLIFF, with nothing left to do.
  EDGEMT_FUZZ_CHECK(doc.value().render({}) == text, "xliff: no translations changed the file");
  std::vector<std::string> odd = doc.value().units();
  for (size_t i = 0; i < odd.size(); i += 2) odd[i] = "Odd &amp; &lt;text&gt; \"q\" \xC3\xA9";
  for (const char* language : {"de", "ar"}) {  // (Qt: Arabic's six numerus forms)
    auto again = edgemt::XliffDocument::parse(doc.value().render(odd, language));
    EDGEMT_FUZZ_CHECK(
        again.has_value() && again.value().units().empty(),
        "xliff: a document translated into %s did not parse again, or has units still to translate",
        language);
  }
}

void check_android(std::string_view text) {
  auto doc = edgemt::AndroidStrings::parse(text);
  if (!doc) return;
  EDGEMT_FUZZ_CHECK(edgemt::xml_root_element(text) == "resources",
                    "android: parsed, but its root element was read otherwise");
  // Translated (its own markup, and text with Android's and XML's special characters), it
  // is still string resources, with the same strings to translate in the same number.
  std::vector<std::string> odd = doc.value().units();
  for (size_t i = 0; i < odd.size(); i += 2) odd[i] = "@Odd &amp; &lt;t&gt; \"q\" it's \\ \xC3\xA9";
  auto again = edgemt::AndroidStrings::parse(doc.value().render(odd, "xx"));
  EDGEMT_FUZZ_CHECK(again.has_value() && again.value().units().size() == doc.value().units().size(),
                    "android: the translated resources did not parse again into as many strings");
  // Into languages with other plural categories than the source's: still string resources.
  for (const char* language : {"ar", "ja"})
    EDGEMT_FUZZ_CHECK(edgemt::AndroidStrings::parse(doc.value().render(odd, language)).has_value(),
                      "android: the resources translated into %s did not parse again", language);
}

// .properties: no translations give the file back; its values rendered as themselves
// read back as the same values; translated with text that needs Java's escapes, it reads
// back as as many values.
void check_properties(std::string_view text) {
  const edgemt::PropertiesFile doc = edgemt::PropertiesFile::parse(text);
  EDGEMT_FUZZ_CHECK(doc.render({}) == text, "properties: no translations changed the file");
  EDGEMT_FUZZ_CHECK(edgemt::PropertiesFile::parse(doc.render(doc.units())).units() == doc.units(),
                    "properties: rendering the values as themselves changed them");
  std::vector<std::string> odd(doc.units().size(), " Odd \\ it's\n= x:\t#! \xC3\xA9 \xF0\x9F\x8E\x89\n ");
  for (size_t i = 1; i < odd.size(); i += 2) odd[i] = "Plain text";
  EDGEMT_FUZZ_CHECK(edgemt::PropertiesFile::parse(doc.render(odd)).units().size() == doc.units().size(),
                    "properties: a translation with escapes did not read back as as many values");
  (void)edgemt::PropertiesFile::parse(doc.render(odd, "ar"));
}

// .strings: no translations give the file back; translated with text that needs escapes,
// it parses again into those translations.
void check_apple_strings(std::string_view text) {
  auto doc = edgemt::AppleStrings::parse(text);
  if (!doc) return;
  EDGEMT_FUZZ_CHECK(doc.value().render({}) == text, "strings: no translations changed the file");
  std::vector<std::string> odd(doc.value().units().size(), "Odd \"q\" 'a' \\ \n\t\x01 \xC3\xA9 %@");
  auto again = edgemt::AppleStrings::parse(doc.value().render(odd));
  EDGEMT_FUZZ_CHECK(again.has_value() && again.value().units() == odd,
                    "strings: a translation with escapes did not parse back");
}

// .resx: no translations give the file back; translated with text that needs XML's
// escapes, it parses again into those translations.
void check_resx(std::string_view text) {
  auto doc = edgemt::ResxDocument::parse(text);
  if (!doc) return;
  EDGEMT_FUZZ_CHECK(doc.value().render({}) == text, "resx: no translations changed the file");
  std::vector<std::string> odd(doc.value().units().size(), "Odd <b>&amp;</b> \"q\" 'a' \xC3\xA9 {0}");
  auto again = edgemt::ResxDocument::parse(doc.value().render(odd));
  EDGEMT_FUZZ_CHECK(again.has_value() && again.value().units() == odd,
                    "resx: a translation with escapes did not parse back");
}

// .stringsdict: no translations and no language give the file back; into Russian, with
// text that needs XML's escapes, it parses again into those translations (the categories
// added from "other" among them), and a second time adds nothing.
void check_stringsdict(std::string_view text) {
  auto doc = edgemt::StringsdictDocument::parse(text);
  if (!doc) return;
  EDGEMT_FUZZ_CHECK(doc.value().render({}) == text, "stringsdict: no translations changed the file");
  const std::string odd_unit = "Odd <b>&amp;</b> \"q\" 'a' \xC3\xA9 %d";
  std::vector<std::string> odd(doc.value().units().size(), odd_unit);
  const std::string once = doc.value().render(odd, "ru");
  auto again = edgemt::StringsdictDocument::parse(once);
  EDGEMT_FUZZ_CHECK(again.has_value(), "stringsdict: a translated file did not parse back");
  for (const std::string& u : again.value().units())
    EDGEMT_FUZZ_CHECK(u == odd_unit, "stringsdict: a translation with escapes did not parse back");
  odd.assign(again.value().units().size(), odd_unit);
  EDGEMT_FUZZ_CHECK(again.value().render(odd, "ru") == once,
                    "stringsdict: a second translation changed the file");
}

// Xcode String Catalogs: no translations, or no language, give the file back; into a
// language, with text that needs JSON's escapes, it is still JSON and a catalog, with
// nothing left to translate into that language.
void check_xcstrings(std::string_view text) {
  auto doc = edgemt::XcstringsDocument::parse(text);
  if (!doc) return;
  EDGEMT_FUZZ_CHECK(
      doc.value().render({}, "de") == text && doc.value().render(doc.value().units(), "") == text,
      "xcstrings: no translations changed the file");
  const std::vector<std::string> odd(doc.value().units().size(), "Odd \"q\" \\ \n\x01 \xC3\xA9 %@");
  for (const char* language : {"de", "ar"}) {
    auto again = edgemt::XcstringsDocument::parse(doc.value().render(odd, language));
    EDGEMT_FUZZ_CHECK(again.has_value(), "xcstrings: the catalog translated into %s is not one: %s", language,
                      again.has_value() ? "" : again.status().message().c_str());
    EDGEMT_FUZZ_CHECK(again.value().render(odd, language) == doc.value().render(odd, language),
                      "xcstrings: the catalog translated into %s still has strings to translate", language);
  }
}

// YAML: no translations give the file back; translated with text that needs quoting (an
// indicator first, ": ", " #", quotes, a line break), it reads back as the same units.
void check_yaml(std::string_view text) {
  const edgemt::YamlDocument doc = edgemt::YamlDocument::parse(text);
  EDGEMT_FUZZ_CHECK(doc.render({}) == text, "yaml: no translations changed the file");
  std::vector<std::string> odd(doc.units().size(), "- Odd: 'q' \"x\" #1 \\ \xC3\xA9 %{n}");
  for (size_t i = 1; i < odd.size(); i += 2) odd[i] = "Plain words";
  const edgemt::YamlDocument again = edgemt::YamlDocument::parse(doc.render(odd));
  EDGEMT_FUZZ_CHECK(again.units() == odd,
                    "yaml: a translation that needs quoting did not read back (%zu -> %zu units)", odd.size(),
                    again.units().size());
  (void)doc.render(odd, "ar");
}

void check_encodings(std::string_view text) {
  using edgemt::TextEncoding;
  if (!edgemt::is_valid_utf8(text)) return;
  for (auto kind : {TextEncoding::kUtf16Le, TextEncoding::kUtf16Be, TextEncoding::kUtf32Be}) {
    const TextEncoding e{kind, "x", true};
    const auto enc = edgemt::encode_text(text, e);
    EDGEMT_FUZZ_CHECK(enc.has_value() && enc.value().unencodable == 0, "utf-16/32: could not encode");
    const auto dec = edgemt::decode_text(enc.value().bytes, e);
    EDGEMT_FUZZ_CHECK(dec.has_value() && dec.value().utf8 == text && dec.value().malformed == 0,
                      "utf-16/32: the round trip changed the text");
  }
  const TextEncoding cp1252{TextEncoding::kWindows1252, "windows-1252", false};
  const auto enc = edgemt::encode_text(text, cp1252);
  EDGEMT_FUZZ_CHECK(enc.has_value(), "windows-1252: could not encode");
  if (enc.value().unencodable == 0) {
    const auto dec = edgemt::decode_text(enc.value().bytes, cp1252);
    EDGEMT_FUZZ_CHECK(dec.has_value() && dec.value().utf8 == text,
                      "windows-1252: the round trip changed the text");
  }
}

void check_html(std::string_view text) {
  using edgemt::Segmented;
  // Reading a document's bytes and writing them back gives them back: as they are, or
  // (a windows-1252 page, declared or not) decoded to UTF-8 and encoded again.
  std::string converted;
  const auto how = edgemt::read_html_bytes(text, &converted);
  if (how.has_value()) {
    const bool as_is = how.value().kind != edgemt::HtmlBytes::kConverted;
    const std::string& c = how.value().charset;
    if (as_is || how.value().encoding.kind == edgemt::TextEncoding::kWindows1252)
      EDGEMT_FUZZ_CHECK(
          edgemt::write_html_bytes(as_is ? text : std::string_view(converted), how.value()) == text,
          "html: reading and writing the bytes changed them (%zu bytes, %s)", text.size(), c.c_str());
  }
  const Segmented doc = edgemt::segment_html(text);
  // Without character references the pieces are the document, byte for byte.
  if (text.find('&') == std::string_view::npos) {
    std::string joined;
    for (const std::string& p : doc.pieces) joined += p;
    EDGEMT_FUZZ_CHECK(joined == text, "html: the pieces are not the document (%zu bytes)", text.size());
  }
  // Text and kept pieces: ascending, inside, never the same piece.
  size_t k = 0;
  for (size_t i = 0; i < doc.kept.size(); ++i) {
    EDGEMT_FUZZ_CHECK(doc.kept[i] < doc.pieces.size() && (i == 0 || doc.kept[i - 1] < doc.kept[i]),
                      "html: kept pieces out of order");
    while (k < doc.text.size() && doc.text[k] < doc.kept[i]) ++k;
    EDGEMT_FUZZ_CHECK(k == doc.text.size() || doc.text[k] != doc.kept[i], "html: a kept piece is text");
  }
  std::vector<std::string> same;
  for (size_t i : doc.text) same.push_back(doc.pieces[i]);
  const std::vector<edgemt::InlineRun> runs =
      edgemt::inline_runs(doc, [](std::string_view t) { return std::string(t); });
  std::vector<std::string> html;
  for (const edgemt::InlineRun& r : runs) {
    std::string out;
    EDGEMT_FUZZ_CHECK(edgemt::place_inline_tags(r, r.source, &out), "html: a run's own source was refused");
    html.push_back(std::move(out));
  }
  // (A <wbr> with text against it on both sides is no element of its run: it goes.)
  Segmented expected = doc;
  auto is_text = [&](size_t p) { return std::binary_search(doc.text.begin(), doc.text.end(), p); };
  auto is_wbr = [](std::string_view t) {
    return t.size() >= 5 && t[0] == '<' && t.back() == '>' && (t[1] | 0x20) == 'w' && (t[2] | 0x20) == 'b' &&
           (t[3] | 0x20) == 'r' && (t[4] == '>' || t[4] == '/' || edgemt::is_ascii_space(t[4]));
  };
  for (const edgemt::InlineRun& r : runs)
    for (size_t p = r.first + 1; p < r.last; ++p)
      if (is_wbr(doc.pieces[p]) && is_text(p - 1) && is_text(p + 1) &&
          !std::binary_search(doc.kept.begin(), doc.kept.end(), p))
        expected.pieces[p].clear();
  EDGEMT_FUZZ_CHECK(edgemt::reassemble_runs(doc, runs, html, same) == edgemt::reassemble(expected, same),
                    "html: inline runs placed as themselves changed the document");
  Segmented marked = doc;
  edgemt::set_html_language(&marked, "en", "de");
  EDGEMT_FUZZ_CHECK(
      marked.text == doc.text && marked.kept == doc.kept && marked.pieces.size() == doc.pieces.size(),
      "html: language marking moved pieces");
  for (size_t i = 0; i < doc.pieces.size(); ++i)
    EDGEMT_FUZZ_CHECK(
        marked.pieces[i] == doc.pieces[i] || (!doc.pieces[i].empty() && doc.pieces[i][0] == '<'),
        "html: language marking changed something not a tag");
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const char* const kLanguages[] = {"en", "de", "fr", "ja", "", "pt-BR"};
  static std::vector<std::unique_ptr<SentenceSplitter>> splitters = [] {
    std::vector<std::unique_ptr<SentenceSplitter>> v;
    for (const char* lang : kLanguages) {
      for (auto kind : {SentenceSplitter::Kind::kAuto, SentenceSplitter::Kind::kRules}) {
        auto s = SentenceSplitter::create(lang, kind);
        EDGEMT_FUZZ_CHECK(s.has_value(), "create(%s): %s", lang, s.status().to_string().c_str());
        v.push_back(std::move(s.value()));
      }
    }
    return v;
  }();
  if (size == 0) return 0;
  const size_t lang = data[0] % (sizeof kLanguages / sizeof kLanguages[0]);
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  check(*splitters[2 * lang], text);
  check(*splitters[2 * lang + 1], text);
  check_protection(text);
  check_utf8(text);
  // pdftotext's layout to paragraphs: lines of text, never a control character but the
  // line ends, no blank line but between paragraphs, hardly longer than the input's words
  // (references shrink, a numeric one to at most 4 bytes of UTF-8, but for two of HTML5's
  // named ones: "&nGt;" and "&nLt;", 5 bytes, are two characters of 6).
  const std::string paragraphs = edgemt::pdf_layout_to_paragraphs(text);
  EDGEMT_FUZZ_CHECK(paragraphs.size() <= text.size() + text.size() / 5,
                    "pdf paragraphs grew %zu -> %zu bytes", text.size(), paragraphs.size());
  for (size_t k = 0; k < paragraphs.size(); ++k) {
    const auto ch = static_cast<unsigned char>(paragraphs[k]);
    EDGEMT_FUZZ_CHECK(ch >= 0x20 || ch == '\n', "pdf paragraphs hold control character %u", ch);
    EDGEMT_FUZZ_CHECK(ch != '\n' || k == 0 || paragraphs[k - 1] != '\n' || k + 1 < paragraphs.size(),
                      "pdf paragraphs end in a blank line");
  }
  const std::string names_out = edgemt::without_names(text);  // only ever drops words
  EDGEMT_FUZZ_CHECK(names_out.size() <= text.size(), "without_names grew %zu -> %zu bytes", text.size(),
                    names_out.size());
  // Letter case: lowering keeps the length; a sentence written in capitals, recased
  // (whatever the scores) and raised again, is itself.
  EDGEMT_FUZZ_CHECK(edgemt::to_lower_case(text).size() == text.size(), "lowering changed the length");
  if (edgemt::written_in_capitals(text)) {
    const std::string recased = edgemt::recase_capitals(
        text, [](std::string_view w) { return static_cast<double>(std::hash<std::string_view>{}(w) % 7); });
    EDGEMT_FUZZ_CHECK(recased.size() == text.size() && edgemt::to_capitals(recased) == text,
                      "recased capitals did not come back");
  }
  check_po(text);
  check_markdown(text);
  check_subtitles(text);
  check_wrapped(text);
  check_html(text);
  check_csv(text);
  check_json(text);
  check_icu_message(text);
  check_xliff(text);
  check_android(text);
  check_properties(text);
  check_apple_strings(text);
  check_resx(text);
  check_xcstrings(text);
  check_stringsdict(text);
  check_yaml(text);
  check_encodings(text);
  return 0;
}
