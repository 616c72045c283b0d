// JSON (runtime/formats/json_document.h): string values, ICU messages, i18next plurals, ARB.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "runtime/formats/icu_message.h"
#include "runtime/formats/json_document.h"

namespace edgemt {
namespace {

TEST(Json, StringValuesWithWordsAreTheUnits) {
  const std::string text =
      "{\n  \"$schema\": \"https://example.com/s.json\",\n  \"app\": {\n    \"title\": \"Open file\",\n"
      "    \"greeting\": \"Hello, {{name}}!\",\n    \"id\": \"main window\",\n    \"icon\": "
      "\"images/logo.png\",\n"
      "    \"buttons\": [\"Cancel\", \" Save as \", \"OK\", \"btn_ok\"],\n    \"n\": -1.5e3, \"on\": true, "
      "\"x\": null,\n"
      "    \"quote\": \"He said \\\"hi\\\".\\nBye.\", \"user_id\": \"the admin\", \"caf\xC3\xA9\": "
      "\"Caf\xC3\xA9 open\"\n"
      "  }\n}\n";
  auto doc = JsonDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  EXPECT_EQ(doc.value().units(),
            (std::vector<std::string>{"Open file", "Hello, {{name}}!", "Cancel", "Save as", "OK",
                                      "He said \"hi\".\nBye.", "Caf\xC3\xA9 open"}));
  EXPECT_EQ(doc.value().render(doc.value().units()), text);  // nothing escaped otherwise
  std::vector<std::string> t = doc.value().units();
  t[0] =
      "Datei \"\xC3\xB6"
      "ffnen\"\t\\";
  t[3] = "Speichern";
  const std::string out = doc.value().render(t);
  EXPECT_NE(out.find("\"title\": \"Datei \\\"\xC3\xB6"
                     "ffnen\\\"\\t\\\\\","),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("\" Speichern \""), std::string::npos) << out;
  // A file that is all ASCII and escapes its other characters gets its translations so.
  auto ascii = JsonDocument::parse("{\"a\": \"Caf\\u00e9 open\"}");
  ASSERT_TRUE(ascii.has_value());
  EXPECT_EQ(ascii.value().units(), std::vector<std::string>{"Caf\xC3\xA9 open"});
  EXPECT_EQ(ascii.value().render({"K\xC3\xBC"
                                  "che \xF0\x9F\x8E\x89"}),
            "{\"a\": \"K\\u00fcche \\ud83c\\udf89\"}");
  // A byte order mark, a bare string, escapes of every kind.
  auto bom = JsonDocument::parse("\xEF\xBB\xBF[\"Hello world\", \"\\u0048i \\ud83c\\udf89 \\/ \\b\"]");
  ASSERT_TRUE(bom.has_value());
  EXPECT_EQ(bom.value().units(), (std::vector<std::string>{"Hello world", "Hi \xF0\x9F\x8E\x89 / \b"}));
  EXPECT_EQ(bom.value().render({"Hallo Welt", "x"}).substr(0, 18), "\xEF\xBB\xBF[\"Hallo Welt\", ");
  EXPECT_EQ(JsonDocument::parse("\"Just a sentence.\"").value().units(),
            std::vector<std::string>{"Just a sentence."});
}

TEST(Json, IcuMessagesAreTranslatedLeafByLeaf) {
  const std::string text =
      "{\"inbox\": \"You have {count, plural, one {# new message} other {# new messages}}.\",\n"
      " \"hi\": \"Hello {name}!\",\n"
      " \"two\": \"{a, plural, one {One apple} other {# apples}} and {b, select, other {pears}}\",\n"
      " \"broken\": \"{n, plural, one {One apple}\"}\n";
  EXPECT_TRUE(IcuMessage::has_choice_argument("{ n ,select , other {x}}"));
  EXPECT_FALSE(IcuMessage::has_choice_argument("{n, number} {plural, x}"));
  auto doc = JsonDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  EXPECT_EQ(doc.value().units(),
            (std::vector<std::string>{"You have {#} new message.", "You have {#} new messages.",
                                      "Hello {name}!", "One apple and pears", "{a} apples and pears"}));
  EXPECT_EQ(doc.value().render({}), text);
  EXPECT_EQ(
      doc.value().render({"Sie haben {#} neue Nachricht.", "Sie haben {#} neue \"Nachrichten\".",
                          "Hallo {name}!", "Ein Apfel und Birnen", "{a} \u00c4pfel und Birnen"},
                         "pl"),
      "{\"inbox\": \"{count, plural, one {Sie haben # neue Nachricht.} few {Sie haben # neue "
      "\\\"Nachrichten\\\".} many {Sie haben # neue \\\"Nachrichten\\\".} other {Sie haben # neue "
      "\\\"Nachrichten\\\".}}\",\n \"hi\": \"Hallo {name}!\",\n"
      " \"two\": \"{a, plural, one {{b, select, other {Ein Apfel und Birnen}}} few {{b, select, other {{a} "
      "\u00c4pfel und Birnen}}} many {{b, select, other {{a} \u00c4pfel und Birnen}}} other {{b, select, "
      "other "
      "{{a} \u00c4pfel und Birnen}}}}\",\n"
      " \"broken\": \"{n, plural, one {One apple}\"}\n");
}

// i18next's JSON v3 plural keys ("x" and "x_plural"): into a language whose forms are
// other than those two, "x_0", "x_1", ... after "x_plural", each with the singular's
// translation where its example number is 1 and the language tells 1 from 2, else the
// plural's; forms the object has are not added again; into German or French, nothing.
TEST(Json, I18nextV3PluralKeysGetTheLanguagesForms) {
  const std::string text =
      "{\n  \"item\": \"One item\",\n  \"item_plural\": \"{{count}} items\",\n"
      "  \"day_plural\": \"{{count}} days\", \"day\": \"A day\", \"day_1\": \"x\",\n"
      "  \"lone_plural\": \"Lone plural\"\n}\n";
  auto doc = JsonDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  ASSERT_EQ(doc.value().units().size(), 6u);
  const std::vector<std::string> t{"Ein Element", "{{count}} Elemente", "{{count}} Tage", "Ein Tag", "y",
                                   "Einsam"};
  EXPECT_EQ(
      doc.value().render(t, "ru"),
      "{\n  \"item\": \"Ein Element\",\n  \"item_plural\": \"{{count}} Elemente\",\n"
      "  \"item_0\": \"Ein Element\",\n  \"item_1\": \"{{count}} Elemente\",\n"
      "  \"item_2\": \"{{count}} Elemente\",\n"
      "  \"day_plural\": \"{{count}} Tage\",\n  \"day_0\": \"Ein Tag\",\n  \"day_2\": \"{{count}} Tage\", "
      "\"day\": \"Ein Tag\", \"day_1\": \"y\",\n"
      "  \"lone_plural\": \"Einsam\"\n}\n");
  // Slovenian's singular form is its second; Japanese's one form takes the plural.
  const std::string sl = doc.value().render(t, "sl-SI");
  EXPECT_NE(sl.find("\"item_0\": \"{{count}} Elemente\",\n  \"item_1\": \"Ein Element\",\n"),
            std::string::npos)
      << sl;
  EXPECT_NE(sl.find("\"item_3\""), std::string::npos) << sl;
  const std::string ja = doc.value().render(t, "ja");
  EXPECT_NE(
      ja.find("\"item_plural\": \"{{count}} Elemente\",\n  \"item_0\": \"{{count}} Elemente\",\n  \"day"),
      std::string::npos)
      << ja;
  for (const char* language : {"de", "fr", "pt-BR", "en", "xx", ""})
    EXPECT_EQ(doc.value().render(t, language).find("item_0"), std::string::npos) << language;
  auto again = JsonDocument::parse(doc.value().render(t, "ar"));
  ASSERT_TRUE(again.has_value()) << again.status().message();
  EXPECT_EQ(again.value().units().size(), 6u + 6u + 5u);
}

// JSON v3 the other way: a Russian file's "x_0", "x_1", "x_2" (its forms for 1, 2 and
// 5) get "x" and "x_plural" into English or German (the translations of the singular and
// of the form for 5), and the forms a language with more has not into it (Arabic's for 0,
// 3, 11 and 100 take the form for 5; its 1 and 2 Russian's own). Where the file is in a
// language of the pair, or its forms are not as many as its language's, or "x" is there,
// nothing is added.
TEST(Json, I18nextV3NumberedFormsGetThePairInEnglish) {
  const std::string text =
      "{\n  \"item_0\": \"{{count}} файл\",\n  \"item_1\": \"{{count}} файла\",\n"
      "  \"item_2\": \"{{count}} файлов\",\n"
      "  \"step_0\": \"Первый шаг\", \"step_1\": \"Второй шаг\",\n"
      "  \"day\": \"День\", \"day_0\": \"{{count}} день\", \"day_1\": \"{{count}} дня\", "
      "\"day_2\": \"{{count}} дней\"\n}\n";
  auto doc = JsonDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  ASSERT_EQ(doc.value().units().size(), 9u);
  const std::vector<std::string> t{"{{count}} file", "{{count}} files", "{{count}} files",
                                   "First step",     "Second step",     "Day",
                                   "{{count}} day",  "{{count}} days",  "{{count}} days."};
  EXPECT_EQ(doc.value().render(t, "en", "ru"),
            "{\n  \"item_0\": \"{{count}} file\",\n  \"item_1\": \"{{count}} files\",\n"
            "  \"item_2\": \"{{count}} files\",\n  \"item\": \"{{count}} file\",\n"
            "  \"item_plural\": \"{{count}} files\",\n"
            "  \"step_0\": \"First step\", \"step_1\": \"Second step\",\n"
            "  \"day\": \"Day\", \"day_0\": \"{{count}} day\", \"day_1\": \"{{count}} days\", "
            "\"day_2\": \"{{count}} days.\"\n}\n");
  // Into Arabic: 0 -> the form for 5, 1 -> 1, 2 -> 2, 3, 11, 100 -> 5.
  std::vector<std::string> u = t;
  u[0] = "A";
  u[1] = "B";
  u[2] = "C";
  const std::string ar = doc.value().render(u, "ar", "ru-RU");
  EXPECT_NE(ar.find("\"item_2\": \"C\",\n  \"item_3\": \"C\",\n  \"item_4\": \"C\",\n  \"item_5\": \"C\",\n"),
            std::string::npos)
      << ar;
  EXPECT_EQ(ar.find("\"item\""), std::string::npos) << ar;
  EXPECT_EQ(ar.find("step_2"), std::string::npos) << ar;
  // A language with the same forms, an unknown or no source language, a source of the
  // pair: the file as translated.
  const std::string plain = doc.value().render(t, "en");
  for (const auto& [to, from] : std::vector<std::pair<const char*, const char*>>{
           {"uk", "ru"}, {"pl", "ru"}, {"en", ""}, {"en", "xx"}, {"de", "en"}, {"ru", "de"}})
    EXPECT_EQ(doc.value().render(t, to, from).size(), doc.value().render(t, to).size()) << to << " " << from;
  EXPECT_EQ(plain.find("\"item\""), std::string::npos) << plain;
  EXPECT_NE(doc.value().render(t, "de", "ru").find("\"item_plural\": \"{{count}} files\""),
            std::string::npos);
  // What it writes reads back: the English file's pair is JSON v3's, whose Russian forms
  // are there already.
  auto again = JsonDocument::parse(doc.value().render(t, "en", "ru"));
  ASSERT_TRUE(again.has_value()) << again.status().message();
  EXPECT_EQ(again.value().units().size(), 11u);
}

// i18next's plural keys: after "x_other", the target language's categories its object
// has not, with "x_other"'s translation, written as it is written; a lone "_other" key,
// an ordinal one, or a language without more categories: nothing added.
TEST(Json, I18nextPluralKeysGetTheLanguagesCategories) {
  const std::string text =
      "{\n  \"item_one\": \"One item\",\n  \"item_other\": \"{{count}} items\",\n"
      "  \"nested\": {\"day_one\":\"One day\",\"day_other\":\"{{count}} days\"},\n"
      "  \"place_ordinal_one\": \"{{count}}st place\",\n  \"place_ordinal_other\": \"{{count}}th place\",\n"
      "  \"color_other\": \"Another color\"\n}\n";
  auto doc = JsonDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  ASSERT_EQ(doc.value().units().size(), 7u);
  const std::vector<std::string> t{"Ein Element",     "{{count}} Elemente", "Ein Tag",     "{{count}} Tage",
                                   "Platz {{count}}", "{{count}}. Platz",   "Andere Farbe"};
  EXPECT_EQ(
      doc.value().render(t, "ru"),
      "{\n  \"item_one\": \"Ein Element\",\n  \"item_other\": \"{{count}} Elemente\",\n"
      "  \"item_few\": \"{{count}} Elemente\",\n  \"item_many\": \"{{count}} Elemente\",\n"
      "  \"nested\": {\"day_one\":\"Ein Tag\",\"day_other\":\"{{count}} Tage\",\"day_few\":\"{{count}} "
      "Tage\",\"day_many\":\"{{count}} Tage\"},\n"
      "  \"place_ordinal_one\": \"Platz {{count}}\",\n  \"place_ordinal_other\": \"{{count}}. Platz\",\n"
      "  \"color_other\": \"Andere Farbe\"\n}\n");
  const std::string de = doc.value().render(t, "de");
  EXPECT_EQ(de.find("_few"), std::string::npos) << de;
  // Into English the ordinal keys get English's ordinal categories ("2nd", "3rd").
  const std::string en = doc.value().render(t, "en");
  EXPECT_NE(
      en.find(
          "\"place_ordinal_other\": \"{{count}}. Platz\",\n  \"place_ordinal_two\": \"{{count}}. Platz\",\n"
          "  \"place_ordinal_few\": \"{{count}}. Platz\",\n"),
      std::string::npos)
      << en;
  EXPECT_EQ(en.find("item_few"), std::string::npos) << en;
  EXPECT_EQ(doc.value().render(t), doc.value().render(t, "xx"));
  // The result is JSON with the keys in it.
  auto again = JsonDocument::parse(doc.value().render(t, "ar"));
  ASSERT_TRUE(again.has_value()) << again.status().message();
  EXPECT_EQ(again.value().units().size(), 7u + 4u + 4u);
}

// Flutter's ARB files: "@key" metadata (descriptions, placeholders' examples) is for
// translators and tools, not the app's text: kept; "@@locale" becomes the translation's.
TEST(Json, ArbMetadataIsKeptAndTheLocaleIsTheTranslations) {
  const std::string arb =
      "{\n  \"@@locale\": \"en\",\n  \"helloWorld\": \"Hello World!\",\n"
      "  \"@helloWorld\": {\"description\": \"The conventional newborn programmer greeting\"},\n"
      "  \"newMessages\": \"You have {count} new messages\",\n"
      "  \"@newMessages\": {\"description\": \"How many messages\", \"placeholders\": {\"count\": "
      "{\"type\": \"int\", \"example\": \"forty two\"}}},\n"
      "  \"nested\": {\"@@locale\": \"en\", \"x\": \"Open the file\"}\n}\n";
  auto doc = JsonDocument::parse(arb);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  EXPECT_EQ(doc.value().units(),
            (std::vector<std::string>{"Hello World!", "You have {count} new messages", "Open the file"}));
  const std::string out = doc.value().render({"Hallo Welt!", "Sie haben {count} neue Nachrichten",
                                              "Datei \xC3\xB6"
                                              "ffnen"},
                                             "de");
  EXPECT_EQ(out,
            "{\n  \"@@locale\": \"de\",\n  \"helloWorld\": \"Hallo Welt!\",\n"
            "  \"@helloWorld\": {\"description\": \"The conventional newborn programmer greeting\"},\n"
            "  \"newMessages\": \"Sie haben {count} neue Nachrichten\",\n"
            "  \"@newMessages\": {\"description\": \"How many messages\", \"placeholders\": {\"count\": "
            "{\"type\": \"int\", \"example\": \"forty two\"}}},\n"
            "  \"nested\": {\"@@locale\": \"en\", \"x\": \"Datei \xC3\xB6"
            "ffnen\"}\n}\n");
  // Without a language the locale stays; untranslated, the file is as it was.
  EXPECT_EQ(doc.value().render({}), arb);
}

TEST(Json, InvalidDocumentsAreErrorsThatSayWhere) {
  for (auto [bad, what] : {std::pair{"{\"a\": \"x\",}", "line 1, column 11"},
                           {"{\n  \"a\": tru\n}", "line 2, column 8"},
                           {"[1, 2", "expected ',' or ']'"},
                           {"{\"a\" 1}", "expected ':'"},
                           {"\"tab\there\"", "control character"},
                           {"\"\\x\"", "bad escape"},
                           {"01", "text after"},
                           {"", "empty"},
                           {"{} {}", "text after"},
                           {"// comment\n{}", "unexpected character"}}) {
    auto d = JsonDocument::parse(bad);
    ASSERT_FALSE(d.has_value()) << bad;
    EXPECT_NE(d.status().message().find(what), std::string::npos) << bad << ": " << d.status().message();
  }
  // Deep nesting is refused, not a stack overflow.
  auto deep = JsonDocument::parse(std::string(100000, '['));
  ASSERT_FALSE(deep.has_value());
  EXPECT_NE(deep.status().message().find("nested deeper than 512"), std::string::npos)
      << deep.status().message();
  EXPECT_TRUE(JsonDocument::parse(std::string(500, '[') + std::string(500, ']')).has_value());
}

}  // namespace
}  // namespace edgemt
