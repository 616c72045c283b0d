#include "runtime/formats/yaml_document.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "runtime/core/utf8.h"
#include "runtime/formats/plural_categories.h"
#include "runtime/formats/text_kind.h"
#include "runtime/formats/text_pieces.h"

namespace edgemt {
namespace {

// A line's content without its end ("\n", "\r\n").
std::string_view content_of(std::string_view line) {
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
  return line;
}

size_t indent_of(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  return i;
}

bool is_blank_or_comment(std::string_view content) {
  const size_t i = content.find_first_not_of(" \t");
  return i == std::string_view::npos || content[i] == '#';
}

// Plain scalars YAML (1.1, as Ruby's Psych reads it, and 1.2) reads as other than a string.
bool is_yaml_special(std::string_view s) {
  std::string l(s);
  for (char& c : l) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  static constexpr std::string_view kWords[] = {"true", "false", "yes",  "no", "on", "off",
                                                "y",    "n",     "null", "~",  "nil"};
  return std::find(std::begin(kWords), std::end(kWords), l) != std::end(kWords);
}

constexpr std::string_view kIndicators = "-?:,[]{}#&*!|>'\"%@`";

// A double-quoted scalar's text from s[0] (its quote): decoded into *out, and its length
// with both quotes; 0 where it does not close on the line.
size_t double_quoted(std::string_view s, std::string* out) {
  for (size_t i = 1; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"') return i + 1;
    if (c != '\\') {
      out->push_back(c);
      continue;
    }
    if (++i >= s.size()) return 0;
    auto hex = [&](size_t n) {
      uint32_t v = 0;
      for (size_t k = 0; k < n; ++k) {
        const int d = i + 1 + k < s.size() ? hex_digit_value(s[i + 1 + k]) : -1;
        if (d < 0) return UINT32_MAX;
        v = v * 16 + static_cast<uint32_t>(d);
      }
      i += n;
      return v;
    };
    uint32_t cp = UINT32_MAX;
    switch (s[i]) {
      case 'n':
        cp = '\n';
        break;
      case 't':
      case '\t':
        cp = '\t';
        break;
      case 'r':
        cp = '\r';
        break;
      case '0':
        cp = 0;
        break;
      case 'a':
        cp = 7;
        break;
      case 'b':
        cp = 8;
        break;
      case 'e':
        cp = 0x1B;
        break;
      case 'f':
        cp = 0x0C;
        break;
      case 'v':
        cp = 0x0B;
        break;
      case 'N':
        cp = 0x85;
        break;
      case '_':
        cp = 0xA0;
        break;
      case 'L':
        cp = 0x2028;
        break;
      case 'P':
        cp = 0x2029;
        break;
      case 'x':
        cp = hex(2);
        break;
      case 'u':
        cp = hex(4);
        break;
      case 'U':
        cp = hex(8);
        break;
      case '"':
      case '\\':
      case '/':
      case ' ':
        cp = static_cast<unsigned char>(s[i]);
        break;
      default:
        return 0;  // not YAML: kept as written
    }
    if (cp == UINT32_MAX || cp > 0x10FFFF || is_surrogate(cp)) return 0;
    append_utf8(cp, out);
  }
  return 0;
}

// A single-quoted scalar's text from s[0]: '' is a quote. As double_quoted.
size_t single_quoted(std::string_view s, std::string* out) {
  for (size_t i = 1; i < s.size(); ++i) {
    if (s[i] != '\'') {
      out->push_back(s[i]);
    } else if (i + 1 < s.size() && s[i + 1] == '\'') {
      out->push_back('\'');
      ++i;
    } else {
      return i + 1;
    }
  }
  return 0;
}

// Is only a comment (or nothing) left after a scalar?
bool only_comment(std::string_view rest) {
  const size_t i = rest.find_first_not_of(" \t");
  return i == std::string_view::npos || (rest[i] == '#' && i > 0);
}

// Can `t` be written as a plain scalar and read back as the same string?
bool plain_ok(std::string_view t) {
  if (t.empty() || kIndicators.find(t.front()) != std::string_view::npos || t.front() == ' ' ||
      t.back() == ' ' || t.back() == ':' || is_yaml_special(t))
    return false;
  if (t.find(": ") != std::string_view::npos || t.find(" #") != std::string_view::npos) return false;
  return std::none_of(t.begin(), t.end(),
                      [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; });
}

std::string double_quote(std::string_view t) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "\"";
  for (const char c : t) {
    const auto b = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (b < 0x20 || b == 0x7F) {
      out += "\\x";
      out.push_back(kHex[b >> 4]);
      out.push_back(kHex[b & 0xF]);
    } else {
      out.push_back(c);
    }
  }
  return out + "\"";
}

// `t` written as a scalar of `style`, or as near to it as it can be.
std::string scalar(std::string_view t, char style) {
  if (style == 0 && plain_ok(t)) return std::string(t);
  if (style == '\'' &&
      std::none_of(t.begin(), t.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; })) {
    std::string out = "'";
    for (const char c : t) out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
  }
  return double_quote(t);
}

