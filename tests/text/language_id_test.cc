// Language identification (runtime/text/language_id.h): sentences identified or nothing, names
// left out.
#include "runtime/text/language_id.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace edgemt {
namespace {

TEST(LanguageId, IdentifiesSentencesOrNothing) {
  EXPECT_EQ(primary_language("zh-Hant"), "zh");
  EXPECT_EQ(primary_language("pt_BR"), "pt");
  EXPECT_EQ(primary_language("DE"), "de");
  // Never a guess for nothing, for invalid UTF-8, or without CLD2.
  EXPECT_TRUE(identify_languages("").empty());
  EXPECT_TRUE(identify_languages("Die Datei konnte nicht ge\xF6"
                                 "ffnet werden, weil sie fehlt.")
                  .empty());
  if (!language_identification_available()) {
    EXPECT_TRUE(identify_languages("The file could not be opened because it is missing.").empty());
    GTEST_SKIP() << "built without CLD2";
  }
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"The file could not be opened because it is missing.", "en"},
      {"Die Datei konnte nicht ge\xC3\xB6"
       "ffnet werden, weil sie fehlt.",
       "de"},
      {"Le fichier n'a pas pu \xC3\xAAtre ouvert parce qu'il manque.", "fr"},
      {"El archivo no se pudo abrir porque falta.", "es"},
      {"<p>Das ist <b>ein</b> Satz auf Deutsch, mit <a href=\"x\">einem Link</a>.</p>", "de"},
  };
  for (const auto& [text, code] : cases) {
    const std::vector<LanguageGuess> g = identify_languages(text, text[0] == '<');
    ASSERT_FALSE(g.empty()) << text;
    EXPECT_EQ(g[0].code, code) << text;
    EXPECT_GT(g[0].percent, 50) << text;
    for (size_t i = 1; i < g.size(); ++i) EXPECT_LE(g[i].percent, g[i - 1].percent) << text;
  }
  // Past the first 256 KiB nothing is read, and a cut character does not make it invalid.
  std::string big(256 * 1024 - 1, ' ');
  big += "\xC3\xA4";  // "ä" across the limit
  big += " The file could not be opened because it is missing.";
  EXPECT_TRUE(identify_languages(big).empty());
  EXPECT_FALSE(identify_languages("The file could not be opened because it is missing. " + big).empty());
}

// Names weigh on CLD2 like words of the language they come from; without_names leaves out
// the capitalized words that do not begin a sentence.
TEST(LanguageId, NamesAreLeftOut) {
  EXPECT_EQ(without_names("M\xC3\xBCller and Schr\xC3\xB6"
                          "der met in D\xC3\xBCsseldorf yesterday."),
            "M\xC3\xBCller and  met in  yesterday.");
  // A sentence begins the text, a line, and after '.', '!', '?', ':'; quotes and brackets
  // before a capital do not hide it; Latin-1, Latin Extended-A, Greek and Cyrillic capitals.
  EXPECT_EQ(without_names("We met Anna. She left!\nThen \"Bob\" came (Carl too): Dan."),
            "We met  She left!\nThen  came  too): Dan.");
  EXPECT_EQ(without_names("in \xC3\x89vora, \xC5\x81\xC3\xB3"
                          "d\xC5\xBA, \xD0\x9C\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0, "
                          "\xCE\x91\xCE\xB8\xCE\xAE\xCE\xBD\xCE\xB1 and \xC3\xA9t\xC3\xA9 \xC2\xAB"
                          "Zoe\xC2\xBB"),
            "in     and \xC3\xA9t\xC3\xA9 ");
  // Nothing else changes; odd bytes are no capitals.
  for (const std::string& t : {std::string(""), std::string("   \n\t"), std::string("lower case words only."),
                               std::string("x \xC3 \xFF \x80\x80 \xE2\x80"), std::string("a\0b C", 5)})
    EXPECT_EQ(without_names(t), t == std::string("a\0b C", 5) ? std::string("a\0b ", 4) : t) << t;
  if (!language_identification_available()) GTEST_SKIP() << "built without CLD2";
  // English with foreign names: CLD2 names the names' language, without them English.
  for (const char* text : {"M\xC3\xBCller and Schr\xC3\xB6"
                           "der met in D\xC3\xBCsseldorf yesterday.",
                           "I visited Lisboa and Porto last summer with Jo\xC3\xA3o and his friends."}) {
    const std::vector<LanguageGuess> g = identify_languages(without_names(text));
    ASSERT_FALSE(g.empty()) << text;
    EXPECT_EQ(g[0].code, "en") << text;
  }
  // German nouns are capitalized too: German stays German.
  const std::vector<LanguageGuess> de =
      identify_languages(without_names("Die Katze schl\xC3\xA4"
                                       "ft auf dem Sofa, weil sie m\xC3\xBC"
                                       "de ist."));
  ASSERT_FALSE(de.empty());
  EXPECT_EQ(de[0].code, "de");
}

}  // namespace
}  // namespace edgemt
