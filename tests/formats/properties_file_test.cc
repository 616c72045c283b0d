// Java .properties (runtime/formats/properties_file.h).
#include "runtime/formats/properties_file.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace edgemt {
namespace {

// ---- Java .properties (TextFormat::kProperties) -----------------------------------
// Values with words are units, read as java.util.Properties reads them (separators,
// continuations, escapes); keys, comments and values without words come back byte for byte.
TEST(PropertiesFile, ValuesAreUnitsReadAsJavaReadsThem) {
  const std::string text =
      "# Messages\r\n"
      "! also a comment = not a value\n"
      "app.title=File Manager\n"
      "  button.cancel : Cancel  \n"
      "button.ok OK\n"
      "escaped\\ key\\=x = Open the\\tsettings\n"
      "long.text = This sentence \\\n"
      "        goes on.\n"
      "app.url = https://example.org/help\n"
      "logo.icon = Blue logo\n"
      "enabled=true\n"
      "version=1.0.3\n"
      "empty=\n"
      "lead=\\ Leading space\n"
      "caf\\u00e9 = Caf\\u00e9 au lait \\ud83d\\ude00\n"
      "bad = Broken \\u00zz escape\n"
      "lone = A \\ud83d lone half\n"
      "last = No line end";
  const PropertiesFile f = PropertiesFile::parse(text);
  EXPECT_EQ(f.units(), (std::vector<std::string>{"File Manager", "Cancel", "OK", "Open the\tsettings",
                                                 "This sentence goes on.", "Leading space",
                                                 "Caf\xC3\xA9 au lait \xF0\x9F\x98\x80", "No line end"}));
  EXPECT_EQ(f.render({}), text);
  const std::string out = f.render({"Dateiverwaltung", "Abbrechen", "",
                                    "Einstellungen\n\\ \xC3\xB6"
                                    "ffnen",
                                    "Dieser Satz geht weiter.", "F\xC3\xBChrende Leerzeichen",
                                    "Milchkaffee \xF0\x9F\x98\x80", "Kein Zeilenende"});
  // An all-ASCII file: characters past ASCII as \uXXXX (a surrogate pair past U+FFFF);
  // a value on one line; its spaces (the trailing ones of "Cancel  ") kept.
  EXPECT_EQ(out,
            "# Messages\r\n"
            "! also a comment = not a value\n"
            "app.title=Dateiverwaltung\n"
            "  button.cancel : Abbrechen  \n"
            "button.ok OK\n"
            "escaped\\ key\\=x = Einstellungen\\n\\\\ \\u00F6ffnen\n"
            "long.text = Dieser Satz geht weiter.\n"
            "app.url = https://example.org/help\n"
            "logo.icon = Blue logo\n"
            "enabled=true\n"
            "version=1.0.3\n"
            "empty=\n"
            "lead=\\ F\\u00FChrende Leerzeichen\n"
            "caf\\u00e9 = Milchkaffee \\uD83D\\uDE00\n"
            "bad = Broken \\u00zz escape\n"
            "lone = A \\ud83d lone half\n"
            "last = Kein Zeilenende");
  // A file with characters past ASCII in it (UTF-8, or Latin-1 read as such): written as they are.
  const PropertiesFile utf8 = PropertiesFile::parse("title=Caf\xC3\xA9 menu\n");
  ASSERT_EQ(utf8.units().size(), 1u);
  EXPECT_EQ(utf8.render({"Caf\xC3\xA9-Men\xC3\xBC"}), "title=Caf\xC3\xA9-Men\xC3\xBC\n");
  // A continuation's line end "\r\n"; a '\' at the file's end.
  const PropertiesFile crlf = PropertiesFile::parse("a = one \\\r\n   two\r\nb = three\\");
  EXPECT_EQ(crlf.units(), (std::vector<std::string>{"one two", "three"}));
  EXPECT_EQ(crlf.render({"eins zwei", "drei"}), "a = eins zwei\r\nb = drei");
  // What is not the format's still reads as it: no errors, no losses.
  for (const std::string odd : {"", "\\", "=", "key", "a=\\u", "\n\n\\\n", "x \\\n", "\xEF\xBB\xBF# c"}) {
    const PropertiesFile o = PropertiesFile::parse(odd);
    EXPECT_EQ(o.render({}), odd);
  }
}

// A MessageFormat pattern's apostrophes: doubled ones reach the model as one and the
// translation's are doubled; single ones (quoted text) are left as they are. ICU plurals
// are taken apart and get the target's categories; choice formats are kept.
TEST(PropertiesFile, MessageFormatPatterns) {
  const PropertiesFile f = PropertiesFile::parse(
      "a = Don''t delete {0}.\n"
      "b = Click '{'here'}' now {0}\n"
      "c = Isn't it nice?\n"
      "d = {0, plural, one {# file was saved.} other {# files were saved.}}\n"
      "e = {0,choice,0#no files|1#one file|1<{0,number,integer} files}\n"
      "f = {0} of {1,number} items isn''t bad\n");
  EXPECT_EQ(f.units(),
            (std::vector<std::string>{"Don't delete {0}.", "Click '{'here'}' now {0}", "Isn't it nice?",
                                      "{#} file was saved.", "{#} files were saved.",
                                      "{0} of {1,number} items isn't bad"}));
  const std::string out =
      f.render({"L\xC3\xB6sche {0} nicht, it's", "Klicke '{'hier'}' {0}", "Isn't it?",
                "{#} \xD1\x84\xD0\xB0\xD0\xB9\xD0\xBB",
                "{#} \xD1\x84\xD0\xB0\xD0\xB9\xD0\xBB\xD0\xBE\xD0\xB2", "{0} von {1,number} ok"},
               "ru");
  auto has = [&](const std::string& part) {
    EXPECT_NE(out.find(part), std::string::npos) << part << "\n" << out;
  };
  has("a = L\\u00F6sche {0} nicht, it''s\n");
  has("b = Klicke '{'hier'}' {0}\n");
  has("c = Isn't it?\n");
  has("d = {0, plural, one {");
  has(" few {");
  has(" many {");
  has("e = {0,choice,0#no files|1#one file|1<{0,number,integer} files}\n");
  has("f = {0} von {1,number} ok\n");
}

}  // namespace
}  // namespace edgemt
