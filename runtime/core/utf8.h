// UTF-8, as the tokenizer and the text layer read and write it: one decoder, one encoder, one count.
// Text comes from users and may hold anything; a byte that does not start a well-formed
// sequence (a stray continuation byte, a cut or overlong sequence, a surrogate, a code
// point past U+10FFFF) is read as one character of its own: that byte's value as Latin-1,
// one byte long, marked malformed. Walking a text by decoded lengths therefore visits
// every byte once, and never steps past the end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace edgemt {

// The six ASCII white-space bytes (what std::isspace takes in the C locale), without the
// locale: every byte of a UTF-8 sequence is >= 0x80, so none of them is one.
constexpr bool is_ascii_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// The value of a hexadecimal digit (0-9, a-f, A-F), or -1.
constexpr int hex_digit_value(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

struct Utf8Char {
  uint32_t code_point = 0;
  uint32_t length = 1;      // bytes, 1 to 4
  bool well_formed = true;  // false: a malformed byte read as Latin-1
};

// The character starting at s[i] (i < s.size()).
inline Utf8Char decode_utf8(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return {c, 1, true};
  const Utf8Char malformed{c, 1, false};
  // Lead bytes C0, C1 and F5-FF never start a well-formed sequence.
  const uint32_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  if (n == 0 || s.size() - i < n) return malformed;
  uint32_t cp = c & (0x7Fu >> n);
  for (uint32_t k = 1; k < n; ++k) {
    const unsigned char b = byte(i + k);
    if ((b & 0xC0) != 0x80) return malformed;
    cp = (cp << 6) | (b & 0x3Fu);
  }
  const uint32_t shortest = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
  if (cp < shortest || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return malformed;
  return {cp, n, true};
}

// The start of the character that ends right before s[i] (0 < i <= s.size()): the
// sequence of up to four bytes that decodes to exactly s[start, i), else the byte s[i - 1].
inline size_t utf8_start_before(std::string_view s, size_t i) {
  size_t j = i - 1;
  while (j > 0 && i - j < 4 && (static_cast<unsigned char>(s[j]) & 0xC0) == 0x80) --j;
  return decode_utf8(s, j).length == i - j ? j : i - 1;
}

// The largest character boundary at or before n (n <= s.size()): where a cut leaves no
// sequence in pieces.
inline size_t utf8_boundary_before(std::string_view s, size_t n) {
  if (n == 0 || n == s.size()) return n;
  size_t j = n;
  while (j > 0 && n - j < 3 && (static_cast<unsigned char>(s[j]) & 0xC0) == 0x80) --j;
  return j + decode_utf8(s, j).length > n ? j : n;
}

// `cp` appended in UTF-8 (a code point past U+10FFFF or a surrogate: U+FFFD).
inline void append_utf8(uint32_t cp, std::string* out) {
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
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

// UTF-16 code units: surrogates, a pair's code point, and a code point's one or two units
// (put(u) for each, in order). For the UTF-16 codecs and JSON's \uXXXX escapes.
constexpr bool is_surrogate(uint32_t u) { return u >= 0xD800 && u <= 0xDFFF; }
constexpr bool is_high_surrogate(uint32_t u) { return u >= 0xD800 && u <= 0xDBFF; }
constexpr bool is_low_surrogate(uint32_t u) { return u >= 0xDC00 && u <= 0xDFFF; }
constexpr uint32_t surrogate_pair_code_point(uint32_t high, uint32_t low) {
  return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
}
template <class Put>
void for_each_utf16_unit(uint32_t cp, Put&& put) {
  if (cp >= 0x10000) {
    put(0xD800 + ((cp - 0x10000) >> 10));
    put(0xDC00 + ((cp - 0x10000) & 0x3FF));
  } else {
    put(cp);
  }
}

// How many characters `s` holds, as decode_utf8 reads them (a malformed byte counts one).
inline size_t count_utf8_chars(std::string_view s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); i += decode_utf8(s, i).length) ++n;
  return n;
}

// The invisible characters that only say where a word may be broken or must not be:
// U+00AD SOFT HYPHEN (HTML's &shy;, e-books' and word processors' optional hyphens:
// "Instal\u00ADlation"), U+2060 WORD JOINER and U+FEFF ZERO WIDTH NO-BREAK SPACE (also a
// byte order mark). A model's vocabulary has no piece for them, so a word holding one
// would reach it as unknown fragments; the text layer removes them before translating
// (as Firefox's translations do with soft hyphens), which leaves every word whole.
inline bool has_break_hints(std::string_view s) {
  return s.find("\xC2\xAD") != std::string_view::npos || s.find("\xE2\x81\xA0") != std::string_view::npos ||
         s.find("\xEF\xBB\xBF") != std::string_view::npos;
}
inline std::string without_break_hints(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const std::string_view rest = s.substr(i);
    if (rest.starts_with("\xC2\xAD")) {
      i += 2;
    } else if (rest.starts_with("\xE2\x81\xA0") || rest.starts_with("\xEF\xBB\xBF")) {
      i += 3;
    } else {
      out.push_back(s[i++]);
    }
  }
  // Malformed bytes around a removed hint can close up into another ("\xE2" "\xC2\xAD"
  // "\x81\xA0"): again until none is left (each round is shorter).
  return has_break_hints(out) ? without_break_hints(out) : out;
}

}  // namespace edgemt