// A top-level key that names a language ("en", "pt-BR", "zh_Hans").
bool is_language_key(std::string_view k) {
  const size_t sep = k.find_first_of("-_");
  const std::string_view primary = k.substr(0, sep);
  if (primary.size() < 2 || primary.size() > 3) return false;
  if (!std::all_of(primary.begin(), primary.end(), [](char c) { return c >= 'a' && c <= 'z'; })) return false;
  if (sep == std::string_view::npos) return true;
  const std::string_view rest = k.substr(sep + 1);
  return !rest.empty() && rest.size() <= 8 && std::all_of(rest.begin(), rest.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c));
  });
}

// A key at content[0]: its decoded name and where its value starts (past ':' and
// spaces); false where the line has no key this reader takes.
bool read_key(std::string_view content, std::string* key, size_t* value_at, bool* quoted) {
  size_t after = 0;
  *quoted = content[0] == '"' || content[0] == '\'';
  if (*quoted) {
    const size_t n = content[0] == '"' ? double_quoted(content, key) : single_quoted(content, key);
    if (n == 0 || n >= content.size() || content[n] != ':') return false;
    after = n + 1;
  } else {
    if (kIndicators.find(content[0]) != std::string_view::npos) return false;
    size_t colon = std::string_view::npos;
    for (size_t i = 0; i < content.size(); ++i) {
      if (content[i] == '#' && i > 0 && content[i - 1] == ' ') break;
      if (content[i] == ':' && (i + 1 == content.size() || content[i + 1] == ' ' || content[i + 1] == '\t')) {
        colon = i;
        break;
      }
    }
    if (colon == std::string_view::npos) return false;
    size_t e = colon;
    while (e > 0 && content[e - 1] == ' ') --e;
    key->assign(content.substr(0, e));
    after = colon + 1;
  }
  if (after < content.size() && content[after] != ' ' && content[after] != '\t') return false;
  while (after < content.size() && (content[after] == ' ' || content[after] == '\t')) ++after;
  *value_at = after;
  return true;
}

}  // namespace

