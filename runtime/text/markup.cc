#include "runtime/text/markup.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <span>
#include <string>

#include "runtime/core/utf8.h"
#include "runtime/text/text_encoding.h"

namespace edgemt {
namespace {

// Splits s into leading whitespace, the text, trailing whitespace; appends the pieces
// (only the non-empty ones) and records the text piece.
void add_trimmed(Segmented* doc, std::string piece) {
  size_t b = 0, e = piece.size();
  while (b < e && is_ascii_space(piece[b])) ++b;
  while (e > b && is_ascii_space(piece[e - 1])) --e;
  if (b == e) {
    if (!piece.empty()) doc->pieces.push_back(std::move(piece));
    return;
  }
  if (b > 0) doc->pieces.push_back(piece.substr(0, b));
  doc->text.push_back(doc->pieces.size());
  doc->pieces.push_back(piece.substr(b, e - b));
  if (e < piece.size()) doc->pieces.push_back(piece.substr(e));
}

bool iequals_prefix(std::string_view s, size_t at, std::string_view word) {
  if (s.size() - at < word.size()) return false;
  for (size_t i = 0; i < word.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[at + i])) != word[i]) return false;
  return true;
}

// Elements whose content is not prose: kept as written.
constexpr std::string_view kRawElements[] = {"script", "style", "code", "pre", "textarea"};
// Elements with no content and no end tag.
constexpr std::string_view kVoidElements[] = {"area",  "base", "br",   "col",   "embed",  "hr",    "img",
                                              "input", "link", "meta", "param", "source", "track", "wbr"};
// Start tags that end an open element whose end tag a page may leave out (HTML's
// "optional tags"): `open` is ended by a start tag `name`.
bool ends_open_element(std::string_view open, std::string_view name) {
  static constexpr std::string_view kEndP[] = {
      "address",    "article", "aside",  "blockquote", "details", "div",  "dl",   "fieldset",
      "figcaption", "figure",  "footer", "form",       "h1",      "h2",   "h3",   "h4",
      "h5",         "h6",      "header", "hgroup",     "hr",      "main", "menu", "nav",
      "ol",         "p",       "pre",    "section",    "table",   "ul"};
  if (open == "p") return std::find(std::begin(kEndP), std::end(kEndP), name) != std::end(kEndP);
  if (open == "li") return name == "li";
  if (open == "dt" || open == "dd") return name == "dt" || name == "dd";
  if (open == "td" || open == "th") return name == "td" || name == "th" || name == "tr";
  if (open == "tr") return name == "tr";
  if (open == "option") return name == "option" || name == "optgroup";
  if (open == "rt" || open == "rp") return name == "rt" || name == "rp";
  return false;
}

bool one_of(std::string_view name, std::span<const std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A tag's name (lower case; empty for a comment, a declaration or anything else) and kind.
struct TagName {
  std::string name;
  bool closing = false;
  bool self_closing = false;  // "<x/>"
  size_t name_end = 0;        // where its attributes start
};

TagName read_tag_name(std::string_view tag) {
  TagName t;
  if (tag.size() < 3 || tag[0] != '<' || tag.back() != '>') return t;
  size_t i = 1;
  t.closing = tag[i] == '/';
  if (t.closing) ++i;
  if (!std::isalpha(static_cast<unsigned char>(tag[i]))) return t;
  const size_t b = i;
  while (i < tag.size() &&
         (std::isalnum(static_cast<unsigned char>(tag[i])) || tag[i] == '-' || tag[i] == ':'))
    ++i;
  if (i < tag.size() && !(tag[i] == '>' || tag[i] == '/' || is_ascii_space(tag[i]))) return t;
  t.name = lower(tag.substr(b, i - b));
  t.name_end = i;
  t.self_closing = !t.closing && tag.size() >= 2 && tag[tag.size() - 2] == '/';
  return t;
}

// An attribute of a start tag: its name (lower case) and where its value lies in the tag
// (without quotes; value_begin == value_end for an empty value or none).
struct Attribute {
  std::string name;
  size_t value_begin = 0, value_end = 0;
  bool has_value = false;
};

std::vector<Attribute> read_attributes(std::string_view tag, size_t from) {
  std::vector<Attribute> out;
  const size_t end = tag.size() - 1;  // the '>'
  size_t i = from;
  while (i < end) {
    while (i < end && (is_ascii_space(tag[i]) || tag[i] == '/')) ++i;
    const size_t b = i;
    while (i < end && !is_ascii_space(tag[i]) && tag[i] != '=' && tag[i] != '>' && tag[i] != '/') ++i;
    if (i == b) break;
    Attribute a;
    a.name = lower(tag.substr(b, i - b));
    size_t j = i;
    while (j < end && is_ascii_space(tag[j])) ++j;
    if (j < end && tag[j] == '=') {
      ++j;
      while (j < end && is_ascii_space(tag[j])) ++j;
      a.has_value = true;
      if (j < end && (tag[j] == '"' || tag[j] == '\'')) {
        const size_t close = tag.find(tag[j], j + 1);
        if (close == std::string_view::npos || close > end) break;  // malformed: stop reading
        a.value_begin = j + 1;
        a.value_end = close;
        i = close + 1;
      } else {
        a.value_begin = j;
        while (j < end && !is_ascii_space(tag[j])) ++j;
        a.value_end = j;
        i = j;
      }
    }
    out.push_back(std::move(a));
  }
  return out;
}

// translate="no", or a class "notranslate".
bool marked_no_translate(std::string_view tag, const TagName& t) {
  for (const Attribute& a : read_attributes(tag, t.name_end)) {
    const std::string_view v = tag.substr(a.value_begin, a.value_end - a.value_begin);
    if (a.name == "translate" && lower(v) == "no") return true;
    if (a.name == "class") {
      for (size_t b = 0; b < v.size();) {
        while (b < v.size() && is_ascii_space(v[b])) ++b;
        size_t e = b;
        while (e < v.size() && !is_ascii_space(v[e])) ++e;
        if (e > b && lower(v.substr(b, e - b)) == "notranslate") return true;
        b = e;
      }
    }
  }
  return false;
}

// translate="yes" (or translate="", which HTML reads as yes): the element's content is
// translated, also inside one that is not.
bool marked_translate_yes(std::string_view tag, const TagName& t) {
  for (const Attribute& a : read_attributes(tag, t.name_end)) {
    const std::string_view v = tag.substr(a.value_begin, a.value_end - a.value_begin);
    if (a.name == "translate") return v.empty() || lower(v) == "yes";
  }
  return false;
}

std::string primary_language(std::string_view code) {
  return lower(code.substr(0, code.find_first_of("-_")));
}

// An element whose content is kept as written: marked so (marked_no_translate); keyboard
// input and sample output (kbd, samp: commands, keys, messages as they are typed or
// shown); or, inside the document's body, one whose lang names another language than
// `source` (a quotation in French on an English page; not where `source` is unknown, not
// "und", "mul" or an empty lang, and not where translate="yes" says otherwise).
bool keeps_content(std::string_view tag, const TagName& t, std::string_view source) {
  if (t.name == "kbd" || t.name == "samp" || marked_no_translate(tag, t)) return true;
  if (source.empty() || t.name == "html" || t.name == "body" || t.name == "head") return false;
  bool other = false;
  for (const Attribute& a : read_attributes(tag, t.name_end)) {
    const std::string_view v = tag.substr(a.value_begin, a.value_end - a.value_begin);
    if (a.name == "translate" && lower(v) == "yes") return false;
    if (a.name == "lang" || a.name == "xml:lang") {
      const std::string l = primary_language(v);
      other = other || (!l.empty() && l != "und" && l != "mul" && l != primary_language(source));
    }
  }
  return other;
}

}  // namespace

