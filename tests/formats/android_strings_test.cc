// Android string resources (runtime/formats/android_strings.h).
#include "runtime/formats/android_strings.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace edgemt {
namespace {

// ---- Android string resources (TextFormat::kAndroid) ------------------------------
TEST(AndroidStrings, StringsArraysAndPluralsAreUnits) {
  const std::string text =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
      "<resources xmlns:tools=\"http://schemas.android.com/tools\" tools:locale=\"en\">\n"
      "    <string name=\"app\" translatable=\"false\">NoteKeeper</string>\n"
      "    <!-- Main screen -->\n"
      "    <string name=\"hi\">Welcome to <b>Notes</b>!</string>\n"
      "    <string name=\"n\">You have <xliff:g id=\"c\" example=\"3\">%1$d</xliff:g> notes.</string>\n"
      "    <string name=\"q\">Don\\'t  \"keep  this\"\\nnow &amp; \\u00e9</string>\n"
      "    <string name=\"whole\">\"It's here\"</string>\n"
      "    <string name=\"ref\">@string/app</string>\n"
      "    <string name=\"v\">1.0.3</string>\n"
      "    <string-array name=\"sort\">\n        <item>By date</item>\n        <item>@string/app</item>\n"
      "    </string-array>\n"
      "    <plurals name=\"del\" translatable=\"false\"><item quantity=\"one\">One</item></plurals>\n"
      "    <plurals name=\"gone\"><item quantity=\"one\">One note</item><item quantity=\"other\">%d "
      "notes</item>"
      "</plurals>\n"
      "    <color name=\"accent\">#FF4081</color>\n"
      "</resources>\n";
  auto doc = AndroidStrings::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  EXPECT_EQ(
      doc.value().units(),
      (std::vector<std::string>{"Welcome to <span id=\"e0\">Notes</span>!", "You have <img id=\"o0\"> notes.",
                                "Don't  keep  this<br id=\"o0\">now &amp; \xC3\xA9", "It's here", "By date",
                                "One note", "%d notes"}));
  // Untranslated: the file without what is not to translate, the rest byte for byte.
  std::string kept = text;
  for (const std::string& gone :
       {std::string("    <string name=\"app\" translatable=\"false\">NoteKeeper</string>\n"),
        std::string("    <plurals name=\"del\" translatable=\"false\"><item "
                    "quantity=\"one\">One</item></plurals>\n")})
    kept.erase(kept.find(gone), gone.size());
  EXPECT_EQ(doc.value().render({}), kept);
  const std::string out = doc.value().render(
      {"Willkommen bei <span id=\"e0\">Notes</span>!", "Du hast<img id=\"o0\">Notizen.",
       "Nicht \"behalten\"<br id=\"o0\">jetzt &amp; \\ geht's", "Es ist hier", "@Datum", "", "%d Notizen"},
      "de");
  auto has = [&](const std::string& part) {
    EXPECT_NE(out.find(part), std::string::npos) << part << "\n" << out;
  };
  has("tools:locale=\"de\">");
  has("<string name=\"hi\">Willkommen bei <b>Notes</b>!</string>");
  has("<string name=\"n\">Du hast <xliff:g id=\"c\" example=\"3\">%1$d</xliff:g> Notizen.</string>");
  has("<string name=\"q\">Nicht \\\"behalten\\\"\\njetzt &amp; \\\\ geht\\'s</string>");
  has("<string name=\"whole\">\"Es ist hier\"</string>");
  has("<string name=\"ref\">@string/app</string>");
  has("<item>\\@Datum</item>\n        <item>@string/app</item>");
  has("<item quantity=\"one\">One note</item><item quantity=\"other\">%d Notizen</item>");
  has("<color name=\"accent\">#FF4081</color>");
  EXPECT_EQ(out.find("NoteKeeper</string>"), std::string::npos) << out;
  for (auto [bad, what] : {std::pair{"<resources><string name=\"a\">x</resources>", "not well-formed"},
                           {"<xliff version=\"1.2\"/>", "not an Android string resource file"}}) {
    auto d = AndroidStrings::parse(bad);
    ASSERT_FALSE(d.has_value()) << bad;
    EXPECT_NE(d.status().message().find(what), std::string::npos) << d.status().message();
  }
}

// A <plurals> gets the translation's language's categories: Russian's four from English's
// two (few and many from other), Japanese's one, German's two without English's zero; a
// language not known, or no language, leaves the items as they are.
TEST(AndroidStrings, PluralsGetTheLanguagesCategories) {
  const std::string text =
      "<resources>\n"
      "    <plurals name=\"files\">\n"
      "        <item quantity=\"zero\">No files</item>\n"
      "        <item quantity=\"one\">One file</item>\n"
      "        <item quantity='other'>%d files</item>\n"
      "    </plurals>\n"
      "    <plurals name=\"flat\"><item quantity=\"other\">%d <b>notes</b></item></plurals>\n"
      "    <plurals name=\"odd\"><!-- kept --><item quantity=\"one\">One day</item></plurals>\n"
      "</resources>\n";
  auto doc = AndroidStrings::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  ASSERT_EQ(doc.value().units().size(), 5u);
  const std::vector<std::string> t{"Keine", "Eine", "%d X", "%d <span id=\"e0\">Y</span>", "Ein Tag"};
  auto items = [](const std::string& out, const std::string& name) {
    const size_t b = out.find("<plurals name=\"" + name + "\">");
    const size_t e = out.find("</plurals>", b);
    return b == std::string::npos ? std::string("(none)") : out.substr(b, e + 10 - b);
  };
  const std::string ru = doc.value().render(t, "ru-RU");
  EXPECT_EQ(items(ru, "files"),
            "<plurals name=\"files\">\n"
            "        <item quantity=\"one\">Eine</item>\n"
            "        <item quantity='few'>%d X</item>\n"
            "        <item quantity='many'>%d X</item>\n"
            "        <item quantity='other'>%d X</item>\n"
            "    </plurals>");
  EXPECT_EQ(items(ru, "flat"),
            "<plurals name=\"flat\"><item quantity=\"one\">%d <b>Y</b></item><item quantity=\"few\">%d "
            "<b>Y</b></item><item quantity=\"many\">%d <b>Y</b></item><item quantity=\"other\">%d "
            "<b>Y</b></item></plurals>");
  EXPECT_EQ(items(ru, "odd"),
            "<plurals name=\"odd\"><!-- kept --><item quantity=\"one\">Ein Tag</item></plurals>");
  EXPECT_EQ(items(doc.value().render(t, "ja"), "files"),
            "<plurals name=\"files\">\n        <item quantity='other'>%d X</item>\n    </plurals>");
  EXPECT_EQ(items(doc.value().render(t, "de"), "files"),
            "<plurals name=\"files\">\n        <item quantity=\"one\">Eine</item>\n"
            "        <item quantity='other'>%d X</item>\n    </plurals>");
  for (const char* keep : {"", "xx", "tlh"}) {
    const std::string out = doc.value().render(t, keep);
    EXPECT_NE(out.find("<item quantity=\"zero\">Keine</item>\n        <item quantity=\"one\">Eine</item>\n"
                       "        <item quantity='other'>%d X</item>"),
              std::string::npos)
        << keep << "\n"
        << out;
  }
  // The result is string resources again, with a unit per item.
  auto again = AndroidStrings::parse(ru);
  ASSERT_TRUE(again.has_value()) << again.status().message();
  EXPECT_EQ(again.value().units().size(), 9u);
}

}  // namespace
}  // namespace edgemt
