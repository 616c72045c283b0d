// Xcode String Catalogs (TextFormat::kXcstrings): the Localizable.xcstrings of iOS and
// macOS apps (Xcode 15 and later), a JSON file holding every language's strings. Each
// string the translation's language has not yet is translated: its source localization's
// value ("stringUnit", in the catalog's "sourceLanguage"), or where it has none the
// string's key, which Xcode's extraction makes the source text itself ("Hello, %@!"; %@,
// %lld and %1$@ kept by span protection). The translation is added as the language's
// localization, in Xcode's layout and key order, with the state "needs_review" (a
// machine's draft, for a translator to confirm); a plural ("variations" : {"plural" :
// ...}) gets the language's plural categories, each from the source's branch of that
// name, else from "other".
//
// Kept as they are: strings marked "shouldTranslate" : false, strings the language
// already has, those whose source has other variations (by device) or substitutions, keys
// that are identifiers where no source text is given, and the rest of the file byte for
// byte. Invalid JSON, or JSON that is not a String Catalog (no "sourceLanguage" or
// "strings"), is an error.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/core/status.h"

namespace edgemt {

class XcstringsDocument {
 public:
  static Expected<XcstringsDocument> parse(std::string_view text);

  // The texts to translate, in order (a plural's branches one each).
  const std::vector<std::string>& units() const { return units_; }
  // The catalog's sourceLanguage ("en").
  const std::string& source_language() const { return source_language_; }
  // The catalog with each string's translation (units()[i] translated as
  // translations[i]) added as the localization of `language` (BCP 47, "de"); a string
  // with a missing or empty translation, or that `language` already has, is kept as it
  // is, and with no language (or the source's) the catalog comes back as it was.
  std::string render(const std::vector<std::string>& translations, std::string_view language) const;

 private:
  // Where a new member goes: an object's braces and its members.
  struct Place {
    size_t open = 0, close = 0;  // the offsets of its '{' and '}'
    struct Member {
      std::string key;
      size_t key_begin = 0, value_end = 0;
    };
    std::vector<Member> members;
    std::string indent;  // a new member's indentation
  };
  struct Entry {
    std::vector<size_t> units;  // into units_: one, or a plural's branches'
    std::vector<std::string>
        categories;                      // a plural's branches' names ("one", "other"); empty: one stringUnit
    std::vector<std::string> languages;  // those it has
    bool has_localizations = false;      // false: a "localizations" member is added to the string's object
    Place place;                         // its "localizations", else the string's object
  };
  std::string text_;
  std::string source_language_;
  std::vector<Entry> entries_;
  std::vector<std::string> units_;
};

}  // namespace edgemt
