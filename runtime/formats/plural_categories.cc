#include "runtime/formats/plural_categories.h"

#include <cctype>
#include <string>

namespace edgemt {
namespace {

struct Group {
  uint8_t categories;
  const char* languages;  // space-separated, a space after each
};

constexpr uint8_t kZero = kPluralZero, kOne = kPluralOne, kTwo = kPluralTwo, kFew = kPluralFew,
                  kMany = kPluralMany, kOther = kPluralOther;

// ICU 72 (CLDR 42): PluralRules::forLocale(language).getKeywords() for each language of
// its locales, and the legacy codes it maps (in iw ji jw mo no sh tl).
constexpr Group kGroups[] = {
    {kOther,
     " agq bas bgc bm bo ccp cv dav dje dua dyo dz ebu ewo guz id ig ii in ja jv jw "
     "kam kde kea kgp khq ki kln km ko kok ksf lkt lo lrc lu luo luy mai mer mfe mgh "
     "mi mni ms mua my mzn nmg nus qu raj rn rw sa sah sbp ses sg su tg th to tt "
     "twq vai vi wo yav yo yrl yue zgh zh "},
    {kOne | kOther,
     " af ak am as asa ast az bem bez bg bho bn brx ce ceb cgg chr ckb da de doi ee el "
     "en eo et eu fa ff fi fil fo fur fy gl gsw gu ha haw hi hu hy ia is jgo ji jmc "
     "ka kab kk kkj kl kn ks ksb ku ky lb lg ln mas mg mgo mk ml mn mr nb nd ne nl nn "
     "nnh no nyn om or os pa pcm ps rm rof rwk saq sc sd seh si sn so sq sv sw ta te "
     "teo ti tk tl tr tzm ug ur uz vun wae xh xog yi zu "},
    {kZero | kOne | kOther, " ksh lag lv prg "},
    {kOne | kTwo | kOther, " he iw naq sat se smn "},
    {kOne | kFew | kOther, " bs hr mo ro sh shi sr "},
    {kOne | kTwo | kFew | kOther, " dsb gd hsb sl "},
    {kOne | kMany | kOther, " ca es fr it pt "},
    {kOne | kFew | kMany | kOther, " be cs lt pl ru sk uk "},
    {kOne | kTwo | kFew | kMany | kOther, " br ga gv mt "},
    {kZero | kOne | kTwo | kFew | kMany | kOther, " ar ars cy kw "},
};

// ICU 72's PluralRules::forLocale(language, UPLURAL_TYPE_ORDINAL) keywords where they
// are more than "other" (the other languages of kGroups have only "other").
constexpr Group kOrdinalGroups[] = {
    {kOne | kOther, " fil fr ga hu hy lo mo ms ne ro sv tl vi "},
    {kFew | kOther, " be tk uk "},
    {kOne | kTwo | kFew | kOther, " ca en gd mr "},
    {kMany | kOther, " it kk sc "},
    {kOne | kMany | kOther, " ka kw sq "},
    {kOne | kTwo | kMany | kOther, " mk "},
    {kOne | kFew | kMany | kOther, " az "},
    {kOne | kTwo | kFew | kMany | kOther, " as bn gu hi or "},
    {kZero | kOne | kTwo | kFew | kMany | kOther, " cy "},
};

constexpr std::string_view kNames[] = {"zero", "one", "two", "few", "many", "other"};

struct FormsGroup {
  const char* plural_forms;
  const char* languages;  // as kGroups's
};

// msginit's (gettext 0.21) for the languages it knows; zh, id, th, ms, ar, ca, eu, gl, ...
// as the gettext manual and Launchpad/Weblate give them.
constexpr FormsGroup kForms[] = {
    {"nplurals=1; plural=0;", " ja ko vi zh yue id ms th lo km my "},
    {"nplurals=2; plural=(n != 1);",
     " bg da de el en eo es et fi fo he hu it nb nl nn no pt sv tr ca eu gl af sq az ka kk ky mn "
     "ne sw ta te ur uz "},
    {"nplurals=2; plural=(n > 1);", " fr pt_br oc "},
    {"nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
     " ru uk be hr sr bs "},
    {"nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);", " pl "},
    {"nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;", " cs sk "},
    {"nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);", " sl "},
    {"nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);", " lt "},
    {"nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2);", " lv "},
    {"nplurals=3; plural=n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2;", " ro "},
    {"nplurals=3; plural=n==1 ? 0 : n==2 ? 1 : 2;", " ga "},
    {"nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);",
     " ar "},
};

struct CountGroup {
  int count;
  const char* languages;  // as kGroups's
};

// Qt 6's numerus table (qttools src/linguist/shared/numerus.cpp), by the languages' ISO
// 639 codes; the first group a language is in counts (Brazilian Portuguese's two forms are
// French-style, Filipino's too).
constexpr CountGroup kQtForms[] = {
    {1, " bi my zh dz fj gn hu id in ja jv ko ms na om fa su tt th bo tr vi yo za "},
    {2, " hy br fr pt_br fil tl ti wa is "},
    {2,
     " ab aa af sq am as ay az ba eu bn bg ca kw co da nl en eo et fo fi fur fy gl ka de el kl gu ha he iw "
     "hi "
     "ia ie it kn ks kk km rw ky ku lo la ln lb mg ml mr mn ne nso nb no nn oc or ps pt pa qu rm rn sn sd si "
     "so st es sw ss sv tg ta te to ts tn tk ug ur uz vo wo xh yi ji zu "},
    {3, " lv dv iu ik ga gv mi se sm sa sk cs mk lt bs be hr ru sr sh uk pl ro mo "},
    {4, " gd sl mt "},
    {5, " cy "},
    {6, " ar "},
};

struct NumbersGroup {
  int count;
  int numbers[6];
  const char* languages;  // as kGroups's
};

// i18next 20's PluralResolver sets, by their example numbers (its "nr"); the rules
// themselves decide which form a count takes at run time, and are not needed here.
constexpr NumbersGroup kI18nextV3[] = {
    {2,
     {1, 2},
     " ach ak am arn br fil gun ln mfe mg mi oc pt tg tl ti tr uz wa af an ast az bg bn ca da de dev el "
     "en eo es et eu fi fo fur fy gl gu ha hi hu hy ia it kk kn ku lb mai ml mn mr nah nap nb ne nl nn no "
     "nso pa pap pms ps rm sco se si so son sq sv sw ta te tk ur yo fr is mk "},
    {1, {1}, " ay bo cgg fa ht id ja jbo ka km ko ky lo ms sah su th tt ug vi wo zh "},
    {3, {1, 2, 5}, " be bs cnr dz hr ru sr uk cs sk csb pl "},
    {6, {0, 1, 2, 3, 11, 100}, " ar "},
    {4, {1, 2, 3, 8}, " cy "},
    {5, {1, 2, 3, 7, 11}, " ga "},
    {4, {1, 2, 3, 20}, " gd "},
    {2, {0, 1}, " jv "},
    {4, {1, 2, 3, 4}, " kw "},
    {3, {1, 2, 10}, " lt "},
    {3, {1, 2, 0}, " lv "},
    {3, {0, 1, 2}, " mnk "},
    {4, {1, 2, 11, 20}, " mt "},
    {2, {2, 1}, " or "},
    {3, {1, 2, 20}, " ro "},
    {4, {5, 1, 2, 3}, " sl "},
    {4, {1, 2, 20, 21}, " he iw "},
};

// " ru " for "ru-RU", " pt_br " for "pt-BR" (with `region`); "" for what is no language tag.
std::string language_key(std::string_view language, bool region) {
  std::string key = " ";
  size_t i = 0;
  for (; i < language.size(); ++i) {
    const char c = language[i];
    if (c == '-' || c == '_' || c == '.' || c == '@') break;
    if (!std::isalpha(static_cast<unsigned char>(c)) || key.size() > 8) return {};
    key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (key.size() < 3) return {};  // a language subtag has 2 or 3 letters
  if (region && i + 3 <= language.size() && (language[i] == '-' || language[i] == '_') &&
      (i + 3 == language.size() || !std::isalpha(static_cast<unsigned char>(language[i + 3])))) {
    key += '_';
    key += static_cast<char>(std::tolower(static_cast<unsigned char>(language[i + 1])));
    key += static_cast<char>(std::tolower(static_cast<unsigned char>(language[i + 2])));
  }
  return key + ' ';
}

}  // namespace

std::string_view gettext_plural_forms(std::string_view language) {
  for (bool region : {true, false}) {
    const std::string key = language_key(language, region);
    if (key.empty()) return {};
    for (const FormsGroup& g : kForms)
      if (std::string_view(g.languages).find(key) != std::string_view::npos) return g.plural_forms;
  }
  return {};
}

int qt_numerus_forms(std::string_view language) {
  for (bool region : {true, false}) {
    const std::string key = language_key(language, region);
    if (key.empty()) return 0;
    for (const CountGroup& g : kQtForms)
      if (std::string_view(g.languages).find(key) != std::string_view::npos) return g.count;
  }
  return 0;
}

std::vector<int> i18next_v3_plural_numbers(std::string_view language) {
  const std::string key = language_key(language, false);
  if (key.empty()) return {};
  for (const NumbersGroup& g : kI18nextV3)
    if (std::string_view(g.languages).find(key) != std::string_view::npos)
      return std::vector<int>(g.numbers, g.numbers + g.count);
  return {};
}

uint8_t plural_categories(std::string_view language) {
  const std::string key = language_key(language, false);
  if (key.empty()) return 0;
  for (const Group& g : kGroups)
    if (std::string_view(g.languages).find(key) != std::string_view::npos) return g.categories;
  return 0;
}

uint8_t ordinal_categories(std::string_view language) {
  if (plural_categories(language) == 0) return 0;
  const std::string key = language_key(language, false);
  for (const Group& g : kOrdinalGroups)
    if (std::string_view(g.languages).find(key) != std::string_view::npos) return g.categories;
  return kOther;
}

std::vector<PluralBranch> plural_branches(uint8_t categories,
                                          const std::vector<std::string_view>& selectors) {
  std::vector<PluralBranch> out;
  if (selectors.empty()) return out;
  size_t other = selectors.size() - 1;
  for (size_t i = 0; i < selectors.size(); ++i)
    if (selectors[i] == "other") other = i;
  for (const uint8_t c : kPluralCategories) {
    if ((categories & c) == 0) continue;
    size_t source = other;
    for (size_t i = 0; i < selectors.size(); ++i)
      if (selectors[i] == plural_category_name(c)) source = i;
    out.push_back({c, source});
  }
  return out;
}

std::string_view plural_category_name(uint8_t category) {
  for (size_t i = 0; i < 6; ++i)
    if (category == (1u << i)) return kNames[i];
  return {};
}

uint8_t plural_category_named(std::string_view name) {
  for (size_t i = 0; i < 6; ++i)
    if (name == kNames[i]) return static_cast<uint8_t>(1u << i);
  return 0;
}

}  // namespace edgemt