YamlDocument YamlDocument::parse(std::string_view text) {
  YamlDocument d;
  for (size_t at = 0; at < text.size();) {
    const size_t nl = text.find('\n', at);
    const size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    Line l;
    l.text.assign(text.substr(at, end - at));
    d.lines_.push_back(std::move(l));
    at = end;
  }
  std::vector<size_t> top_keys;  // lines of keys at column 0
  // The next line after `i` that is not blank or a comment (lines_.size() if none), and
  // whether it is indented deeper than `column`.
  auto deeper_next = [&](size_t i, size_t column) {
    for (size_t j = i + 1; j < d.lines_.size(); ++j) {
      const std::string_view c = content_of(d.lines_[j].text);
      if (c.find_first_not_of(" \t") == std::string_view::npos) continue;
      return indent_of(c) > column;
    }
    return false;
  };
  // Past the lines deeper than `column` after line i (a value continued, a block).
  auto skip_deeper = [&](size_t i, size_t column) {
    size_t j = i + 1;
    for (; j < d.lines_.size(); ++j) {
      const std::string_view c = content_of(d.lines_[j].text);
      if (c.find_first_not_of(" \t") != std::string_view::npos && indent_of(c) <= column) break;
    }
    return j;
  };
  for (size_t i = 0; i < d.lines_.size();) {
    Line& line = d.lines_[i];
    const std::string_view content = content_of(line.text);
    const size_t first = i++;
    if (is_blank_or_comment(content) || content.starts_with("---") || content.starts_with("...") ||
        content.starts_with('%') || content[indent_of(content)] == '\t')
      continue;
    size_t col = indent_of(content);
    size_t owner = col;  // the column values continued on later lines are deeper than
    bool item = false;
    while (content.substr(col, 2) == "- " || (col + 1 == content.size() && content[col] == '-')) {
      owner = col;
      item = true;
      col += 1;
      while (col < content.size() && content[col] == ' ') ++col;
    }
    if (col >= content.size()) continue;
    std::string key;
    size_t value_at = col;
    bool quoted_key = false;
    const bool has_key = read_key(content.substr(col), &key, &value_at, &quoted_key);
    if (has_key) {
      value_at += col;
      owner = col;
      if (col == 0 && !item) top_keys.push_back(first);
    } else if (!item) {
      i = skip_deeper(first, owner);  // not understood (a complex key, a continued scalar): kept
      continue;
    }
    const std::string_view value = content.substr(value_at);
    if (value.empty() || value[0] == '#') {
      if (!has_key) continue;
      // A mapping or sequence follows. Plural forms: its members all "category: scalar".
      const size_t child = [&] {
        for (size_t j = first + 1; j < d.lines_.size(); ++j) {
          const std::string_view c = content_of(d.lines_[j].text);
          if (c.find_first_not_of(" \t") != std::string_view::npos) return indent_of(c);
        }
        return size_t{0};
      }();
      if (child <= col) continue;
      Plural p;
      p.indent.assign(child, ' ');
      bool plural = true;
      size_t other = SIZE_MAX;
      for (size_t j = first + 1; j < d.lines_.size() && plural; ++j) {
        const std::string_view c = content_of(d.lines_[j].text);
        if (c.find_first_not_of(" \t") == std::string_view::npos) continue;
        if (indent_of(c) <= col) break;
        std::string k;
        size_t v = 0;
        bool q = false;
        const uint8_t category = indent_of(c) == child && read_key(c.substr(child), &k, &v, &q) && !q
                                     ? plural_category_named(k)
                                     : 0;
        const std::string_view cv = category != 0 ? c.substr(child + v) : std::string_view();
        if (category == 0 || cv.empty() ||
            std::string_view("#|>[{&*!%@`").find(cv[0]) != std::string_view::npos || deeper_next(j, child)) {
          plural = false;
          break;
        }
        p.present |= category;
        if (category == kPluralOther) other = j;
      }
      if (plural && other != SIZE_MAX) {
        p.other_line = other;
        d.plurals_.push_back(std::move(p));
      }
      continue;
    }
    const bool code = has_key && key_names_a_code(key);
    const char c0 = value[0];
    if (c0 == '|' || c0 == '>') {  // a block scalar: its lines, deeper than its key
      const std::string_view header = value.substr(1);
      const size_t last = skip_deeper(first, owner);
      const bool plain_header = header.empty() || header == "-" || header == "+" || only_comment(header) ||
                                ((header[0] == '-' || header[0] == '+') && only_comment(header.substr(1)));
      if (!plain_header || code) {
        i = last;
        continue;
      }
      size_t block = SIZE_MAX;  // the block's indentation: its first line's
      for (size_t j = first + 1; j < last; ++j) {
        const std::string_view c = content_of(d.lines_[j].text);
        if (c.find_first_not_of(' ') != std::string_view::npos) {
          block = indent_of(c);
          break;
        }
      }
      for (size_t j = first + 1; j < last && block != SIZE_MAX; ++j) {
        const std::string_view c = content_of(d.lines_[j].text);
        if (c.find_first_not_of(' ') == std::string_view::npos || indent_of(c) != block) continue;
        std::string unit(c.substr(block));
        size_t k = j;
        if (c0 == '>') {  // a folded paragraph: its lines at the block's indentation, as one
          while (k + 1 < last) {
            const std::string_view n = content_of(d.lines_[k + 1].text);
            if (n.find_first_not_of(' ') == std::string_view::npos || indent_of(n) != block) break;
            unit += ' ';
            unit += n.substr(block);
            ++k;
          }
        }
        if (holds_words(unit) && !is_literal(unit)) {
          Line& l = d.lines_[j];
          l.unit = d.units_.size();
          l.begin = block;
          l.end = c.size();
          l.style = c0;
          for (size_t s = j + 1; s <= k; ++s) d.lines_[s].skip = true;
          d.units_.push_back(std::move(unit));
        }
        j = k;
      }
      i = last;
      continue;
    }
    if (deeper_next(first, owner)) {  // continued on the next lines: kept as written
      i = skip_deeper(first, owner);
      continue;
    }
    std::string decoded;
    size_t length = 0;
    if (c0 == '"' || c0 == '\'') {
      length = c0 == '"' ? double_quoted(value, &decoded) : single_quoted(value, &decoded);
      if (length == 0 || !only_comment(value.substr(length))) continue;
    } else if (c0 == '[' || c0 == '{' || c0 == '&' || c0 == '*' || c0 == '!' || c0 == '%' || c0 == '@' ||
               c0 == '`') {
      continue;
    } else {
      length = value.size();
      const size_t hash = value.find(" #");
      if (hash != std::string_view::npos) length = hash;
      while (length > 0 && (value[length - 1] == ' ' || value[length - 1] == '\t')) --length;
      decoded.assign(value.substr(0, length));
      if (is_yaml_special(decoded)) continue;
    }
    Line& l = d.lines_[first];
    l.begin = value_at;
    l.end = value_at + length;
    l.style = c0 == '"' || c0 == '\'' ? c0 : 0;
    const TrimmedText t = trim_text(decoded, is_ascii_space);
    if (code || !holds_words(t.core) || is_literal(t.core)) continue;
    l.unit = d.units_.size();
    l.before.assign(t.before);
    l.after.assign(t.after);
    d.units_.emplace_back(t.core);
  }
  if (top_keys.size() == 1) {
    const std::string_view c = content_of(d.lines_[top_keys[0]].text);
    const size_t colon = c.find(':');
    const std::string_view value = c.substr(colon + 1);
    if (is_language_key(c.substr(0, colon)) && (value.find_first_not_of(' ') == std::string_view::npos ||
                                                value[value.find_first_not_of(' ')] == '#')) {
      d.language_line_ = top_keys[0];
      d.language_key_size_ = colon;
    }
  }
  return d;
}

