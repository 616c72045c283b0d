// ICU MessageFormat messages with plural and select arguments, as JavaScript's FormatJS
// (react-intl), Angular, i18next's ICU plugin and Java and C++ apps keep them in their
// locale files:
//
//   "You have {count, plural, =0 {no messages} one {# message} other {# messages}}."
//
// Translated as a whole such a string would lose its syntax (the model reads braces and
// keywords as text), and each branch alone is a fragment ("# message"). So each leaf of
// the message becomes one unit with the text around its argument moved in, as ICU's own
// guidance has translators write them: "You have # message.", "You have # messages.",
// "You have no messages.". The translation is the same argument with the translated
// sentences in its branches: {count, plural, =0 {Sie haben keine Nachrichten.} ...}.
// In a unit, a plural's number (#) reads as the placeholder {#} and other arguments
// ({name}, {n, number}) as written, so span protection keeps them; literal text comes back
// quoted where ICU needs it ('{', '}', a '#' in a plural, an apostrophe before them).
//
// A plural gets the plural categories of the translation's language, a selectordinal its
// ordinal categories (plural_categories.h): a missing one is the "other" branch's
// translation, one the language has not is left out, explicit values (=0) stay.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace edgemt {

class IcuMessage {
 public:
  // The message, if `text` has a plural, selectordinal or select argument in ICU's syntax;
  // nullopt for text without one (plain text, simple {name} placeholders), for what is
  // not ICU's syntax, and for what this reader does not take apart: nesting deeper than 8,
  // a number (#) of a plural with an offset that moving text into a nested argument's
  // branches would change, choices side by side past a bound on the copies. Arguments side
  // by side become one inside each branch of the first; a '#' moved into another
  // argument's branches is written {name}.
  static std::optional<IcuMessage> parse(std::string_view text);

  // Does `text` have what starts a plural, selectordinal or select argument ("{n, plural,")?
  // What has one and does not parse is best left alone: translated as text, its syntax
  // would break, and the app's formatter would fail on it.
  static bool has_choice_argument(std::string_view text);

  // The leaves' texts to translate, with the text around their arguments.
  const std::vector<std::string>& units() const;
  // The message with units()[i] translated as translations[i] (an empty or missing one
  // keeps the source's leaf; none at all: the message as it was written); `language`
  // (BCP 47) gives the plurals their categories, and none keeps the source's.
  std::string render(const std::vector<std::string>& translations, std::string_view language = {}) const;
  // The same, with its leaves' translations at translations[first], translations[first + 1],
  // ... (those there are): a document's units, of which the message's are a run.
  std::string render_from(const std::vector<std::string>& translations, size_t first,
                          std::string_view language) const;

  struct State;

 private:
  std::shared_ptr<const State> state_;
};

}  // namespace edgemt
