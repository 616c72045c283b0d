#include "runtime/formats/markdown.h"

#include <cctype>
#include <cstdint>

#include "runtime/core/utf8.h"
#include "runtime/text/lines.h"

namespace edgemt {
namespace {

bool is_blank(std::string_view s) {
  for (char c : s)
    if (c != ' ' && c != '\t') return false;
  return true;
}

// Columns of leading whitespace (a tab to the next multiple of 4) and its bytes.
size_t indent_of(std::string_view s, size_t* bytes) {
  size_t col = 0, i = 0;
  for (; i < s.size() && (s[i] == ' ' || s[i] == '\t'); ++i) col = s[i] == '\t' ? (col / 4 + 1) * 4 : col + 1;
  *bytes = i;
  return col;
}

size_t run_of(std::string_view s, size_t i, char c) {
  size_t n = 0;
  while (i + n < s.size() && s[i + n] == c) ++n;
  return n;
}

// A code fence opening: ``` or ~~~ (3 or more), indented at most 3; its char and length.
bool fence_open(std::string_view line, char* c, size_t* len) {
  size_t b = 0;
  if (indent_of(line, &b) > 3 || b >= line.size()) return false;
  const char f = line[b];
  if (f != '`' && f != '~') return false;
  const size_t n = run_of(line, b, f);
  if (n < 3) return false;
  if (f == '`' && line.substr(b + n).find('`') != std::string_view::npos) return false;
  *c = f;
  *len = n;
  return true;
}

bool fence_close(std::string_view line, char c, size_t len) {
  size_t b = 0;
  if (indent_of(line, &b) > 3) return false;
  const size_t n = run_of(line, b, c);
  return n >= len && is_blank(line.substr(b + n));
}

bool thematic_break(std::string_view s) {
  size_t b = 0;
  if (indent_of(s, &b) > 3 || b >= s.size()) return false;
  const char c = s[b];
  if (c != '-' && c != '*' && c != '_') return false;
  size_t n = 0;
  for (size_t i = b; i < s.size(); ++i) {
    if (s[i] == c)
      ++n;
    else if (s[i] != ' ' && s[i] != '\t')
      return false;
  }
  return n >= 3;
}

bool setext_underline(std::string_view s) {
  size_t b = 0;
  if (indent_of(s, &b) > 3 || b >= s.size() || (s[b] != '=' && s[b] != '-')) return false;
  const size_t n = run_of(s, b, s[b]);
  return is_blank(s.substr(b + n));
}

bool html_block_start(std::string_view s) {
  size_t b = 0;
  if (indent_of(s, &b) > 3 || b + 1 >= s.size() || s[b] != '<') return false;
  const char c = s[b + 1];
  return std::isalpha(static_cast<unsigned char>(c)) || c == '/' || c == '!' || c == '?';
}

bool link_definition(std::string_view s) {
  size_t b = 0;
  if (indent_of(s, &b) > 3 || b >= s.size() || s[b] != '[') return false;
  const size_t close = s.find("]:", b);
  return close != std::string_view::npos && close > b + 1 &&
         s.substr(b, close - b).find(']') == std::string_view::npos;
}

// A table delimiter row: | :--- | ---: | (pipes optional at the ends).
bool table_delimiter(std::string_view s) {
  size_t cells = 0, i = 0;
  bool pipe = false;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i >= s.size()) break;
    if (s[i] == '|') {
      pipe = true;
      ++i;
      continue;
    }
    if (s[i] == ':') ++i;
    const size_t d = run_of(s, i, '-');
    if (d == 0) return false;
    i += d;
    if (i < s.size() && s[i] == ':') ++i;
    ++cells;
  }
  return cells > 0 && (pipe || cells > 1);
}