size_t count_chars(std::string_view s) { return count_utf8_chars(s); }

namespace {

struct NamedReference {
  std::string_view name;   // without '&' and ';'
  uint32_t first, second;  // second: 0 where the name stands for one code point
  bool legacy;             // also read without the semicolon ("&eacute", "&amp")
};
constexpr NamedReference kNamedReferences[] = {
#include "runtime/text/html_entities.inc"
};
constexpr size_t kLongestName = 32;  // "CounterClockwiseContourIntegral"
constexpr size_t kLongestLegacyName = 6;

const NamedReference* find_named(std::string_view name) {
  const auto it = std::lower_bound(std::begin(kNamedReferences), std::end(kNamedReferences), name,
                                   [](const NamedReference& r, std::string_view n) { return r.name < n; });
  return it != std::end(kNamedReferences) && it->name == name ? it : nullptr;
}

// What a numeric reference's value stands for, as HTML reads it: 0x80-0x9F as the
// Windows-1252 characters legacy pages meant ("&#150;" an en dash, "&#146;" an
// apostrophe), NUL, surrogates and values past U+10FFFF as U+FFFD.
uint32_t numeric_reference(uint32_t cp) {
  if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0xFFFD;
  if (cp >= 0x80 && cp <= 0x9F) return windows1252_code_point(static_cast<unsigned char>(cp));
  return cp;
}

bool is_ascii_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

}  // namespace

std::string decode_entities(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const size_t amp = s.find('&', i);
    if (amp == std::string_view::npos) break;
    out.append(s, i, amp - i);
    i = amp + 1;
    if (i < s.size() && s[i] == '#') {  // &#233; &#xE9; (the semicolon may be missing)
      const bool hex = i + 1 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X');
      size_t d = i + (hex ? 2 : 1), e = d;
      uint64_t cp = 0;
      while (e < s.size() && (hex ? std::isxdigit(static_cast<unsigned char>(s[e]))
                                  : std::isdigit(static_cast<unsigned char>(s[e])))) {
        const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(s[e])));
        cp = std::min<uint64_t>(
            cp * (hex ? 16 : 10) + static_cast<uint64_t>(c <= '9' ? c - '0' : c - 'a' + 10), 0x110000);
        ++e;
      }
      if (e == d) {  // "&#" or "&#x" without digits: kept as written
        out.push_back('&');
        continue;
      }
      append_utf8(numeric_reference(static_cast<uint32_t>(cp)), &out);
      i = e < s.size() && s[e] == ';' ? e + 1 : e;
      continue;
    }
    size_t e = i;
    while (e < s.size() && is_ascii_alnum(s[e])) ++e;
    const std::string_view name = s.substr(i, e - i);
    const NamedReference* r = nullptr;
    size_t used = 0;  // bytes of s after '&' the reference takes
    if (e < s.size() && s[e] == ';' && name.size() <= kLongestName && (r = find_named(name)) != nullptr) {
      used = name.size() + 1;
    } else {
      // Without its semicolon (or with letters after it), only a legacy name, the
      // longest one the text starts with: "&copy 2024", "&notit;" is "¬it;".
      for (size_t n = std::min(name.size(), kLongestLegacyName); n >= 2 && r == nullptr; --n) {
        const NamedReference* c = find_named(name.substr(0, n));
        if (c != nullptr && c->legacy) {
          r = c;
          used = n;
        }
      }
    }
    if (r == nullptr) {  // not a reference: kept as written ("AT&T", "&bogus;")
      out.push_back('&');
      continue;
    }
    append_utf8(r->first, &out);
    if (r->second != 0) append_utf8(r->second, &out);
    i += used;
  }
  out.append(s, i, std::string_view::npos);
  return out;
}

