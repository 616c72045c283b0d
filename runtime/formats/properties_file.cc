#include "runtime/formats/properties_file.h"

#include <algorithm>

#include "runtime/core/utf8.h"
#include "runtime/formats/text_kind.h"
#include "runtime/text/text_encoding.h"

namespace edgemt {
namespace {

constexpr uint32_t kDoubledApostrophes = 1;  // a MessageFormat pattern: ' written ''

// Java's white space between a key, its separator and its value.
constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\f'; }
constexpr bool is_line_end(char c) { return c == '\n' || c == '\r'; }

// A logical line from t[i] (its first character after its leading spaces): its bytes with
// each continuation (a '\' before the line's end, and the next line's leading spaces)
// left out, each byte's offset in t, and where it ends (its line end, or t's end).
struct LogicalLine {
  std::string bytes;
  std::vector<size_t> at;
  size_t end = 0;
};

LogicalLine read_logical_line(std::string_view t, size_t i) {
  LogicalLine l;
  while (i < t.size() && !is_line_end(t[i])) {
    if (t[i] != '\\') {
      l.bytes.push_back(t[i]);
      l.at.push_back(i++);
      continue;
    }
    if (i + 1 >= t.size()) {  // a '\' at the file's end: nothing (as Java reads it)
      ++i;
      break;
    }
    if (is_line_end(t[i + 1])) {  // continued on the next line
      i += t.substr(i + 1, 2) == "\r\n" ? 3 : 2;
      while (i < t.size() && is_space(t[i])) ++i;
      continue;
    }
    for (int k = 0; k < 2; ++k) {  // an escape: both bytes
      l.bytes.push_back(t[i]);
      l.at.push_back(i++);
    }
  }
  l.end = i;
  return l;
}

// `s` with Java's escapes decoded; false for a malformed \u escape or a lone surrogate.
bool unescape(std::string_view s, std::string* out) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out->push_back(s[i]);
      continue;
    }
    if (++i >= s.size()) break;
    switch (s[i]) {
      case 't':
        out->push_back('\t');
        break;
      case 'n':
        out->push_back('\n');
        break;
      case 'r':
        out->push_back('\r');
        break;
      case 'f':
        out->push_back('\f');
        break;
      case 'u': {
        auto unit = [&](size_t j) -> int32_t {  // the code unit of "\uXXXX" at s[j], or -1
          if (j + 6 > s.size() || s[j] != '\\' || s[j + 1] != 'u') return -1;
          int32_t v = 0;
          for (size_t k = j + 2; k < j + 6; ++k) {
            const int d = hex_digit_value(s[k]);
            if (d < 0) return -1;
            v = v * 16 + d;
          }
          return v;
        };
        const int32_t u = unit(i - 1);
        if (u < 0) return false;
        i += 4;
        uint32_t cp = static_cast<uint32_t>(u);
        if (is_high_surrogate(cp)) {
          const int32_t low = unit(i + 1);
          if (low < 0 || !is_low_surrogate(static_cast<uint32_t>(low))) return false;
          cp = surrogate_pair_code_point(cp, static_cast<uint32_t>(low));
          i += 6;
        } else if (is_surrogate(cp)) {
          return false;
        }
        append_utf8(cp, out);
        break;
      }
      default:
        out->push_back(s[i]);
    }
  }
  return true;
}

// A MessageFormat argument: '{', digits, then '}' or ','.
bool has_message_argument(std::string_view s) {
  for (size_t i = s.find('{'); i != std::string_view::npos; i = s.find('{', i + 1)) {
    size_t j = i + 1;
    while (j < s.size() && s[j] == ' ') ++j;
    const size_t digits = j;
    while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
    while (j < s.size() && s[j] == ' ') ++j;
    if (j > digits && j < s.size() && (s[j] == '}' || s[j] == ',')) return true;
  }
  return false;
}

// A MessageFormat choice argument ("{0,choice,0#none|1#one}"): kept, not translated.
bool has_choice_format(std::string_view s) {
  for (size_t i = s.find("choice"); i != std::string_view::npos; i = s.find("choice", i + 1)) {
    size_t b = i;
    while (b > 0 && s[b - 1] == ' ') --b;
    size_t e = i + 6;
    while (e < s.size() && s[e] == ' ') ++e;
    if (b > 0 && s[b - 1] == ',' && e < s.size() && s[e] == ',') return true;
  }
  return false;
}

