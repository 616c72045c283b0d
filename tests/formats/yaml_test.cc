// YAML locale files (runtime/formats/yaml_document.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/formats/yaml_document.h"

namespace edgemt {
namespace {

// ---- YAML locale files (TextFormat::kYaml) ----------------------------------------
TEST(YamlDocument, ScalarsAreUnitsInTheirQuoting) {
  const std::string text =
      "# Rails\r\n"
      "en:\r\n"
      "  hello: \"Hello, %{name}!\"   # greeting\r\n"
      "  title: File manager\r\n"
      "  note: 'It''s ready'\r\n"
      "  enabled: true\r\n"
      "  answer: Yes\r\n"
      "  logo_url: https://example.org/logo.png\r\n"
      "  inbox:\r\n"
      "    one: You have one message.\r\n"
      "    other: You have %{count} messages.\r\n"
      "  help: |\r\n"
      "    Press F1 for help.\r\n"
      "    Press Escape.\r\n"
      "  about: >-\r\n"
      "    This program manages\r\n"
      "    your files.\r\n"
      "\r\n"
      "    It is free.\r\n"
      "  menu:\r\n"
      "    - Open the file\r\n"
      "    - \"Quit \\u00e9\"\r\n"
      "    - label: Save as\r\n"
      "  long: This value goes\r\n"
      "    on the next line.\r\n"
      "  flow: [One item, Two items]\r\n"
      "  anchored: &a Some text\r\n"
      "  tagged: !!str Some text\r\n"
      "  padded: \"  Close it  \"\r\n"
      "  empty:\r\n"
      "---\r\n"
      "? complex key\r\n"
      ": Its value\r\n";
  const YamlDocument doc = YamlDocument::parse(text);
  EXPECT_EQ(doc.units(), (std::vector<std::string>{"Hello, %{name}!", "File manager", "It's ready",
                                                   "You have one message.", "You have %{count} messages.",
                                                   "Press F1 for help.", "Press Escape.",
                                                   "This program manages your files.", "It is free.",
                                                   "Open the file", "Quit \xC3\xA9", "Save as", "Close it"}));
  EXPECT_EQ(doc.render({}), text);
  EXPECT_EQ(doc.render({}, "de"), std::string(text).replace(text.find("en:"), 2, "de"));
  const std::vector<std::string> de = {"Hallo, %{name}!",
                                       "Hinweis: Dateien",
                                       "Es ist's",
                                       "Eine Nachricht.",
                                       "%{count} Nachrichten.",
                                       "F1 dr\xC3\xBC"
                                       "cken.",
                                       "Esc\ndr\xC3\xBC"
                                       "cken.",
                                       "Es verwaltet Dateien.",
                                       "Es ist frei.",
                                       "- Datei",
                                       "Beenden \"jetzt\"",
                                       "true",
                                       "Schlie\xC3\x9F"
                                       "en"};
  const std::string out = doc.render(de, "ru");
  auto has = [&](const std::string& part) {
    EXPECT_NE(out.find(part), std::string::npos) << part << "\n" << out;
  };
  has("# Rails\r\nru:\r\n");
  has("  hello: \"Hallo, %{name}!\"   # greeting\r\n");
  has("  title: \"Hinweis: Dateien\"\r\n");  // a plain value that would read otherwise: quoted
  has("  note: 'Es ist''s'\r\n");
  has("  enabled: true\r\n  answer: Yes\r\n  logo_url: https://example.org/logo.png\r\n");
  // Russian's few and many from other, before it.
  // (a plain value starting with '%', an indicator, is quoted)
  has("    one: Eine Nachricht.\r\n    few: \"%{count} Nachrichten.\"\r\n    many: \"%{count} "
      "Nachrichten.\"\r\n"
      "    other: \"%{count} Nachrichten.\"\r\n");
  has("  help: |\r\n    F1 dr\xC3\xBC"
      "cken.\r\n    Esc\n    dr\xC3\xBC"
      "cken.\r\n");
  has("  about: >-\r\n    Es verwaltet Dateien.\r\n\r\n    Es ist frei.\r\n");
  has("    - \"- Datei\"\r\n    - \"Beenden \\\"jetzt\\\"\"\r\n    - label: \"true\"\r\n");
  has("  long: This value goes\r\n    on the next line.\r\n  flow: [One item, Two items]\r\n");
  has("  anchored: &a Some text\r\n  tagged: !!str Some text\r\n  padded: \"  Schlie\xC3\x9F"
      "en  \"\r\n");
  has("---\r\n? complex key\r\n: Its value\r\n");
  // Several top-level keys: none renamed; a plural into Japanese: nothing added.
  const YamlDocument two = YamlDocument::parse("en:\n  a: Open\nfr:\n  a: Ouvrir\n");
  EXPECT_EQ(two.render({}, "de"), "en:\n  a: Open\nfr:\n  a: Ouvrir\n");
  const YamlDocument p = YamlDocument::parse("n:\n  one: One file\n  other: Many files\n");
  EXPECT_EQ(p.render({"A", "B"}, "ja"), "n:\n  one: A\n  other: B\n");
  // What is not YAML still reads: no errors, no losses.
  for (const std::string odd :
       {"", ":", "- ", "\"unclosed: x", "a: \"x", "\tkey: tab", "a: |\n", "- - -", "'a': b"}) {
    const YamlDocument o = YamlDocument::parse(odd);
    EXPECT_EQ(o.render({}), odd);
  }
}

}  // namespace
}  // namespace edgemt
