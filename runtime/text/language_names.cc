#include "runtime/text/language_names.h"

#include <iterator>

#include "runtime/text/letter_case.h"

namespace edgemt {
namespace {

constexpr LanguageName kNames[] = {
    {"ar", "Arabic", "\xD8\xA7\xD9\x84\xD8\xB9\xD8\xB1\xD8\xA8\xD9\x8A\xD8\xA9"},
    {"bg", "Bulgarian", "\xD0\xB1\xD1\x8A\xD0\xBB\xD0\xB3\xD0\xB0\xD1\x80\xD1\x81\xD0\xBA\xD0\xB8"},
    {"ca", "Catalan", "catal\xC3\xA0"},
    {"cs", "Czech",
     "\xC4\x8D"
     "e\xC5\xA1tina"},
    {"da", "Danish", "dansk"},
    {"de", "German", "Deutsch"},
    {"el", "Greek", "\xCE\x95\xCE\xBB\xCE\xBB\xCE\xB7\xCE\xBD\xCE\xB9\xCE\xBA\xCE\xAC"},
    {"en", "English", "English"},
    {"es", "Spanish", "espa\xC3\xB1ol"},
    {"et", "Estonian", "eesti"},
    {"fa", "Persian", "\xD9\x81\xD8\xA7\xD8\xB1\xD8\xB3\xDB\x8C"},
    {"fi", "Finnish", "suomi"},
    {"fr", "French",
     "fran\xC3\xA7"
     "ais"},
    {"ga", "Irish", "Gaeilge"},
    {"he", "Hebrew", "\xD7\xA2\xD7\x91\xD7\xA8\xD7\x99\xD7\xAA"},
    {"hi", "Hindi", "\xE0\xA4\xB9\xE0\xA4\xBF\xE0\xA4\xA8\xE0\xA5\x8D\xE0\xA4\xA6\xE0\xA5\x80"},
    {"hr", "Croatian", "hrvatski"},
    {"hu", "Hungarian", "magyar"},
    {"id", "Indonesian", "Bahasa Indonesia"},
    {"is", "Icelandic", "\xC3\xADslenska"},
    {"it", "Italian", "italiano"},
    {"ja", "Japanese", "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E"},
    {"ko", "Korean", "\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4"},
    {"lt", "Lithuanian", "lietuvi\xC5\xB3"},
    {"lv", "Latvian", "latvie\xC5\xA1u"},
    {"ms", "Malay", "Bahasa Melayu"},
    {"mt", "Maltese", "Malti"},
    {"nb", "Norwegian Bokm\xC3\xA5l", "norsk bokm\xC3\xA5l"},
    {"nl", "Dutch", "Nederlands"},
    {"nn", "Norwegian Nynorsk", "norsk nynorsk"},
    {"pl", "Polish", "polski"},
    {"pt", "Portuguese", "portugu\xC3\xAAs"},
    {"ro", "Romanian", "rom\xC3\xA2n\xC4\x83"},
    {"ru", "Russian", "\xD1\x80\xD1\x83\xD1\x81\xD1\x81\xD0\xBA\xD0\xB8\xD0\xB9"},
    {"sk", "Slovak", "sloven\xC4\x8Dina"},
    {"sl", "Slovenian", "sloven\xC5\xA1\xC4\x8Dina"},
    {"sq", "Albanian", "shqip"},
    {"sr", "Serbian", "\xD1\x81\xD1\x80\xD0\xBF\xD1\x81\xD0\xBA\xD0\xB8"},
    {"sv", "Swedish", "svenska"},
    {"th", "Thai", "\xE0\xB9\x84\xE0\xB8\x97\xE0\xB8\xA2"},
    {"tr", "Turkish",
     "T\xC3\xBCrk\xC3\xA7"
     "e"},
    {"uk", "Ukrainian", "\xD1\x83\xD0\xBA\xD1\x80\xD0\xB0\xD1\x97\xD0\xBD\xD1\x81\xD1\x8C\xD0\xBA\xD0\xB0"},
    {"vi", "Vietnamese", "Ti\xE1\xBA\xBFng Vi\xE1\xBB\x87t"},
    {"zh", "Chinese", "\xE4\xB8\xAD\xE6\x96\x87"},
    {"eo", "Esperanto", "Esperanto"},
};

}  // namespace

const LanguageName* language_name_of(std::string_view code) {
  code = code.substr(0, code.find_first_of("-_"));
  for (const LanguageName& n : kNames)
    if (n.code.size() == code.size() && to_lower_case(code) == n.code) return &n;
  return nullptr;
}

const LanguageName* language_named(std::string_view name, bool* native) {
  const std::string want = to_lower_case(name);
  for (const LanguageName& n : kNames) {
    const bool english = to_lower_case(n.english) == want;
    if (english || to_lower_case(n.native) == want) {
      if (native != nullptr) *native = !english;
      return &n;
    }
  }
  return nullptr;
}

}  // namespace edgemt