namespace {

// The charset a <meta> tag declares, or "".
std::string meta_charset(std::string_view tag) {
  const TagName t = read_tag_name(tag);
  if (t.name != "meta" || t.closing) return {};
  std::string charset, content;
  bool content_type = false;
  for (const Attribute& a : read_attributes(tag, t.name_end)) {
    const std::string_view v = tag.substr(a.value_begin, a.value_end - a.value_begin);
    if (a.name == "charset" && charset.empty()) charset = lower(v);
    if (a.name == "http-equiv") content_type = lower(v) == "content-type";
    if (a.name == "content") content = lower(v);
  }
  if (!charset.empty() || !content_type) return charset;
  // content="text/html; charset=iso-8859-1" (the value may be quoted)
  const size_t c = content.find("charset");
  if (c == std::string::npos) return {};
  size_t i = c + 7;
  while (i < content.size() && is_ascii_space(content[i])) ++i;
  if (i >= content.size() || content[i] != '=') return {};
  ++i;
  while (i < content.size() && is_ascii_space(content[i])) ++i;
  if (i < content.size() && (content[i] == '"' || content[i] == '\'')) {
    const size_t e = content.find(content[i], i + 1);
    return e == std::string::npos ? std::string() : content.substr(i + 1, e - i - 1);
  }
  size_t e = i;
  while (e < content.size() && content[e] != ';' && !is_ascii_space(content[e])) ++e;
  return content.substr(i, e - i);
}

std::string trim_label(std::string s) {
  size_t b = 0, e = s.size();
  while (b < e && is_ascii_space(s[b])) ++b;
  while (e > b && is_ascii_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

bool is_utf8_label(std::string_view l) {
  // WHATWG's UTF-8 labels; a prescan that finds UTF-16 reads the bytes as UTF-8.
  return l == "utf-8" || l == "utf8" || l == "unicode-1-1-utf-8" || l == "unicode11utf8" ||
         l == "unicode20utf8" || l == "x-unicode20utf8" || l.starts_with("utf-16") || l == "unicode" ||
         l == "ucs-2" || l == "csunicode" || l == "iso-10646-ucs-2" || l == "unicodefeff" ||
         l == "unicodefffe";
}

bool is_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

void append_reference(uint32_t cp, std::string* out) { *out += "&#" + std::to_string(cp) + ";"; }

// Every character of `utf8` that `fits` refuses as &#N;, the rest by `put`.
template <typename Fits, typename Put>
std::string encode_chars(std::string_view utf8, Fits fits, Put put) {
  std::string out;
  out.reserve(utf8.size());
  for (size_t i = 0; i < utf8.size();) {
    const Utf8Char c = decode_utf8(utf8, i);
    i += c.length;
    if (fits(c.code_point))
      put(c.code_point, &out);
    else
      append_reference(c.code_point, &out);
  }
  return out;
}

}  // namespace

std::string declared_html_charset(std::string_view html) {
  if (auto bom = encoding_from_bom(html)) return bom->name;
  const std::string head = lower(html.substr(0, 1024));
  if (head.starts_with("<?xml")) {
    const size_t e = head.find("?>");
    const size_t k = head.find("encoding");
    if (k != std::string::npos && (e == std::string::npos || k < e)) {
      size_t i = head.find_first_of("\"'", k);
      if (i != std::string::npos && (e == std::string::npos || i < e)) {
        const size_t close = head.find(head[i], i + 1);
        if (close != std::string::npos) return trim_label(head.substr(i + 1, close - i - 1));
      }
    }
  }
  for (size_t at = head.find("<meta"); at != std::string::npos; at = head.find("<meta", at + 5)) {
    const size_t end = head.find('>', at);
    if (end == std::string::npos) break;
    const std::string c = trim_label(meta_charset(std::string_view(html).substr(at, end + 1 - at)));
    if (!c.empty()) return c;
  }
  return {};
}

Expected<HtmlBytes> read_html_bytes(std::string_view html, std::string* utf8) {
  HtmlBytes how;
  // A byte order mark of UTF-16 or UTF-32 decides, whatever the page declares (browsers
  // read it so): Windows' "Unicode" files.
  if (auto bom = encoding_from_bom(html); bom && !bom->is_utf8()) {
    how.kind = HtmlBytes::kConverted;
    how.charset = bom->name;
    how.encoding = *bom;
    auto d = decode_text(html, how.encoding);
    if (!d) return d.status();
    *utf8 = std::move(d.value().utf8);
    return how;
  }
  how.charset = declared_html_charset(html);
  if (is_valid_utf8(html) || is_utf8_label(how.charset)) {
    how.kind = how.charset.empty() || is_utf8_label(how.charset) || !is_ascii(html) ? HtmlBytes::kAsIs
                                                                                    : HtmlBytes::kAscii;
    return how;
  }
  how.kind = HtmlBytes::kConverted;
  if (how.charset.empty()) {
    // Nothing declared and the bytes are not UTF-8: a legacy page, read as windows-1252
    // as browsers read one (each of its bytes is a character: nothing is lost).
    how.encoding = guess_text_encoding(html);
  } else {
    auto e = find_text_encoding(how.charset);
    if (!e)
      return invalid_argument("the document declares the character encoding '" + how.charset +
#if EDGEMT_HAVE_ICU
                              "', which edgemt does not know: convert it to UTF-8 first (iconv -t UTF-8) and "
                              "declare <meta charset=\"utf-8\">"
#else
                              "', which this build of edgemt (without ICU) does not read: convert it to "
                              "UTF-8 "
                              "first (iconv -f " +
                              how.charset + " -t UTF-8) and declare <meta charset=\"utf-8\">"
#endif
      );
    how.encoding = e.value();
  }
  auto d = decode_text(html, how.encoding);
  if (!d) return d.status();
  if (d.value().malformed > 0)
    return invalid_argument("the document declares the character encoding '" + how.charset +
                            "' but its bytes are not in it: convert it to UTF-8 first (iconv -t UTF-8)");
  *utf8 = std::move(d.value().utf8);
  return how;
}

std::string write_html_bytes(std::string_view utf8, const HtmlBytes& how) {
  if (how.kind == HtmlBytes::kAsIs) return std::string(utf8);
  if (how.kind == HtmlBytes::kAscii)
    return encode_chars(
        utf8, [](uint32_t cp) { return cp < 0x80; },
        [](uint32_t cp, std::string* out) { out->push_back(static_cast<char>(cp)); });
  // What the encoding cannot hold as &#N; (right whatever the page is read as).
  auto e = encode_text(utf8, how.encoding, Unencodable::kReference);
  return e ? std::move(e.value().bytes) : std::string(utf8);  // read_html_bytes opened it already
}
std::string escape_html(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

Segmented segment_text(std::string_view text) {
  Segmented doc;
  size_t start = 0;
  for (;;) {
    const size_t nl = text.find('\n', start);
    const size_t end = nl == std::string_view::npos ? text.size() : nl;
    add_trimmed(&doc, std::string(text.substr(start, end - start)));
    if (nl == std::string_view::npos) break;
    doc.pieces.emplace_back("\n");
    start = nl + 1;
  }
  return doc;
}

void split_sentences(Segmented* doc, SentenceSplitter& splitter) {
  Segmented out;
  out.html = doc->html;
  std::vector<TextSpan> spans;
  size_t next_text = 0, next_kept = 0;
  for (size_t i = 0; i < doc->pieces.size(); ++i) {
    std::string& piece = doc->pieces[i];
    if (next_text >= doc->text.size() || doc->text[next_text] != i) {
      if (next_kept < doc->kept.size() && doc->kept[next_kept] == i) {
        out.kept.push_back(out.pieces.size());
        ++next_kept;
      }
      out.pieces.push_back(std::move(piece));
      continue;
    }
    ++next_text;
    spans.clear();
    splitter.split(piece, &spans);
    size_t at = 0;
    for (const TextSpan& sp : spans) {
      if (sp.begin > at) out.pieces.push_back(piece.substr(at, sp.begin - at));
      out.text.push_back(out.pieces.size());
      out.pieces.push_back(piece.substr(sp.begin, sp.size()));
      at = sp.end;
    }
    if (at < piece.size()) out.pieces.push_back(piece.substr(at));
  }
  *doc = std::move(out);
}

Segmented segment_html(std::string_view html, std::string_view source_language) {
  Segmented doc;
  doc.html = true;
  size_t i = 0;
  std::string_view raw_end;  // inside a raw element: its closing tag name
  // Inside an element not to be translated: the elements open since it (it first), and
  // where the translation is switched, (depth in `open`, content kept?): it first, then
  // each element inside that says translate="yes" (its content is translated again) and
  // each inside one of those that keeps its content again.
  std::vector<std::string> open;
  std::vector<std::pair<size_t, bool>> modes;
  auto keeping = [&modes] { return !modes.empty() && modes.back().second; };
  auto keep = [&doc](std::string_view piece) {
    doc.kept.push_back(doc.pieces.size());
    doc.pieces.emplace_back(piece);
  };
  while (i < html.size()) {
    if (!raw_end.empty()) {
      // Raw element content ends at its closing tag ('<' inside it is not a tag).
      size_t close = i;
      while ((close = html.find("</", close)) != std::string_view::npos &&
             !iequals_prefix(html, close + 2, raw_end))
        close += 2;
      const size_t end = close == std::string_view::npos ? html.size() : close;
      if (end > i) keep(html.substr(i, end - i));
      i = end;
      if (close == std::string_view::npos) break;
    }
    if (html[i] != '<') {
      const size_t lt = html.find('<', i);
      const size_t end = lt == std::string_view::npos ? html.size() : lt;
      const std::string_view chunk = html.substr(i, end - i);
      if (raw_end.empty() && !keeping()) {
        // Text nodes are translated decoded; the whitespace around them stays as written.
        size_t b = 0, e = chunk.size();
        while (b < e && is_ascii_space(chunk[b])) ++b;
        while (e > b && is_ascii_space(chunk[e - 1])) --e;
        if (b == e) {
          doc.pieces.emplace_back(chunk);
        } else {
          if (b > 0) doc.pieces.emplace_back(chunk.substr(0, b));
          doc.text.push_back(doc.pieces.size());
          doc.pieces.push_back(decode_entities(chunk.substr(b, e - b)));
          if (e < chunk.size()) doc.pieces.emplace_back(chunk.substr(e));
        }
      } else {
        keep(chunk);
      }
      i = end;
      continue;
    }
    // A comment, a declaration or a tag: kept verbatim up to its end.
    size_t end;
    if (html.compare(i, 4, "<!--") == 0) {
      end = html.find("-->", i + 4);
      end = end == std::string_view::npos ? html.size() : end + 3;
    } else {
      // Attribute values may hold '>' inside quotes.
      char quote = 0;
      end = i + 1;
      while (end < html.size()) {
        const char c = html[end];
        if (quote != 0) {
          if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '>') {
          break;
        }
        ++end;
      }
      end = end < html.size() ? end + 1 : html.size();
    }
    const std::string_view tag = html.substr(i, end - i);
    if (raw_end.empty()) {
      for (std::string_view name : kRawElements)
        if (iequals_prefix(tag, 1, name) &&
            (tag.size() == 1 + name.size() ||
             !std::isalnum(static_cast<unsigned char>(tag[1 + name.size()])))) {
          raw_end = name;
          break;
        }
    } else if (tag.size() > 2 && tag[1] == '/' && iequals_prefix(tag, 2, raw_end)) {
      raw_end = {};
    }
    // Inside an element not to be translated, everything but its own tags is content, up
    // to an element inside it that says translate="yes" (whose tags are markup again).
    const TagName t = read_tag_name(tag);
    const bool opens = !t.name.empty() && !t.closing && !t.self_closing && !one_of(t.name, kVoidElements);
    bool inside = false;
    if (!open.empty()) {
      if (t.name.empty() || (!t.closing && !opens)) {
        inside = keeping();
      } else if (t.closing) {
        const auto at = std::find(open.rbegin(), open.rend(), t.name);
        if (at == open.rend()) {
          open.clear();  // the element around it ends: so does this one
          modes.clear();
        } else {
          const size_t depth = static_cast<size_t>(open.rend() - at) - 1;
          open.resize(depth);
          while (!modes.empty() && modes.back().first > depth) modes.pop_back();
          if (!modes.empty() && modes.back().first == depth) {
            modes.pop_back();  // the end of an element that switched: markup, as its start
          } else {
            inside = keeping();
          }
        }
      } else if (open.size() == 1 && ends_open_element(open[0], t.name)) {
        open.clear();  // "<li translate=no>...<li>": the next item
        modes.clear();
      } else {
        const bool kept = keeping();
        const bool switches = kept ? marked_translate_yes(tag, t) : keeps_content(tag, t, source_language);
        if (switches) modes.emplace_back(open.size(), !kept);
        open.push_back(t.name);
        inside = kept && !switches;
      }
    }
    if (inside) {
      keep(tag);
    } else {
      if (open.empty() && opens && keeps_content(tag, t, source_language)) {
        open.push_back(t.name);
        modes.emplace_back(0, true);
      }
      doc.pieces.emplace_back(tag);
    }
    i = end;
  }
  return doc;
}

void set_html_language(Segmented* doc, std::string_view source, std::string_view target) {
  // A language tag: letters, digits and dashes (nothing that could end an attribute).
  if (target.empty() || target.size() > 35 || !std::all_of(target.begin(), target.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
      }))
    return;
  const std::string from = primary_language(source);
  size_t k = 0;  // the next kept piece
  bool in_head = true;
  for (size_t p = 0; p < doc->pieces.size(); ++p) {
    while (k < doc->kept.size() && doc->kept[k] < p) ++k;
    if (k < doc->kept.size() && doc->kept[k] == p) continue;
    std::string& tag = doc->pieces[p];
    const TagName t = read_tag_name(tag);
    if (t.name.empty() || t.closing) continue;
    if (t.name == "body") in_head = false;
    const bool root = t.name == "html";
    std::vector<Attribute> attrs = read_attributes(tag, t.name_end);
    if (!root && marked_no_translate(tag, t)) continue;  // its language is its content's
    if (t.name == "meta" && in_head) {
      bool language = false;
      for (const Attribute& a : attrs)
        language = language || (a.name == "http-equiv" &&
                                lower(std::string_view(tag).substr(
                                    a.value_begin, a.value_end - a.value_begin)) == "content-language");
      if (!language) continue;
      for (auto a = attrs.rbegin(); a != attrs.rend(); ++a)
        if (a->name == "content" && a->has_value)
          tag.replace(a->value_begin, a->value_end - a->value_begin, target);
      continue;
    }
    bool named = false;
    // From the last attribute back, so that the earlier ones' positions hold.
    for (auto a = attrs.rbegin(); a != attrs.rend(); ++a) {
      if (a->name != "lang" && a->name != "xml:lang") continue;
      named = true;
      const std::string_view v = std::string_view(tag).substr(a->value_begin, a->value_end - a->value_begin);
      if (!a->has_value || !(root || (!from.empty() && primary_language(v) == from))) continue;
      const bool quoted =
          a->value_begin > 0 && (tag[a->value_begin - 1] == '"' || tag[a->value_begin - 1] == '\'');
      tag.replace(a->value_begin, a->value_end - a->value_begin,
                  quoted ? std::string(target) : "\"" + std::string(target) + "\"");
    }
    if (root && !named) tag.insert(t.name_end, " lang=\"" + std::string(target) + "\"");
  }
}

std::string reassemble(const Segmented& doc, const std::vector<std::string>& translations) {
  return reassemble_runs(doc, {}, {}, translations);  // no inline runs: every text node alone
}

}  // namespace edgemt

namespace edgemt {
namespace {

// Inline elements whose tags a run may hold; void ones have no closing tag.
constexpr std::string_view kInlineElements[] = {
    "a",      "abbr", "b",   "bdi",  "bdo",   "big",  "cite", "code", "data", "del",   "dfn",  "em",
    "font",   "i",    "ins", "kbd",  "label", "mark", "q",    "s",    "samp", "small", "span", "strike",
    "strong", "sub",  "sup", "time", "tt",    "u",    "var",  "br",   "img",  "wbr"};
constexpr std::string_view kVoidInline[] = {"br", "img", "wbr"};

struct TagInfo {
  bool inline_tag = false;
  bool open = false;
  bool is_void = false;
  std::string name;
};

// A tag's name (read_tag_name) and what inline runs need of it.
TagInfo parse_tag(std::string_view t) {
  TagInfo info;
  const TagName n = read_tag_name(t);
  info.open = !n.closing;
  if (n.name.empty()) return info;
  info.name = n.name;
  info.inline_tag = one_of(n.name, kInlineElements);
  info.is_void = one_of(n.name, kVoidInline) || n.self_closing;
  return info;
}

// Text that can carry an element: a letter or digit (punctuation alone does not).
bool has_text(std::string_view s) {
  for (char c : s)
    if (std::isalnum(static_cast<unsigned char>(c)) || (static_cast<unsigned char>(c) & 0x80)) return true;
  return false;
}

// kVerbatim: the content of an inline element kept as written (Segmented::kept), part of
// a run's cluster like a tag.
enum class Kind { kOther, kText, kInlineTag, kSpace, kVerbatim };

struct RunBuilder {
  const Segmented& doc;
  std::string (*flatten)(std::string_view);
  std::string prefix;
  std::vector<Kind> kind;
  std::vector<TagInfo> tag;
  std::vector<size_t> node;  // piece -> index into doc.text (text pieces)
  std::vector<InlineRun> runs;