std::string replace_all(std::string_view s, std::string_view from, std::string_view to) {
  std::string out;
  for (size_t i = 0;;) {
    const size_t j = s.find(from, i);
    out.append(s.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
    if (j == std::string_view::npos) return out;
    out.append(to);
    i = j + from.size();
  }
}

void append_escaped(std::string_view s, bool ascii, std::string* out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  auto u = [&](uint32_t v) {
    *out += "\\u";
    for (int sh = 12; sh >= 0; sh -= 4) out->push_back(kHex[(v >> sh) & 0xF]);
  };
  for (size_t i = 0; i < s.size();) {
    const Utf8Char c = decode_utf8(s, i);
    const bool first = i == 0;
    i += c.length;
    switch (c.code_point) {
      case '\\':
        *out += "\\\\";
        continue;
      case '\n':
        *out += "\\n";
        continue;
      case '\r':
        *out += "\\r";
        continue;
      case '\t':
        *out += "\\t";
        continue;
      case '\f':
        *out += "\\f";
        continue;
      case ' ':
        *out += first ? "\\ " : " ";  // a leading space is a space of the value's
        continue;
      default:
        break;
    }
    if (c.code_point < 0x20 || c.code_point == 0x7F || (c.code_point >= 0x80 && (ascii || !c.well_formed))) {
      if (c.well_formed)
        for_each_utf16_unit(c.code_point, u);
      else
        u(0xFFFD);  // (translations are UTF-8: not reached)
    } else {
      out->append(s.substr(i - c.length, c.length));
    }
  }
}

}  // namespace

PropertiesFile PropertiesFile::parse(std::string_view text) {
  PropertiesFile f;
  f.ascii_ =
      std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  size_t at = 0;  // the bytes before it are in pieces_
  for (size_t i = text.starts_with("\xEF\xBB\xBF") ? 3 : 0; i < text.size();) {
    while (i < text.size() && is_space(text[i])) ++i;
    if (i >= text.size()) break;
    if (is_line_end(text[i])) {  // a blank line
      ++i;
      continue;
    }
    if (text[i] == '#' || text[i] == '!') {  // a comment, to its line's end (never continued)
      while (i < text.size() && !is_line_end(text[i])) ++i;
      continue;
    }
    const LogicalLine line = read_logical_line(text, i);
    i = line.end;
    const std::string& l = line.bytes;
    // The key: to the first '=', ':' or space not escaped; then the separator.
    size_t k = 0;
    while (k < l.size() && l[k] != '=' && l[k] != ':' && !is_space(l[k])) k += l[k] == '\\' ? 2 : 1;
    k = std::min(k, l.size());
    size_t v = k;
    while (v < l.size() && is_space(l[v])) ++v;
    if (v < l.size() && (l[v] == '=' || l[v] == ':')) ++v;
    while (v < l.size() && is_space(l[v])) ++v;
    if (v >= l.size()) continue;  // no value
    std::string key, value;
    if (!unescape(std::string_view(l).substr(0, k), &key) ||
        !unescape(std::string_view(l).substr(v), &value) || !is_valid_utf8(value))
      continue;
    const size_t dot = key.find_last_of('.');
    if (key_names_a_code(dot == std::string::npos ? key : key.substr(dot + 1))) continue;
    const TrimmedText t = trim_text(value, is_ascii_space);
    if (t.core.empty() || !holds_words(t.core) || is_literal(t.core) || has_choice_format(t.core)) continue;
    auto m = IcuMessage::parse(t.core);
    if (!m && IcuMessage::has_choice_argument(t.core)) continue;  // an ICU message not taken apart: kept
    uint32_t mark = 0;
    std::string plain(t.core);
    if (!m && has_message_argument(t.core)) {
      const std::string without = replace_all(t.core, "''", "");
      if (without.find('\'') == std::string::npos) {
        mark = kDoubledApostrophes;
        plain = replace_all(t.core, "''", "'");
      }
    }
    f.pieces_.keep(text.substr(at, line.at[v] - at));
    f.pieces_.add_unit({t.before, plain, t.after}, static_cast<uint32_t>(f.values_.size()));
    Value val;
    val.raw.assign(text.substr(line.at[v], line.end - line.at[v]));
    val.doubled_apostrophes = mark == kDoubledApostrophes;
    at = line.end;
    val.first = f.units_.size();
    if (m) {
      val.message = f.messages_.size();
      f.units_.insert(f.units_.end(), m->units().begin(), m->units().end());
      f.messages_.push_back(std::move(*m));
    } else {
      f.units_.push_back(std::move(plain));
    }
    f.values_.push_back(val);
  }
  f.pieces_.keep(text.substr(at));
  return f;
}

std::string PropertiesFile::render(const std::vector<std::string>& translations,
                                   std::string_view language) const {
  std::vector<std::string> values(values_.size());
  std::vector<bool> kept(values_.size());  // no translation: the value's bytes as they were
  for (size_t i = 0; i < values_.size(); ++i) {
    const Value& v = values_[i];
    if (v.message == SIZE_MAX) {
      kept[i] = v.first >= translations.size() || translations[v.first].empty();
      if (!kept[i]) values[i] = translations[v.first];
      continue;
    }
    kept[i] = v.first >= translations.size();
    values[i] = messages_[v.message].render_from(translations, v.first, language);
  }
  return pieces_.render(values, [&](const std::string& value, uint32_t i, std::string* out) {
    if (kept[i])
      *out += values_[i].raw;
    else
      append_escaped(values_[i].doubled_apostrophes ? replace_all(value, "'", "''") : value, ascii_, out);
  });
}

}  // namespace edgemt
