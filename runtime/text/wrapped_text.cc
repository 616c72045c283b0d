#include "runtime/text/wrapped_text.h"

#include <algorithm>
#include <utility>

#include "runtime/text/lines.h"

namespace edgemt {
namespace {

bool is_blank(std::string_view s) { return s.find_first_not_of(" \t\r\f\v") == std::string_view::npos; }

std::string_view indent_of(std::string_view line) {
  return line.substr(0, std::min(line.size(), line.find_first_not_of(" \t")));
}

std::string_view first_word(std::string_view line) {
  const size_t b = line.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  const size_t e = line.find_first_of(" \t", b);
  return line.substr(b, (e == std::string_view::npos ? line.size() : e) - b);
}

// "- ", "* ", "+ ", "• ", "1. ", "12) ", "a) ": a list item starts the line.
bool starts_list_item(std::string_view line) {
  const size_t b = line.find_first_not_of(" \t");
  if (b == std::string_view::npos) return false;
  std::string_view s = line.substr(b);
  auto spaced = [&](size_t n) { return s.size() > n && (s[n] == ' ' || s[n] == '\t'); };
  if ((s[0] == '-' || s[0] == '*' || s[0] == '+') && spaced(1)) return true;
  if (s.substr(0, 3) == "\xE2\x80\xA2" && spaced(3)) return true;  // •
  size_t d = 0;
  while (d < s.size() && d < 3 && s[d] >= '0' && s[d] <= '9') ++d;
  if (d == 0 && s.size() > 1 && ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')) && s[1] == ')')
    return spaced(2);
  return d > 0 && d < s.size() && (s[d] == '.' || s[d] == ')') && spaced(d + 1);
}

// Ends a sentence: '.', '!', '?' or '…', then perhaps closing quotes or brackets.
bool ends_sentence(std::string_view line) {
  size_t e = line.find_last_not_of(" \t");
  if (e == std::string_view::npos) return false;
  line = line.substr(0, e + 1);
  for (;;) {  // closing quotes and brackets
    static constexpr std::string_view kClosers[] = {
        ")", "]", "\"", "'", "\xC2\xBB", "\xE2\x80\x9C", "\xE2\x80\x9D", "\xE2\x80\x99"};
    bool cut = false;
    for (std::string_view c : kClosers) {
      if (line.size() > c.size() && line.substr(line.size() - c.size()) == c) {
        line.remove_suffix(c.size());
        cut = true;
        break;
      }
    }
    if (!cut) break;
  }
  if (line.empty()) return false;
  const char last = line.back();
  return last == '.' || last == '!' || last == '?' ||
         (line.size() >= 3 && line.substr(line.size() - 3) == "\xE2\x80\xA6");
}

// Below this width lines are not taken for wrapped prose (a list of short items).
constexpr size_t kMinWrapWidth = 30;

}  // namespace

WrappedText WrappedText::parse(std::string_view text) {
  WrappedText d;
  const std::vector<LineSpan> lines = split_lines(text);
  auto body = [&](size_t i) { return text.substr(lines[i].begin, lines[i].body_end - lines[i].begin); };
  auto end_of = [&](size_t i) { return text.substr(lines[i].body_end, lines[i].end - lines[i].body_end); };
  // The width: what most long lines reach (the 90th percentile of the lines' widths, so
  // that a long URL or an unwrapped line does not set it).
  std::vector<size_t> widths;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!is_blank(body(i))) widths.push_back(count_utf8_chars(body(i)));
  }
  if (!widths.empty()) {
    std::sort(widths.begin(), widths.end());
    d.width_ = widths[((widths.size() - 1) * 9 + 9) / 10];
  }
  auto continues = [&](size_t i) {  // line i was wrapped into line i + 1
    if (d.width_ < kMinWrapWidth || i + 1 >= lines.size() || is_blank(body(i)) || is_blank(body(i + 1)))
      return false;
    // A line that ends a sentence ends the unit: harmless in a paragraph (the sentences
    // are translated one by one anyway), and it keeps a file of one sentence a line as it is.
    if (ends_sentence(body(i))) return false;
    const std::string_view next = body(i + 1);
    if (starts_list_item(next) || indent_of(next).size() > indent_of(body(i)).size()) return false;
    // Wrapped by hand or by a tool that counts differently: within a tenth of the width.
    return 10 * (count_utf8_chars(body(i)) + 1 + count_utf8_chars(first_word(next))) > 9 * d.width_;
  };
  for (size_t i = 0; i < lines.size();) {
    if (is_blank(body(i))) {
      Piece p;
      p.verbatim = std::string(text.substr(lines[i].begin, lines[i].end - lines[i].begin));
      d.pieces_.push_back(std::move(p));
      ++i;
      continue;
    }
    size_t j = i + 1;
    while (continues(j - 1)) ++j;
    Piece p;
    p.unit = d.units_.size();
    p.lines = j - i;
    p.first_indent = std::string(indent_of(body(i)));
    p.next_indent = std::string(j > i + 1 ? indent_of(body(i + 1)) : indent_of(body(i)));
    std::string unit;
    for (size_t k = i; k < j; ++k) {
      const std::string_view b = body(k);
      p.wrap = std::max(p.wrap, count_utf8_chars(b));
      p.line_ends.emplace_back(end_of(k));
      p.original.append(text.substr(lines[k].begin, lines[k].end - lines[k].begin));
      const size_t s = b.find_first_not_of(" \t");
      const size_t e = b.find_last_not_of(" \t");
      if (!unit.empty()) unit += ' ';
      unit.append(b.substr(s, e + 1 - s));
    }
    d.units_.push_back(std::move(unit));
    d.pieces_.push_back(std::move(p));
    i = j;
  }
  return d;
}

std::string WrappedText::render(const std::vector<std::string>& translations) const {
  std::string out;
  for (const Piece& p : pieces_) {
    if (p.unit == std::string::npos) {
      out += p.verbatim;
      continue;
    }
    std::string_view t = p.unit < translations.size() ? std::string_view(translations[p.unit]) : "";
    // A translation is one line: its line breaks (none are expected) become spaces.
    std::string text(t);
    for (char& c : text) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    if (is_blank(text)) {
      out += p.original;  // nothing came back: the lines as they were
      continue;
    }
    // One line stays one line; the lines of a wrapped paragraph are wrapped again.
    std::vector<std::string> lines =
        wrap_words(text, count_utf8_chars(p.first_indent), count_utf8_chars(p.next_indent),
                   p.lines > 1 ? p.wrap : std::string::npos, [](std::string_view) { return true; });
    for (size_t k = 0; k < lines.size(); ++k) lines[k].insert(0, k == 0 ? p.first_indent : p.next_indent);
    for (size_t k = 0; k < lines.size(); ++k) {
      out += lines[k];
      // More lines than before (p.lines > 1 then): a middle line takes a middle line's end,
      // never the last line's, which may be none.
      out += k + 1 < lines.size() ? p.line_ends[std::min(k, p.line_ends.size() - 2)] : p.line_ends.back();
    }
  }
  return out;
}

}  // namespace edgemt