std::string YamlDocument::render(const std::vector<std::string>& translations,
                                 std::string_view language) const {
  const uint8_t categories = plural_categories(language);
  auto translated = [&](const Line& l) {
    return l.unit < translations.size() && !translations[l.unit].empty();
  };
  // A line's value as it is to be written: translated, or as it was.
  auto value = [&](const Line& l) {
    return translated(l) ? scalar(l.before + translations[l.unit] + l.after, l.style)
                         : l.text.substr(l.begin, l.end - l.begin);
  };
  std::string out;
  size_t plural = 0;
  for (size_t i = 0; i < lines_.size(); ++i) {
    const Line& l = lines_[i];
    while (plural < plurals_.size() && plurals_[plural].other_line < i) ++plural;
    if (plural < plurals_.size() && plurals_[plural].other_line == i && categories != 0) {
      const Plural& p = plurals_[plural];
      const std::string end = l.text.substr(content_of(l.text).size());
      for (const uint8_t c : kPluralCategories)
        if ((categories & c) != 0 && (p.present & c) == 0 && c != kPluralOther)
          out +=
              p.indent + std::string(plural_category_name(c)) + ": " + value(l) + (end.empty() ? "\n" : end);
    }
    if (i == language_line_ && !language.empty()) {
      out += std::string(language) + l.text.substr(language_key_size_);
      continue;
    }
    if (l.skip && l.unit == SIZE_MAX) {
      // A folded paragraph's later line: with its first where that was translated.
      size_t first = i;
      while (first > 0 && lines_[first].skip) --first;
      if (translated(lines_[first])) continue;
      out += l.text;
      continue;
    }
    if (!translated(l)) {
      out += l.text;
      continue;
    }
    out += l.text.substr(0, l.begin);
    std::string t = translations[l.unit];
    if (l.style == '|' || l.style == '>') {  // a block's line: its breaks as the block's lines
      const std::string indent = l.text.substr(0, l.begin);
      std::string lines;
      for (const char c : t) {
        if (c == '\n' || c == '\r')
          lines += l.style == '|' && c == '\n' ? "\n" + indent : (c == '\n' ? " " : "");
        else
          lines += c;
      }
      out += lines;
    } else {
      out += scalar(l.before + t + l.after, l.style);
    }
    out += l.text.substr(l.end);
  }
  return out;
}

}  // namespace edgemt
