// Plural categories (runtime/formats/plural_categories.h): CLDR's, checked against ICU's where
// the test is built with ICU's i18n library.
#include <gtest/gtest.h>

#if EDGEMT_TEST_HAVE_ICU_I18N
#include <unicode/locid.h>
#include <unicode/plurrule.h>
#endif

#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <string>

#include "runtime/formats/plural_categories.h"

namespace edgemt {
namespace {

// CLDR's plural categories by language, as ICU (where the build has it) gives them.
TEST(PluralCategories, AreCldrs) {
  EXPECT_EQ(plural_categories("en"), kPluralOne | kPluralOther);
  EXPECT_EQ(plural_categories("ru_RU.UTF-8"), kPluralOne | kPluralFew | kPluralMany | kPluralOther);
  EXPECT_EQ(plural_categories("zh-Hant-TW"), kPluralOther);
  EXPECT_EQ(plural_categories("AR"), 63);
  EXPECT_EQ(plural_categories("fr-CA"), kPluralOne | kPluralMany | kPluralOther);
  for (const char* unknown : {"", "x", "xx", "e", "en1", "root", "toolongname", "tlh", "-de"})
    EXPECT_EQ(plural_categories(unknown), 0) << unknown;
  EXPECT_EQ(plural_category_name(kPluralFew), "few");
  EXPECT_EQ(plural_category_name(3), "");
  EXPECT_EQ(plural_category_named("many"), kPluralMany);
  EXPECT_EQ(plural_category_named("Many"), 0);
  EXPECT_EQ(ordinal_categories("en-GB"), kPluralOne | kPluralTwo | kPluralFew | kPluralOther);
  EXPECT_EQ(ordinal_categories("de"), kPluralOther);
  EXPECT_EQ(ordinal_categories("fr_CA"), kPluralOne | kPluralOther);
  EXPECT_EQ(ordinal_categories("tlh"), 0);
#if EDGEMT_TEST_HAVE_ICU_I18N
  int32_t n = 0;
  const icu::Locale* locales = icu::Locale::getAvailableLocales(n);
  std::set<std::string> languages{"iw", "in", "ji", "jw", "mo", "no", "sh", "tl"};
  for (int32_t i = 0; i < n; ++i)
    if (*locales[i].getLanguage() != '\0') languages.insert(locales[i].getLanguage());
  size_t checked = 0;
  for (const std::string& l : languages) {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::PluralRules> rules(icu::PluralRules::forLocale(icu::Locale(l.c_str()), status));
    ASSERT_TRUE(U_SUCCESS(status)) << l;
    std::unique_ptr<icu::StringEnumeration> keywords(rules->getKeywords(status));
    uint8_t want = 0;
    while (const char* k = keywords->next(nullptr, status)) want |= plural_category_named(k);
    EXPECT_EQ(plural_categories(l), want) << l;
    std::unique_ptr<icu::PluralRules> ordinal(
        icu::PluralRules::forLocale(icu::Locale(l.c_str()), UPLURAL_TYPE_ORDINAL, status));
    ASSERT_TRUE(U_SUCCESS(status)) << l;
    keywords.reset(ordinal->getKeywords(status));
    want = 0;
    while (const char* k = keywords->next(nullptr, status)) want |= plural_category_named(k);
    EXPECT_EQ(ordinal_categories(l), want) << l << " (ordinal)";
    ++checked;
  }
  EXPECT_GT(checked, 150u);
#endif
}

}  // namespace
}  // namespace edgemt
