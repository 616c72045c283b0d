// Sentences written in capitals (runtime/text/letter_case.h): recased and raised again.
#include "runtime/text/letter_case.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "runtime/text/protected_spans.h"

namespace edgemt {
namespace {

TEST(LetterCase, CapitalsRecasedAndBack) {
  for (const char* yes : {"FILE NOT FOUND", "WARNING: HIGH VOLTAGE!", "SAVE", "NO ENTRY", "ÉTÉ 2024 À PARIS",
                          "ПРИВЕТ МИР", "ΓΕΙΑ ΣΟΥ", "ERROR 404: PAGE NOT FOUND (HTTP://EXAMPLE.COM)"})
    EXPECT_TRUE(written_in_capitals(yes)) << yes;
  for (const char* no : {"", "OK", "USB", "A B C D", "File not found", "FILE NOT FOUNd", "NASA launched it",
                         "STRAßE", "ÉTé", "Привет", "12:30 -- 45", "日本語のテキスト"})
    EXPECT_FALSE(written_in_capitals(no)) << no;
  // Every letter with case here: lowered and raised again, each keeps its UTF-8 length.
  auto utf8 = [](uint32_t cp) {
    std::string s;
    if (cp < 0x80) {
      s += static_cast<char>(cp);
    } else {
      s += static_cast<char>(0xC0 | (cp >> 6));
      s += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return s;
  };
  int pairs = 0;
  for (uint32_t cp = 0x20; cp < 0x800; ++cp) {
    const std::string c = utf8(cp);
    const std::string l = to_lower_case(c), u = to_capitals(c);
    if (cp == 0xDF) {
      EXPECT_EQ(u, "SS");
      continue;
    }
    EXPECT_EQ(l.size(), c.size()) << cp;
    EXPECT_EQ(u.size(), c.size()) << cp;
    if (l != c) {
      ++pairs;
      EXPECT_EQ(to_capitals(l), c) << std::hex << cp;  // a capital comes back
      EXPECT_TRUE(written_in_capitals(c + c + c + c)) << std::hex << cp;
      EXPECT_FALSE(written_in_capitals(c + c + c + c + l)) << std::hex << cp;
    }
  }
  EXPECT_GT(pairs, 26 + 30 + 60 + 24 + 48);  // ASCII, Latin-1, Extended-A, Greek, Cyrillic
  EXPECT_EQ(to_capitals("Straße, ÿ, ς, ı, plain 123"), "STRASSE, Ÿ, Σ, ı, PLAIN 123");
  EXPECT_EQ(to_lower_case("ÀÉÎÕÜ ĀŁŃŒŽ ΑΩΆ АЯЁЄ İ"), "àéîõü āłńœž αωά аяёє İ");
  // Malformed bytes pass through both ways.
  const std::string odd = "A\xC3 \x80\xFF\xE2\x82 Z";
  EXPECT_EQ(to_capitals(odd), odd);
  EXPECT_EQ(to_lower_case(odd), "a\xC3 \x80\xFF\xE2\x82 z");
  // Recasing: each word's likeliest form (here a table's), lower case first in a tie;
  // a sentence's first word capitalized or kept.
  const std::map<std::string, double> known = {{"the", -1}, {"The", -2}, {"Hut", -1}, {"hut", -3},
                                               {"USB", -1}, {"usb", -5}, {"Usb", -6}, {"Stick", -4}};
  auto lp = [&](std::string_view w) {  // punctuation scores alike in every form
    std::string key;
    for (char c : w)
      if (std::isalnum(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80) key += c;
    const auto it = known.find(key);
    return it != known.end() ? it->second : -10.0;
  };
  EXPECT_EQ(recase_capitals("THE HUT AND THE USB STICK. THE END", lp), "The Hut and the USB Stick. The end");
  EXPECT_EQ(recase_capitals("  \"THE\"  HUT!\nTHE 2 (USB)", lp), "  \"The\"  Hut!\nThe 2 (USB)");
  for (const std::string& s :
       {std::string("THE HUT AND THE USB STICK. THE END"), std::string("ÉTÉ À PARIS, ΓΕΙΑ ΣΟΥ"),
        std::string("WARNING:\tDO NOT OPEN\n\nTHE LID!")}) {
    const std::string r = recase_capitals(s, lp);
    EXPECT_EQ(r.size(), s.size()) << s;
    EXPECT_EQ(to_capitals(r), s) << r;
  }
  // Put back in capitals, spans too (their recased text is what the model saw).
  ProtectedSentence p =
      protect_spans("Click save at http://example.com now", nullptr, true, SpanMode::kInPlace);
  p.capitals = true;
  EXPECT_EQ(restore_spans("Klicken Sie auf Speichern bei http://example.com jetzt", p),
            "KLICKEN SIE AUF SPEICHERN BEI HTTP://EXAMPLE.COM JETZT");
  ProtectedSentence m = protect_spans("Read the file /etc/hosts.");
  ASSERT_EQ(m.markers.size(), 1u);
  m.capitals = true;
  EXPECT_EQ(restore_spans("Lies die Datei " + m.markers[0] + ".", m), "LIES DIE DATEI /ETC/HOSTS.");
  EXPECT_EQ(replace_markers("Datei," + m.markers[0], m), "DATEI,/ETC/HOSTS");
}

}  // namespace
}  // namespace edgemt
