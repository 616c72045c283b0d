// XLIFF 1.2/2.x and Qt Linguist (runtime/formats/xliff_document.h), on the XML tree
// (runtime/formats/xml_tree.h).
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "runtime/formats/plural_categories.h"
#include "runtime/formats/xliff_document.h"
#include "runtime/formats/xml_tree.h"

namespace edgemt {
namespace {

// ---- XLIFF (TextFormat::kXliff) ---------------------------------------------------
const char kXliff12[] =
    "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n"
    "  <file source-language=\"en\" datatype=\"plaintext\" original=\"app.strings\">\n"
    "    <body>\n"
    "      <trans-unit id=\"open\">\n"
    "        <source>Could not open <g id=\"1\">the file</g>.</source>\n"
    "        <note>An error &amp; its cause.</note>\n"
    "      </trans-unit>\n"
    "      <trans-unit id=\"count\">\n"
    "        <source>You have <x id=\"1\"/> new &lt;messages&gt;.</source>\n"
    "        <target/>\n"
    "      </trans-unit>\n"
    "      <trans-unit id=\"done\"><source>Save changes?</source>"
    "<target state=\"translated\">\xC3\x84nderungen speichern?</target></trans-unit>\n"
    "      <trans-unit id=\"redo\"><source>Undo</source><target state=\"needs-translation\">Undo</target>"
    "</trans-unit>\n"
    "      <group translate=\"no\"><trans-unit id=\"brand\"><source>Firefox "
    "Translations</source></trans-unit>"
    "<trans-unit id=\"yes\" translate=\"yes\"><source>Open</source></trans-unit></group>\n"
    "      <trans-unit id=\"n\"><source> 42 </source></trans-unit>\n"
    "      <trans-unit id=\"b\"><source> Tom is <bpt id=\"1\">&lt;b&gt;</bpt>here<ept "
    "id=\"1\">&lt;/b&gt;</ept>"
    "<![CDATA[ & there]]>\nagain </source><!-- c --></trans-unit>\n"
    "    </body>\n"
    "  </file>\n"
    "</xliff>\n";

TEST(Xliff, Version12SegmentsStillToTranslateAreUnits) {
  auto doc = XliffDocument::parse(kXliff12);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  EXPECT_EQ(doc.value().kind(), XliffDocument::Kind::kXliff12);
  // Translated targets and translate="no" are left; a needs-translation target, a group's
  // translate="yes" unit and an empty target are taken; a number alone is not.
  EXPECT_EQ(doc.value().units(), (std::vector<std::string>{
                                     "Could not open <span id=\"e0\">the file</span>.",
                                     "You have <img id=\"o0\"> new &lt;messages&gt;.",
                                     "Undo",
                                     "Open",
                                     "Tom is <span id=\"e0\">here</span> &amp; there<br id=\"o1\">again",
                                 }));
  // No translations: the file byte for byte.
  EXPECT_EQ(doc.value().render({}), kXliff12);
}

TEST(Xliff, TranslationsBecomeTargetsWithTheirCodes) {
  auto doc = XliffDocument::parse(kXliff12);
  ASSERT_TRUE(doc.has_value());
  const std::string out =
      doc.value().render({"<span id=\"e0\">Die Datei</span> konnte nicht ge\xC3\xB6"
                          "ffnet werden.",
                          "Sie haben<img id=\"o0\">neue &lt;Nachrichten&gt; &amp; mehr.", "",
                          "\xC3\x96"
                          "ffnen",
                          "Tom ist <span id=\"e0\">hier</span> &amp; dort<br id=\"o1\">wieder"},
                         "de");
  const std::string mt = " state=\"needs-review-translation\" state-qualifier=\"mt-suggestion\"";
  auto has = [&](const std::string& part) {
    EXPECT_NE(out.find(part), std::string::npos) << part << "\n" << out;
  };
  has("<file source-language=\"en\" datatype=\"plaintext\" original=\"app.strings\" target-language=\"de\">");
  has("</source>\n        <target xml:lang=\"de\"" + mt +
      "><g id=\"1\">Die Datei</g> konnte nicht ge\xC3\xB6"
      "ffnet werden.</target>\n        <note>");
  // An object keeps the spaces it had around it; an empty target is filled.
  has("<target" + mt + ">Sie haben <x id=\"1\"/> neue &lt;Nachrichten&gt; &amp; mehr.</target>");
  has("<target state=\"needs-translation\">Undo</target>");  // no translation: as it was
  has("<trans-unit id=\"yes\" translate=\"yes\"><source>Open</source><target xml:lang=\"de\"" + mt +
      ">\xC3\x96"
      "ffnen</target>");
  // A pair of native codes around words, the source's spaces at its ends.
  has("again </source><target xml:lang=\"de\"" + mt +
      "> Tom ist <bpt id=\"1\">&lt;b&gt;</bpt>hier<ept id=\"1\">&lt;/b&gt;</ept> &amp; dort\nwieder </target>"
      "<!-- c -->");
  has("<target state=\"translated\">\xC3\x84nderungen speichern?</target>");
  has("<trans-unit id=\"brand\"><source>Firefox Translations</source></trans-unit>");
  // What was translated is not to translate again.
  auto again = XliffDocument::parse(out);
  ASSERT_TRUE(again.has_value()) << again.status().message();
  EXPECT_EQ(again.value().units(), std::vector<std::string>{"Undo"});
}

// 1.2's seg-source (Okapi, memoQ, Trados): each marked segment is a unit, and the target
// has the same markers around their translations.
TEST(Xliff, SegSourceSegmentsAreUnitsEach) {
  const std::string text =
      "<xliff version=\"1.2\"><file source-language=\"en\" target-language=\"de\"><body>\n"
      "<trans-unit id=\"1\"><source>Open the file. Then save it.</source>\n"
      "<seg-source><mrk mtype=\"seg\" mid=\"1\">Open the <g id=\"1\">file</g>.</mrk> "
      "<mrk mtype=\"seg\" mid=\"2\">Then save it.</mrk><x id=\"2\"/></seg-source>\n"
      "</trans-unit>\n"
      "<trans-unit id=\"2\"><source>42</source><seg-source><mrk mtype=\"seg\" mid=\"1\">42</mrk></seg-source>"
      "</trans-unit>\n"
      "</body></file></xliff>\n";
  auto doc = XliffDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  EXPECT_EQ(doc.value().units(),
            (std::vector<std::string>{"Open the <span id=\"e0\">file</span>.", "Then save it."}));
  const std::string out =
      doc.value().render({"<span id=\"e0\">Datei</span> \xC3\xB6"
                          "ffnen.",
                          "Dann speichern."});
  const std::string want_target =
      "</seg-source><target state=\"needs-review-translation\" state-qualifier=\"mt-suggestion\">"
      "<mrk mtype=\"seg\" mid=\"1\"><g id=\"1\">Datei</g> \xC3\xB6"
      "ffnen.</mrk> "
      "<mrk mtype=\"seg\" mid=\"2\">Dann speichern.</mrk><x id=\"2\"/></target>\n</trans-unit>";
  EXPECT_NE(out.find(want_target), std::string::npos) << out;
  EXPECT_EQ(out.find("<target", out.find("id=\"2\"><source>42")), std::string::npos) << out;
  // A segment without a translation keeps its source.
  const std::string half = doc.value().render({"", "Dann speichern."});
  EXPECT_NE(half.find("<mrk mtype=\"seg\" mid=\"1\">Open the <g id=\"1\">file</g>.</mrk> <mrk mtype=\"seg\" "
                      "mid=\"2\">Dann speichern.</mrk>"),
            std::string::npos)
      << half;
}

TEST(Xliff, Version2SegmentsAndCodes) {
  const std::string text =
      "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.0\" srcLang=\"en\">\n"
      " <file id=\"f\">\n"
      "  <unit id=\"1\">\n"
      "   <segment>\n"
      "    <source>Delete <pc id=\"1\">all</pc> files?</source>\n"
      "   </segment>\n"
      "   <ignorable><source> </source></ignorable>\n"
      "   <segment state=\"final\"><source>Cancel</source><target>Abbrechen</target></segment>\n"
      "   <segment><source>Hi, <ph id=\"2\"/>! <sc id=\"3\"/>Bold<ec startRef=\"3\"/> and <mrk id=\"m\" "
      "translate=\"no\">edgemt</mrk>.</source><target></target></segment>\n"
      "  </unit>\n"
      "  <unit id=\"2\" translate=\"no\"><segment><source>Keep me</source></segment></unit>\n"
      " </file>\n"
      "</xliff>\n";
  auto doc = XliffDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  EXPECT_EQ(doc.value().kind(), XliffDocument::Kind::kXliff2);
  EXPECT_EQ(
      doc.value().units(),
      (std::vector<std::string>{"Delete <span id=\"e0\">all</span> files?",
                                "Hi, <img id=\"o0\">! <span id=\"e1\">Bold</span> and <img id=\"o2\">."}));
  const std::string out = doc.value().render({"<span id=\"e0\">Alle</span> Dateien l\xC3\xB6schen?",
                                              "Hallo,<img id=\"o0\"> ! <span id=\"e1\">Fett</span>"},
                                             "de");
  auto has = [&](const std::string& part) {
    EXPECT_NE(out.find(part), std::string::npos) << part << "\n" << out;
  };
  has("version=\"2.0\" srcLang=\"en\" trgLang=\"de\">");
  has("</source>\n    <target><pc id=\"1\">Alle</pc> Dateien l\xC3\xB6schen?</target>\n   </segment>");
  // Spaces as around the source's object; an object the translation lost comes at the end.
  has("<target>Hallo, <ph id=\"2\"/>! <sc id=\"3\"/>Fett<ec startRef=\"3\"/><mrk id=\"m\" "
      "translate=\"no\">edgemt</mrk></target>");
  has("<unit id=\"2\" translate=\"no\"><segment><source>Keep me</source></segment></unit>");
  has("<segment state=\"final\"><source>Cancel</source><target>Abbrechen</target></segment>");
  // A segment given its translation says so: translated, by a machine.
  has("<segment state=\"translated\" subState=\"edgemt:mt-suggestion\">\n    <source>Delete");
  has("<segment state=\"translated\" subState=\"edgemt:mt-suggestion\"><source>Hi,");
  EXPECT_EQ(doc.value().render({}), text);
}

// Qt Linguist's .ts: empty unfinished translations (numerus forms too) and missing ones
// are filled in and stay unfinished; finished, vanished ones and drafts are kept.
TEST(Xliff, QtLinguistMessages) {
  const std::string text =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE TS>\n<TS version=\"2.1\" "
      "sourcelanguage=\"en\">\n"
      "<context>\n    <name>MainWindow</name>\n"
      "    <message>\n        <location filename=\"w.ui\" line=\"14\"/>\n        <source>Open "
      "&amp;file</source>\n"
      "        <translation type=\"unfinished\"></translation>\n    </message>\n"
      "    <message numerus=\"yes\">\n        <source>%n file(s)</source>\n        <comment>bar</comment>\n"
      "        <translation type=\"unfinished\">\n            <numerusform></numerusform>\n"
      "            <numerusform/>\n        </translation>\n    </message>\n"
      "    <message><source>Quit</source><translation>Beenden</translation></message>\n"
      "    <message><source>Save?</source><translation "
      "type=\"unfinished\">Speichern?</translation></message>\n"
      "    <message><source>Gone</source><translation type=\"vanished\"/></message>\n"
      "    <message>\n        <source>Print</source>\n        <comment>menu</comment>\n    </message>\n"
      "</context>\n</TS>\n";
  auto doc = XliffDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  EXPECT_EQ(doc.value().kind(), XliffDocument::Kind::kQtLinguist);
  EXPECT_EQ(doc.value().units(), (std::vector<std::string>{"Open file", "%n file(s)", "Print"}));
  EXPECT_EQ(doc.value().render({}), text);
  const std::string out = doc.value().render({"Datei \xC3\xB6"
                                              "ffnen",
                                              "%n Datei(en)", "Drucken"},
                                             "de");
  auto has = [&](const std::string& part) {
    EXPECT_NE(out.find(part), std::string::npos) << part << "\n" << out;
  };
  has("<TS version=\"2.1\" sourcelanguage=\"en\" language=\"de\">");
  has("<translation type=\"unfinished\">&amp;Datei \xC3\xB6"
      "ffnen</translation>");
  has("<numerusform>%n Datei(en)</numerusform>\n            <numerusform>%n Datei(en)</numerusform>\n        "
      "</translation>");
  has("<message><source>Quit</source><translation>Beenden</translation></message>");
  has("<translation type=\"unfinished\">Speichern?</translation>");
  has("<translation type=\"vanished\"/>");
  has("<comment>menu</comment>\n        <translation type=\"unfinished\">Drucken</translation>\n    "
      "</message>");
  auto again = XliffDocument::parse(out);
  ASSERT_TRUE(again.has_value());
  EXPECT_TRUE(again.value().units().empty());
}

// A plural message's new translation gets as many numerus forms as Qt gives the file's
// language (its <TS language>, else the translation's): Russian 3, Japanese 1, German 2;
// one with forms keeps them.
TEST(Xliff, QtNumerusFormsAreTheLanguages) {
  auto ts = [](const std::string& attributes, const std::string& translation) {
    return "<TS version=\"2.1\"" + attributes +
           "><context><message numerus=\"yes\"><source>%n file(s)</source>" + translation +
           "</message></context></TS>";
  };
  auto forms = [](const std::string& out) {
    size_t n = 0;
    for (size_t at = out.find("<numerusform>%n X</numerusform>"); at != std::string::npos;
         at = out.find("<numerusform>%n X</numerusform>", at + 1))
      ++n;
    return n;
  };
  struct Case {
    std::string attributes, translation, language;
    size_t forms;
  };
  for (const Case& c :
       {Case{"", "", "ru", 3}, Case{"", "", "ja", 1}, Case{"", "", "de-DE", 2}, Case{"", "", "cy", 5},
        Case{"", "", "ar", 6}, Case{"", "", "tlh", 2}, Case{" language=\"pl_PL\"", "", "de", 3},
        Case{"", "<translation type=\"unfinished\"/>", "sl", 4},
        Case{"", "<translation type=\"unfinished\"></translation>", "pt_BR", 2},
        Case{"", "<translation type=\"unfinished\"><numerusform/></translation>", "ru", 1}}) {
    auto doc = XliffDocument::parse(ts(c.attributes, c.translation));
    ASSERT_TRUE(doc.has_value()) << doc.status().message();
    const std::string out = doc.value().render({"%n X"}, c.language);
    EXPECT_EQ(forms(out), c.forms) << c.language << c.attributes << c.translation << "\n" << out;
    EXPECT_TRUE(XliffDocument::parse(out).has_value()) << out;
  }
  EXPECT_EQ(qt_numerus_forms("hu"), 1);
  EXPECT_EQ(qt_numerus_forms("pt"), 2);
  EXPECT_EQ(qt_numerus_forms("gd"), 4);
  EXPECT_EQ(qt_numerus_forms("xx"), 0);
}

// Qt's keyboard accelerators ("&File") are not text for the model: taken out of the
// unit and put before the translation's first letter; "&&" (a '&') and a '&' before no
// letter stay.
TEST(Xliff, QtAcceleratorsComeBackBeforeTheFirstLetter) {
  auto ts = [](const std::string& source) {
    return "<TS version=\"2.1\"><context><message><source>" + source +
           "</source><translation type=\"unfinished\"/></message></context></TS>";
  };
  struct Case {
    std::string source, unit, translation, target;
  };
  for (const Case& c :
       {Case{"&amp;File", "File", "Datei", "&amp;Datei"},
        Case{"Save &amp;As...", "Save As...", "Speichern unter...", "&amp;Speichern unter..."},
        // Rich text (escaped in a .ts): not inside its tags.
        Case{"&lt;b&gt;&amp;Bold&lt;/b&gt;", "&lt;b&gt;Bold&lt;/b&gt;", "&quot;&lt;b&gt;Fett&lt;/b&gt;&quot;",
             "\"&lt;b&gt;&amp;Fett&lt;/b&gt;\""},
        Case{"&amp;\xC3\x9C"
             "ber",
             "\xC3\x9C"
             "ber",
             "\xC3\x80 propos", "&amp;\xC3\x80 propos"},
        Case{"Fish &amp;&amp; Chips", "Fish &amp;&amp; Chips", "Fisch &amp;&amp; Pommes",
             "Fisch &amp;&amp; Pommes"},
        Case{"Tom &amp; Jerry", "Tom &amp; Jerry", "Tom &amp; Jerry", "Tom &amp; Jerry"},
        Case{"R&amp;&amp;&amp;D", "R&amp;&amp;D", "F&amp;&amp;E", "&amp;F&amp;&amp;E"}}) {
    auto doc = XliffDocument::parse(ts(c.source));
    ASSERT_TRUE(doc.has_value()) << doc.status().message();
    ASSERT_EQ(doc.value().units(), std::vector<std::string>{c.unit}) << c.source;
    const std::string out = doc.value().render({c.translation}, "de");
    EXPECT_NE(out.find("<translation type=\"unfinished\">" + c.target + "</translation>"), std::string::npos)
        << c.source << "\n"
        << out;
  }
}

// Angular's ICU messages in XLIFF: each leaf a unit, the target the same message in ICU's
// syntax with the translated leaves (and the language's plural categories), its codes
// where their words went; one that does not parse is left as it is.
TEST(Xliff, IcuMessagesAreTranslatedLeafByLeaf) {
  const std::string text =
      "<xliff version=\"1.2\"><file source-language=\"en\" target-language=\"pl\"><body>\n"
      "<trans-unit id=\"ago\"><source>{VAR_PLURAL, plural, =0 {just now} one {one minute ago} other {<x "
      "id=\"INTERPOLATION\" equiv-text=\"{{minutes}}\"/> minutes ago}}</source></trans-unit>\n"
      "<trans-unit id=\"bad\"><source>{VAR_SELECT, select, male {he}</source></trans-unit>\n"
      "</body></file></xliff>";
  auto doc = XliffDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  EXPECT_EQ(doc.value().units(),
            (std::vector<std::string>{"just now", "one minute ago", "<img id=\"o0\"> minutes ago"}));
  EXPECT_EQ(doc.value().render({}), text);
  const std::string out =
      doc.value().render({"gerade eben", "vor einer Minute", "vor <img id=\"o0\"> Minuten"}, "pl");
  EXPECT_NE(out.find("<target xml:lang=\"pl\" state=\"needs-review-translation\" "
                     "state-qualifier=\"mt-suggestion\">{VAR_PLURAL, "
                     "plural, =0 {gerade eben} one {vor einer Minute} few {vor <x id=\"INTERPOLATION\" "
                     "equiv-text=\"{{minutes}}\"/> Minuten} many {vor <x id=\"INTERPOLATION\" "
                     "equiv-text=\"{{minutes}}\"/> Minuten} other {vor <x id=\"INTERPOLATION\" "
                     "equiv-text=\"{{minutes}}\"/> Minuten}}</target>"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("<source>{VAR_SELECT, select, male {he}</source></trans-unit>"), std::string::npos)
      << out;
}

TEST(Xliff, ErrorsSayWhy) {
  for (auto [bad, what] : {std::pair{"<xliff version=\"1.2\"><file><body><trans-unit><source>Hi</trans-unit>",
                                     "not well-formed"},
                           {"<html><body>Hi</body></html>", "not an XLIFF document"},
                           {"<ts><message/></ts>", "nor Qt Linguist's <TS>"},
                           {"", "not an XLIFF document"},
                           {"<xliff><source>a</source>", "is not closed"}}) {
    auto d = XliffDocument::parse(bad);
    ASSERT_FALSE(d.has_value()) << bad;
    EXPECT_NE(d.status().message().find(what), std::string::npos) << bad << ": " << d.status().message();
  }
  // Codes that pair by id, nested or never closed in their thousands: no deep recursion,
  // no quadratic search (what is nested past 64 pairs is objects).
  std::string many = "<xliff version=\"1.2\"><file><body><trans-unit id=\"t\"><source>Hi ";
  for (int i = 0; i < 5000; ++i) many += "<bpt id=\"" + std::to_string(i) + "\"/>w";
  for (int i = 5000; i-- > 0;) many += "<ept id=\"" + std::to_string(i) + "\"/>";
  for (int i = 0; i < 20000; ++i) many += "<bpt id=\"x\"/>";
  many += "</source></trans-unit></body></file></xliff>";
  auto m = XliffDocument::parse(many);
  ASSERT_TRUE(m.has_value()) << m.status().message();
  ASSERT_EQ(m.value().units().size(), 1u);
  const std::string& unit = m.value().units()[0];
  size_t spans = 0;
  for (size_t at = 0; (at = unit.find("<span", at)) != std::string::npos; ++at) ++spans;
  EXPECT_EQ(spans, 64u);
  EXPECT_TRUE(XliffDocument::parse(m.value().render(m.value().units())).has_value());
  std::string deep = "<xliff version=\"2.0\">";
  for (int i = 0; i < 1000; ++i) deep += "<group>";
  auto d = XliffDocument::parse(deep);
  ASSERT_FALSE(d.has_value());
  EXPECT_NE(d.status().message().find("nested too deep"), std::string::npos) << d.status().message();
}

// The root element's name, past what may come before it; "" where there is none.
TEST(XmlTree, RootElementIsFoundPastTheProlog) {
  EXPECT_EQ(xml_root_element("<resources><string/></resources>"), "resources");
  EXPECT_EQ(xml_root_element("\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<!-- a > b -->\n<?pi x?>\n"
                             "<!DOCTYPE x [ <!ENTITY e \"<y>\"> ]>\n  <xlf:xliff version=\"2.0\">"),
            "xlf:xliff");
  EXPECT_EQ(xml_local_name(xml_root_element("<TS version=\"2.1\"/>")), "TS");
  for (const char* none : {"", "text", "<!-- open", "<?xml", "<!DOCTYPE x [", "  \n"})
    EXPECT_EQ(xml_root_element(none), "") << none;
}

}  // namespace
}  // namespace edgemt