// Block quote markers and a list marker at the start of a line: the prefix's length
// (0: none). *list set when a list marker is part of it.
size_t container_prefix(std::string_view s, bool* list) {
  size_t i = 0;
  *list = false;
  for (;;) {
    size_t b = 0;
    const size_t col = indent_of(s.substr(i), &b);
    if (col > 3 && !*list) break;
    const size_t j = i + b;
    if (j < s.size() && s[j] == '>') {
      i = j + 1;
      if (i < s.size() && s[i] == ' ') ++i;
      continue;
    }
    if (*list) break;
    // - * + or 1. 1) followed by a space (or the end of the line).
    size_t m = j;
    if (m < s.size() && (s[m] == '-' || s[m] == '*' || s[m] == '+')) {
      ++m;
    } else {
      size_t d = 0;
      while (m + d < s.size() && d < 9 && std::isdigit(static_cast<unsigned char>(s[m + d]))) ++d;
      if (d == 0 || m + d >= s.size() || (s[m + d] != '.' && s[m + d] != ')')) break;
      m += d + 1;
    }
    if (m < s.size() && s[m] != ' ' && s[m] != '\t') break;
    while (m < s.size() && (s[m] == ' ' || s[m] == '\t')) ++m;
    // A task list box: "[ ] " or "[x] ".
    if (m + 3 < s.size() && s[m] == '[' && (s[m + 1] == ' ' || s[m + 1] == 'x' || s[m + 1] == 'X') &&
        s[m + 2] == ']' && s[m + 3] == ' ')
      m += 4;
    i = m;
    *list = true;
  }
  return i;
}

// A word that would start a block if it began a line.
bool starts_block(std::string_view w) {
  if (w.empty()) return false;
  if (w[0] == '#' || w[0] == '>' || w == "-" || w == "+" || w == "*" || w[0] == '=' || w[0] == '|')
    return true;
  size_t d = 0;
  while (d < w.size() && std::isdigit(static_cast<unsigned char>(w[d]))) ++d;
  return d > 0 && d + 1 == w.size() && (w[d] == '.' || w[d] == ')');
}

void escape_into(char c, std::string* out) {
  if (c == '&')
    *out += "&amp;";
  else if (c == '<')
    *out += "&lt;";
  else if (c == '>')
    *out += "&gt;";
  else
    out->push_back(c);
}

// A code span starting at md[i] (a backtick run): its end, or npos.
size_t code_span_end(std::string_view md, size_t i) {
  const size_t n = run_of(md, i, '`');
  for (size_t j = i + n; j < md.size();) {
    if (md[j] != '`') {
      ++j;
      continue;
    }
    const size_t m = run_of(md, j, '`');
    if (m == n) return j + m;
    j += m;
  }
  return std::string_view::npos;
}

// [text](dest) or [text][ref] at md[i] == '[': the text's end (its ']') and the link's end.
bool parse_link(std::string_view md, size_t i, size_t* text_end, size_t* end) {
  int depth = 0;
  size_t j = i;
  for (; j < md.size(); ++j) {
    const char c = md[j];
    if (c == '\\') {
      ++j;
      continue;
    }
    if (c == '`') {
      const size_t e = code_span_end(md, j);
      if (e != std::string_view::npos) j = e - 1;
      continue;
    }
    if (c == '[') ++depth;
    if (c == ']' && --depth == 0) break;
  }
  if (j >= md.size() || j + 1 >= md.size()) return false;
  *text_end = j;
  size_t k = j + 1;
  if (md[k] == '(') {
    int parens = 0;
    for (; k < md.size(); ++k) {
      if (md[k] == '\\') {
        ++k;
        continue;
      }
      if (md[k] == '(') ++parens;
      if (md[k] == ')' && --parens == 0) break;
    }
    if (k >= md.size()) return false;
    *end = k + 1;
    return true;
  }
  if (md[k] == '[') {
    const size_t close = md.find(']', k);
    if (close == std::string_view::npos) return false;
    *end = close + 1;
    return true;
  }
  return false;
}

size_t add_original(std::vector<std::string>* originals, std::string_view s) {
  originals->emplace_back(s);
  return originals->size() - 1;
}

std::string placeholder(std::vector<std::string>* originals, std::string_view s) {
  return "<img data-md=\"" + std::to_string(add_original(originals, s)) + "\">";
}

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || (static_cast<unsigned char>(c) >= 0x80);
}

