// The plural categories a language's words take with a count (CLDR's cardinal plural
// rules: "one file", "two files" in Welsh, "few"/"many" in Russian), for the localization
// formats whose plural messages are one text per category: an Android <plurals> holds an
// <item quantity="..."> for each category of its language, and lint reports a missing one.
// The table is CLDR 42's, as ICU 72 (Debian 12's libicu, the ICU Android resolves
// quantities with) gives it; tests/formats/plural_categories_test.cc checks it against ICU where the
// build has it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

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

// The categories of a language's ordinal numbers (CLDR's ordinal rules: English's "1st",
// "2nd", "3rd", "4th" are one, two, few, other; German's "1." and French's "2e" are
// other): what an ICU selectordinal and i18next's "_ordinal_" keys choose by. As
// plural_categories, 0 for a language the table does not know.
uint8_t ordinal_categories(std::string_view language);

// A plural message written with the categories `categories` (a language's), from the
// source's branches named `selectors` ("one", "other", "=0"): for each category, in
// CLDR's order, the index of the branch whose text it takes, the one of its name, else
// "other", else the last. Empty if `selectors` is.
struct PluralBranch {
  uint8_t category;
  size_t source;
};
std::vector<PluralBranch> plural_branches(uint8_t categories, const std::vector<std::string_view>& selectors);

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

// How many numerus forms Qt Linguist gives a plural message in the language (Qt 6's
// table, qttools' numerus.cpp: Japanese 1, German 2, Russian 3, Slovenian 4, Welsh 5,
// Arabic 6; "pt-BR" is told from "pt"); 0 for a language it does not know.
int qt_numerus_forms(std::string_view language);

// i18next's JSON v3 plural keys (compatibilityJSON "v3", i18next before v21): a language
// with two forms whose first is the singular's (English, German, French) writes "key" and
// "key_plural"; any other writes "key_0", "key_1", ..., one per form of its rule, Japanese
// only "key_0". The example numbers of the language's forms, in index order (i18next 20's
// table: Russian {1, 2, 5}, Slovenian {5, 1, 2, 3}, Arabic {0, 1, 2, 3, 11, 100}); empty
// for a language it does not know. {1, 2} is the "key"/"key_plural" pair.
std::vector<int> i18next_v3_plural_numbers(std::string_view language);

}  // namespace edgemt
