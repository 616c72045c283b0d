// Wrapped plain text (runtime/text/wrapped_text.h).
#include "runtime/text/wrapped_text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace edgemt {
namespace {

using V = std::vector<std::string>;

// Wrapped plain text (runtime/text/wrapped_text.h).
TEST(WrappedText, WrappedLinesAreOneUnitShortLinesStay) {
  const std::string text =
      "Dear customer,\n\nthank you for your order. The package will be shipped\ntomorrow morning and should "
      "arrive within three\nworking days.\n\nBest regards,\nThe shop team\n";
  const WrappedText d = WrappedText::parse(text);
  EXPECT_EQ(d.width(), 53u);
  using V = std::vector<std::string>;
  EXPECT_EQ(d.units(), (V{"Dear customer,",
                          "thank you for your order. The package will be shipped tomorrow morning and should "
                          "arrive within three working days.",
                          "Best regards,", "The shop team"}));
  // Given back as they were, the paragraph is wrapped at its widest line (53) again.
  EXPECT_EQ(d.render(d.units()), text);
  EXPECT_EQ(
      d.render({"Hallo,", "eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn",
                "Grüße,", "Das Team"}),
      "Hallo,\n\neins zwei drei vier fünf sechs sieben acht neun zehn\nelf zwölf dreizehn vierzehn\n\n"
      "Grüße,\nDas Team\n");
}

TEST(WrappedText, ListsIndentsAndLineEnds) {
  const std::string text =
      "    The program needs a recent compiler. Please install the\r\nbuild tools first, then run the "
      "configure script in the\r\nsource folder.\r\n\r\nRequirements:\r\n"
      "- a C compiler that is recent enough for the C11 language\r\n- make\r\n1. Download it.\r\n"
      "   Indented deeper than the line before it.";
  const WrappedText d = WrappedText::parse(text);
  using V = std::vector<std::string>;
  EXPECT_EQ(d.units(),
            (V{"The program needs a recent compiler. Please install the build tools first, then run "
               "the configure script in the source folder.",
               "Requirements:", "- a C compiler that is recent enough for the C11 language", "- make",
               "1. Download it.", "Indented deeper than the line before it."}));
  // First-line indent kept, the rest at the second line's; CRLF kept; no end after the last line.
  EXPECT_EQ(
      d.render({"aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo pppp qqqq",
                "R:", "- x", "- y", "1. z", "w"}),
      "    aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk\r\nllll mmmm nnnn oooo pppp qqqq\r\n\r\n"
      "R:\r\n- x\r\n- y\r\n1. z\r\n   w");
  // More lines than before: the middle ones end as the middle ones did (never with the
  // last line's missing end); nothing back: the lines as they were.
  const std::string two_text = "aaaaaa bbbbbb cccccc dddddd eeeeee\nffffff gggggg\nx";
  const WrappedText two = WrappedText::parse(two_text);
  ASSERT_EQ(two.units().size(), 2u);
  EXPECT_EQ(two.units()[0], "aaaaaa bbbbbb cccccc dddddd eeeeee ffffff gggggg");
  std::string w40, want;
  for (int k = 0; k < 40; ++k) w40 += k ? " w" : "w";
  for (int k = 0; k < 40; ++k) want += k == 0 ? "w" : (k % 17 == 0 ? "\nw" : " w");  // 17 a line (33 <= 34)
  EXPECT_EQ(two.render({w40, "y"}), want + "\ny");
  EXPECT_EQ(two.render({"", " "}), two_text);
  // A file of one sentence a line, or of short items, stays line by line.
  EXPECT_EQ(WrappedText::parse("The file could not be opened.\nSave it first, then close the window.\n")
                .units()
                .size(),
            2u);
  EXPECT_EQ(WrappedText::parse("Open the configuration file\nSave as\nPrint\n").units().size(), 3u);
}

}  // namespace
}  // namespace edgemt
