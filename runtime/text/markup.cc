#include "runtime/text/markup.h"

#include <cctype>
#include <cstdint>

namespace edgemt {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Splits s into leading whitespace, the text, trailing whitespace; appends the pieces
// (only the non-empty ones) and records the text piece.
void add_trimmed(Segmented* doc, std::string piece) {
  size_t b = 0, e = piece.size();
  while (b < e && is_space(piece[b])) ++b;
  while (e > b && is_space(piece[e - 1])) --e;
  if (b == e) {
    if (!piece.empty()) doc->pieces.push_back(std::move(piece));
    return;
  }
  if (b > 0) doc->pieces.push_back(piece.substr(0, b));
  doc->text.push_back(doc->pieces.size());
  doc->pieces.push_back(piece.substr(b, e - b));
  if (e < piece.size()) doc->pieces.push_back(piece.substr(e));
}

void append_utf8(std::string* out, uint32_t cp) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

bool iequals_prefix(std::string_view s, size_t at, std::string_view word) {
  if (s.size() - at < word.size()) return false;
  for (size_t i = 0; i < word.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[at + i])) != word[i]) return false;
  return true;
}

// Elements whose content is not prose: kept as written.
constexpr std::string_view kRawElements[] = {"script", "style", "code", "pre", "textarea"};

}  // namespace

size_t count_chars(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::string decode_entities(std::string_view s) {
  struct Named {
    std::string_view name;
    uint32_t cp;
  };
  static constexpr Named kNamed[] = {
      {"amp", '&'},       {"lt", '<'},       {"gt", '>'},       {"quot", '"'},
      {"apos", '\''},     {"nbsp", 0xA0},    {"ndash", 0x2013}, {"mdash", 0x2014},
      {"hellip", 0x2026}, {"lsquo", 0x2018}, {"rsquo", 0x2019}, {"ldquo", 0x201C},
      {"rdquo", 0x201D},  {"copy", 0xA9},    {"reg", 0xAE},     {"euro", 0x20AC}};
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (s[i] != '&') {
      out.push_back(s[i++]);
      continue;
    }
    const size_t semi = s.find(';', i + 1);
    if (semi == std::string_view::npos || semi - i > 12) {
      out.push_back(s[i++]);
      continue;
    }
    const std::string_view ref = s.substr(i + 1, semi - i - 1);
    bool done = false;
    if (!ref.empty() && ref[0] == '#') {
      uint32_t cp = 0;
      const bool hex = ref.size() > 1 && (ref[1] == 'x' || ref[1] == 'X');
      const std::string_view digits = ref.substr(hex ? 2 : 1);
      bool ok = !digits.empty();
      for (char c : digits) {
        const int v = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                      : hex && std::isxdigit(static_cast<unsigned char>(c))
                          ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                          : -1;
        if (v < 0 || cp > 0x10FFFF) {
          ok = false;
          break;
        }
        cp = cp * (hex ? 16 : 10) + static_cast<uint32_t>(v);
      }
      if (ok && cp > 0 && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF)) {
        append_utf8(&out, cp);
        done = true;
      }
    } else {
      for (const Named& n : kNamed)
        if (ref == n.name) {
          append_utf8(&out, n.cp);
          done = true;
          break;
        }
    }
    if (done) {
      i = semi + 1;
    } else {
      out.push_back(s[i++]);
    }
  }
  return out;
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
  size_t next_text = 0;
  for (size_t i = 0; i < doc->pieces.size(); ++i) {
    std::string& piece = doc->pieces[i];
    if (next_text >= doc->text.size() || doc->text[next_text] != i) {
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

Segmented segment_html(std::string_view html) {
  Segmented doc;
  doc.html = true;
  size_t i = 0;
  std::string_view raw_end;  // inside a raw element: its closing tag name
  while (i < html.size()) {
    if (!raw_end.empty()) {
      // Raw element content ends at its closing tag ('<' inside it is not a tag).
      size_t close = i;
      while ((close = html.find("</", close)) != std::string_view::npos &&
             !iequals_prefix(html, close + 2, raw_end))
        close += 2;
      const size_t end = close == std::string_view::npos ? html.size() : close;
      if (end > i) doc.pieces.emplace_back(html.substr(i, end - i));
      i = end;
      if (close == std::string_view::npos) break;
    }
    if (html[i] != '<') {
      const size_t lt = html.find('<', i);
      const size_t end = lt == std::string_view::npos ? html.size() : lt;
      const std::string_view chunk = html.substr(i, end - i);
      if (raw_end.empty()) {
        // Text nodes are translated decoded; the whitespace around them stays as written.
        size_t b = 0, e = chunk.size();
        while (b < e && is_space(chunk[b])) ++b;
        while (e > b && is_space(chunk[e - 1])) --e;
        if (b == e) {
          doc.pieces.emplace_back(chunk);
        } else {
          if (b > 0) doc.pieces.emplace_back(chunk.substr(0, b));
          doc.text.push_back(doc.pieces.size());
          doc.pieces.push_back(decode_entities(chunk.substr(b, e - b)));
          if (e < chunk.size()) doc.pieces.emplace_back(chunk.substr(e));
        }
      } else {
        doc.pieces.emplace_back(chunk);
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
    doc.pieces.emplace_back(tag);
    i = end;
  }
  return doc;
}

std::string reassemble(const Segmented& doc, const std::vector<std::string>& translations) {
  std::string out;
  size_t next = 0;
  for (size_t p = 0; p < doc.pieces.size(); ++p) {
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
