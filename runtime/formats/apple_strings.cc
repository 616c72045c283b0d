#include "runtime/formats/apple_strings.h"

#include <string>

#include "runtime/core/utf8.h"
#include "runtime/formats/text_kind.h"
#include "runtime/text/text_encoding.h"

namespace edgemt {
namespace {

// What an unquoted string of an old-style property list holds.
constexpr bool is_unquoted(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         c == '+' || c == '/' || c == ':' || c == '.' || c == '-';
}

class Scanner {
 public:
  explicit Scanner(std::string_view t) : t_(t) {}

  // Past spaces and comments; false for a comment never closed.
  bool skip() {
    while (i_ < t_.size()) {
      if (is_ascii_space(t_[i_])) {
        ++i_;
      } else if (t_.substr(i_, 2) == "//") {
        while (i_ < t_.size() && t_[i_] != '\n' && t_[i_] != '\r') ++i_;
      } else if (t_.substr(i_, 2) == "/*") {
        const size_t close = t_.find("*/", i_ + 2);
        if (close == std::string_view::npos) return fail("a comment (/*) is never closed");
        i_ = close + 2;
      } else if (t_.substr(i_, 3) == "\xEF\xBB\xBF") {  // a byte order mark
        i_ += 3;
      } else {
        return true;
      }
    }
    return true;
  }

  struct String {
    size_t begin = 0, end = 0;  // in the text, quotes included
    char quote = 0;             // '"', '\'', or 0: unquoted
    std::string value;          // decoded
    bool ok = true;             // false: an escape this reader leaves alone (a lone surrogate)
  };

  // A string at the current position; `what` names it in an error.
  bool string(const char* what, String* s) {
    s->begin = i_;
    if (i_ >= t_.size()) return fail(std::string("expected ") + what + ", found the end of the file");
    const char q = t_[i_];
    if (q != '"' && q != '\'') {
      while (i_ < t_.size() && is_unquoted(t_[i_])) ++i_;
      if (i_ == s->begin)
        return fail(std::string("expected ") + what + " (a string in quotes), found '" +
                    printable(t_[i_]).append(1, '\''));
      s->value.assign(t_.substr(s->begin, i_ - s->begin));
      s->end = last_end_ = i_;
      return true;
    }
    s->quote = q;
    const size_t start_line = i_;
    for (++i_;; ++i_) {
      if (i_ >= t_.size()) {
        i_ = start_line;
        return fail(std::string(what) + " is a string never closed (its quote " + q + " has no partner)");
      }
      const char c = t_[i_];
      if (c == q) break;
      if (c != '\\') {
        s->value.push_back(c);
        continue;
      }
      if (++i_ >= t_.size()) continue;  // (the string's end: the error above)
      const char e = t_[i_];
      switch (e) {
        case 'n':
          s->value.push_back('\n');
          break;
        case 't':
          s->value.push_back('\t');
          break;
        case 'r':
          s->value.push_back('\r');
          break;
        case 'a':
          s->value.push_back('\a');
          break;
        case 'b':
          s->value.push_back('\b');
          break;
        case 'f':
          s->value.push_back('\f');
          break;
        case 'v':
          s->value.push_back('\v');
          break;
        case 'U':
        case 'u': {
          uint32_t cp = hex_unit();
          if (is_high_surrogate(cp) && t_.substr(i_ + 1, 2) == "\\U") {
            const size_t back = i_;
            i_ += 2;
            const uint32_t low = hex_unit();
            if (is_low_surrogate(low))
              cp = surrogate_pair_code_point(cp, low);
            else
              i_ = back;
          }
          if (is_surrogate(cp)) s->ok = false;
          append_utf8(is_surrogate(cp) ? 0xFFFD : cp, &s->value);
          break;
        }
        default:
          if (e >= '0' && e <= '7') {
            uint32_t v = 0;
            size_t n = 0;
            for (; n < 3 && i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '7'; ++n, ++i_)
              v = v * 8 + (t_[i_] - '0');
            --i_;
            append_utf8(v, &s->value);
          } else {
            s->value.push_back(e);
          }
      }
    }
    ++i_;
    s->end = last_end_ = i_;
    return true;
  }

  // The next character is `c` (after spaces and comments), and past it.
  bool expect(char c, const char* after) {
    if (!skip()) return false;
    if (i_ < t_.size() && t_[i_] == c) {
      ++i_;
      return true;
    }
    const size_t found = i_;
    i_ = last_end_;  // the error names the line of what came before
    std::string why = "expected '";
    why.push_back(c);
    why.append("' ").append(after).append(", found ");
    if (found >= t_.size())
      why.append("the end of the file");
    else
      why.append(1, '\'').append(printable(t_[found])).append(1, '\'');
    return fail(why);
  }

