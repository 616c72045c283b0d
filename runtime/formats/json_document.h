// JSON documents (TextFormat::kJson): the locale files of web and mobile apps (i18next,
// vue-i18n, Chrome's messages.json, ...) and other data with text in it. Each string
// value that holds words (text_kind.h) is translated as plain text (its placeholders,
// "{{name}}", "{count}", "%s", kept by span protection; an ICU message with plural or
// select arguments, "{n, plural, one {# file} other {# files}}", leaf by leaf:
// icu_message.h; one it cannot take apart is kept as it is; i18next's plural keys,
// "item_one" and "item_other", are followed by the target language's other categories,
// "item_few" and "item_many" in Russian, with item_other's translation, and the ordinal
// keys "place_ordinal_other" by its ordinal categories; JSON v3's "item" and
// "item_plural", by the forms of i18next 20's table where they are more or other than
// those two: "item_0", "item_1", "item_2" in Russian, each with the translation of the
// English form its example number takes; and the other way, a Russian file's "item_0",
// "item_1", "item_2" are followed by "item" and "item_plural" in English, the
// translations of its singular and its most general form); keys, numbers, literals, the
// layout and every other string come back byte for byte, as do the values of keys that
// name codes rather than text ("id", "key", "url", "href", "src", "icon", "lang",
// "locale", "type", "code", "path", "color", "version", "$schema" and keys ending in "_id"
// or "_url") and everything under a key that starts with '@' (Flutter ARB's metadata,
// "@title": {"description": ...}; JSON-LD's "@id"), but for an ARB file's "@@locale",
// which becomes the translation's language. A translation is written as JSON escapes it (", \ and control
// characters; in a file that is all ASCII and escapes its other characters, \uXXXX for them too).
//
// Read by a strict scanner (RFC 8259), not a JSON library: the file must come back as
// it was written, and edgemt's runtime does not depend on one (nlohmann-json is the
// server's). Invalid JSON, or nesting deeper than 512, is an error naming the line and
// column.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/status.h"
#include "runtime/formats/icu_message.h"
#include "runtime/formats/text_pieces.h"

namespace edgemt {

// `s` as a JSON string's contents (without its quotes): ", \ and control characters
// escaped, and with `ascii` every character past ASCII as \uXXXX (a surrogate pair past
// U+FFFF).
void append_json_escaped(std::string_view s, bool ascii, std::string* out);

class JsonDocument {
 public:
  static Expected<JsonDocument> parse(std::string_view text);

  // The texts to translate, in order (decoded from JSON's escapes; an ICU message's
  // leaves, each with the text around its argument).
  const std::vector<std::string>& units() const { return units_; }
  // The document with units()[i] replaced by translations[i]; `language` (BCP 47) gives
  // ICU plurals the translation's plural categories; `source_language`, the language
  // the document is in, tells which of JSON v3's numbered forms ("item_0", "item_1",
  // "item_2" in Russian) is the singular and which the most general plural.
  std::string render(const std::vector<std::string>& translations, std::string_view language = {},
                     std::string_view source_language = {}) const;

 private:
  TextPieces pieces_;  // each unit a string value's text, inside its quotes
  struct Value {
    size_t first = 0;           // its first unit in units_
    size_t message = SIZE_MAX;  // an ICU message: its index in messages_
    bool locale = false;        // an ARB file's "@@locale": the translation's language
  };
  std::vector<Value> values_;  // per unit of pieces_
  std::vector<IcuMessage> messages_;
  // i18next's plural keys: an "x_other" value (its unit's mark, 1-based) beside another
  // "x_<category>" member, which the target language's missing categories follow; or, in
  // JSON v3, an "x_plural" value beside an "x" one, which a language with other forms'
  // "x_0", "x_1", ... follow; or v3's "x_0", "x_1", ... (the last, with no "x" and no
  // "x_plural"), which a language of the pair gets "x" and "x_plural" after, and one
  // with more forms its others.
  struct PluralKeys {
    std::string base;      // "x"
    uint8_t present = 0;   // the categories its object has (PluralCategory bits);
                           // in v3, its "x_<i>" members (bit i)
    bool ordinal = false;  // "x_ordinal_other": ordinal categories
    bool v3 = false;       // "x_plural"
    size_t object = 0;     // v3: its object, and "x"'s unit in values_
    size_t singular = SIZE_MAX;
    bool numbered = false;      // v3 "x_<i>" without "x": the source language's forms
    std::vector<size_t> forms;  // numbered: each "x_<i>"'s unit in values_ (SIZE_MAX: none)
    std::string indent, colon;  // as the "x_other" member is written
  };
  std::vector<PluralKeys> plural_keys_;
  std::vector<std::string> units_;
  bool ascii_ = false;  // escape non-ASCII characters as \uXXXX
};

}  // namespace edgemt
