// What a short text of a table or a data file is: words to translate, or a key, a code,
// an address (CSV cells, JSON values). Shared by the readers of tables and locale files.
#pragma once

#include <cstdint>
#include <string_view>

namespace edgemt {

// A letter of some script: ASCII letters, and code points from U+00C0 that are not
// punctuation, symbols, arrows, CJK punctuation, variation selectors or emoji.
bool is_letter(uint32_t cp);
// True where `s` holds a letter.
bool has_letter(std::string_view s);
// One token that reads as a key, a code or an address rather than words: it has no
// space, and '_', '@', '/' or '\\' anywhere, '.' or ':' between two letters or digits, a
// digit next to a letter, or a capital after a small letter ("app.title", "btn_ok",
// "SKU42", "user@example.org", "camelCase"; not "Name:", "Cancel." or "OK").
bool is_identifier(std::string_view s);
// Words to translate: a letter, and not an identifier.
inline bool holds_words(std::string_view s) { return has_letter(s) && !is_identifier(s); }
// A setting's literal rather than words: "true", "false", "null" (as written in code, in
// small letters).
inline bool is_literal(std::string_view s) { return s == "true" || s == "false" || s == "null"; }
// A key (of a JSON object, a .properties or .strings file) whose value is a code, not
// text: "id", "key", "url", "uri", "href", "src", "icon", "image", "lang", "language",
// "locale", "type", "code", "path", "file", "color", "colour", "class", "version",
// "email", "$schema", "$ref", "mime", "format" (in any case), and keys ending in "_id",
// "_url", "Id", "ID", "Url" or "URL".
bool key_names_a_code(std::string_view key);

}  // namespace edgemt
