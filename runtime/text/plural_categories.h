// The plural categories a language's words take with a count (CLDR's cardinal plural
// rules: "one file", "two files" in Welsh, "few"/"many" in Russian), for the localization
// formats whose plural messages are one text per category: an Android <plurals> holds an
// <item quantity="..."> for each category of its language, and lint reports a missing one.
// The table is CLDR 42's, as ICU 72 (Debian 12's libicu, the ICU Android resolves
// quantities with) gives it; tests/runtime/text_test.cc checks it against ICU where the
// build has it.
#pragma once

#include <cstdint>
#include <string_view>

namespace edgemt {

enum PluralCategory : uint8_t {
  kPluralZero = 1,
  kPluralOne = 2,
  kPluralTwo = 4,
  kPluralFew = 8,
  kPluralMany = 16,
  kPluralOther = 32,
};

// Every category, in CLDR's order.
inline constexpr uint8_t kPluralCategories[] = {kPluralZero, kPluralOne,  kPluralTwo,
                                                kPluralFew,  kPluralMany, kPluralOther};

// The categories (a set of PluralCategory bits, always with kPluralOther) of a language,
// by its BCP 47 tag or POSIX locale name ("ru", "pt-BR", "sr_Latn", "zh-Hans": the primary
// language subtag decides); 0 for a language the table does not know.
uint8_t plural_categories(std::string_view language);

// The category's CLDR name ("zero", "one", "two", "few", "many", "other"); "" for
// anything but one PluralCategory.
std::string_view plural_category_name(uint8_t category);

// The category named `name` ("few"), or 0.
uint8_t plural_category_named(std::string_view name);

// gettext's Plural-Forms header value for a language ("nplurals=2; plural=(n != 1);"), as
// msginit (gettext 0.21) writes it, and for a few languages it has none for (zh, id, th,
// ar, ca, ...) as the gettext manual and translation platforms give them; "" for a language
// not in the table. "pt-BR" and "pt_BR" are told from "pt".
std::string_view gettext_plural_forms(std::string_view language);

}  // namespace edgemt
