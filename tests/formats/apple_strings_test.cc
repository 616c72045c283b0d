// Apple .strings and .stringsdict (runtime/formats/apple_strings.h, stringsdict_document.h).
#include "runtime/formats/apple_strings.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/formats/stringsdict_document.h"

namespace edgemt {
namespace {

// ---- Apple .strings (TextFormat::kStrings) ----------------------------------------
TEST(AppleStrings, ValuesAreUnits) {
  const std::string text =
      "\xEF\xBB\xBF/* Title of the main window */\n"
      "\"main.title\" = \"File Manager\";\n"
      "// A button\n"
      "\"Cancel\"=\"Cancel\";\n"
      "\"greeting\" = \"Hello, %@! You have %d new messages.\" ;\n"
      "\"quote\" = \"Say \\\"yes\\\" to\\ncontinue.\\t\";\n"
      "unquoted_key = 'Open the settings';\n"
      "bare = Settings;\n"
      "\"help.url\" = \"https://example.org/help\";\n"
      "\"flag\" = \"true\";\n"
      "\"only key\";\n"
      "\"esc\" = \"Caf\\U00e9 \\UD83D\\UDE00 \\101BC\";\n"
      "\"empty\" = \"\";\n";
  auto f = AppleStrings::parse(text);
  ASSERT_TRUE(f.has_value()) << f.status().message();
  EXPECT_EQ(f.value().units(),
            (std::vector<std::string>{"File Manager", "Cancel", "Hello, %@! You have %d new messages.",
                                      "Say \"yes\" to\ncontinue.", "Open the settings", "Settings",
                                      "Caf\xC3\xA9 \xF0\x9F\x98\x80 ABC"}));
  EXPECT_EQ(f.value().render({}), text);
  const std::string out =
      f.value().render({"Dateiverwaltung", "Abbrechen", "Hallo, %@!", "Sag \"ja\"\\\nweiter.",
                        "\xC3\x96"
                        "ffne 'die' Einstellungen",
                        "Einstellungen", ""});
  EXPECT_EQ(out,
            "\xEF\xBB\xBF/* Title of the main window */\n"
            "\"main.title\" = \"Dateiverwaltung\";\n"
            "// A button\n"
            "\"Cancel\"=\"Abbrechen\";\n"
            "\"greeting\" = \"Hallo, %@!\" ;\n"
            "\"quote\" = \"Sag \\\"ja\\\"\\\\\\nweiter.\\t\";\n"
            "unquoted_key = '\xC3\x96"
            "ffne \\'die\\' Einstellungen';\n"
            "bare = \"Einstellungen\";\n"
            "\"help.url\" = \"https://example.org/help\";\n"
            "\"flag\" = \"true\";\n"
            "\"only key\";\n"
            "\"esc\" = \"Caf\\U00e9 \\UD83D\\UDE00 \\101BC\";\n"
            "\"empty\" = \"\";\n");
  // What is not the format: an error naming the line, never a crash.
  for (auto [bad, what] : {std::pair{"\"a\" = \"Open the file\"\n\n\"b\" = \"x\";", "line 1: expected ';'"},
                           {"\"a\" = \"Open;\n", "line 1: the key's value is a string never closed"},
                           {"\"a\" = \"x\";\n/* open\n", "line 2: a comment (/*) is never closed"},
                           {"\"a\" \"b\";", "line 1: expected '=' after the key"},
                           {"\"a\" = ;", "line 1: expected the key's value"},
                           {"= \"b\";", "line 1: expected a key"},
                           {"\"a\" = \"b\"", "expected ';' after the value, found the end of the file"},
                           {"bplist00\xD1\x01\x02", "binary property list"}}) {
    auto d = AppleStrings::parse(bad);
    ASSERT_FALSE(d.has_value()) << bad;
    EXPECT_NE(d.status().message().find(what), std::string::npos) << d.status().message();
  }
  for (const std::string ok : {"", "  // nothing\n", "/* */"}) {
    auto d = AppleStrings::parse(ok);
    ASSERT_TRUE(d.has_value()) << ok;
    EXPECT_TRUE(d.value().units().empty());
    EXPECT_EQ(d.value().render({}), ok);
  }
}

// ---- Apple .stringsdict (TextFormat::kStringsdict) --------------------------------
TEST(StringsdictDocument, PluralRulesGetTheLanguagesCategories) {
  const std::string text =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
      "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<dict>\n"
      "\t<key>%d files</key>\n\t<dict>\n"
      "\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@files@</string>\n"
      "\t\t<key>files</key>\n\t\t<dict>\n"
      "\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n"
      "\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n"
      "\t\t\t<key>one</key>\n\t\t\t<string>%d file &amp; folder</string>\n"
      "\t\t\t<key>other</key>\n\t\t\t<string>%d files</string>\n"
      "\t\t</dict>\n\t</dict>\n</dict>\n</plist>\n";
  auto doc = StringsdictDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  EXPECT_EQ(doc.value().units(), (std::vector<std::string>{"%d file & folder", "%d files"}));
  EXPECT_EQ(doc.value().render({}), text);
  EXPECT_EQ(doc.value().render({}, "de"), text);
  std::string want = text;
  want.replace(want.find("%d file &amp; folder"), 20, "%d Datei &amp; Ordner");
  want.replace(want.find("%d files</string>"), 8, "%d Dateien");
  EXPECT_EQ(doc.value().render({"%d Datei & Ordner", "%d Dateien"}, "de"), want);
  // Into Russian: few and many after the last category, from other's translation.
  std::string ru = want;
  const std::string after = "<string>%d Dateien</string>";
  ru.insert(
      ru.find(after) + after.size(),
      "\n\t\t\t<key>few</key>\n\t\t\t<string>%d Dateien</string>\n\t\t\t<key>many</key>\n\t\t\t<string>%d "
      "Dateien</string>");
  EXPECT_EQ(doc.value().render({"%d Datei & Ordner", "%d Dateien"}, "ru"), ru);
  // A format key with words, and a width rule's variants, are texts too; a format key of
  // variables alone, and the lookup keys, are not.
  const std::string more =
      "<plist><dict><key>k</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@ left</string>"
      "<key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
      "<key>one</key><string>%d item</string><key>other</key><string>%d items</string></dict></dict>"
      "<key>Welcome</key><dict><key>NSStringVariableWidthRuleType</key><dict><key>20</key><string>Hi"
      "</string><key>50</key><string>Welcome back</string></dict></dict>"
      "<key>j</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string></dict></dict></plist>";
  auto more_doc = StringsdictDocument::parse(more);
  ASSERT_TRUE(more_doc.has_value()) << more_doc.status().message();
  EXPECT_EQ(more_doc.value().units(),
            (std::vector<std::string>{"%#@n@ left", "%d item", "%d items", "Hi", "Welcome back"}));
  std::string more_de = more;
  for (auto [from, to] : {std::pair{">%#@n@ left<", ">noch %#@n@<"},
                          {">%d item<", ">%d Element<"},
                          {">%d items<", ">%d Elemente<"},
                          {">Hi<", ">Hallo<"},
                          {">Welcome back<",
                           ">Willkommen zur\xC3\xBC"
                           "ck<"}})
    more_de.replace(more_de.find(from), std::string_view(from).size(), to);
  EXPECT_EQ(more_doc.value().render({"noch %#@n@", "%d Element", "%d Elemente", "Hallo",
                                     "Willkommen zur\xC3\xBC"
                                     "ck"},
                                    "de"),
            more_de);
  // A rule with "other" alone, on one line: German's "one" added beside it, from its
  // translation, with no line breaks of its own.
  const std::string one_line =
      "<plist><dict><key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType"
      "</string><key>other</key><string>%d items</string></dict></dict></plist>";
  auto compact = StringsdictDocument::parse(one_line);
  ASSERT_TRUE(compact.has_value()) << compact.status().message();
  std::string compact_de = one_line;
  compact_de.replace(compact_de.find("%d items</string>"), 17,
                     "%d Elemente</string><key>one</key><string>%d Elemente</string>");
  EXPECT_EQ(compact.value().render({"%d Elemente"}, "de"), compact_de);
  for (auto [bad, what] : {std::pair{"<plist><dict></plist>", "not well-formed"},
                           {"<resources/>", "not a .stringsdict file"},
                           {"bplist00\xD1\x01\x02", "binary property list"}}) {
    auto d = StringsdictDocument::parse(bad);
    ASSERT_FALSE(d.has_value()) << bad;
    EXPECT_NE(d.status().message().find(what), std::string::npos) << d.status().message();
  }
}

}  // namespace
}  // namespace edgemt
