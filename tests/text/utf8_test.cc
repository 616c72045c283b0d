// UTF-8 (runtime/core/utf8.h): decoding anything, break hints, walking back and counting.
#include "runtime/core/utf8.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/text/markup.h"

namespace edgemt {
namespace {

// Sentences written in capitals: which are, and recasing them and back.
TEST(Utf8, DecodesWellFormedAndReadsAnythingElseAsOneByte) {
  struct Case {
    std::string bytes;
    uint32_t code_point;
    uint32_t length;
    bool well_formed;
  };
  const Case cases[] = {
      {"A", 'A', 1, true},
      {"\xC3\xA4", 0xE4, 2, true},               // ä
      {"\xE2\x82\xAC", 0x20AC, 3, true},         // €
      {"\xF0\x9F\x98\x80", 0x1F600, 4, true},    // an emoji
      {"\xF4\x8F\xBF\xBF", 0x10FFFF, 4, true},   // the last code point
      {"\xA4", 0xA4, 1, false},                  // a stray continuation byte
      {"\xC3", 0xC3, 1, false},                  // cut short
      {"\xC3\x41", 0xC3, 1, false},              // no continuation ("\xC3A")
      {"\xC0\x80", 0xC0, 1, false},              // overlong NUL
      {"\xC1\x81", 0xC1, 1, false},              // overlong 'A'
      {"\xE0\x80\xAF", 0xE0, 1, false},          // overlong '/'
      {"\xF0\x80\x80\xAF", 0xF0, 1, false},      // overlong '/'
      {"\xED\xA0\x80", 0xED, 1, false},          // a surrogate
      {"\xF4\x90\x80\x80", 0xF4, 1, false},      // past U+10FFFF
      {"\xF8\x88\x80\x80\x80", 0xF8, 1, false},  // five bytes
      {"\xFF", 0xFF, 1, false},
  };
  for (const Case& c : cases) {
    const edgemt::Utf8Char got = edgemt::decode_utf8(c.bytes, 0);
    EXPECT_EQ(got.code_point, c.code_point) << c.bytes;
    EXPECT_EQ(got.length, c.length) << c.bytes;
    EXPECT_EQ(got.well_formed, c.well_formed) << c.bytes;
    if (c.well_formed) {
      std::string again;
      edgemt::append_utf8(got.code_point, &again);
      EXPECT_EQ(again, c.bytes);
    }
  }
  std::string replaced;
  edgemt::append_utf8(0xD800, &replaced);
  edgemt::append_utf8(0x110000, &replaced);
  EXPECT_EQ(replaced, "\xEF\xBF\xBD\xEF\xBF\xBD");  // U+FFFD twice
}

TEST(Utf8, BreakHintsAreRemoved) {
  EXPECT_FALSE(has_break_hints("Installation \xC2\xA0 \xE2\x80\x8B"));  // NBSP, ZWSP: not hints
  EXPECT_TRUE(has_break_hints("Instal\xC2\xADlation"));
  EXPECT_EQ(without_break_hints("Instal\xC2\xADla\xE2\x81\xA0tion\xEF\xBB\xBF!"), "Installation!");
  EXPECT_EQ(without_break_hints("\xC2\xAD\xC2\xAD"), "");
  EXPECT_EQ(without_break_hints("caf\xC3\xA9 \xC2\xA0"), "caf\xC3\xA9 \xC2\xA0");
  // Malformed bytes that close up into a hint once one is removed go too.
  const std::string closing = "a\xE2\xC2\xAD\x81\xA0z";
  EXPECT_EQ(without_break_hints(closing), "az");
  EXPECT_FALSE(has_break_hints(without_break_hints(closing)));
}

TEST(Utf8, WalksBackCutsAndCountsByCharacter) {
  // "aä€" then an emoji, a stray continuation byte, a cut sequence and "z".
  const std::string s = "a\xC3\xA4\xE2\x82\xAC\xF0\x9F\x98\x80\xA4\xE2\x82z";
  const std::vector<size_t> starts = {0, 1, 3, 6, 10, 11, 12, 13};
  EXPECT_EQ(edgemt::count_utf8_chars(s), starts.size());
  for (size_t k = 1; k < starts.size(); ++k)
    EXPECT_EQ(edgemt::utf8_start_before(s, starts[k]), starts[k - 1]);
  EXPECT_EQ(edgemt::utf8_start_before(s, s.size()), starts.back());
  for (size_t n = 0; n <= s.size(); ++n) {
    size_t want = n;
    if (n < s.size()) {
      want = 0;
      for (size_t st : starts)
        if (st <= n) want = st;
    }
    EXPECT_EQ(edgemt::utf8_boundary_before(s, n), want) << n;
  }
  EXPECT_EQ(edgemt::count_chars("Grüße, 日本"), 9u);  // the server's character limit counts these
}

}  // namespace
}  // namespace edgemt