  void build(size_t a, size_t b) {  // pieces [a, b], b inclusive, a <= b
    // Whitespace at the edges stays outside.
    while (a <= b && kind[a] == Kind::kSpace) ++a;
    while (b > a && kind[b] == Kind::kSpace) --b;
    if (a > b) return;
    size_t texts = 0, verbatim = 0;
    for (size_t k = a; k <= b; ++k) {
      texts += kind[k] == Kind::kText;
      verbatim += kind[k] == Kind::kVerbatim;
    }
    // Two text nodes, or one beside an element kept as written ("<code>ls</code> lists
    // files": the sentence is translated with a placeholder where the code stands).
    if (texts < (verbatim > 0 ? 1 : 2)) return;
    // Tags that do not pair up within [a, b] end the run there.
    std::vector<size_t> stack, unmatched;
    for (size_t k = a; k <= b; ++k) {
      if (kind[k] != Kind::kInlineTag || tag[k].is_void) continue;
      if (tag[k].open) {
        stack.push_back(k);
      } else if (!stack.empty() && tag[stack.back()].name == tag[k].name) {
        stack.pop_back();
      } else {
        unmatched.push_back(k);
      }
    }
    unmatched.insert(unmatched.end(), stack.begin(), stack.end());
    if (!unmatched.empty()) {
      std::sort(unmatched.begin(), unmatched.end());
      size_t start = a;
      for (size_t k : unmatched) {
        if (k > start) build(start, k - 1);
        start = k + 1;
      }
      if (start <= b) build(start, b);
      return;
    }
    // A <wbr> inside a word or a URL ("configuration<wbr>file", "example.com/<wbr>docs",
    // text right against it on both sides): a place the line may break, no element. The
    // model reads the word whole, and the translation goes without it: its words are
    // others, and the model would put the tag anywhere.
    auto word_break = [&](size_t k) {
      return kind[k] == Kind::kInlineTag && tag[k].name == "wbr" && tag[k].open && k > a && k < b &&
             kind[k - 1] == Kind::kText && kind[k + 1] == Kind::kText;
    };
    InlineRun run;
    run.first = a;
    run.last = b;
    run.verbatim = verbatim > 0;
    std::vector<int> open_pairs;
    std::vector<std::string> node_after;  // per cluster: the text node after it ("" if none)
    bool breaks = false;                  // a word break inside (an element's text is more than one node)
    for (size_t k = a; k <= b;) {
      if (kind[k] == Kind::kText) {
        run.nodes.push_back(node[k]);
        run.source += flatten(doc.pieces[k]);
        if (has_text(doc.pieces[k]))
          for (int o : open_pairs) run.pair_has_text[static_cast<size_t>(o)] = true;
        if (!node_after.empty() && node_after.back().empty()) node_after.back() = flatten(doc.pieces[k]);
        ++k;
        continue;
      }
      if (word_break(k)) {
        run.word_breaks.push_back(k);
        ++k;
        breaks = true;
        continue;
      }
      const size_t c = run.clusters.size();
      std::string cluster;
      for (; k <= b && kind[k] != Kind::kText; ++k) {
        cluster += doc.pieces[k];
        if (kind[k] != Kind::kInlineTag) continue;
        InlineRun::Tag t{c, -1, tag[k].open, doc.pieces[k]};
        if (!tag[k].is_void) {
          if (tag[k].open) {
            t.pair = static_cast<int>(run.pair_has_text.size());
            run.pair_has_text.push_back(false);
            open_pairs.push_back(t.pair);
          } else {
            t.pair = open_pairs.back();
            open_pairs.pop_back();
          }
        }
        run.tags.push_back(std::move(t));
      }
      run.holders.push_back("{" + prefix + std::to_string(c + 1) + "}");
      if (!run.source.empty()) run.source += ' ';
      run.source += run.holders.back();
      if (k <= b) run.source += ' ';
      run.clusters.push_back(std::move(cluster));
      node_after.emplace_back();
    }
    // Flat: each element's open tag is followed by its close in the next cluster, one
    // text node between (no void element).
    bool flat = true;
    for (size_t t = 0; t < run.tags.size() && flat; ++t) {
      const InlineRun::Tag& x = run.tags[t];
      flat = x.pair >= 0 && (!x.open || (t + 1 < run.tags.size() && run.tags[t + 1].pair == x.pair &&
                                         run.tags[t + 1].cluster == x.cluster + 1));
    }
    for (size_t k = a; k <= b;) {
      if (kind[k] == Kind::kText || word_break(k)) {
        if (kind[k] == Kind::kText) run.plain += flatten(doc.pieces[k]);
        ++k;
        continue;
      }
      run.cluster_at.push_back(run.plain.size());
      bool space = false, line_break = false;
      for (; k <= b && kind[k] != Kind::kText; ++k) {
        space = space || kind[k] == Kind::kSpace;
        line_break = line_break || (kind[k] == Kind::kInlineTag && tag[k].name == "br");
      }
      // A <br> ends a line (and so a sentence) in the plain text too.
      if (line_break)
        run.plain += '\n';
      else if (space && !run.plain.empty() && k <= b)
        run.plain += ' ';
    }
    if (flat && !run.verbatim && !breaks)
      for (const InlineRun::Tag& x : run.tags)
        if (x.open) run.element.push_back(node_after[x.cluster]);
    runs.push_back(std::move(run));
  }
};

}  // namespace

std::vector<InlineRun> inline_runs(const Segmented& doc, std::string (*flatten)(std::string_view)) {
  RunBuilder rb{doc, flatten, "tag", {}, {}, {}, {}};
  const size_t n = doc.pieces.size();
  rb.kind.assign(n, Kind::kOther);
  rb.tag.resize(n);
  rb.node.assign(n, 0);
  for (size_t i = 0; i < doc.text.size(); ++i) {
    rb.kind[doc.text[i]] = Kind::kText;
    rb.node[doc.text[i]] = i;
    // Placeholders must not be mistaken for the document's own text.
    while (doc.pieces[doc.text[i]].find("{" + rb.prefix) != std::string::npos) rb.prefix += "x";
  }
  size_t next_kept = 0, last_markup = n;  // the last piece not kept as written
  for (size_t p = 0; p < n; ++p) {
    if (rb.kind[p] == Kind::kText) continue;
    const std::string& piece = doc.pieces[p];
    if (next_kept < doc.kept.size() && doc.kept[next_kept] == p) {
      ++next_kept;
      // Content kept as written right after an inline start tag (code, or an element that
      // keeps its content: segment_html): part of a run, inside that element.
      if (last_markup < n && rb.kind[last_markup] == Kind::kInlineTag && rb.tag[last_markup].open &&
          !rb.tag[last_markup].is_void)
        rb.kind[p] = Kind::kVerbatim;
      continue;
    }
    last_markup = p;
    if (!piece.empty() && piece[0] == '<') {
      rb.tag[p] = parse_tag(piece);
      if (rb.tag[p].inline_tag) rb.kind[p] = Kind::kInlineTag;
    } else if (!piece.empty() && std::all_of(piece.begin(), piece.end(), is_ascii_space)) {
      rb.kind[p] = Kind::kSpace;
    }
  }
  for (size_t i = 0; i < n;) {
    if (rb.kind[i] == Kind::kOther) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < n && rb.kind[j] != Kind::kOther) ++j;
    rb.build(i, j - 1);
    i = j;
  }
  std::sort(rb.runs.begin(), rb.runs.end(),
            [](const InlineRun& x, const InlineRun& y) { return x.first < y.first; });
  return std::move(rb.runs);
}

bool place_inline_tags(const InlineRun& run, std::string_view translation, std::string* out) {
  struct Hit {
    size_t at;
    size_t cluster;
  };
  std::vector<Hit> hits;
  for (size_t c = 0; c < run.holders.size(); ++c) {
    const size_t at = translation.find(run.holders[c]);
    if (at == std::string_view::npos || translation.find(run.holders[c], at + 1) != std::string_view::npos)
      return false;
    hits.push_back({at, c});
  }
  std::sort(hits.begin(), hits.end(), [](const Hit& x, const Hit& y) { return x.at < y.at; });
  std::string html;
  std::vector<int> stack;
  std::vector<bool> seen;
  size_t from = 0;
  for (size_t h = 0; h <= hits.size(); ++h) {
    // The text before this placeholder (after the previous one), without the spaces
    // that touch a placeholder.
    size_t b = from, e = h < hits.size() ? hits[h].at : translation.size();
    if (h > 0)
      while (b < e && translation[b] == ' ') ++b;
    if (h < hits.size())
      while (e > b && translation[e - 1] == ' ') --e;
    const std::string_view text = translation.substr(b, e - b);
    if (has_text(text)) seen.assign(seen.size(), true);
    html += escape_html(text);
    if (h == hits.size()) break;
    const size_t c = hits[h].cluster;
    for (const InlineRun::Tag& t : run.tags) {
      if (t.cluster != c || t.pair < 0) continue;
      if (t.open) {
        stack.push_back(t.pair);
        seen.push_back(false);
        continue;
      }
      if (stack.empty() || stack.back() != t.pair) return false;
      if (run.pair_has_text[static_cast<size_t>(t.pair)] && !seen.back()) return false;
      stack.pop_back();
      seen.pop_back();
    }
    // A cluster carries the whitespace around it in the source; where the translation
    // puts punctuation right against its placeholder ("{tag1}, um", "({tag1}"), that side
    // of it goes.
    std::string_view cluster = run.clusters[c];
    const size_t after = hits[h].at + run.holders[c].size();
    if (after < translation.size() &&
        std::string_view(",.;:!?)]}").find(translation[after]) != std::string_view::npos)
      while (!cluster.empty() && is_ascii_space(cluster.back())) cluster.remove_suffix(1);
    if (hits[h].at > 0 && std::string_view("([{").find(translation[hits[h].at - 1]) != std::string_view::npos)
      while (!cluster.empty() && is_ascii_space(cluster.front())) cluster.remove_prefix(1);
    html += cluster;
    from = after;
  }
  if (!stack.empty()) return false;
  *out = std::move(html);
  return true;
}

namespace {

bool word_byte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || (static_cast<unsigned char>(c) & 0x80);
}

// Where `needle` stands in `hay` as whole words at or after `from`, trying its first
// letter in both cases (German capitalises nouns mid-sentence, not at a fragment's
// start). npos if nowhere.
size_t find_words(std::string_view hay, std::string needle,
                  const std::vector<std::pair<size_t, size_t>>& taken) {
  std::string other = needle;
  if (!other.empty() && std::isalpha(static_cast<unsigned char>(other[0])))
    other[0] = static_cast<char>(std::isupper(static_cast<unsigned char>(other[0]))
                                     ? std::tolower(static_cast<unsigned char>(other[0]))
                                     : std::toupper(static_cast<unsigned char>(other[0])));
  for (const std::string& n : {needle, other}) {
    for (size_t at = hay.find(n); at != std::string_view::npos; at = hay.find(n, at + 1)) {
      const size_t end = at + n.size();
      if ((at > 0 && word_byte(hay[at - 1]) && word_byte(n.front())) ||
          (end < hay.size() && word_byte(hay[end]) && word_byte(n.back())))
        continue;
      bool overlaps = false;
      for (const auto& t : taken) overlaps = overlaps || (at < t.second && t.first < end);
      if (!overlaps) return at;
    }
  }
  return std::string_view::npos;
}

}  // namespace

