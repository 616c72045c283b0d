#include "runtime/formats/text_kind.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <string>

#include "runtime/core/utf8.h"

namespace edgemt {
namespace {

bool is_alnum_ascii(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

}  // namespace

bool is_letter(uint32_t cp) {
  if (cp < 0x80) return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
  if (cp < 0xC0 || cp == 0xD7 || cp == 0xF7) return false;
  if (cp >= 0x2000 && cp <= 0x2BFF) return false;
  if (cp >= 0x3000 && cp <= 0x303F) return false;
  if (cp >= 0xFE00 && cp <= 0xFE0F) return false;
  if (cp == 0xFEFF || (cp >= 0xFF00 && cp <= 0xFF0F)) return false;
  return cp < 0x1F000;
}

bool has_letter(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const Utf8Char c = decode_utf8(s, i);
    if (c.well_formed && is_letter(c.code_point)) return true;
    i += c.length;
  }
  return false;
}

bool is_identifier(std::string_view s) {
  for (char c : s)
    if (is_ascii_space(c)) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '_' || c == '@' || c == '/' || c == '\\') return true;
    const bool inside = i > 0 && i + 1 < s.size() && is_alnum_ascii(s[i - 1]) && is_alnum_ascii(s[i + 1]);
    if ((c == '.' || c == ':') && inside) return true;
    if (i > 0) {
      const char p = s[i - 1];
      const bool digit = c >= '0' && c <= '9', prev_digit = p >= '0' && p <= '9';
      const bool alpha = std::isalpha(static_cast<unsigned char>(c)) != 0;
      const bool prev_alpha = std::isalpha(static_cast<unsigned char>(p)) != 0;
      if ((digit && prev_alpha) || (alpha && prev_digit)) return true;
      if (c >= 'A' && c <= 'Z' && p >= 'a' && p <= 'z') return true;
    }
  }
  return false;
}

bool key_names_a_code(std::string_view key) {
  std::string k(key);
  for (char& ch : k)
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  static constexpr std::string_view kKeys[] = {"id",      "key",   "url",     "uri",      "href",   "src",
                                               "icon",    "image", "lang",    "language", "locale", "type",
                                               "code",    "path",  "file",    "color",    "colour", "class",
                                               "version", "email", "$schema", "$ref",     "mime",   "format"};
  if (std::find(std::begin(kKeys), std::end(kKeys), k) != std::end(kKeys)) return true;
  return k.ends_with("_id") || k.ends_with("_url") || key.ends_with("Id") || key.ends_with("ID") ||
         key.ends_with("Url") || key.ends_with("URL");
}

}  // namespace edgemt
