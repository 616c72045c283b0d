// Java .properties files (TextFormat::kProperties): the resource bundles of Java, Kotlin
// and Spring apps (messages.properties, whose translation is messages_de.properties),
// read as java.util.Properties reads them: "key = value", "key: value" or "key value"
// lines, '#' and '!' comment lines, a value continued on the next line after a '\'
// (that line's leading spaces left out), and the escapes \t \n \r \f \uXXXX and '\'
// before any other character for that character ("\=", "\:", "\ ", "\\").
//
// Each value with words is translated as plain text (its placeholders, {0} and %s, kept
// by span protection); keys, comments, blank lines, the separators and every other byte
// come back as they were, as do values without words ("true", "42", "icon.png",
// "com.example.Main") and the values of keys whose last part names a code ("app.url",
// "logo.icon", "button.color": text_kind.h's key_names_a_code). A value is written on one
// line, escaped as Java reads it: '\', line breaks and tabs, a leading space; in a file
// that is all ASCII (the native2ascii convention, which Java 8's ISO-8859-1 loader and
// Java 9's UTF-8 one both read) characters past ASCII as \uXXXX too.
//
// A value with a MessageFormat argument ("{0}", "{1,number}") is a pattern in which an
// apostrophe quotes: where it has no single apostrophe, its doubled ones ("Don''t") reach
// the model as one and the translation's are doubled; one with single apostrophes (quoted
// text, or a pattern read by ICU's rules) is translated as it stands. One with an ICU
// plural, selectordinal or select argument ("{0, plural, one {# file} other {# files}}")
// is translated leaf by leaf (icu_message.h), its plurals given the target language's
// categories; one with a choice argument ("{0,choice,0#no files|1#one file}"), or an
// ICU message not taken apart, is kept as it is, as is a value with a malformed \u escape
// or bytes that are not UTF-8.
//
// Every text is a .properties file (Java's loader takes any), so parsing cannot fail.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/formats/icu_message.h"
#include "runtime/formats/text_pieces.h"

namespace edgemt {

class PropertiesFile {
 public:
  static PropertiesFile parse(std::string_view text);

  // The texts to translate, in order (decoded from the file's escapes; an ICU message's
  // leaves, each with the text around its argument).
  const std::vector<std::string>& units() const { return units_; }
  // The file with units()[i] replaced by translations[i] (a missing or empty one keeps
  // the source's text); `language` (BCP 47) gives ICU plurals the translation's categories.
  std::string render(const std::vector<std::string>& translations, std::string_view language = {}) const;

 private:
  TextPieces pieces_;  // each unit a value; its mark: its index in values_
  struct Value {
    size_t first = 0;                  // its first unit in units_
    size_t message = SIZE_MAX;         // an ICU message: its index in messages_
    bool doubled_apostrophes = false;  // a MessageFormat pattern's: ' written ''
    std::string raw;                   // its bytes in the file
  };
  std::vector<Value> values_;  // per unit of pieces_
  std::vector<IcuMessage> messages_;
  std::vector<std::string> units_;
  bool ascii_ = false;  // escape characters past ASCII as \uXXXX
};

}  // namespace edgemt