bool wrap_found_elements(const InlineRun& run, std::string_view translation,
                         const std::vector<std::string>& element_translations, std::string* out) {
  if (run.element.empty() || element_translations.size() != run.element.size()) return false;
  std::vector<std::pair<size_t, size_t>> taken(run.element.size());  // per pair: [begin, end)
  std::vector<std::pair<size_t, size_t>> used;
  for (size_t p = 0; p < run.element.size(); ++p) {
    std::string_view e = element_translations[p];
    while (!e.empty() && is_ascii_space(e.front())) e.remove_prefix(1);
    while (!e.empty() && is_ascii_space(e.back())) e.remove_suffix(1);
    // A fragment's translation often ends in a full stop the sentence does not have there.
    while (!e.empty() && (e.back() == '.' || e.back() == '!' || e.back() == '?') &&
           (run.element[p].empty() || run.element[p].back() != e.back()))
      e.remove_suffix(1);
    if (e.empty()) return false;
    const size_t at = find_words(translation, std::string(e), used);
    if (at == std::string_view::npos) return false;
    taken[p] = {at, at + e.size()};
    used.push_back(taken[p]);
  }
  // Tags by position: an element's open tag at its begin, its close at its end.
  struct Mark {
    size_t at;
    bool open;
    size_t pair;
  };
  std::vector<Mark> marks;
  for (size_t p = 0; p < taken.size(); ++p) {
    marks.push_back({taken[p].first, true, p});
    marks.push_back({taken[p].second, false, p});
  }
  std::sort(marks.begin(), marks.end(), [](const Mark& x, const Mark& y) {
    return x.at != y.at ? x.at < y.at : (x.open != y.open ? !x.open : x.pair < y.pair);
  });
  std::vector<const std::string*> open_raw(taken.size()), close_raw(taken.size());
  for (const InlineRun::Tag& t : run.tags)
    (t.open ? open_raw : close_raw)[static_cast<size_t>(t.pair)] = &t.raw;
  std::string html;
  size_t at = 0;
  for (const Mark& m : marks) {
    html += escape_html(translation.substr(at, m.at - at));
    html += *(m.open ? open_raw : close_raw)[m.pair];
    at = m.at;
  }
  html += escape_html(translation.substr(at));
  *out = std::move(html);
  return true;
}

