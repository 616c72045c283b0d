// gettext catalogs (runtime/formats/po_catalog.h).
#include "runtime/formats/po_catalog.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <fstream>
#include <string>
#include <vector>

#include "runtime/formats/plural_categories.h"

namespace edgemt {
namespace {

// ---- gettext catalogs (TextFormat::kPo) ----------------------------------------------

namespace po_test {
const char* const kCatalog =
    "# Header comment\n"
    "msgid \"\"\n"
    "msgstr \"\"\n"
    "\"Language: de\\n\"\n"
    "\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n"
    "\n"
    "#: a.c:1\n"
    "msgid \"Open \\\"%s\\\"\\tnow\"\n"
    "msgstr \"\"\n"
    "\n"
    "#, c-format\n"
    "msgid \"%d file\"\n"
    "msgid_plural \"%d files\"\n"
    "msgstr[0] \"\"\n"
    "msgstr[1] \"\"\n"
    "\n"
    "msgid \"Done\"\n"
    "msgstr \"Fertig\"\n"
    "\n"
    "msgctxt \"menu\"\n"
    "msgid \"\"\n"
    "\"Line one\\n\"\n"
    "\"Line two\"\n"
    "msgstr \"\"\n"
    "#~ msgid \"Old\"\n"
    "#~ msgstr \"\"\n";
}  // namespace po_test

TEST(PoCatalog, FindsUntranslatedMessagesDecoded) {
  auto c = PoCatalog::parse(po_test::kCatalog);
  ASSERT_TRUE(c.has_value()) << c.status().to_string();
  const std::vector<std::string> want = {"Open \"%s\"\tnow", "%d file", "%d files", "Line one\nLine two"};
  EXPECT_EQ(c.value().texts(), want);
}

TEST(PoCatalog, FillsMessagesFlagsThemFuzzyAndKeepsTheRest) {
  auto c = PoCatalog::parse(po_test::kCatalog);
  ASSERT_TRUE(c.has_value());
  const std::string out =
      c.value().render({"Öffne \"%s\"\tjetzt", "%d Datei", "%d Dateien", "Zeile eins\nZeile zwei"});
  const std::string want =
      "# Header comment\n"
      "msgid \"\"\n"
      "msgstr \"\"\n"
      "\"Language: de\\n\"\n"
      "\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n"
      "\n"
      "#: a.c:1\n"
      "#, fuzzy\n"
      "msgid \"Open \\\"%s\\\"\\tnow\"\n"
      "msgstr \"Öffne \\\"%s\\\"\\tjetzt\"\n"
      "\n"
      "#, c-format, fuzzy\n"
      "msgid \"%d file\"\n"
      "msgid_plural \"%d files\"\n"
      "msgstr[0] \"%d Datei\"\n"
      "msgstr[1] \"%d Dateien\"\n"
      "\n"
      "msgid \"Done\"\n"
      "msgstr \"Fertig\"\n"
      "\n"
      "#, fuzzy\n"
      "msgctxt \"menu\"\n"
      "msgid \"\"\n"
      "\"Line one\\n\"\n"
      "\"Line two\"\n"
      "msgstr \"\"\n"
      "\"Zeile eins\\n\"\n"
      "\"Zeile zwei\"\n"
      "#~ msgid \"Old\"\n"
      "#~ msgstr \"\"\n";
  EXPECT_EQ(out, want);
  // Filled, the catalog has nothing left to translate and renders as it is.
  auto again = PoCatalog::parse(out);
  ASSERT_TRUE(again.has_value());
  EXPECT_TRUE(again.value().texts().empty());
  EXPECT_EQ(again.value().render({}), out);
}

TEST(PoCatalog, CrlfAndNoFinalLineBreakAreKept) {
  const std::string in = "msgid \"A\"\r\nmsgstr \"\"\r\n\r\nmsgid \"B\"\r\nmsgstr \"\"";
  auto c = PoCatalog::parse(in);
  ASSERT_TRUE(c.has_value());
  ASSERT_EQ(c.value().texts().size(), 2u);
  EXPECT_EQ(c.value().render({"a", "b"}),
            "#, fuzzy\r\nmsgid \"A\"\r\nmsgstr \"a\"\r\n\r\n#, fuzzy\r\nmsgid \"B\"\r\nmsgstr \"b\"");
  // Identity translations: the two fuzzy lines and the two one-letter strings are added.
  EXPECT_EQ(c.value().render(c.value().texts()).size(),
            in.size() + 2 * std::string("#, fuzzy\r\n").size() + 2);
}

// A plural entry gets the forms its header's Plural-Forms says, in their number: the
// singular's translation in the form for n = 1 (Arabic's is msgstr[1]), the plural's in
// the others (all of Japanese's one); without a Plural-Forms that evaluates, msgstr[0]
// is the singular's and the rest the plural's, as many as there were.
TEST(PoCatalog, PluralFormsFollowTheHeader) {
  auto render = [](const std::string& plural_forms, const std::string& forms, const std::string& end = "\n") {
    const std::string po = "msgid \"\"\nmsgstr \"\"\n\"Plural-Forms: " + plural_forms +
                           "\\n\"\n\n#, c-format\nmsgid \"One file\"\nmsgid_plural \"%d files\"\n" + forms +
                           end;
    auto c = PoCatalog::parse(po);
    EXPECT_TRUE(c.has_value()) << c.status().message();
    if (!c) return std::string();
    EXPECT_EQ(c.value().texts(), (std::vector<std::string>{"One file", "%d files"}));
    const std::string out = c.value().render({"S", "P"});
    return out.substr(out.find("msgstr[0]"));
  };
  const std::string two = "msgstr[0] \"\"\nmsgstr[1] \"\"";
  EXPECT_EQ(render("nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || "
                   "n%100>=20) ? 1 : 2);",
                   two),
            "msgstr[0] \"S\"\nmsgstr[1] \"P\"\nmsgstr[2] \"P\"\n");
  EXPECT_EQ(
      render("nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? "
             "4 : 5);",
             two, ""),
      "msgstr[0] \"P\"\nmsgstr[1] \"S\"\nmsgstr[2] \"P\"\nmsgstr[3] \"P\"\nmsgstr[4] \"P\"\nmsgstr[5] \"P\"");
  EXPECT_EQ(render("nplurals=1; plural=0;", two), "msgstr[0] \"P\"\n");
  EXPECT_EQ(render("nplurals=1; plural=0;", two, ""), "msgstr[0] \"P\"");
  EXPECT_EQ(render("nplurals=2; plural=n>1;", "msgstr[0] \"\"\r\nmsgstr[1] \"\"", "\r\n"),
            "msgstr[0] \"S\"\r\nmsgstr[1] \"P\"\r\n");
  // Not evaluable (a template's placeholder, a form past nplurals, a division by zero, a
  // syntax error, nesting past 64): as many forms as there were, msgstr[0] the singular's.
  const std::string deep = std::string(100, '(') + "n != 1" + std::string(100, ')');
  for (const std::string& bad :
       {std::string("nplurals=INTEGER; plural=EXPRESSION;"), std::string("nplurals=2; plural=n;"),
        std::string("nplurals=2; plural=1/(n-1);"), std::string("nplurals=2; plural=(n != 1;"),
        std::string("nplurals=2; plural=n ! 1;"), "nplurals=2; plural=" + deep + ";",
        std::string("plural=(n != 1);")})
    EXPECT_EQ(render(bad, "msgstr[0] \"\"\nmsgstr[1] \"\"\nmsgstr[2] \"\""),
              "msgstr[0] \"S\"\nmsgstr[1] \"P\"\nmsgstr[2] \"P\"\n")
        << bad;
}

// A template's header (xgettext's placeholders) is filled in for the translation's
// language as msginit fills it, and its plural entries get that language's forms; a
// catalog's own header is kept, whatever the language.
TEST(PoCatalog, TemplateHeadersGetTheLanguage) {
  const std::string pot =
      "#, fuzzy\nmsgid \"\"\nmsgstr \"\"\n\"Language: \\n\"\n\"Content-Type: text/plain; "
      "charset=CHARSET\\n\"\n"
      "\"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n\"\n\n"
      "msgid \"One file\"\nmsgid_plural \"%d files\"\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n";
  auto c = PoCatalog::parse(pot);
  ASSERT_TRUE(c.has_value()) << c.status().message();
  EXPECT_EQ(
      c.value().render({"S", "P"}, "ru"),
      "#, fuzzy\nmsgid \"\"\nmsgstr \"\"\n\"Language: ru\\n\"\n\"Content-Type: text/plain; "
      "charset=UTF-8\\n\"\n"
      "\"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || "
      "n%100>=20) ? 1 : 2);\\n\"\n\n"
      "#, fuzzy\nmsgid \"One file\"\nmsgid_plural \"%d files\"\nmsgstr[0] \"S\"\nmsgstr[1] \"P\"\nmsgstr[2] "
      "\"P\"\n");
  const std::string ja = c.value().render({"S", "P"}, "ja_JP");
  EXPECT_NE(ja.find("\"Language: ja_JP\\n\"\n"), std::string::npos) << ja;
  EXPECT_NE(ja.find("nplurals=1; plural=0;"), std::string::npos) << ja;
  EXPECT_NE(ja.find("msgstr[0] \"P\"\n"), std::string::npos) << ja;
  EXPECT_EQ(ja.find("msgstr[1]"), std::string::npos) << ja;
  // A language without a Plural-Forms in the table: the placeholder stays, the forms too.
  const std::string xx = c.value().render({"S", "P"}, "tlh");
  EXPECT_NE(xx.find("nplurals=INTEGER; plural=EXPRESSION;"), std::string::npos) << xx;
  EXPECT_NE(xx.find("msgstr[0] \"S\"\nmsgstr[1] \"P\"\n"), std::string::npos) << xx;
  EXPECT_EQ(gettext_plural_forms("pt-BR"), "nplurals=2; plural=(n > 1);");
  EXPECT_EQ(gettext_plural_forms("pt_PT"), "nplurals=2; plural=(n != 1);");
  EXPECT_EQ(gettext_plural_forms(""), "");
  // A catalog's own Plural-Forms is its translator's (an empty Language is filled).
  const std::string own =
      "msgid \"\"\nmsgstr \"\"\n\"Language: \\n\"\n\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n";
  EXPECT_EQ(
      PoCatalog::parse(own).value().render({}, "ru"),
      "msgid \"\"\nmsgstr \"\"\n\"Language: ru\\n\"\n\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n");
}

// The Plural-Forms table is msginit's (gettext) for every language msginit knows.
TEST(PoCatalog, PluralFormsAreMsginits) {
  if (std::system("msginit --version > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "msginit (gettext) is not installed";
  const std::string dir = ::testing::TempDir();
  {
    std::ofstream pot(dir + "/edgemt.pot");
    pot << "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n"
           "\"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n\"\n";
  }
  size_t checked = 0;
  for (const char* language :
       {"ja", "ko", "vi", "de", "en", "es", "fr", "pt", "pt_BR", "ru", "uk", "be", "hr", "sr",
        "pl", "cs", "sk", "sl", "lt", "lv", "ro", "ga", "he",    "tr", "hu", "fi", "sv"}) {
    const std::string out = dir + "/edgemt." + language + ".po";
    const std::string cmd = std::string("msginit --no-translator -l ") + language + " -i " + dir +
                            "/edgemt.pot -o " + out + " > /dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::ifstream in(out);
    std::string po((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto c = PoCatalog::parse(po);
    ASSERT_TRUE(c.has_value()) << po;
    // The header's value, its continuation lines joined.
    std::string header;
    for (size_t at = po.find("\"Plural-Forms: "); at != std::string::npos && po[at] == '"';) {
      const size_t e = po.find('\n', at);
      header += po.substr(at + 1, e - at - 2);
      at = e + 1;
      if (header.find("\\n") != std::string::npos) break;
    }
    header = header.substr(std::string("Plural-Forms: ").size());
    header = header.substr(0, header.find("\\n"));
    if (header.find("INTEGER") != std::string::npos) continue;  // msginit knows it not
    EXPECT_EQ(gettext_plural_forms(language), header) << language;
    ++checked;
  }
  EXPECT_GT(checked, 20u);
}

TEST(PoCatalog, MalformedCatalogsAreErrorsNamingTheLine) {
  for (const char* bad :
       {"msgid \"unterminated\nmsgstr \"\"\n", "msgid \"a\"\nmsgstr \"\"\n\"x\" junk\n", "\"orphan\"\n",
        "msgid \"a\"\nmsgfoo \"\"\n", "msgid\n", "msgid \"bad \\q escape\"\n"}) {
    auto c = PoCatalog::parse(bad);
    ASSERT_FALSE(c.has_value()) << bad;
    EXPECT_NE(c.status().message().find("po line "), std::string::npos) << c.status().message();
  }
  auto empty = PoCatalog::parse("");
  ASSERT_TRUE(empty.has_value());
  EXPECT_EQ(empty.value().render({}), "");
}

}  // namespace
}  // namespace edgemt