  bool at_end() const { return i_ >= t_.size(); }
  bool peek(char c) const { return i_ < t_.size() && t_[i_] == c; }
  void advance() { ++i_; }
  const std::string& error() const { return error_; }

 private:
  // Up to four hex digits after the 'U' at t_[i_]; i_ left at the last one read.
  uint32_t hex_unit() {
    uint32_t v = 0;
    size_t n = 0;
    while (n < 4 && i_ + 1 < t_.size() && hex_digit_value(t_[i_ + 1]) >= 0) {
      v = v * 16 + static_cast<uint32_t>(hex_digit_value(t_[++i_]));
      ++n;
    }
    return v;
  }

  static std::string printable(char c) {
    const auto b = static_cast<unsigned char>(c);
    if (b >= 0x20 && b < 0x7F) return std::string(1, c);
    static constexpr char kHex[] = "0123456789ABCDEF";
    return std::string("\\x") + kHex[b >> 4] + kHex[b & 0xF];
  }

  bool fail(const std::string& why) {
    size_t line = 1;
    for (size_t k = 0; k < i_ && k < t_.size(); ++k) line += t_[k] == '\n';
    error_ = ".strings line " + std::to_string(line) + ": " + why;
    return false;
  }

  std::string_view t_;
  size_t i_ = 0;
  size_t last_end_ = 0;  // where the last string ended
  std::string error_;
};

void append_escaped(std::string_view s, char quote, std::string* out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (const char c : s) {
    if (c == quote || c == '\\') {
      out->push_back('\\');
      out->push_back(c);
    } else if (c == '\n') {
      *out += "\\n";
    } else if (c == '\t') {
      *out += "\\t";
    } else if (c == '\r') {
      *out += "\\r";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
      *out += "\\U00";
      out->push_back(kHex[(static_cast<unsigned char>(c) >> 4) & 0xF]);
      out->push_back(kHex[c & 0xF]);
    } else {
      out->push_back(c);
    }
  }
}

}  // namespace

Status refuse_binary_property_list(std::string_view text, std::string_view what) {
  if (!text.starts_with("bplist")) return Status();
  return invalid_argument(std::string(what) +
                          " is a binary property list (as Xcode compiles it into an app); translate "
                          "its source, or convert it to XML first: plutil -convert xml1 FILE");
}

Expected<AppleStrings> AppleStrings::parse(std::string_view text) {
  if (Status binary = refuse_binary_property_list(text, "the .strings file"); !binary.is_ok()) return binary;
  AppleStrings f;
  Scanner s(text);
  size_t at = 0;
  for (;;) {
    if (!s.skip()) return invalid_argument(s.error());
    if (s.at_end()) break;
    Scanner::String key, value;
    if (!s.string("a key", &key)) return invalid_argument(s.error());
    if (!s.skip()) return invalid_argument(s.error());
    if (s.peek(';')) {  // a key alone (its own value): kept
      s.advance();
      continue;
    }
    if (!s.expect('=', "after the key") || !s.skip() || !s.string("the key's value", &value) ||
        !s.expect(';', "after the value"))
      return invalid_argument(s.error());
    const size_t dot = key.value.find_last_of('.');
    if (!value.ok || !is_valid_utf8(value.value) ||
        key_names_a_code(dot == std::string::npos ? key.value : key.value.substr(dot + 1)))
      continue;
    const TrimmedText t = trim_text(value.value, is_ascii_space);
    if (t.core.empty() || !holds_words(t.core) || is_literal(t.core)) continue;
    f.pieces_.keep(text.substr(at, value.begin - at));
    f.pieces_.add_unit(t, static_cast<uint32_t>(f.values_.size()));
    f.values_.push_back({value.quote == 0 ? '"' : value.quote,
                         std::string(text.substr(value.begin, value.end - value.begin))});
    at = value.end;
  }
  f.pieces_.keep(text.substr(at));
  return f;
}

std::string AppleStrings::render(const std::vector<std::string>& translations) const {
  return pieces_.render(translations, [&](const std::string& value, uint32_t i, std::string* out) {
    if (i >= translations.size() || translations[i].empty()) {  // no translation: as it was
      *out += values_[i].raw;
      return;
    }
    const char quote = values_[i].quote;
    out->push_back(quote);
    append_escaped(value, quote, out);
    out->push_back(quote);
  });
}

}  // namespace edgemt
