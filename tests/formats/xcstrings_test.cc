// Xcode String Catalogs (runtime/formats/xcstrings_document.h).
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "runtime/formats/xcstrings_document.h"

namespace edgemt {
namespace {

// ---- Xcode String Catalogs (TextFormat::kXcstrings) -------------------------------
// Each string the target has not yet gets its localization, in Xcode's layout and key
// order: its source's value or its key; a plural with the target's categories.
TEST(XcstringsDocument, StringsGetTheTargetsLocalization) {
  const std::string text =
      "{\n"
      "  \"sourceLanguage\" : \"en\",\n"
      "  \"strings\" : {\n"
      "    \"\" : {\n\n    },\n"
      "    \"%lld files\" : {\n"
      "      \"localizations\" : {\n"
      "        \"en\" : {\n"
      "          \"variations\" : {\n"
      "            \"plural\" : {\n"
      "              \"one\" : {\n"
      "                \"stringUnit\" : {\n"
      "                  \"state\" : \"translated\",\n"
      "                  \"value\" : \"%lld file\"\n"
      "                }\n"
      "              },\n"
      "              \"other\" : {\n"
      "                \"stringUnit\" : {\n"
      "                  \"state\" : \"translated\",\n"
      "                  \"value\" : \"%lld files\"\n"
      "                }\n"
      "              }\n"
      "            }\n"
      "          }\n"
      "        }\n"
      "      }\n"
      "    },\n"
      "    \"Cancel\" : {\n\n    },\n"
      "    \"Hello, %@!\" : {\n"
      "      \"comment\" : \"Greeting\",\n"
      "      \"extractionState\" : \"manual\"\n"
      "    },\n"
      "    \"Open\" : {\n"
      "      \"localizations\" : {\n"
      "        \"de\" : {\n"
      "          \"stringUnit\" : {\n"
      "            \"state\" : \"translated\",\n"
      "            \"value\" : \"\\u00d6ffnen\"\n"
      "          }\n"
      "        }\n"
      "      }\n"
      "    },\n"
      "    \"welcome_title\" : {\n"
      "      \"localizations\" : {\n"
      "        \"en\" : {\n"
      "          \"stringUnit\" : {\n"
      "            \"state\" : \"translated\",\n"
      "            \"value\" : \"Say \\\"hi\\\"\"\n"
      "          }\n"
      "        },\n"
      "        \"fr\" : {\n"
      "          \"stringUnit\" : {\n"
      "            \"state\" : \"translated\",\n"
      "            \"value\" : \"Dis bonjour\"\n"
      "          }\n"
      "        }\n"
      "      }\n"
      "    },\n"
      "    \"Brand\" : {\n"
      "      \"shouldTranslate\" : false\n"
      "    },\n"
      "    \"button_id\" : {\n\n    }\n"
      "  },\n"
      "  \"version\" : \"1.0\"\n"
      "}\n";
  auto doc = XcstringsDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  EXPECT_EQ(doc.value().source_language(), "en");
  EXPECT_EQ(doc.value().units(), (std::vector<std::string>{"%lld file", "%lld files", "Cancel", "Hello, %@!",
                                                           "Open", "Say \"hi\""}));
  EXPECT_EQ(doc.value().render({}, "de"), text);
  EXPECT_EQ(doc.value().render({"%lld Datei", "%lld Dateien"}, ""), text);
  EXPECT_EQ(doc.value().render({"%lld Datei", "%lld Dateien"}, "en"), text);
  const std::vector<std::string> de = {"%lld Datei", "%lld Dateien", "Abbrechen", "Hallo, %@!",
                                       "x",          "Sag \"hallo\""};
  auto unit = [](const std::string& indent, const std::string& value) {
    return "{\n" + indent + "  \"stringUnit\" : {\n" + indent + "    \"state\" : \"needs_review\",\n" +
           indent + "    \"value\" : \"" + value + "\"\n" + indent + "  }\n" + indent + "}";
  };
  std::string want = text;
  auto insert = [&](const std::string& before, const std::string& what) {
    const size_t at = want.find(before);
    ASSERT_NE(at, std::string::npos) << before;
    want.insert(at, what);
  };
  // Into an existing "localizations", in key order (before "en" or after it, before "fr").
  insert("\"en\" : {\n          \"variations\"",
         "\"de\" : {\n          \"variations\" : {\n            \"plural\" : {\n              \"one\" : " +
             unit("              ", "%lld Datei") + ",\n              \"other\" : " +
             unit("              ", "%lld Dateien") + "\n            }\n          }\n        },\n        ");
  insert(
      "\"en\" : {\n          \"stringUnit\" : {\n            \"state\" : \"translated\",\n            "
      "\"value\" : \"Say",
      "\"de\" : " + unit("        ", "Sag \\\"hallo\\\"") + ",\n        ");
  // A new "localizations": into an empty string object, and after "extractionState".
  const std::string cancel = "\"Cancel\" : {\n\n    }";
  want.replace(want.find(cancel), cancel.size(),
               "\"Cancel\" : {\n      \"localizations\" : {\n        \"de\" : " +
                   unit("        ", "Abbrechen") + "\n      }\n    }");
  insert("\n    },\n    \"Open\"",
         ",\n      \"localizations\" : {\n        \"de\" : " + unit("        ", "Hallo, %@!") + "\n      }");
  EXPECT_EQ(doc.value().render(de, "de"), want);
  // Into Russian: one, few, many and other (few and many from other).
  const std::string ru = doc.value().render(de, "ru");
  const size_t ru_plural = ru.find("\"ru\" : {\n          \"variations\"");
  ASSERT_NE(ru_plural, std::string::npos) << ru;
  size_t last = ru_plural;
  for (const char* branch : {"\"one\" : {", "\"few\" : {", "\"many\" : {", "\"other\" : {"}) {
    const size_t at = ru.find(branch, last);
    EXPECT_NE(at, std::string::npos) << branch << "\n" << ru;
    last = at == std::string::npos ? last : at;
  }
  EXPECT_NE(ru.find("\"few\" : {\n                \"stringUnit\" : {\n                  \"state\" : "
                    "\"needs_review\",\n                  \"value\" : \"%lld Dateien\""),
            std::string::npos)
      << ru;
  EXPECT_NE(
      ru.find("\"Open\" : {\n      \"localizations\" : {\n        \"de\" : {\n          \"stringUnit\" : "
              "{\n            \"state\" : \"translated\",\n            \"value\" : \"\\u00d6ffnen\"\n        "
              "  }\n        },\n        \"ru\" : "),
      std::string::npos)
      << ru;
  for (auto [bad, what] : {std::pair{"{\"strings\": {}", "JSON line 1"},
                           {"{\"strings\": {}}", "not an Xcode String Catalog"},
                           {"[1, 2]", "not an Xcode String Catalog"}}) {
    auto d = XcstringsDocument::parse(bad);
    ASSERT_FALSE(d.has_value()) << bad;
    EXPECT_NE(d.status().message().find(what), std::string::npos) << d.status().message();
  }
}

}  // namespace
}  // namespace edgemt
