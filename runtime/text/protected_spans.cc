#include "runtime/text/protected_spans.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdio>
#include <set>
#include <unordered_map>

#include "runtime/core/utf8.h"
#include "runtime/text/letter_case.h"

namespace edgemt {
namespace {

constexpr size_t kMaxSpan = 512;  // the longest backquoted code span looked for

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_alnum(char c) { return is_digit(c) || is_alpha(c); }
// A letter for the "anything left to translate" test: ASCII letters and any non-ASCII byte.
bool is_word_byte(char c) { return is_alpha(c) || static_cast<unsigned char>(c) >= 0x80; }

// Characters that end a URL or path when they are its last ones (sentence punctuation).
bool is_trailing_punct(char c) {
  return c == '.' || c == ',' || c == ';' || c == ':' || c == '!' || c == '?' || c == '\'' || c == '"' ||
         c == ')' || c == ']' || c == '}';
}

// The end of a URL or path starting at `b`: up to whitespace or a delimiter, less
// trailing punctuation (a closing bracket stays when the span opened one).
size_t link_end(std::string_view s, size_t b) {
  size_t e = b;
  while (e < s.size() && !is_ascii_space(s[e]) && s[e] != '<' && s[e] != '>' && s[e] != '"' && s[e] != '`')
    ++e;
  while (e > b && is_trailing_punct(s[e - 1])) {
    const char c = s[e - 1];
    const char open = c == ')' ? '(' : c == ']' ? '[' : c == '}' ? '{' : '\0';
    if (open != '\0') {
      const auto inner = s.substr(b, e - 1 - b);
      if (std::count(inner.begin(), inner.end(), open) > std::count(inner.begin(), inner.end(), c)) break;
    }
    --e;
  }
  return e;
}

// Token start: the beginning of the text, or after whitespace or an opening bracket/quote.
bool at_token_start(std::string_view s, size_t i) {
  if (i == 0) return true;
  const char p = s[i - 1];
  return is_ascii_space(p) || p == '(' || p == '[' || p == '"' || p == '\'' || p == '<';
}

size_t match_url(std::string_view s, size_t i) {
  if (!at_token_start(s, i)) return 0;
  size_t j = i;
  if (s.substr(i, 4) == "www." || s.substr(i, 4) == "WWW.") {
    j = i + 4;
    if (j >= s.size() || !is_alnum(s[j])) return 0;
  } else {
    if (!is_alpha(s[i])) return 0;
    while (j < s.size() && (is_alnum(s[j]) || s[j] == '+' || s[j] == '.' || s[j] == '-')) ++j;
    if (s.substr(j, 3) == "://") {
      j += 3;
    } else if (s.substr(i, j - i) == "mailto" && j < s.size() && s[j] == ':') {
      ++j;
    } else {
      return 0;
    }
    if (j >= s.size() || is_ascii_space(s[j])) return 0;
  }
  const size_t e = link_end(s, i);
  return e > j ? e - i : 0;
}

size_t match_email(std::string_view s, size_t i) {
  // Starts at a local part's first byte; the whole address must follow.
  auto local = [](char c) { return is_alnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-'; };
  if (!local(s[i]) || s[i] == '.' || (i > 0 && local(s[i - 1]))) return 0;
  size_t j = i;
  while (j < s.size() && local(s[j])) ++j;
  if (j >= s.size() || s[j] != '@' || j == i) return 0;
  size_t k = j + 1;
  while (k < s.size() && (is_alnum(s[k]) || s[k] == '-' || s[k] == '.')) ++k;
  while (k > j + 1 && (s[k - 1] == '.' || s[k - 1] == '-')) --k;  // "...@example.org."
  const size_t last_dot = s.substr(0, k).rfind('.');
  if (last_dot == std::string_view::npos || last_dot <= j + 1 || k - last_dot - 1 < 2) return 0;
  for (size_t t = last_dot + 1; t < k; ++t)
    if (!is_alpha(s[t])) return 0;
  return k - i;
}

size_t match_path(std::string_view s, size_t i) {
  if (!at_token_start(s, i)) return 0;
  size_t body;  // where the path's first name starts
  if (s[i] == '/') {
    body = i + 1;
  } else if (s.substr(i, 2) == "~/" || s.substr(i, 2) == "./") {
    body = i + 2;
  } else if (s.substr(i, 3) == "../") {
    body = i + 3;
  } else if (i + 3 < s.size() && is_alpha(s[i]) && s[i + 1] == ':' && s[i + 2] == '\\') {
    body = i + 3;
  } else {
    return 0;
  }
  if (body >= s.size() || !(is_alnum(s[body]) || s[body] == '.' || s[body] == '_' || s[body] == '-' ||
                            static_cast<unsigned char>(s[body]) >= 0x80))
    return 0;
  const size_t e = link_end(s, i);
  return e > body ? e - i : 0;
}

size_t match_code(std::string_view s, size_t i) {
  if (s[i] != '`') return 0;
  size_t ticks = 1;
  while (i + ticks < s.size() && s[i + ticks] == '`') ++ticks;
  const std::string fence(ticks, '`');
  // Within a bounded window: a text full of unmatched backquotes stays linear.
  const size_t close = s.substr(0, std::min(s.size(), i + ticks + kMaxSpan)).find(fence, i + ticks);
  if (close == std::string_view::npos || close == i + ticks) return 0;
  return close + ticks - i;
}

size_t match_placeholder(std::string_view s, size_t i) {
  const char c = s[i];
  auto next_is_letter = [&](size_t j) { return j < s.size() && is_alpha(s[j]); };
  if (c == '%') {
    size_t j = i + 1;
    if (j >= s.size()) return 0;
    if (s[j] == '(') {  // %(name)s
      const size_t close = s.substr(0, std::min(s.size(), j + 64)).find(')', j);
      if (close == std::string_view::npos || close == j + 1 || close + 1 >= s.size()) return 0;
      for (size_t t = j + 1; t < close; ++t)
        if (!(is_alnum(s[t]) || s[t] == '_')) return 0;
      j = close + 1;
    } else {
      size_t d = j;
      while (d < s.size() && is_digit(s[d])) ++d;
      if (d > j && d < s.size() && s[d] == '$') j = d + 1;       // %1$s
      if (j + 1 < s.size() && s[j] == '#' && s[j + 1] == '@') {  // Apple's %#@files@, a .stringsdict variable
        size_t e = j + 2;
        while (e < s.size() && e < j + 66 && (is_alnum(s[e]) || s[e] == '_')) ++e;
        if (e > j + 2 && e < s.size() && s[e] == '@') return e + 1 - i;
      }
      while (j < s.size() && (s[j] == '-' || s[j] == '+' || s[j] == '0' || s[j] == '#')) ++j;
      while (j < s.size() && is_digit(s[j])) ++j;
      if (j < s.size() && s[j] == '.') {
        ++j;
        while (j < s.size() && is_digit(s[j])) ++j;
      }
      while (j < s.size() && (s[j] == 'l' || s[j] == 'h' || s[j] == 'z' || s[j] == 'j')) ++j;
    }
    if (j >= s.size()) return 0;
    static constexpr std::string_view kConversions = "diouxXeEfFgGcsp@";
    if (kConversions.find(s[j]) == std::string_view::npos) return 0;
    if (next_is_letter(j + 1)) return 0;
    return j + 1 - i;
  }
  if (c == '{') {  // {name}, {0}, {}, {name:fmt}, {{name}}
    const bool dbl = i + 1 < s.size() && s[i + 1] == '{';
    size_t j = i + (dbl ? 2 : 1);
    while (j < s.size() &&
           (is_alnum(s[j]) || s[j] == '_' || s[j] == '.' || s[j] == ':' || s[j] == '-' || s[j] == '[' ||
            s[j] == ']' || s[j] == ' ' || s[j] == '|' || s[j] == '>' || s[j] == '<' || s[j] == '^' ||
            s[j] == '=' || s[j] == '+' || s[j] == '#' || s[j] == '!' || s[j] == ','))
      ++j;
    const std::string_view body = s.substr(i + (dbl ? 2 : 1), j - i - (dbl ? 2 : 1));
    if (body.find_first_not_of(' ') == std::string_view::npos && !body.empty()) return 0;
    if (body.size() > 40) return 0;
    if (dbl) return s.substr(j, 2) == "}}" ? j + 2 - i : 0;
    if (!body.empty() && (body.front() == ' ' || body.back() == ' ')) return 0;  // prose in braces
    return j < s.size() && s[j] == '}' ? j + 1 - i : 0;
  }
  if (c == '$') {
    size_t j = i + 1;
    if (j >= s.size()) return 0;
    if (s[j] == '{') {
      const size_t close = s.substr(0, std::min(s.size(), j + 64)).find('}', j);
      if (close == std::string_view::npos || close == j + 1) return 0;
      for (size_t t = j + 1; t < close; ++t)
        if (is_ascii_space(s[t])) return 0;
      return close + 1 - i;
    }
    if (is_digit(s[j])) {
      while (j < s.size() && is_digit(s[j])) ++j;
      return is_alpha(j < s.size() ? s[j] : ' ') ? 0 : j - i;
    }
    if (is_alpha(s[j]) || s[j] == '_') {
      while (j < s.size() && (is_alnum(s[j]) || s[j] == '_')) ++j;
      return j - i;
    }
  }
  return 0;
}

// Units after a number, longest first where one is a prefix of another.
constexpr std::array<std::string_view, 58> kUnits = {
    "km/h", "kWh",       "mAh",       "MB/s", "GB/s", "kB/s", "Mbit", "Gbit", "kbit", "Mbps", "Gbps", "kbps",
    "KiB",  "MiB",       "GiB",       "TiB",  "kHz",  "MHz",  "GHz",  "dpi",  "fps",  "rpm",  "mph",  "°C",
    "°F",   "\xC2\xB5m", "\xC2\xB5s", "km",   "cm",   "mm",   "nm",   "kg",   "mg",   "ml",   "mL",   "KB",
    "kB",   "MB",        "GB",        "TB",   "PB",   "Hz",   "ms",   "ns",   "mV",   "kW",   "mA",   "px",
    "pt",   "%",         "°",         "m",    "g",    "s",    "h",    "V",    "W",    "B"};

// A token of kLongToken or more ASCII letters, digits and + / = _ - . alone (base64,
// hex digests, keys, IDs, a line of one repeated letter): no word of a language written
// with spaces is that long, and the model would turn it into a few words of garbage.
constexpr size_t kLongToken = 64;
size_t match_long_token(std::string_view s, size_t i) {
  auto token_byte = [](char c) {
    return is_alnum(c) || c == '+' || c == '/' || c == '=' || c == '_' || c == '-' || c == '.';
  };
  if (i > 0 && (token_byte(s[i - 1]) || static_cast<unsigned char>(s[i - 1]) >= 0x80)) return 0;
  size_t j = i;
  while (j < s.size() && token_byte(s[j])) ++j;
  if (j - i < kLongToken) return 0;
  if (j < s.size() && static_cast<unsigned char>(s[j]) >= 0x80) return 0;  // part of a longer word
  return j - i;
}

size_t match_number_unit(std::string_view s, size_t i) {
  if (!is_digit(s[i]) || (i > 0 && (is_alnum(s[i - 1]) || s[i - 1] == '.' || s[i - 1] == ','))) return 0;
  size_t j = i;
  while (j < s.size() && is_digit(s[j])) ++j;
  while (j + 1 < s.size() && (s[j] == '.' || s[j] == ',') && is_digit(s[j + 1])) {
    ++j;
    while (j < s.size() && is_digit(s[j])) ++j;
  }
  size_t u = j;
  if (u < s.size() && s[u] == ' ') {
    ++u;
  } else if (s.substr(u, 2) == "\xC2\xA0") {  // no-break space
    u += 2;
  } else if (s.substr(u, 3) == "\xE2\x80\xAF") {  // narrow no-break space
    u += 3;
  }
  for (std::string_view unit : kUnits) {
    if (s.substr(u, unit.size()) != unit) continue;
    const size_t e = u + unit.size();
    if (e < s.size() && (is_alnum(s[e]) || static_cast<unsigned char>(s[e]) >= 0x80)) continue;
    return e - i;
  }
  return 0;
}

// Whether a code point is part of a word: ASCII letters, digits and '_', and any other
// non-ASCII one but punctuation and symbols (Latin-1's, the general punctuation to
// miscellaneous symbols blocks, CJK and full-width punctuation): "»%s«" holds "%s" as a
// whole.
bool is_word_code_point(uint32_t c) {
  if (c < 0x80) return is_alnum(static_cast<char>(c)) || c == '_';
  if (c < 0xC0 || c == 0xD7 || c == 0xF7) return false;
  return !(c >= 0x2000 && c <= 0x2BFF) && !(c >= 0x3000 && c <= 0x303F) && !(c >= 0xFE30 && c <= 0xFE6F) &&
         !(c >= 0xFF00 && c <= 0xFF0F);
}

// Whether the code point starting at (ending before) s[i] is part of a word.
bool word_at(std::string_view s, size_t i) {
  return i < s.size() && is_word_code_point(decode_utf8(s, i).code_point);
}
bool word_before(std::string_view s, size_t i) {
  return i > 0 && i <= s.size() && is_word_code_point(decode_utf8(s, utf8_start_before(s, i)).code_point);
}

// How often `s` stands in `text` as a whole: where s starts (ends) with a word character,
// not right after (before) another one.
size_t count_whole(std::string_view text, std::string_view s) {
  if (s.empty()) return 0;
  const bool word_start = word_at(s, 0), word_end = word_before(s, s.size());
  size_t n = 0;
  for (size_t at = text.find(s); at != std::string_view::npos;) {
    if ((word_start && word_before(text, at)) || (word_end && word_at(text, at + s.size()))) {
      at = text.find(s, at + 1);
      continue;
    }
    ++n;
    at = text.find(s, at + s.size());
  }
  return n;
}

// The end of the character starting at s[i].
size_t char_end(std::string_view s, size_t i) { return i + decode_utf8(s, i).length; }

// Whether s[b, e) holds a letter (a word code point that is not an ASCII digit).
bool has_letter(std::string_view s, size_t b, size_t e) {
  for (size_t i = b; i < e; i = char_end(s, i))
    if (!is_digit(s[i]) && is_word_code_point(decode_utf8(s, i).code_point)) return true;
  return false;
}

// The end of a number ("20", "1.5", "1,000") starting at s[i], or i where none does.
size_t number_end(std::string_view s, size_t i) {
  size_t j = i;
  while (j < s.size() && (is_digit(s[j]) ||
                          ((s[j] == '.' || s[j] == ',') && j > i && j + 1 < s.size() && is_digit(s[j + 1]))))
    ++j;
  return j;
}

// The start of a number ending before s[i], or i where none does.
size_t number_start(std::string_view s, size_t i) {
  size_t j = i;
  while (j > 0 && (is_digit(s[j - 1]) ||
                   ((s[j - 1] == '.' || s[j - 1] == ',') && j < i && j >= 2 && is_digit(s[j - 2]))))
    --j;
  return j;
}

// The ASCII spelling of the Latin letters of U+00C0-U+024F that have one, by code point
// (generated by tools/text/make_fold_table.py: the letter without its accents, or its
// usual transcription: "ç" -> "c", "ø" -> "o", "æ" -> "ae").
struct Fold {
  uint32_t cp;
  const char* ascii;
};
constexpr Fold kFolds[] = {
    {0x00C0, "A"},  {0x00C1, "A"},  {0x00C2, "A"}, {0x00C3, "A"}, {0x00C4, "A"},  {0x00C5, "A"},
    {0x00C6, "AE"}, {0x00C7, "C"},  {0x00C8, "E"}, {0x00C9, "E"}, {0x00CA, "E"},  {0x00CB, "E"},
    {0x00CC, "I"},  {0x00CD, "I"},  {0x00CE, "I"}, {0x00CF, "I"}, {0x00D0, "D"},  {0x00D1, "N"},
    {0x00D2, "O"},  {0x00D3, "O"},  {0x00D4, "O"}, {0x00D5, "O"}, {0x00D6, "O"},  {0x00D8, "O"},
    {0x00D9, "U"},  {0x00DA, "U"},  {0x00DB, "U"}, {0x00DC, "U"}, {0x00DD, "Y"},  {0x00DE, "TH"},
    {0x00DF, "ss"}, {0x00E0, "a"},  {0x00E1, "a"}, {0x00E2, "a"}, {0x00E3, "a"},  {0x00E4, "a"},
    {0x00E5, "a"},  {0x00E6, "ae"}, {0x00E7, "c"}, {0x00E8, "e"}, {0x00E9, "e"},  {0x00EA, "e"},
    {0x00EB, "e"},  {0x00EC, "i"},  {0x00ED, "i"}, {0x00EE, "i"}, {0x00EF, "i"},  {0x00F0, "d"},
    {0x00F1, "n"},  {0x00F2, "o"},  {0x00F3, "o"}, {0x00F4, "o"}, {0x00F5, "o"},  {0x00F6, "o"},
    {0x00F8, "o"},  {0x00F9, "u"},  {0x00FA, "u"}, {0x00FB, "u"}, {0x00FC, "u"},  {0x00FD, "y"},
    {0x00FE, "th"}, {0x00FF, "y"},  {0x0100, "A"}, {0x0101, "a"}, {0x0102, "A"},  {0x0103, "a"},
    {0x0104, "A"},  {0x0105, "a"},  {0x0106, "C"}, {0x0107, "c"}, {0x0108, "C"},  {0x0109, "c"},
    {0x010A, "C"},  {0x010B, "c"},  {0x010C, "C"}, {0x010D, "c"}, {0x010E, "D"},  {0x010F, "d"},
    {0x0110, "D"},  {0x0111, "d"},  {0x0112, "E"}, {0x0113, "e"}, {0x0114, "E"},  {0x0115, "e"},
    {0x0116, "E"},  {0x0117, "e"},  {0x0118, "E"}, {0x0119, "e"}, {0x011A, "E"},  {0x011B, "e"},
    {0x011C, "G"},  {0x011D, "g"},  {0x011E, "G"}, {0x011F, "g"}, {0x0120, "G"},  {0x0121, "g"},
    {0x0122, "G"},  {0x0123, "g"},  {0x0124, "H"}, {0x0125, "h"}, {0x0126, "H"},  {0x0127, "h"},
    {0x0128, "I"},  {0x0129, "i"},  {0x012A, "I"}, {0x012B, "i"}, {0x012C, "I"},  {0x012D, "i"},
    {0x012E, "I"},  {0x012F, "i"},  {0x0130, "I"}, {0x0131, "i"}, {0x0132, "IJ"}, {0x0133, "ij"},
    {0x0134, "J"},  {0x0135, "j"},  {0x0136, "K"}, {0x0137, "k"}, {0x0139, "L"},  {0x013A, "l"},
    {0x013B, "L"},  {0x013C, "l"},  {0x013D, "L"}, {0x013E, "l"}, {0x013F, "L"},  {0x0140, "l"},
    {0x0141, "L"},  {0x0142, "l"},  {0x0143, "N"}, {0x0144, "n"}, {0x0145, "N"},  {0x0146, "n"},
    {0x0147, "N"},  {0x0148, "n"},  {0x014A, "N"}, {0x014B, "n"}, {0x014C, "O"},  {0x014D, "o"},
    {0x014E, "O"},  {0x014F, "o"},  {0x0150, "O"}, {0x0151, "o"}, {0x0152, "OE"}, {0x0153, "oe"},
    {0x0154, "R"},  {0x0155, "r"},  {0x0156, "R"}, {0x0157, "r"}, {0x0158, "R"},  {0x0159, "r"},
    {0x015A, "S"},  {0x015B, "s"},  {0x015C, "S"}, {0x015D, "s"}, {0x015E, "S"},  {0x015F, "s"},
    {0x0160, "S"},  {0x0161, "s"},  {0x0162, "T"}, {0x0163, "t"}, {0x0164, "T"},  {0x0165, "t"},
    {0x0166, "T"},  {0x0167, "t"},  {0x0168, "U"}, {0x0169, "u"}, {0x016A, "U"},  {0x016B, "u"},
    {0x016C, "U"},  {0x016D, "u"},  {0x016E, "U"}, {0x016F, "u"}, {0x0170, "U"},  {0x0171, "u"},
    {0x0172, "U"},  {0x0173, "u"},  {0x0174, "W"}, {0x0175, "w"}, {0x0176, "Y"},  {0x0177, "y"},
    {0x0178, "Y"},  {0x0179, "Z"},  {0x017A, "z"}, {0x017B, "Z"}, {0x017C, "z"},  {0x017D, "Z"},
    {0x017E, "z"},  {0x017F, "s"},  {0x0192, "f"}, {0x0197, "I"}, {0x019A, "l"},  {0x01A0, "O"},
    {0x01A1, "o"},  {0x01AF, "U"},  {0x01B0, "u"}, {0x01B5, "Z"}, {0x01B6, "z"},  {0x01CD, "A"},
    {0x01CE, "a"},  {0x01CF, "I"},  {0x01D0, "i"}, {0x01D1, "O"}, {0x01D2, "o"},  {0x01D3, "U"},
    {0x01D4, "u"},  {0x01D5, "U"},  {0x01D6, "u"}, {0x01D7, "U"}, {0x01D8, "u"},  {0x01D9, "U"},
    {0x01DA, "u"},  {0x01DB, "U"},  {0x01DC, "u"}, {0x01DE, "A"}, {0x01DF, "a"},  {0x01E0, "A"},
    {0x01E1, "a"},  {0x01E6, "G"},  {0x01E7, "g"}, {0x01E8, "K"}, {0x01E9, "k"},  {0x01EA, "O"},
    {0x01EB, "o"},  {0x01EC, "O"},  {0x01ED, "o"}, {0x01F0, "j"}, {0x01F4, "G"},  {0x01F5, "g"},
    {0x01F8, "N"},  {0x01F9, "n"},  {0x01FA, "A"}, {0x01FB, "a"}, {0x0200, "A"},  {0x0201, "a"},
    {0x0202, "A"},  {0x0203, "a"},  {0x0204, "E"}, {0x0205, "e"}, {0x0206, "E"},  {0x0207, "e"},
    {0x0208, "I"},  {0x0209, "i"},  {0x020A, "I"}, {0x020B, "i"}, {0x020C, "O"},  {0x020D, "o"},
    {0x020E, "O"},  {0x020F, "o"},  {0x0210, "R"}, {0x0211, "r"}, {0x0212, "R"},  {0x0213, "r"},
    {0x0214, "U"},  {0x0215, "u"},  {0x0216, "U"}, {0x0217, "u"}, {0x0218, "S"},  {0x0219, "s"},
    {0x021A, "T"},  {0x021B, "t"},  {0x021E, "H"}, {0x021F, "h"}, {0x0226, "A"},  {0x0227, "a"},
    {0x0228, "E"},  {0x0229, "e"},  {0x022A, "O"}, {0x022B, "o"}, {0x022C, "O"},  {0x022D, "o"},
    {0x022E, "O"},  {0x022F, "o"},  {0x0230, "O"}, {0x0231, "o"}, {0x0232, "Y"},  {0x0233, "y"},
    {0x0246, "E"},  {0x0247, "e"},
};

// The stand-in of an Apple .stringsdict variable, "%#@name@" or "%N$#@name@": "%@" or
// "%N$@", or (where the sentence or another stand-in has that) "%K$@" for the first K free;
// "" for any other span.
std::string apple_variable_stand_in(std::string_view span, std::string_view sentence,
                                    const std::vector<std::string>& markers) {
  if (span.size() < 4 || span.front() != '%' || span.back() != '@') return {};
  const size_t hash = span.find("#@");
  if (hash == std::string_view::npos) return {};
  auto free = [&](const std::string& st) {
    return sentence.find(st) == std::string_view::npos &&
           std::find(markers.begin(), markers.end(), st) == markers.end();
  };
  std::string st = std::string(span.substr(0, hash)) + "@";  // "%@", "%2$@"
  for (int k = 1; !free(st) && k < 100; ++k) {
    st.assign(1, '%');
    st += std::to_string(k);
    st += "$@";
  }
  return free(st) ? st : std::string();
}

// `s[b, e)` with every code point inside one of the `unknown` ranges spelled in ASCII
// ("São" -> "Sao" where "ã" is unknown): the stand-in the model sees for an unknown
// word. Empty where one of them has no ASCII spelling (Cyrillic, CJK, "€", emoji), or
// where the result would not be one well-formed word: a digit (markers are numbers),
// punctuation (two stand-ins could then overlap: "a" in "a-e") or a malformed byte.
std::string stand_in(std::string_view s, size_t b, size_t e,
                     std::span<const std::pair<size_t, size_t>> unknown) {
  auto in_unknown = [&](size_t k) {
    return std::any_of(unknown.begin(), unknown.end(),
                       [&](const std::pair<size_t, size_t>& r) { return r.first <= k && k < r.second; });
  };
  std::string out;
  for (size_t i = b; i < e;) {
    const Utf8Char ch = decode_utf8(s, i);
    const size_t next = i + ch.length;
    const uint32_t cp = ch.code_point;
    if (next > e || !ch.well_formed || is_digit(s[i]) || !is_word_code_point(cp)) return {};
    bool unk = false;
    for (size_t k = i; k < next; ++k) unk = unk || in_unknown(k);
    if (!unk) {
      out.append(s.substr(i, next - i));
      i = next;
      continue;
    }
    const Fold* f = std::lower_bound(std::begin(kFolds), std::end(kFolds), cp,
                                     [](const Fold& x, uint32_t c) { return x.cp < c; });
    if (f == std::end(kFolds) || f->cp != cp) return {};
    out += f->ascii;
    i = next;
  }
  return out;
}

// The spans copied through for the model's unknown characters: each range widened to the
// whole word it is part of ("François", not "ç"), a range of symbols alone ("€", "§") to
// a number beside it, across one space ("20 €", "§ 5", "€20"), and spans with no letter
// between them joined into one ("Привет, как дела": one marker, not three).
std::vector<TextSpan> widen_unknown(std::string_view s, std::span<const std::pair<size_t, size_t>> unknown) {
  std::vector<TextSpan> out;
  for (auto [b, e] : unknown) {
    if (b >= e || e > s.size()) continue;
    while (b > 0 && word_before(s, b)) b = utf8_start_before(s, b);
    while (word_at(s, e)) e = char_end(s, e);
    if (!has_letter(s, b, e)) {
      const size_t l = b > 0 && s[b - 1] == ' ' ? b - 1 : b;
      const size_t nl = number_start(s, l);
      if (nl < l && !word_before(s, nl)) b = nl;
      const size_t r = e < s.size() && s[e] == ' ' ? e + 1 : e;
      const size_t nr = number_end(s, r);
      if (nr > r && !word_at(s, nr)) e = nr;
    }
    out.push_back({b, e});
  }
  std::sort(out.begin(), out.end(), [](const TextSpan& x, const TextSpan& y) { return x.begin < y.begin; });
  std::vector<TextSpan> joined;
  for (const TextSpan& sp : out) {
    if (!joined.empty() && (sp.begin <= joined.back().end || !has_letter(s, joined.back().end, sp.begin))) {
      joined.back().end = std::max(joined.back().end, sp.end);
      continue;
    }
    joined.push_back(sp);
  }
  return joined;
}

// The spans of `text`, glossary terms first where a glossary is given (targets: each
// span's glossary target, or empty for a span kept verbatim), then `unknown` (widened by
// widen_unknown; their target is their own text: always a marker, never left in place,
// since the model cannot write them). A builtin span holding an unknown character gets a
// marker too.
void scan(std::string_view text, const Glossary* glossary, bool builtin, std::vector<TextSpan>* out,
          std::vector<std::string>* targets, const std::vector<TextSpan>& unknown = {},
          std::vector<bool>* unknown_only = nullptr) {
  const auto kind = [&](bool u) {
    if (unknown_only == nullptr) return;
    unknown_only->resize(out->size(), false);
    unknown_only->back() = u;
  };
  size_t i = 0, u = 0;
  std::string target;
  while (i < text.size()) {
    if (glossary != nullptr) {
      if (const size_t n = glossary->match(text, i, &target); n > 0) {
        out->push_back({i, i + n});
        targets->push_back(target);
        kind(false);
        i += n;
        continue;
      }
    }
    while (u < unknown.size() && unknown[u].end <= i) ++u;
    size_t n = 0;
    if (builtin) {
      n = match_code(text, i);
      if (n == 0) n = match_url(text, i);
      if (n == 0) n = match_email(text, i);
      if (n == 0) n = match_path(text, i);
      if (n == 0) n = match_placeholder(text, i);
      if (n == 0) n = match_number_unit(text, i);
      if (n == 0) n = match_long_token(text, i);
    }
    if (n > 0) {
      size_t end = i + n;
      bool marker = false;  // it holds (the start of) an unknown span: it takes all of that
      for (size_t k = u; k < unknown.size() && unknown[k].begin < end; ++k) {
        end = std::max(end, unknown[k].end);
        marker = true;
      }
      out->push_back({i, end});
      kind(false);
      if (targets != nullptr) {
        if (marker)
          targets->emplace_back(text.substr(i, end - i));
        else
          targets->emplace_back();
      }
      i = end;
    } else if (u < unknown.size() && unknown[u].begin <= i) {  // (the rest of) an unknown span
      if (is_ascii_space(text[i])) {                           // after a glossary term inside it
        ++i;
        continue;
      }
      out->push_back({i, unknown[u].end});
      kind(true);
      targets->emplace_back(text.substr(i, unknown[u].end - i));
      i = unknown[u].end;
    } else {
      ++i;
    }
  }
}

bool word_byte_at(std::string_view s, size_t i) {
  return i < s.size() && (is_alnum(s[i]) || s[i] == '_' || static_cast<unsigned char>(s[i]) >= 0x80);
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

void find_protected_spans(std::string_view text, std::vector<TextSpan>* out) {
  scan(text, nullptr, true, out, nullptr);
}

Expected<std::shared_ptr<const Glossary>> Glossary::parse(std::string_view tsv) {
  auto g = std::shared_ptr<Glossary>(new Glossary());
  std::unordered_map<std::string, size_t> index;  // source term -> its place in terms_
  size_t line_no = 0;
  for (size_t at = 0; at < tsv.size();) {
    size_t end = tsv.find('\n', at);
    if (end == std::string_view::npos) end = tsv.size();
    std::string_view line = tsv.substr(at, end - at);
    at = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line_no == 1 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);  // a BOM
    if (line.find_first_not_of(" \t") == std::string_view::npos || line.front() == '#') continue;
    const size_t tab = line.find('\t');
    auto trim = [](std::string_view v) {
      while (!v.empty() && is_ascii_space(v.front())) v.remove_prefix(1);
      while (!v.empty() && is_ascii_space(v.back())) v.remove_suffix(1);
      return v;
    };
    if (tab == std::string_view::npos)
      return invalid_argument("glossary line " + std::to_string(line_no) +
                              ": no tab between source and target");
    const std::string_view src = trim(line.substr(0, tab)), tgt = trim(line.substr(tab + 1));
    if (src.empty() || tgt.empty())
      return invalid_argument("glossary line " + std::to_string(line_no) + ": an empty source or target");
    auto [it, added] = index.try_emplace(std::string(src), g->terms_.size());
    if (added) {
      g->terms_.push_back({std::string(src), std::string(tgt)});
    } else {
      g->terms_[it->second].target.assign(tgt);  // a later line for the same term
    }
  }
  std::stable_sort(g->terms_.begin(), g->terms_.end(),
                   [](const Term& a, const Term& b) { return a.source.size() > b.source.size(); });
  g->first_.assign(256, {});
  for (size_t t = 0; t < g->terms_.size(); ++t)
    g->first_[static_cast<unsigned char>(lower(g->terms_[t].source[0]))].push_back(static_cast<uint32_t>(t));
  return std::shared_ptr<const Glossary>(std::move(g));
}

Expected<std::shared_ptr<const Glossary>> Glossary::load(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return not_found("cannot open glossary " + path);
  std::string data;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) data.append(buf, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return io_error("cannot read glossary " + path);
  auto g = parse(data);
  if (!g) return invalid_argument(path + ": " + g.status().message());
  return g;
}

size_t Glossary::match(std::string_view text, size_t i, std::string* target) const {
  if (i >= text.size() || terms_.empty() || (i > 0 && word_byte_at(text, i - 1) && word_byte_at(text, i)))
    return 0;
  for (uint32_t t : first_[static_cast<unsigned char>(lower(text[i]))]) {
    const Term& term = terms_[t];
    const size_t n = term.source.size();
    if (text.size() - i < n) continue;
    const std::string_view cand = text.substr(i, n);
    bool capitalized = false;
    if (cand != term.source) {
      // A lower-case term at the start of a sentence (or after a colon...) is capitalized.
      if (!(term.source[0] >= 'a' && term.source[0] <= 'z') || cand[0] != term.source[0] - 'a' + 'A' ||
          cand.substr(1) != std::string_view(term.source).substr(1))
        continue;
      capitalized = true;
    }
    // Whole words only: no word byte on either side where the term itself has one.
    if (word_byte_at(text, i + n) && word_byte_at(term.source, n - 1)) continue;
    *target = term.target;
    if (capitalized && !target->empty() && (*target)[0] >= 'a' && (*target)[0] <= 'z')
      (*target)[0] = static_cast<char>((*target)[0] - 'a' + 'A');
    return n;
  }
  return 0;
}

namespace {

// The decimal numbers (maximal digit runs) in `s`.
std::set<std::string> numbers_in(std::string_view s) {
  std::set<std::string> out;
  for (size_t i = 0; i < s.size();) {
    if (!is_digit(s[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < s.size() && is_digit(s[j])) ++j;
    out.emplace(s.substr(i, j - i));
    i = j;
  }
  return out;
}

}  // namespace

ProtectedSentence protect_spans(std::string_view sentence, const Glossary* glossary, bool builtin_spans,
                                SpanMode mode, std::span<const std::pair<size_t, size_t>> unknown) {
  ProtectedSentence p;
  std::vector<TextSpan> spans;
  std::vector<std::string> targets;
  std::vector<bool> unknown_only;  // spans of unknown characters alone (no builtin span)
  scan(sentence, glossary, builtin_spans, &spans, &targets,
       builtin_spans ? widen_unknown(sentence, unknown) : std::vector<TextSpan>(), &unknown_only);
  unknown_only.resize(spans.size(), false);
  if (spans.empty()) {
    p.text.assign(sentence);
    // No letter at all (a number, a time code, a rule of dashes, a table border): there
    // is nothing to translate, and a model given one only makes it worse.
    p.verbatim = builtin_spans && std::none_of(sentence.begin(), sentence.end(), is_word_byte) &&
                 std::any_of(sentence.begin(), sentence.end(), [](char c) { return !is_ascii_space(c); });
    return p;
  }
  // Markers: three-digit numbers from 101 up (copied by translation models as they are,
  // with no thousands separator to add), skipping any number the sentence holds.
  const std::set<std::string> taken = numbers_in(sentence);
  int next = 101;
  size_t at = 0;
  bool words = false;
  bool after_marker = false;  // `at` is the end of a marker's span
  // The text between the last span and `sp`, as it is.
  auto append_before = [&](const TextSpan& sp) {
    const std::string_view before = sentence.substr(at, sp.begin - at);
    words = words || std::any_of(before.begin(), before.end(), is_word_byte);
    p.text.append(before);
  };
  // A span that goes to the model as a stand-in (copied by models, checked and put back
  // like a marker): the text before it, then the stand-in in its place.
  auto place_stand_in = [&](const TextSpan& sp, std::string st, std::string_view back) {
    append_before(sp);
    p.marker_at.push_back(p.text.size());
    p.spans.push_back(sp);
    p.text += st;
    p.in_place.push_back(st);
    p.markers.push_back(std::move(st));
    p.originals.emplace_back(back);
    at = sp.end;
    after_marker = false;
  };
  for (size_t s = 0; s < spans.size(); ++s) {
    const TextSpan& sp = spans[s];
    // What comes back for it: a glossary term's target, else the span itself.
    const std::string_view back = targets[s].empty() ? sentence.substr(sp.begin, sp.size()) : targets[s];
    // A marker must stand as its own number: a span touching a digit stays as it is.
    if ((sp.begin > 0 && is_digit(sentence[sp.begin - 1])) ||
        (sp.end < sentence.size() && is_digit(sentence[sp.end])))
      continue;
    // Left in place: a builtin span touching no other span (touching ones share a marker).
    const bool alone =
        (s == 0 || spans[s - 1].end != sp.begin) && (s + 1 == spans.size() || spans[s + 1].begin != sp.end);
    if (mode == SpanMode::kInPlace && targets[s].empty() && alone) {
      // An Apple .stringsdict variable ("%#@files@", "%2$#@files@"), which a model breaks
      // apart, goes as the object placeholder it stands for ("%@", "%2$@"), which models
      // copy; checked and put back as a stand-in is.
      std::string st = apple_variable_stand_in(back, sentence, p.markers);
      if (!st.empty()) {
        place_stand_in(sp, std::move(st), back);
        continue;
      }
      append_before(sp);
      p.text.append(back);
      p.in_place.emplace_back(back);
      at = sp.end;
      after_marker = false;
      continue;
    }
    // In place, an unknown word with an ASCII spelling goes to the model as that spelling,
    // its stand-in ("Sao Paulo" for "São Paulo"), which it translates around as a name
    // and copies; the stand-in is checked (spans_kept) and put back like a marker.
    if (mode == SpanMode::kInPlace && unknown_only[s] && alone) {
      std::string st = stand_in(sentence, sp.begin, sp.end, unknown);
      if (!st.empty() && has_letter(st, 0, st.size()) && count_whole(sentence, st) == 0 &&
          std::find(p.markers.begin(), p.markers.end(), st) == p.markers.end()) {
        place_stand_in(sp, std::move(st), back);
        continue;
      }
    }
    if (after_marker && sp.begin == at) {  // touches the previous span: one marker for both
      p.originals.back().append(back);
      p.spans.back().end = sp.end;
      at = sp.end;
      continue;
    }
    append_before(sp);
    std::string marker;
    do marker = std::to_string(next++);
    while (taken.count(marker) > 0);
    p.marker_at.push_back(p.text.size());
    p.spans.push_back(sp);
    p.text += marker;
    p.markers.push_back(std::move(marker));
    p.originals.emplace_back(back);
    at = sp.end;
    after_marker = true;
  }
  const std::string_view rest = sentence.substr(at);
  words = words || std::any_of(rest.begin(), rest.end(), is_word_byte);
  p.text.append(rest);
  p.verbatim = !words && (!p.markers.empty() || builtin_spans);
  return p;
}

TextSpan sentence_span(const ProtectedSentence& p, TextSpan in_text) {
  // A text position before, inside (begin: the span's start; end: its end) or after a
  // marker, shifted by the markers before it.
  auto map = [&](size_t pos, bool is_end) {
    ptrdiff_t shift = 0;
    const size_t markers = std::min({p.markers.size(), p.marker_at.size(), p.spans.size()});
    for (size_t m = 0; m < markers; ++m) {
      const size_t b = p.marker_at[m], e = b + p.markers[m].size();
      if (pos < e && (pos > b || (pos == b && !is_end))) return is_end ? p.spans[m].end : p.spans[m].begin;
      if (pos < e || (is_end && pos == b)) break;
      shift = static_cast<ptrdiff_t>(p.spans[m].end) - static_cast<ptrdiff_t>(e);
    }
    return static_cast<size_t>(static_cast<ptrdiff_t>(pos) + shift);
  };
  return {map(in_text.begin, false), map(in_text.end, true)};
}

namespace {

// The end of the run of digits that starts at i.
size_t digit_run_end(std::string_view s, size_t i) {
  while (i < s.size() && is_digit(s[i])) ++i;
  return i;
}

// The index of the marker `run` is, p.markers.size() when it is none.
size_t marker_index(std::string_view run, const ProtectedSentence& p) {
  size_t m = 0;
  while (m < p.markers.size() && p.markers[m] != run) ++m;
  return m;
}

// The marker that is a stand-in (a word, not a number) standing whole at text[i] (as
// count_whole counts: where it starts (ends) with a word character, not right after
// (before) another one; an Apple variable's "%@" may touch any), p.markers.size() when
// none does.
size_t stand_in_at(std::string_view text, size_t i, const ProtectedSentence& p) {
  for (size_t m = 0; m < p.markers.size(); ++m) {
    const std::string& st = p.markers[m];
    if (st.empty() || is_digit(st[0]) || text.compare(i, st.size(), st) != 0) continue;
    if ((word_at(st, 0) && word_before(text, i)) ||
        (word_before(st, st.size()) && word_at(text, i + st.size())))
      continue;
    return m;
  }
  return p.markers.size();
}

std::string restore_markers(std::string_view translation, const ProtectedSentence& p) {
  std::vector<bool> used(p.markers.size(), false);
  std::string out;
  out.reserve(translation.size() + 64);
  size_t floor = 0;  // the end of the last span put back: a dropped one goes after it
  for (size_t i = 0; i < translation.size();) {
    if (!is_digit(translation[i])) {
      if (const size_t m = stand_in_at(translation, i, p); m < p.markers.size()) {
        used[m] = true;  // every occurrence (spans_kept checked how many)
        out += p.originals[m];
        floor = out.size();
        i += p.markers[m].size();
        continue;
      }
      out += translation[i++];
      continue;
    }
    size_t j = digit_run_end(translation, i);
    const std::string_view run = translation.substr(i, j - i);
    const size_t m = marker_index(run, p);
    if (m == p.markers.size()) {
      out.append(run);
    } else if (!used[m]) {
      used[m] = true;
      out += p.originals[m];
      floor = out.size();
    } else if (!out.empty() && out.back() == ' ' && (j >= translation.size() || !is_alnum(translation[j]))) {
      out.pop_back();  // a repeated marker goes, with one of the spaces around it
    } else if (j < translation.size() && translation[j] == ' ') {
      ++j;
    }
    i = j;
  }
  // Spans whose marker the model dropped: at the end, before the final punctuation.
  std::string missing;
  for (size_t m = 0; m < p.markers.size(); ++m) {
    if (used[m]) continue;
    if (!missing.empty()) missing += ' ';
    missing += p.originals[m];
  }
  if (missing.empty()) return out;
  size_t end = out.size();
  while (end > floor &&
         (out[end - 1] == '.' || out[end - 1] == '!' || out[end - 1] == '?' || out[end - 1] == ':' ||
          out[end - 1] == ';' || out[end - 1] == '"' || out[end - 1] == '\'' || out[end - 1] == ')'))
    --end;
  size_t body_end = end;
  while (body_end > floor && is_ascii_space(out[body_end - 1])) --body_end;
  std::string result = out.substr(0, body_end);
  if (!result.empty()) result += ' ';
  result += missing;
  result.append(out, end, std::string::npos);
  return result;
}

}  // namespace

bool spans_kept(std::string_view translation, const ProtectedSentence& p) {
  for (size_t i = 0; i < p.in_place.size(); ++i) {
    const std::string& s = p.in_place[i];
    if (std::find(p.in_place.begin(), p.in_place.begin() + static_cast<std::ptrdiff_t>(i), s) !=
        p.in_place.begin() + static_cast<std::ptrdiff_t>(i))
      continue;  // counted already
    if (count_whole(translation, s) != count_whole(p.text, s)) return false;
  }
  return true;
}

std::string replace_markers(std::string_view text, const ProtectedSentence& p) {
  if (p.capitals) {
    ProtectedSentence normal_case = p;  // rare: sentences written in capitals
    normal_case.capitals = false;
    return to_capitals(replace_markers(text, normal_case));
  }
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (!is_digit(text[i])) {
      if (const size_t m = stand_in_at(text, i, p); m < p.markers.size()) {
        out += p.originals[m];
        i += p.markers[m].size();
        continue;
      }
      out += text[i++];
      continue;
    }
    const size_t j = digit_run_end(text, i);
    const size_t m = marker_index(text.substr(i, j - i), p);
    out.append(m < p.markers.size() ? std::string_view(p.originals[m]) : text.substr(i, j - i));
    i = j;
  }
  return out;
}

std::string restore_spans(std::string_view translation, const ProtectedSentence& p) {
  const std::string_view text = p.verbatim ? std::string_view(p.text) : translation;
  if (p.markers.empty()) return p.capitals ? to_capitals(text) : std::string(text);
  return p.capitals ? to_capitals(restore_markers(text, p)) : restore_markers(text, p);
}

}  // namespace edgemt