// The closing marker of emphasis opened at md[i] with `marker` (* _ ** __), or npos.
size_t emphasis_close(std::string_view md, size_t i, std::string_view marker) {
  const size_t open_end = i + marker.size();
  if (open_end >= md.size() || md[open_end] == ' ' || md[open_end] == '\t') return std::string_view::npos;
  if (marker[0] == '_' && i > 0 && word_char(md[i - 1])) return std::string_view::npos;
  for (size_t j = open_end + 1; j + marker.size() <= md.size(); ++j) {
    if (md[j] == '\\') {
      ++j;
      continue;
    }
    if (md[j] == '`') {
      const size_t e = code_span_end(md, j);
      if (e != std::string_view::npos) j = e - 1;
      continue;
    }
    if (md.substr(j, marker.size()) != marker) continue;
    if (md[j - 1] == ' ' || md[j - 1] == '\t') continue;
    const size_t after = j + marker.size();
    if (marker.size() == 1 && after < md.size() && md[after] == marker[0]) {  // part of a longer run
      j = after;
      continue;
    }
    if (marker[0] == '_' && after < md.size() && word_char(md[after])) continue;
    return j;
  }
  return std::string_view::npos;
}

void to_html(std::string_view md, std::vector<std::string>* originals, std::string* out) {
  for (size_t i = 0; i < md.size();) {
    const char c = md[i];
    if (c == '`') {
      const size_t e = code_span_end(md, i);
      const size_t stop = e == std::string_view::npos ? i + run_of(md, i, '`') : e;
      for (size_t k = i; k < stop; ++k) escape_into(md[k], out);
      i = stop;
      continue;
    }
    if (c == '\\' && i + 1 < md.size() && std::ispunct(static_cast<unsigned char>(md[i + 1]))) {
      *out += placeholder(originals, md.substr(i, 2));
      i += 2;
      continue;
    }
    size_t text_end = 0, end = 0;
    if (c == '!' && i + 1 < md.size() && md[i + 1] == '[' && parse_link(md, i + 1, &text_end, &end)) {
      *out += placeholder(originals, md.substr(i, end - i));
      i = end;
      continue;
    }
    if (c == '[' && parse_link(md, i, &text_end, &end) && text_end > i + 1) {
      const size_t k = add_original(originals, md.substr(text_end, end - text_end));
      *out += "<a href=\"" + std::to_string(k) + "\">";
      to_html(md.substr(i + 1, text_end - i - 1), originals, out);
      *out += "</a>";
      i = end;
      continue;
    }
    if (c == '<') {
      const size_t close = md.find('>', i);
      if (close != std::string_view::npos && close > i + 1 &&
          (std::isalpha(static_cast<unsigned char>(md[i + 1])) || md[i + 1] == '/' || md[i + 1] == '!') &&
          md.substr(i, close - i).find('<', 1) == std::string_view::npos) {
        const std::string_view tag = md.substr(i, close + 1 - i);
        // Raw inline HTML (<kbd>, </kbd>, <br/>) goes through as itself, so that the HTML
        // path keeps its elements paired; an autolink (<https://...>) is a placeholder.
        size_t k = tag[1] == '/' ? 2 : 1;
        while (k < tag.size() && std::isalnum(static_cast<unsigned char>(tag[k]))) ++k;
        const bool element = k > (tag[1] == '/' ? 2u : 1u) && k < tag.size() &&
                             (tag[k] == '>' || tag[k] == ' ' || tag[k] == '/' || tag[k] == '\t');
        if (element && tag.find('"') == std::string_view::npos && tag.rfind("<img", 0) != 0 &&
            tag.rfind("<a ", 0) != 0 && tag.rfind("<em", 0) != 0 && tag.rfind("<strong", 0) != 0 &&
            tag.rfind("</a>", 0) != 0 && tag.rfind("</em", 0) != 0 && tag.rfind("</strong", 0) != 0)
          out->append(tag);
        else
          *out += placeholder(originals, tag);
        i = close + 1;
        continue;
      }
    }
    if (c == '*' || c == '_') {
      const size_t n = run_of(md, i, c);
      const std::string marker(n >= 2 ? 2 : 1, c);
      const size_t close = emphasis_close(md, i, marker);
      if (close != std::string_view::npos) {
        const char* tag = n >= 2 ? "strong" : "em";
        const size_t k = add_original(originals, marker);
        *out += std::string("<") + tag + " data-md=\"" + std::to_string(k) + "\">";
        to_html(md.substr(i + marker.size(), close - i - marker.size()), originals, out);
        *out += std::string("</") + tag + ">";
        i = close + marker.size();
        continue;
      }
      for (size_t k = 0; k < n; ++k) out->push_back(c);
      i += n;
      continue;
    }
    escape_into(c, out);
    ++i;
  }
}

}  // namespace

