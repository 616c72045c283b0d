// Apple .stringsdict files (TextFormat::kStringsdict): the plural rules of iOS and macOS
// apps (en.lproj/Localizable.stringsdict beside Localizable.strings), property lists
// whose NSStringPluralRuleType dictionaries hold a string per plural category:
//
//   <key>files</key>
//   <dict>
//     <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
//     <key>NSStringFormatValueTypeKey</key><string>d</string>
//     <key>one</key><string>%d file</string>
//     <key>other</key><string>%d files</string>
//   </dict>
//
// Each category's string with words is translated as plain text (%d, %@ kept by span
// protection) and written with XML's escapes; a rule gets the translation's language's
// categories it lacks, from "other"'s translation, after its last category (Russian's
// few and many beside English's one and other; Apple's "zero" is kept). A format key with
// words ("%#@files@ left", NSStringLocalizedFormatKey's value; its variables kept by span
// protection) and the variants of width and device rules (NSStringVariableWidthRuleType's
// "20", "25"; NSStringDeviceSpecificRuleType's "iphone", "mac") are translated too; a
// format key that is variables alone ("%#@files@"), the rest of the property list and the
// file's layout come back byte for byte. XML that is not well-formed, or not a property
// list, is an error; so is a binary property list.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/status.h"

namespace edgemt {

class StringsdictDocument {
 public:
  static Expected<StringsdictDocument> parse(std::string_view text);

  // The texts to translate, in order (entities decoded).
  const std::vector<std::string>& units() const;
  // The file with units()[i] replaced by translations[i] (a missing or empty one keeps
  // the string as it was written); `language` (BCP 47) gives the rules its categories.
  std::string render(const std::vector<std::string>& translations, std::string_view language = {}) const;

  struct State;

 private:
  std::shared_ptr<const State> state_;
};

}  // namespace edgemt
