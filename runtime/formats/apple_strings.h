// Apple .strings files (TextFormat::kStrings): the Localizable.strings and
// InfoPlist.strings of iOS and macOS apps (en.lproj/Localizable.strings, whose
// translation is de.lproj/Localizable.strings), read as Apple's old-style property list
// reader reads them: "key" = "value"; entries, /* */ and // comments, strings in double
// (or single) quotes with the escapes \" \' \\ \n \t \r \a \b \f \v, \U and \u with up to
// four hex digits (UTF-16 code units: a surrogate pair for the rest) and \ with one to
// three octal digits, or unquoted (letters, digits and _ $ + / : . -).
//
// Each value with words is translated as plain text (its placeholders, %@, %1$@, %lld
// and %.2f, kept by span protection); keys (often the development language's text
// itself), comments, the layout and every other byte come back as they were, as do
// values without words and the values of keys whose last part names a code ("app.url":
// text_kind.h's key_names_a_code). A translation is written in its value's quotes
// (double quotes for an unquoted value), its quote, '\' and control characters escaped
// (line breaks as \n, tabs as \t).
//
// The file must be UTF-8 text (a UTF-16 file, as Xcode once wrote them, decoded first:
// the command line and the server read it by its byte order mark). What is not the
// format (an entry without its '=' or ';', a string or comment never closed) is an error
// naming the line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/status.h"
#include "runtime/formats/text_pieces.h"

namespace edgemt {

// The error for a binary property list ("bplist00...", what Xcode compiles .strings and
// .stringsdict files into inside an app bundle), or OK for text: edgemt reads the source
// files, and `plutil -convert xml1 FILE` gives one back.
Status refuse_binary_property_list(std::string_view text, std::string_view what);

class AppleStrings {
 public:
  static Expected<AppleStrings> parse(std::string_view text);

  // The texts to translate, in order (decoded from the file's escapes).
  const std::vector<std::string>& units() const { return pieces_.units(); }
  // The file with units()[i] replaced by translations[i] (a missing or empty one keeps
  // the source's text).
  std::string render(const std::vector<std::string>& translations) const;

 private:
  TextPieces pieces_;  // each unit a value; its mark: its index in values_
  struct Value {
    char quote = '"';  // the quote it is written in
    std::string raw;   // its bytes in the file, quotes included
  };
  std::vector<Value> values_;
};

}  // namespace edgemt