std::string markdown_inline_to_html(std::string_view md, std::vector<std::string>* originals) {
  std::string out;
  out.reserve(md.size() + md.size() / 4);
  to_html(md, originals, &out);
  return out;
}

std::string markdown_inline_from_html(std::string_view html, const std::vector<std::string>& originals) {
  std::string out;
  std::vector<size_t> open;  // originals of the open elements (a: its closing part)
  auto index = [&](std::string_view tag) -> size_t {
    const size_t q = tag.find('"');
    if (q == std::string_view::npos) return SIZE_MAX;
    size_t v = 0, k = q + 1;
    for (; k < tag.size() && std::isdigit(static_cast<unsigned char>(tag[k])); ++k)
      v = v * 10 + (tag[k] - '0');
    return k > q + 1 && v < originals.size() ? v : SIZE_MAX;
  };
  for (size_t i = 0; i < html.size();) {
    if (html[i] == '<') {
      const size_t close = html.find('>', i);
      if (close == std::string_view::npos) {
        out.append(html.substr(i));
        break;
      }
      const std::string_view tag = html.substr(i, close + 1 - i);
      i = close + 1;
      const size_t k = index(tag);
      if (tag.rfind("<img ", 0) == 0 && k != SIZE_MAX) {
        out += originals[k];
      } else if ((tag.rfind("<a ", 0) == 0 || tag.rfind("<em ", 0) == 0 || tag.rfind("<strong ", 0) == 0) &&
                 k != SIZE_MAX) {
        out += tag[1] == 'a' ? "[" : originals[k];
        open.push_back(k);
      } else if ((tag == "</a>" || tag == "</em>" || tag == "</strong>") && !open.empty()) {
        out += originals[open.back()];
        open.pop_back();
      } else {
        out += tag;
      }
      continue;
    }
    if (html[i] == '&') {
      static constexpr std::pair<std::string_view, char> kEntities[] = {
          {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}};
      bool done = false;
      for (const auto& [name, ch] : kEntities) {
        if (html.substr(i, name.size()) == name) {
          out.push_back(ch);
          i += name.size();
          done = true;
          break;
        }
      }
      if (done) continue;
    }
    out.push_back(html[i++]);
  }
  return out;
}

void MarkdownDocument::add_unit(std::string_view md, std::string first_prefix, std::string next_prefix,
                                size_t wrap, std::string after) {
  Piece p;
  p.unit = units_.size();
  p.first_prefix = std::move(first_prefix);
  p.next_prefix = std::move(next_prefix);
  p.wrap = wrap;
  p.after = std::move(after);
  originals_.emplace_back();
  units_.push_back(markdown_inline_to_html(md, &originals_.back()));
  pieces_.push_back(std::move(p));
}

