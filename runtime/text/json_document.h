// JSON documents (TextFormat::kJson): the locale files of web and mobile apps (i18next,
// vue-i18n, Chrome's messages.json, ...) and other data with text in it. Each string
// value that holds words (text_kind.h) is translated as plain text (its placeholders,
// "{{name}}", "{count}", "%s", kept by span protection); keys, numbers, literals, the
// layout and every other string come back byte for byte, as do the values of keys that
// name codes rather than text ("id", "key", "url", "href", "src", "icon", "lang",
// "locale", "type", "code", "path", "color", "version", "$schema" and keys ending in "_id"
// or "_url"). A translation is written as JSON escapes it (", \ and control characters;
// in a file that is all ASCII and escapes its other characters, \uXXXX for them too).
//
// Read by a strict scanner (RFC 8259), not a JSON library: the file must come back as
// it was written, and edgemt's runtime does not depend on one (nlohmann-json is the
// server's). Invalid JSON, or nesting deeper than 512, is an error naming the line and
// column.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/status.h"
#include "runtime/text/text_pieces.h"

namespace edgemt {

class JsonDocument {
 public:
  static Expected<JsonDocument> parse(std::string_view text);

  // The texts to translate, in order (decoded from JSON's escapes).
  const std::vector<std::string>& units() const { return pieces_.units(); }
  // The document with units()[i] replaced by translations[i].
  std::string render(const std::vector<std::string>& translations) const;

 private:
  TextPieces pieces_;   // each unit a string value's text, inside its quotes
  bool ascii_ = false;  // escape non-ASCII characters as \uXXXX
};

}  // namespace edgemt
