// Android string resources (TextFormat::kAndroid): an app's res/values/strings.xml, whose
// translation is the app's res/values-de/strings.xml. Each <string>, and each <item> of a
// <string-array> or <plurals>, is translated with its styling (<b>, <i>, <u>, <font>,
// <a>, <annotation>, ... as spans around their words) and its placeholders (<xliff:g>,
// kept as they are; %1$s, %d by span protection). Its text is read as Android reads it
// (\' \" \\ \n \t \@ \? \uXXXX escapes, double quotes that quote, white space collapsed)
// and the translation written as Android needs it (' and " escaped, a leading @ or ?
// escaped, line breaks as \n; a value the source wrapped in quotes stays quoted).
//
// A string marked translatable="false" (or in an array or plurals so marked) is left out
// of the translation, as Android's lint asks of a locale's folder; references
// ("@string/app_name", "?attr/x") and values without words are kept as they are, and so
// is everything else (comments, other resources, the layout). A <resources> with
// tools:locale says the translation's language. A <plurals> gets an <item> for each plural
// category of the translation's language (runtime/formats/plural_categories.h; the source's
// "other" item stands in for the categories the source has not: Russian's "few" and
// "many" from English), and loses the items of categories that language has not.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/status.h"

namespace edgemt {

class AndroidStrings {
 public:
  // Fails, saying why, on XML that is not well-formed or a file without <resources>.
  static Expected<AndroidStrings> parse(std::string_view text);
  // Whether `text` is meant to be string resources: its root element is <resources> (an
  // .xml file may also be XLIFF).
  static bool recognizes(std::string_view text);

  // The texts to translate, as HTML fragments (their styling and placeholders as markup).
  const std::vector<std::string>& units() const;
  // The resources with units()[i] translated as translations[i] (a missing or empty one
  // keeps the source's text); `language` (BCP 47, "de") for tools:locale where it is.
  std::string render(const std::vector<std::string>& translations, std::string_view language = {}) const;

  struct State;

 private:
  std::shared_ptr<const State> state_;
};

}  // namespace edgemt