MarkdownDocument MarkdownDocument::parse(std::string_view text) {
  MarkdownDocument d;
  std::vector<std::string_view> body, eol;
  for (const LineSpan& l : split_lines(text)) {
    body.push_back(text.substr(l.begin, l.body_end - l.begin));
    eol.push_back(text.substr(l.body_end, l.end - l.body_end));
  }
  auto verbatim = [&](size_t i) {
    Piece p;
    p.verbatim = std::string(body[i]) + std::string(eol[i]);
    d.pieces_.push_back(std::move(p));
  };
  const size_t n = body.size();
  size_t i = 0;
  // Front matter: "---" on the first line up to the next "---" or "...".
  if (n > 0 && body[0] == "---") {
    size_t j = 1;
    while (j < n && body[j] != "---" && body[j] != "...") ++j;
    if (j < n)
      for (; i <= j; ++i) verbatim(i);
  }
  bool prev_blank = true, in_list = false;
  while (i < n) {
    const std::string_view line = body[i];
    size_t ib = 0;
    const size_t ind = indent_of(line, &ib);
    if (is_blank(line)) {
      verbatim(i++);
      prev_blank = true;
      continue;
    }
    char fc = 0;
    size_t flen = 0;
    if (ind == 0 && container_prefix(line, &in_list) == 0) in_list = false;
    if (fence_open(line, &fc, &flen)) {
      verbatim(i++);
      while (i < n && !fence_close(body[i], fc, flen)) verbatim(i++);
      if (i < n) verbatim(i++);
      prev_blank = false;
      continue;
    }
    if (ind >= 4 && prev_blank && !in_list) {  // indented code
      while (i < n && (is_blank(body[i]) || indent_of(body[i], &ib) >= 4)) verbatim(i++);
      prev_blank = true;
      continue;
    }
    if (html_block_start(line)) {
      while (i < n && !is_blank(body[i])) verbatim(i++);
      prev_blank = false;
      continue;
    }
    if (link_definition(line) || thematic_break(line)) {
      verbatim(i++);
      prev_blank = false;
      in_list = false;
      continue;
    }
    // A table: a row with a pipe over a delimiter row, then its rows.
    if (line.find('|') != std::string_view::npos && i + 1 < n && table_delimiter(body[i + 1])) {
      for (bool header = true; i < n && !is_blank(body[i]) && body[i].find('|') != std::string_view::npos;
           header = false) {
        if (!header && table_delimiter(body[i]) && i > 0) {
          verbatim(i++);
          continue;
        }
        // Cells between unescaped pipes outside code spans.
        const std::string_view row = body[i];
        std::string pending;  // verbatim text before the next cell
        size_t cell = 0;
        auto flush_cell = [&](size_t end) {
          const std::string_view c = row.substr(cell, end - cell);
          const size_t b = c.find_first_not_of(" \t");
          if (b == std::string_view::npos) {
            pending.append(c);
          } else {
            const size_t e = c.find_last_not_of(" \t") + 1;
            d.add_unit(c.substr(b, e - b), pending + std::string(c.substr(0, b)), "", 0, "");
            pending = std::string(c.substr(e));
          }
        };
        for (size_t k = 0; k < row.size(); ++k) {
          if (row[k] == '\\') {
            ++k;
            continue;
          }
          if (row[k] == '`') {
            const size_t e = code_span_end(row, k);
            if (e != std::string_view::npos) k = e - 1;
            continue;
          }
          if (row[k] != '|') continue;
          flush_cell(k);
          pending += '|';
          cell = k + 1;
        }
        flush_cell(row.size());
        Piece p;
        p.verbatim = pending + std::string(eol[i]);
        d.pieces_.push_back(std::move(p));
        ++i;
      }
      prev_blank = false;
      continue;
    }
    // ATX heading.
    if (ind <= 3 && ib < line.size() && line[ib] == '#') {
      const size_t h = run_of(line, ib, '#');
      if (h <= 6 && (ib + h == line.size() || line[ib + h] == ' ' || line[ib + h] == '\t')) {
        size_t cb = ib + h;
        while (cb < line.size() && (line[cb] == ' ' || line[cb] == '\t')) ++cb;
        size_t ce = line.size();
        while (ce > cb && (line[ce - 1] == ' ' || line[ce - 1] == '\t')) --ce;
        size_t hashes = ce;  // an optional closing sequence of #, after a space
        while (hashes > cb && line[hashes - 1] == '#') --hashes;
        if (hashes < ce && hashes > cb && (line[hashes - 1] == ' ' || line[hashes - 1] == '\t')) {
          ce = hashes;
          while (ce > cb && (line[ce - 1] == ' ' || line[ce - 1] == '\t')) --ce;
        } else if (hashes == cb) {
          ce = cb;
        }
        if (ce > cb)
          d.add_unit(line.substr(cb, ce - cb), std::string(line.substr(0, cb)), "", 0,
                     std::string(line.substr(ce)) + std::string(eol[i]));
        else
          verbatim(i);
        ++i;
        prev_blank = false;
        in_list = false;
        continue;
      }
    }
    // A paragraph (in list items and block quotes too): its lines up to a blank line or
    // the start of another block.
    bool list = false;
    size_t pre = container_prefix(line, &list);
    if (pre == 0) pre = ib;
    in_list = list || (in_list && ind >= 2);
    std::string content(line.substr(pre));
    if (is_blank(content)) {  // a list item or quote marker alone on its line
      verbatim(i++);
      prev_blank = false;
      continue;
    }
    const std::string first_prefix(line.substr(0, pre));
    std::string next_prefix;
    size_t width = count_utf8_chars(line), lines = 1;
    size_t j = i + 1;
    bool setext = false;
    for (; j < n; ++j) {
      const std::string_view l = body[j];
      if (is_blank(l)) break;
      // A setext underline ends the paragraph as a heading, whatever its lines (CommonMark;
      // "---" here is an underline, not a thematic break).
      if (setext_underline(l) && pre == 0) {
        setext = true;
        break;
      }
      char c2 = 0;
      size_t len2 = 0;
      bool list2 = false;
      const size_t pre2 = container_prefix(l, &list2);
      auto quotes = [](std::string_view p) {
        size_t q = 0;
        for (char ch : p) q += ch == '>';
        return q;
      };
      // Fewer quote markers than the first line: a lazy continuation line (CommonMark), unless
      // the line starts a block of its own (below); more: a nested quote begins.
      const size_t q2 = quotes(l.substr(0, pre2)), q1 = quotes(first_prefix);
      if (list2 || q2 > q1 || fence_open(l, &c2, &len2) || html_block_start(l) || thematic_break(l) ||
          (l.find('|') != std::string_view::npos && j + 1 < n && table_delimiter(body[j + 1])))
        break;
      size_t b2 = 0;
      const size_t ind2 = indent_of(l, &b2);
      if (ind2 <= 3 && b2 < l.size() && l[b2] == '#') break;
      // A continuation line: its block quote markers and indentation are its prefix.
      size_t cp = pre2;
      if (cp == 0) cp = b2;
      // (A lazy line's prefix, without the quote markers, serves the wrapped lines too:
      // they stay lazy continuation lines, and an unchanged paragraph comes back as it was.)
      if (lines == 1) next_prefix = std::string(l.substr(0, cp));
      content += ' ';
      content.append(l.substr(cp));
      width = std::max(width, count_utf8_chars(l));
      ++lines;
    }
    // Trailing spaces (a hard line break) are not kept inside the joined paragraph.
    while (!content.empty() && (content.back() == ' ' || content.back() == '\t')) content.pop_back();
    if (content.empty()) {
      verbatim(i++);
      prev_blank = false;
      continue;
    }
    d.add_unit(content, first_prefix, next_prefix, lines > 1 ? width : 0, std::string(eol[j - 1]));
    i = j;
    if (setext) verbatim(i++);
    prev_blank = false;
  }
  return d;
}

std::string MarkdownDocument::render(const std::vector<std::string>& html) const {
  std::string out;
  for (const Piece& p : pieces_) {
    if (p.unit == std::string::npos) {
      out += p.verbatim;
      continue;
    }
    const std::string text =
        markdown_inline_from_html(p.unit < html.size() ? html[p.unit] : units_[p.unit], originals_[p.unit]);
    out += p.first_prefix;
    if (p.wrap == 0) {
      out += text;
    } else {
      // Words, greedily, up to the paragraph's widest line; a word that would start a
      // block at the start of a line stays on the line before.
      const std::string_view eol = p.after.size() >= 2 && p.after[p.after.size() - 2] == '\r' ? "\r\n" : "\n";
      const std::vector<std::string> lines =
          wrap_words(text, count_utf8_chars(p.first_prefix), count_utf8_chars(p.next_prefix), p.wrap,
                     [](std::string_view word) { return !starts_block(word); });
      for (size_t k = 0; k < lines.size(); ++k) {
        if (k > 0) {
          out += eol;
          out += p.next_prefix;
        }
        out += lines[k];
      }
    }
    out += p.after;
  }
  return out;
}

}  // namespace edgemt
