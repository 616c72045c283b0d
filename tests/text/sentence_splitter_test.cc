// Sentence splitting (runtime/text/sentence_splitter.h): ICU's (when built with it) and the
// rule-based fallback, on cases with known answers and on generated text for the invariants that
// translation relies on (sentences in order, trimmed, no line break inside, every non-whitespace
// byte in exactly one sentence); long sentences cut at a clause.
#include "runtime/text/sentence_splitter.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace edgemt {
namespace {

using Kind = SentenceSplitter::Kind;

std::vector<std::string> sentences(SentenceSplitter& s, const std::string& text) {
  std::vector<TextSpan> spans;
  s.split(text, &spans);
  std::vector<std::string> out;
  for (const TextSpan& sp : spans) out.push_back(text.substr(sp.begin, sp.size()));
  return out;
}

class SplitterTest : public ::testing::TestWithParam<Kind> {
 protected:
  void SetUp() override {
    if (GetParam() == Kind::kIcu && !SentenceSplitter::icu_available()) GTEST_SKIP() << "built without ICU";
  }
  std::unique_ptr<SentenceSplitter> make(const std::string& language) {
    auto s = SentenceSplitter::create(language, GetParam());
    EXPECT_TRUE(s.has_value()) << s.status().to_string();
    return s.has_value() ? std::move(s.value()) : nullptr;
  }
};

using V = std::vector<std::string>;

TEST_P(SplitterTest, EnglishSentences) {
  auto s = make("en");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(sentences(*s, "Can you help me find my keys? I have looked everywhere, but they are gone."),
            (V{"Can you help me find my keys?", "I have looked everywhere, but they are gone."}));
  // Abbreviations, initials and a.m. do not end a sentence.
  EXPECT_EQ(sentences(*s, "Dr. Smith met J. R. Brown at 9 a.m. today. He was late!"),
            (V{"Dr. Smith met J. R. Brown at 9 a.m. today.", "He was late!"}));
  EXPECT_EQ(sentences(*s, "Look in the U.S. and e.g. Canada. Then stop."),
            (V{"Look in the U.S. and e.g. Canada.", "Then stop."}));
  // Quotes stay with their sentence; numbers, versions and host names are not ends.
  EXPECT_EQ(sentences(*s, "He said \"Stop.\" Then he left."), (V{"He said \"Stop.\"", "Then he left."}));
  EXPECT_EQ(sentences(*s, "Version 3.14 is out... Get it at www.example.com. Now!"),
            (V{"Version 3.14 is out...", "Get it at www.example.com.", "Now!"}));
  EXPECT_EQ(sentences(*s, "What?! Really? Yes."), (V{"What?!", "Really?", "Yes."}));
  // No break inside a URL, an e-mail address or a path (ICU breaks after any '?').
  EXPECT_EQ(sentences(*s, "Get https://x.org/a.html?id=7 now! Or mail a.b@c.org. Bye."),
            (V{"Get https://x.org/a.html?id=7 now!", "Or mail a.b@c.org.", "Bye."}));
  EXPECT_EQ(sentences(*s, "no terminal punctuation"), (V{"no terminal punctuation"}));
}

TEST_P(SplitterTest, GermanOrdinalsAndAbbreviations) {
  auto s = make("de");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(sentences(*s, "Am 3. Oktober kam er z. B. zu spät. Dann ging er."),
            (V{"Am 3. Oktober kam er z. B. zu spät.", "Dann ging er."}));
  EXPECT_EQ(sentences(*s, "Das ist z.B. gut. Herr Dr. Müller kommt. Ende."),
            (V{"Das ist z.B. gut.", "Herr Dr. Müller kommt.", "Ende."}));
}

TEST_P(SplitterTest, LineBreaksAndSpacing) {
  auto s = make("en");
  ASSERT_NE(s, nullptr);
  const std::string text = "  First one.  Second one.\n\nThird\r\nfourth?\t ";
  std::vector<TextSpan> spans;
  s->split(text, &spans);
  ASSERT_EQ(spans.size(), 4u);
  EXPECT_EQ(spans[0], (TextSpan{2, 12}));
  EXPECT_EQ(text.substr(spans[1].begin, spans[1].size()), "Second one.");
  EXPECT_EQ(text.substr(spans[2].begin, spans[2].size()), "Third");  // a line break ends it
  EXPECT_EQ(text.substr(spans[3].begin, spans[3].size()), "fourth?");
  // A truncated 3-byte sequence at the end is text, not a space (fuzz_text found it).
  EXPECT_EQ(sentences(*s, "a \xE2\x80"), (V{"a \xE2\x80"}));
  EXPECT_EQ(sentences(*s, "\xE2\x80"), (V{"\xE2\x80"}));
  EXPECT_TRUE(sentences(*s, "").empty());
  EXPECT_TRUE(sentences(*s, " \n\t\n\xC2\xA0\xE3\x80\x80").empty());  // no-break and ideographic spaces
}

TEST_P(SplitterTest, FullWidthPunctuation) {
  auto s = make("ja");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(sentences(*s,
                      "\xE6\xBC\xA2\xE5\xAD\x97\xE3\x81\xA7\xE3\x81\x99\xE3\x80\x82"
                      "\xE6\xAC\xA1\xEF\xBC\x9F"),
            (V{"\xE6\xBC\xA2\xE5\xAD\x97\xE3\x81\xA7\xE3\x81\x99\xE3\x80\x82", "\xE6\xAC\xA1\xEF\xBC\x9F"}));
}

// A tab separates columns (cells pasted from a spreadsheet, TSV): each cell is a sentence
// of its own, even without punctuation; spaces do not.
TEST_P(SplitterTest, TabsSeparateCells) {
  auto s = make("en");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(sentences(*s, "Open file\tOpens a file from the disk.\t\t42"),
            (V{"Open file", "Opens a file from the disk.", "42"}));
  EXPECT_EQ(sentences(*s, "\tName:\tJohn Smith  (admin)"), (V{"Name:", "John Smith  (admin)"}));
}

// Generated text (words, punctuation, quotes, spaces of several kinds, line breaks,
// invalid UTF-8): whatever the splitter decides, the spans must be usable as sentences.
TEST_P(SplitterTest, InvariantsOnGeneratedText) {
  const std::vector<std::string> parts = {"word",
                                          "Word",
                                          "a",
                                          "I",
                                          "3",
                                          "3.14",
                                          ".",
                                          "!",
                                          "?",
                                          "...",
                                          "\"",
                                          "'",
                                          ")",
                                          "(",
                                          ",",
                                          ";",
                                          " ",
                                          "  ",
                                          "\t",
                                          "\n",
                                          "\r\n",
                                          "Dr.",
                                          "e.g",
                                          "U.S.",
                                          "\xC2\xA0",
                                          "\xE3\x80\x82",
                                          "\xE2\x80\xA6",
                                          "\xE2\x80\x9D",
                                          "\xFF",
                                          "\xC3",
                                          "\xC3\xA9t\xC3\xA9",
                                          "z.",
                                          "B.",
                                          "\xE2\x80\x83"};
  for (const char* lang : {"en", "de", "", "xx-Latn"}) {
    auto s = make(lang);
    ASSERT_NE(s, nullptr);
    std::mt19937 rng(7);
    for (int iter = 0; iter < 400; ++iter) {
      std::string text;
      const int n = static_cast<int>(rng() % 40);
      for (int k = 0; k < n; ++k) text += parts[rng() % parts.size()];
      std::vector<TextSpan> spans;
      s->split(text, &spans);
      std::vector<int> covered(text.size(), 0);
      size_t prev_end = 0;
      for (const TextSpan& sp : spans) {
        ASSERT_LT(sp.begin, sp.end) << lang << " '" << text << "'";
        ASSERT_LE(prev_end, sp.begin) << lang << " '" << text << "'";
        ASSERT_LE(sp.end, text.size());
        EXPECT_EQ(trim_space(text, sp), sp) << "untrimmed sentence in '" << text << "'";
        for (size_t b = sp.begin; b < sp.end; ++b) {
          EXPECT_NE(text[b], '\n') << "a line break inside a sentence of '" << text << "'";
          EXPECT_NE(text[b], '\t') << "a tab inside a sentence of '" << text << "'";
          ++covered[b];
        }
        prev_end = sp.end;
      }
      // Outside the sentences only whitespace.
      for (size_t b = 0; b < text.size();) {
        if (covered[b] != 0) {
          ++b;
          continue;
        }
        size_t e = b;
        while (e < text.size() && covered[e] == 0) ++e;
        EXPECT_EQ(trim_space(text, {b, e}).size(), 0u)
            << "bytes [" << b << ", " << e << ") of '" << text << "' are in no sentence";
        b = e;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Kinds, SplitterTest, ::testing::Values(Kind::kIcu, Kind::kRules),
                         [](const auto& info) { return info.param == Kind::kIcu ? "icu" : "rules"; });

TEST(Splitter, IcuRequestedWithoutIcuIsAnError) {
  auto s = SentenceSplitter::create("en", Kind::kIcu);
  EXPECT_EQ(s.has_value(), SentenceSplitter::icu_available());
  auto a = SentenceSplitter::create("en");
  ASSERT_TRUE(a.has_value());
  EXPECT_STREQ(a.value()->name(), SentenceSplitter::icu_available() ? "icu" : "rules");
  // A malformed language tag gives language-neutral rules, not an error.
  EXPECT_TRUE(SentenceSplitter::create("en@x=\"; rm", Kind::kAuto).has_value());
}

TEST(Splitter, LongSentenceIsCutAtAClauseNearTheMiddle) {
  const std::string t = "one two three four, five six seven; eight nine ten eleven twelve thirteen";
  TextSpan a, b;
  ASSERT_TRUE(split_long_sentence(t, {0, t.size()}, &a, &b));
  EXPECT_EQ(t.substr(a.begin, a.size()), "one two three four, five six seven;");
  EXPECT_EQ(t.substr(b.begin, b.size()), "eight nine ten eleven twelve thirteen");
  // Without a clause boundary in the middle half: the space nearest the middle.
  const std::string u = "aaaa, bbbb cccc dddd eeee ffff gggg hhhh";
  ASSERT_TRUE(split_long_sentence(u, {0, u.size()}, &a, &b));
  EXPECT_EQ(u.substr(a.begin, a.size()), "aaaa, bbbb cccc dddd");
  EXPECT_EQ(u.substr(b.begin, b.size()), "eeee ffff gggg hhhh");
  // No space: nothing to cut at.
  const std::string w = "Donaudampfschifffahrtsgesellschaftskapitän";
  EXPECT_FALSE(split_long_sentence(w, {0, w.size()}, &a, &b));
}

}  // namespace
}  // namespace edgemt