namespace {

bool edge_punctuation(char c) {
  return c == '.' || c == ',' || c == ';' || c == ':' || c == '!' || c == '?' || c == ')' || c == '(';
}

}  // namespace

bool place_aligned_tags(const InlineRun& run, const AlignedText& translation, std::string* out) {
  if (run.verbatim) return false;  // content kept as written has no words in the plain text
  const std::string& text = translation.text;
  const size_t pairs = run.pair_has_text.size();
  // Each pair's clusters (open, close) and so its source bytes [cluster_at[open], cluster_at[close]).
  std::vector<size_t> open_tag(pairs, 0), close_tag(pairs, 0), open_cluster(pairs, 0),
      close_cluster(pairs, 0);
  for (size_t i = 0; i < run.tags.size(); ++i) {
    const InlineRun::Tag& t = run.tags[i];
    if (t.pair < 0) continue;
    const size_t p = static_cast<size_t>(t.pair);
    if (t.open) {
      open_tag[p] = i;
      open_cluster[p] = t.cluster;
    } else {
      close_tag[p] = i;
      close_cluster[p] = t.cluster;
    }
  }
  if (run.cluster_at.size() != run.clusters.size()) return false;
  auto valid = [&](const AlignedText::Word& w) {
    return w.target.end > w.target.begin && w.target.end <= text.size() && w.source.end > w.source.begin;
  };
  // Per pair, the stretch of the translation from its first to its last aligned word.
  std::vector<TextSpan> range(pairs);
  std::vector<bool> placed(pairs, false);
  for (size_t p = 0; p < pairs; ++p) {
    const size_t sb = run.cluster_at[open_cluster[p]], se = run.cluster_at[close_cluster[p]];
    for (const AlignedText::Word& w : translation.words) {
      if (!valid(w) || !(w.source.begin < se && w.source.end > sb)) continue;
      range[p] =
          placed[p] ? TextSpan{std::min(range[p].begin, w.target.begin), std::max(range[p].end, w.target.end)}
                    : w.target;
      placed[p] = true;
    }
    if (!placed[p]) return false;  // (an element without text has nothing to hold either)
    // Punctuation at the stretch's edges the source element does not have there.
    const std::string_view src = std::string_view(run.plain).substr(sb, se - sb);
    const char first = src.empty() ? ' ' : src.front(), last = src.empty() ? ' ' : src.back();
    while (range[p].size() > 1 && edge_punctuation(text[range[p].end - 1]) && text[range[p].end - 1] != last)
      --range[p].end;
    while (range[p].size() > 1 && edge_punctuation(text[range[p].begin]) && text[range[p].begin] != first)
      ++range[p].begin;
  }
  // Nesting as in the source: a pair holds the pairs inside it (its stretch grows to
  // theirs, innermost first); pairs side by side must not overlap.
  auto inside = [&](size_t q, size_t p) {  // q nested in p in the source
    return open_tag[q] > open_tag[p] && close_tag[q] < close_tag[p];
  };
  std::vector<size_t> by_depth(pairs);
  for (size_t p = 0; p < pairs; ++p) by_depth[p] = p;
  std::sort(by_depth.begin(), by_depth.end(), [&](size_t x, size_t y) { return open_tag[x] > open_tag[y]; });
  for (size_t p : by_depth)
    for (size_t q = 0; q < pairs; ++q)
      if (q != p && inside(q, p))
        range[p] = {std::min(range[p].begin, range[q].begin), std::max(range[p].end, range[q].end)};
  for (size_t p = 0; p < pairs; ++p)
    for (size_t q = p + 1; q < pairs; ++q)
      if (!inside(q, p) && !inside(p, q) && range[p].begin < range[q].end && range[q].begin < range[p].end)
        return false;
  // Marks: (position, order at a position: closes, voids, opens), then closes inner
  // first and opens outer first.
  struct Mark {
    size_t at;
    int kind;  // 0 close, 1 void, 2 open
    size_t tag;
    size_t order;
    bool replaces = false;  // the byte at `at` (a line break) is the tag's
  };
  std::vector<Mark> marks;
  for (size_t i = 0; i < run.tags.size(); ++i) {
    const InlineRun::Tag& t = run.tags[i];
    if (t.pair >= 0) {
      const size_t p = static_cast<size_t>(t.pair);
      if (t.open)
        marks.push_back({range[p].begin, 2, i, open_tag[p], false});
      else
        marks.push_back({range[p].end, 0, i, run.tags.size() - open_tag[p], false});
      continue;
    }
    const size_t at = run.cluster_at[t.cluster];
    // A line break (<br>, a line break in the plain text): at the same line break of the
    // translation (sentences are translated line by line), which it replaces.
    if (at < run.plain.size() && run.plain[at] == '\n') {
      const size_t k = static_cast<size_t>(std::count(run.plain.begin(), run.plain.begin() + at, '\n'));
      size_t pos = text.find('\n');
      for (size_t j = 0; j < k && pos != std::string::npos; ++j) pos = text.find('\n', pos + 1);
      if (pos == std::string::npos) return false;
      marks.push_back({pos, 1, i, i, true});
      continue;
    }
    // Another void element: after the words aligned to the source word before it.
    size_t before_end = 0;
    bool any = false;
    for (const AlignedText::Word& w : translation.words)
      if (valid(w) && w.source.end <= at) before_end = std::max(before_end, w.source.end);
    size_t pos = 0;
    for (const AlignedText::Word& w : translation.words)
      if (valid(w) && w.source.end == before_end && before_end > 0) {
        pos = any ? std::max(pos, w.target.end) : w.target.end;
        any = true;
      }
    marks.push_back({pos, 1, i, i, false});
  }
  std::sort(marks.begin(), marks.end(), [](const Mark& x, const Mark& y) {
    if (x.at != y.at) return x.at < y.at;
    if (x.kind != y.kind) return x.kind < y.kind;
    return x.order < y.order;
  });
  std::string html;
  size_t at = 0;
  for (const Mark& m : marks) {
    if (m.at > at) html += escape_html(std::string_view(text).substr(at, m.at - at));
    html += run.tags[m.tag].raw;
    at = std::max(at, m.at + (m.replaces ? 1 : 0));
  }
  html += escape_html(std::string_view(text).substr(std::min(at, text.size())));
  *out = std::move(html);
  return true;
}

std::string reassemble_runs(const Segmented& doc, const std::vector<InlineRun>& runs,
                            const std::vector<std::string>& run_html,
                            const std::vector<std::string>& translations) {
  std::string out;
  size_t next = 0, r = 0;
  for (size_t p = 0; p < doc.pieces.size(); ++p) {
    while (r < runs.size() && runs[r].last < p) ++r;
    if (r < runs.size() && runs[r].first == p && r < run_html.size() && !run_html[r].empty()) {
      out += run_html[r];
      p = runs[r].last;
      next = runs[r].nodes.back() + 1;
      continue;
    }
    if (next < doc.text.size() && doc.text[next] == p) {
      const std::string& t = next < translations.size() ? translations[next] : doc.pieces[p];
      out += doc.html ? escape_html(t) : t;
      ++next;
    } else {
      out += doc.pieces[p];
    }
  }
  return out;
}

}  // namespace edgemt
