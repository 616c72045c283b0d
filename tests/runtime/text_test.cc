// The text layer's sentence splitting: ICU's (when built with it) and the rule-based
// fallback, on cases with known answers and on generated text for the invariants that
// translation relies on (sentences in order, trimmed, no line break inside, every
// non-whitespace byte in exactly one sentence).
#include <gtest/gtest.h>

#if EDGEMT_TEST_HAVE_ICU_I18N
#include <unicode/locid.h>
#include <unicode/plurrule.h>
#endif

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "runtime/core/utf8.h"
#include "runtime/formats/android_strings.h"
#include "runtime/formats/apple_strings.h"
#include "runtime/formats/csv_document.h"
#include "runtime/formats/html_document.h"
#include "runtime/formats/icu_message.h"
#include "runtime/formats/json_document.h"
#include "runtime/formats/markdown.h"
#include "runtime/formats/plural_categories.h"
#include "runtime/formats/po_catalog.h"
#include "runtime/formats/properties_file.h"
#include "runtime/formats/resx_document.h"
#include "runtime/formats/stringsdict_document.h"
#include "runtime/formats/subtitles.h"
#include "runtime/formats/xcstrings_document.h"
#include "runtime/formats/xliff_document.h"
#include "runtime/formats/xml_tree.h"
#include "runtime/formats/yaml_document.h"
#include "runtime/text/language_id.h"
#include "runtime/text/language_names.h"
#include "runtime/text/letter_case.h"
#include "runtime/text/markup.h"
#include "runtime/text/protected_spans.h"
#include "runtime/text/sentence_splitter.h"
#include "runtime/text/text_encoding.h"
#include "runtime/text/wrapped_text.h"

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

// ---- protected spans ----------------------------------------------------------------

std::vector<std::string> spans_of(std::string_view text) {
  std::vector<TextSpan> spans;
  find_protected_spans(text, &spans);
  std::vector<std::string> out;
  for (const TextSpan& sp : spans) out.emplace_back(text.substr(sp.begin, sp.size()));
  return out;
}

using Strings = std::vector<std::string>;

TEST(LanguageId, IdentifiesSentencesOrNothing) {
  EXPECT_EQ(primary_language("zh-Hant"), "zh");
  EXPECT_EQ(primary_language("pt_BR"), "pt");
  EXPECT_EQ(primary_language("DE"), "de");
  // Never a guess for nothing, for invalid UTF-8, or without CLD2.
  EXPECT_TRUE(identify_languages("").empty());
  EXPECT_TRUE(identify_languages("Die Datei konnte nicht ge\xF6"
                                 "ffnet werden, weil sie fehlt.")
                  .empty());
  if (!language_identification_available()) {
    EXPECT_TRUE(identify_languages("The file could not be opened because it is missing.").empty());
    GTEST_SKIP() << "built without CLD2";
  }
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"The file could not be opened because it is missing.", "en"},
      {"Die Datei konnte nicht ge\xC3\xB6"
       "ffnet werden, weil sie fehlt.",
       "de"},
      {"Le fichier n'a pas pu \xC3\xAAtre ouvert parce qu'il manque.", "fr"},
      {"El archivo no se pudo abrir porque falta.", "es"},
      {"<p>Das ist <b>ein</b> Satz auf Deutsch, mit <a href=\"x\">einem Link</a>.</p>", "de"},
  };
  for (const auto& [text, code] : cases) {
    const std::vector<LanguageGuess> g = identify_languages(text, text[0] == '<');
    ASSERT_FALSE(g.empty()) << text;
    EXPECT_EQ(g[0].code, code) << text;
    EXPECT_GT(g[0].percent, 50) << text;
    for (size_t i = 1; i < g.size(); ++i) EXPECT_LE(g[i].percent, g[i - 1].percent) << text;
  }
  // Past the first 256 KiB nothing is read, and a cut character does not make it invalid.
  std::string big(256 * 1024 - 1, ' ');
  big += "\xC3\xA4";  // "ä" across the limit
  big += " The file could not be opened because it is missing.";
  EXPECT_TRUE(identify_languages(big).empty());
  EXPECT_FALSE(identify_languages("The file could not be opened because it is missing. " + big).empty());
}

// Names weigh on CLD2 like words of the language they come from; without_names leaves out
// the capitalized words that do not begin a sentence.
TEST(LanguageId, NamesAreLeftOut) {
  EXPECT_EQ(without_names("M\xC3\xBCller and Schr\xC3\xB6"
                          "der met in D\xC3\xBCsseldorf yesterday."),
            "M\xC3\xBCller and  met in  yesterday.");
  // A sentence begins the text, a line, and after '.', '!', '?', ':'; quotes and brackets
  // before a capital do not hide it; Latin-1, Latin Extended-A, Greek and Cyrillic capitals.
  EXPECT_EQ(without_names("We met Anna. She left!\nThen \"Bob\" came (Carl too): Dan."),
            "We met  She left!\nThen  came  too): Dan.");
  EXPECT_EQ(without_names("in \xC3\x89vora, \xC5\x81\xC3\xB3"
                          "d\xC5\xBA, \xD0\x9C\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0, "
                          "\xCE\x91\xCE\xB8\xCE\xAE\xCE\xBD\xCE\xB1 and \xC3\xA9t\xC3\xA9 \xC2\xAB"
                          "Zoe\xC2\xBB"),
            "in     and \xC3\xA9t\xC3\xA9 ");
  // Nothing else changes; odd bytes are no capitals.
  for (const std::string& t : {std::string(""), std::string("   \n\t"), std::string("lower case words only."),
                               std::string("x \xC3 \xFF \x80\x80 \xE2\x80"), std::string("a\0b C", 5)})
    EXPECT_EQ(without_names(t), t == std::string("a\0b C", 5) ? std::string("a\0b ", 4) : t) << t;
  if (!language_identification_available()) GTEST_SKIP() << "built without CLD2";
  // English with foreign names: CLD2 names the names' language, without them English.
  for (const char* text : {"M\xC3\xBCller and Schr\xC3\xB6"
                           "der met in D\xC3\xBCsseldorf yesterday.",
                           "I visited Lisboa and Porto last summer with Jo\xC3\xA3o and his friends."}) {
    const std::vector<LanguageGuess> g = identify_languages(without_names(text));
    ASSERT_FALSE(g.empty()) << text;
    EXPECT_EQ(g[0].code, "en") << text;
  }
  // German nouns are capitalized too: German stays German.
  const std::vector<LanguageGuess> de =
      identify_languages(without_names("Die Katze schl\xC3\xA4"
                                       "ft auf dem Sofa, weil sie m\xC3\xBC"
                                       "de ist."));
  ASSERT_FALSE(de.empty());
  EXPECT_EQ(de[0].code, "de");
}

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

TEST(ProtectedSpans, KnownKinds) {
  EXPECT_EQ(spans_of("See https://example.org/a?b=1&c=(2). Or www.example.com, then."),
            (Strings{"https://example.org/a?b=1&c=(2)", "www.example.com"}));
  EXPECT_EQ(spans_of("Mail jane.doe+x@mail.example.co.uk. Or mailto:a@b.de"),
            (Strings{"jane.doe+x@mail.example.co.uk", "mailto:a@b.de"}));
  EXPECT_EQ(spans_of("Edit /etc/edgemt/server.conf, ~/.bashrc and ./run.sh (or ../x/y) or C:\\Users\\a.txt."),
            (Strings{"/etc/edgemt/server.conf", "~/.bashrc", "./run.sh", "../x/y", "C:\\Users\\a.txt"}));
  EXPECT_EQ(spans_of("Run `make install` or ``a ` b``."), (Strings{"`make install`", "``a ` b``"}));
  EXPECT_EQ(spans_of("Copy %s to %1$s: %5.2f%% %(name)s %ld %@"),
            (Strings{"%s", "%1$s", "%5.2f", "%(name)s", "%ld", "%@"}));
  EXPECT_EQ(spans_of("%#@files@ left in %2$#@folders@."), (Strings{"%#@files@", "%2$#@folders@"}));
  EXPECT_EQ(spans_of("Hello {name}, {0} {} {{count}} {user.name:>10} ${HOME} $HOME $1"),
            (Strings{"{name}", "{0}", "{}", "{{count}}", "{user.name:>10}", "${HOME}", "$HOME", "$1"}));
  EXPECT_EQ(spans_of("It is 5 km away, weighs 3.5kg, uses 1,5 GB, 100% or 20 \xC2\xB0"
                     "C, at 2.4\xC2\xA0GHz."),
            (Strings{"5 km", "3.5kg", "1,5 GB", "100%",
                     "20 \xC2\xB0"
                     "C",
                     "2.4\xC2\xA0GHz"}));
}

TEST(ProtectedSpans, LongTokensAreKept) {
  const std::string sha = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";  // 64
  EXPECT_EQ(spans_of("Check the sum " + sha + " first."), (Strings{sha}));
  const std::string b64 = "dGhpcyBpcyBhIHZlcnkgbG9uZyBiYXNlNjQgZW5jb2RlZCBzdHJpbmcgZm9yIHRlc3Rpbmc=";
  EXPECT_EQ(spans_of("Der Schl\xC3\xBCssel: " + b64 + "."), (Strings{b64 + "."}));
  EXPECT_EQ(spans_of(std::string(5000, 'a')), (Strings{std::string(5000, 'a')}));
  // Shorter than 64, or the tail of a word with letters beyond ASCII: not a token.
  EXPECT_TRUE(spans_of("Donaudampfschifffahrtsgesellschaftskapitaensmuetzenabzeichen ist lang.").empty());
  EXPECT_TRUE(spans_of(std::string(63, 'x') + " y").empty());
  EXPECT_TRUE(spans_of("\xC3\xBC" + std::string(70, 'a')).empty());
  EXPECT_TRUE(spans_of(std::string(70, 'a') + "\xC3\xBC").empty());
}

TEST(ProtectedSpans, OrdinaryProseIsNotProtected) {
  for (const char* text :
       {"The file could not be opened.", "He said: yes/no, and/or maybe.", "It is 50 % off",
        "5 apples and 3 oranges", "Page 2 of 10.", "a@b", "{ not a placeholder }", "Costs 100 dollars.",
        "100 %s", "Use the / key.", "1.5 million people"}) {
    const std::vector<std::string> got = spans_of(text);
    if (std::string(text) == "It is 50 % off") {
      EXPECT_EQ(got, (Strings{"50 %"})) << text;  // a number with its unit
    } else if (std::string(text) == "100 %s") {
      EXPECT_EQ(got, (Strings{"%s"})) << text;  // a placeholder after a number
    } else {
      EXPECT_TRUE(got.empty()) << text << ": " << (got.empty() ? "" : got[0]);
    }
  }
}

TEST(ProtectedSpans, MarkersAreNewNumbersAndComeBack) {
  const ProtectedSentence p = protect_spans("Open https://a.example/101 in 102 s or mail me@x.org now");
  ASSERT_EQ(p.originals, (Strings{"https://a.example/101", "102 s", "me@x.org"}));
  ASSERT_EQ(p.markers.size(), 3u);
  EXPECT_FALSE(p.verbatim);
  for (const std::string& m : p.markers) {
    EXPECT_NE(m, "101");  // numbers in the sentence are not markers
    EXPECT_NE(m, "102");
    EXPECT_NE(p.text.find(m), std::string::npos);
  }
  EXPECT_EQ(p.text.find("https"), std::string::npos);
  // The identity "translation" gives the sentence back.
  EXPECT_EQ(restore_spans(p.text, p), "Open https://a.example/101 in 102 s or mail me@x.org now");
  // Reordered, one repeated, one dropped: each span exactly once, the dropped one before
  // the final punctuation.
  const std::string t = "Mail " + p.markers[2] + " " + p.markers[2] + ", open " + p.markers[0] + ".";
  EXPECT_EQ(restore_spans(t, p), "Mail me@x.org, open https://a.example/101 102 s.");
  // In a piece (a word of the translation) markers become their spans and nothing else
  // changes: a repeated marker stays repeated, other numbers stay, nothing is added.
  EXPECT_EQ(replace_markers("(" + p.markers[1] + ")" + p.markers[1] + " 101", p), "(102 s)102 s 101");
  EXPECT_EQ(replace_markers("Haus", p), "Haus");
  EXPECT_EQ(replace_markers(p.markers[0], protect_spans("no spans here")), p.markers[0]);
  // A sentence of nothing but spans and punctuation is not translated.
  const ProtectedSentence v = protect_spans("https://example.org/ (%s)");
  EXPECT_TRUE(v.verbatim);
  EXPECT_EQ(restore_spans("whatever the model says", v), "https://example.org/ (%s)");
  EXPECT_TRUE(protect_spans("no spans here").markers.empty());
  EXPECT_EQ(restore_spans("keine", protect_spans("no spans here")), "keine");
  // Nor is one without any letter (subtitle cue numbers and time codes, rules, table
  // borders), unless only the glossary protects; a blank one is not "verbatim".
  for (const char* text : {"12", "00:00:01,000 --> 00:00:03,500", "----", "|---|---|", "3 + 4 = 7", "(1)"}) {
    const ProtectedSentence n = protect_spans(text);
    EXPECT_TRUE(n.verbatim) << text;
    EXPECT_EQ(restore_spans("Haus", n), text);
    EXPECT_FALSE(protect_spans(text, nullptr, false).verbatim) << text;
  }
  for (const char* text : {"", "  ", "a 7", "7 Zwerge", "\xC3\xA9t\xC3\xA9 2"})
    EXPECT_FALSE(protect_spans(text).verbatim) << text;
}

// Whatever a model does with the markers, each span comes out exactly once, on generated
// text mixing spans, digits and prose.
// 1 to 10 words, spans, digits and punctuation, separated by spaces.
std::string random_span_sentence(std::mt19937& rng) {
  static const std::vector<std::string> parts = {
      "the", "file", "5 GB", "%s", "{name}", "https://x.org/a.b", "u@v.io", "/usr/bin/env", "`ls -l`",
      "42",  "101",  "103",  ",",  "."};
  std::string s;
  const size_t n = 1 + rng() % 10;
  for (size_t i = 0; i < n; ++i) {
    if (!s.empty()) s += ' ';
    s += parts[rng() % parts.size()];
  }
  return s;
}

TEST(ProtectedSpans, EverySpanComesOutOnce) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 500; ++iter) {
    const std::string s = random_span_sentence(rng);
    const ProtectedSentence p = protect_spans(s);
    ASSERT_EQ(p.markers.size(), p.originals.size());
    EXPECT_EQ(restore_spans(p.text, p), s) << s;
    if (p.verbatim) continue;
    // A "translation" that keeps a random subset of the markers, some twice, shuffled.
    std::vector<std::string> words = {"das", "ist"};
    for (const std::string& m : p.markers) {
      const unsigned r = rng() % 4;
      for (unsigned c = 0; c < (r == 0 ? 0u : r == 3 ? 2u : 1u); ++c) words.push_back(m);
    }
    std::shuffle(words.begin(), words.end(), rng);
    std::string t;
    for (const std::string& w : words) t += (t.empty() ? "" : " ") + w;
    const std::string out = restore_spans(t + ".", p);
    for (const std::string& o : p.originals) {
      size_t count = 0;
      for (size_t at = out.find(o); at != std::string::npos; at = out.find(o, at + o.size())) ++count;
      size_t in_originals = 0;
      for (const std::string& o2 : p.originals)
        if (o2.find(o) != std::string::npos) ++in_originals;
      EXPECT_EQ(count, in_originals) << "'" << o << "' in '" << out << "' from '" << t << "' (" << s << ")";
    }
    for (const std::string& m : p.markers) {
      // No marker is left over (as its own number).
      std::vector<TextSpan> none;
      EXPECT_EQ(out.find(" " + m + " "), std::string::npos) << out;
    }
  }
}

// SpanMode::kInPlace: builtin spans stay in the text the model sees; spans_kept says
// whether a translation carries each of them, whole and as often; touching spans and
// glossary terms still get markers.
TEST(ProtectedSpans, InPlaceSpansStayAndAreChecked) {
  const std::string s = "Open https://a.example/x in /usr/bin or %s now, or %s later";
  const ProtectedSentence p = protect_spans(s, nullptr, true, SpanMode::kInPlace);
  EXPECT_EQ(p.text, s);
  EXPECT_TRUE(p.markers.empty());
  EXPECT_FALSE(p.verbatim);
  EXPECT_EQ(p.in_place, (std::vector<std::string>{"https://a.example/x", "/usr/bin", "%s", "%s"}));
  EXPECT_EQ(restore_spans("Öffne es", p), "Öffne es");  // nothing is added back
  EXPECT_TRUE(spans_kept(s, p));
  EXPECT_TRUE(spans_kept("Öffne %s jetzt in /usr/bin, https://a.example/x oder später %s", p));
  EXPECT_FALSE(spans_kept("Öffne https://a.example/x in /usr/bin oder jetzt %s", p));   // one %s lost
  EXPECT_FALSE(spans_kept("Öffne https://a.example/x in /usr/bin %s %s %s", p));        // one too many
  EXPECT_FALSE(spans_kept("Öffne https://a.example/y in /usr/bin oder %s, %s", p));     // changed
  EXPECT_FALSE(spans_kept("Öffne https://a.example/x in /usr/binary oder %s, %s", p));  // inside a word
  EXPECT_FALSE(spans_kept("Öffne https://a.example/xy in /usr/bin oder %s, %s", p));
  EXPECT_TRUE(spans_kept("anything", protect_spans("no spans here", nullptr, true, SpanMode::kInPlace)));
  // Typographic quotes and dashes are not letters; accented letters are.
  const ProtectedSentence q = protect_spans("Cannot open '%s' or \"%d\"", nullptr, true, SpanMode::kInPlace);
  EXPECT_EQ(q.in_place, (std::vector<std::string>{"%s", "%d"}));
  EXPECT_TRUE(spans_kept("»%s« oder „%d“ kann nicht geöffnet werden", q));
  EXPECT_TRUE(spans_kept("%s—%d…", q));
  EXPECT_FALSE(spans_kept("»%sé« oder %d", q));
  EXPECT_FALSE(spans_kept("»%s« oder %dß", q));
  const ProtectedSentence u = protect_spans("See user@example.org.", nullptr, true, SpanMode::kInPlace);
  EXPECT_TRUE(spans_kept("Siehe «user@example.org».", u));
  EXPECT_FALSE(spans_kept("Siehe äuser@example.org.", u));
  // Apple's .stringsdict variables go as the object placeholders they stand for, a free
  // one each, checked and put back.
  const ProtectedSentence av =
      protect_spans("%#@n@ were moved from %@ to %#@m@ and %2$#@k@.", nullptr, true, SpanMode::kInPlace);
  EXPECT_EQ(av.text, "%1$@ were moved from %@ to %2$@ and %3$@.");
  EXPECT_TRUE(spans_kept("%1$@ wurden von %@ nach %2$@ und %3$@ verschoben.", av));
  EXPECT_FALSE(spans_kept("%1$@ wurden von %@ nach %2$@ verschoben.", av));
  EXPECT_EQ(restore_spans("%1$@ wurden von %@ nach %2$@ und %3$@ verschoben.", av),
            "%#@n@ wurden von %@ nach %#@m@ und %2$#@k@ verschoben.");
  // Their stand-ins, which start and end with no letter, may touch a word (or a byte
  // that is not UTF-8): still theirs, put back in place, not after the text.
  const ProtectedSentence touching = protect_spans("Delete %#@files@now", nullptr, true, SpanMode::kInPlace);
  EXPECT_EQ(touching.text, "Delete %@now");
  EXPECT_TRUE(spans_kept("%@jetzt löschen", touching));
  EXPECT_EQ(restore_spans("%@jetzt löschen", touching), "%#@files@jetzt löschen");
  const ProtectedSentence after_byte = protect_spans("\xff%##@", nullptr, true, SpanMode::kInPlace);
  EXPECT_EQ(restore_spans(after_byte.text, after_byte), "\xff%##@");
  // A number with a unit is a span; inside a longer number it is not that span.
  const ProtectedSentence gb = protect_spans("The disk has 5 GB free.", nullptr, true, SpanMode::kInPlace);
  EXPECT_EQ(gb.in_place, (std::vector<std::string>{"5 GB"}));
  EXPECT_TRUE(spans_kept("Die Platte hat 5 GB frei.", gb));
  EXPECT_FALSE(spans_kept("Die Platte hat 15 GB frei.", gb));
  EXPECT_FALSE(spans_kept("Die Platte hat 5 GBit frei.", gb));
  // Touching spans share a marker; a glossary term is a marker; spans only: verbatim.
  auto g = Glossary::parse("Firefox\tFeuerfuchs\n");
  ASSERT_TRUE(g.has_value());
  const ProtectedSentence m =
      protect_spans("Firefox opens %s%d and https://x.org/", g.value().get(), true, SpanMode::kInPlace);
  EXPECT_EQ(m.markers.size(), 2u);
  EXPECT_EQ(m.originals[0], "Feuerfuchs");
  EXPECT_EQ(m.originals[1], "%s%d");
  EXPECT_EQ(m.in_place, (std::vector<std::string>{"https://x.org/"}));
  EXPECT_EQ(restore_spans(m.markers[0] + " öffnet " + m.markers[1] + " und https://x.org/", m),
            "Feuerfuchs öffnet %s%d und https://x.org/");
  const ProtectedSentence v = protect_spans("https://example.org/ (%s)", nullptr, true, SpanMode::kInPlace);
  EXPECT_TRUE(v.verbatim);
  EXPECT_EQ(restore_spans("", v), "https://example.org/ (%s)");
}

// On generated text, a sentence protected in place reads as it was, keeps its spans when
// translated as itself, and its spans are those kMarkers would replace.
TEST(ProtectedSpans, InPlaceAndMarkersAgree) {
  std::mt19937 rng(11);
  for (int iter = 0; iter < 500; ++iter) {
    const std::string s = random_span_sentence(rng);
    const ProtectedSentence in = protect_spans(s, nullptr, true, SpanMode::kInPlace);
    const ProtectedSentence mk = protect_spans(s);
    EXPECT_EQ(in.text, s);
    EXPECT_EQ(in.verbatim, mk.verbatim) << s;
    EXPECT_EQ(restore_spans(in.text, in), s);
    EXPECT_TRUE(spans_kept(in.text, in)) << s;
    EXPECT_EQ(in.in_place, mk.originals) << s;  // no span here touches another
    if (!in.in_place.empty()) {
      EXPECT_FALSE(spans_kept("das ist es", in)) << s;
    }
  }
}

TEST(ProtectedSpans, GlossaryTermsBecomeTheirTargets) {
  auto g = Glossary::parse(
      "# terms\nfile\tDatei\nFirefox\tFirefox\n\nfile manager\tDateimanager\r\nfile\tDokument\n");
  ASSERT_TRUE(g.has_value()) << g.status().to_string();
  EXPECT_EQ(g.value()->size(), 3u);  // the later "file" line replaced the earlier one
  const ProtectedSentence p = protect_spans(
      "File a bug: open the file manager, not the files or profile. Visit firefox.org", g.value().get());
  // Whole words only, the longest term first, a lower-case term also capitalized; the
  // URL-less "firefox.org" is not the term "Firefox" (case-sensitive).
  ASSERT_EQ(p.originals, (Strings{"Dokument", "Dateimanager"}));
  EXPECT_EQ(restore_spans(p.text, p),
            "Dokument a bug: open the Dateimanager, not the files or profile. Visit firefox.org");
  // A sentence of nothing but a term is not translated: it becomes the term's target.
  const ProtectedSentence only = protect_spans("Firefox", g.value().get());
  EXPECT_TRUE(only.verbatim);
  EXPECT_EQ(restore_spans("anything", only), "Firefox");
  // Terms only (the built-in spans off).
  const ProtectedSentence t = protect_spans("Open the file at https://x.org/", g.value().get(), false);
  EXPECT_EQ(t.originals, (Strings{"Dokument"}));
  // Errors name the line.
  auto bad = Glossary::parse("a\tb\nno tab here\n");
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.status().message().find("line 2"), std::string::npos) << bad.status().message();
  EXPECT_FALSE(Glossary::parse("a\t \n").has_value());
  EXPECT_FALSE(Glossary::load("/nonexistent/glossary.tsv").has_value());
  EXPECT_EQ(Glossary::parse("").value()->size(), 0u);
}

// Characters the model's vocabulary lacks (Tokenizer::unknown_spans gives their byte
// ranges): copied through with markers, each widened to its whole word, a symbol alone to
// the number beside it, runs with no letter between them joined. In place, a word whose
// unknown letters all have an ASCII spelling goes to the model as that stand-in.
TEST(ProtectedSpans, UnknownCharactersComeThrough) {
  using Ranges = std::vector<std::pair<size_t, size_t>>;
  auto range_of = [](const std::string& s, const std::string& part) {
    const size_t at = s.find(part);
    EXPECT_NE(at, std::string::npos) << part;
    return std::make_pair(at, at + part.size());
  };
  struct Case {
    std::string text;
    std::vector<std::string> unknown;  // what the vocabulary lacks
    Strings originals;                 // the spans copied through
    bool verbatim = false;
    Strings stand_ins = {};  // in place: what the model sees for them (none: markers)
  };
  const std::vector<Case> cases = {
      {"The ticket costs 20 € at the café.", {"€"}, {"20 €"}},
      {"It costs €20, or 15,50 € today.", {"€", "€"}, {"€20", "15,50 €"}},
      {"See § 5 of the contract.", {"§"}, {"§ 5"}},
      {"François lives in São Paulo.", {"ç", "ã"}, {"François", "São"}, false, {"Francois", "Sao"}},
      {"Dvořák and Łódź, not Lodz.", {"ř", "Ł", "ó", "ź"}, {"Dvořák", "Łódź"}, false, {"Dvorák"}},
      {"I love 🍕 and 日本.", {"🍕", "日本"}, {"🍕", "日本"}},
      {"The word мир means peace.", {"мир"}, {"мир"}},
      {"Привет, как дела?", {"Привет", "как", "дела"}, {"Привет, как дела"}, true},
      {"日本語", {"日本語"}, {"日本語"}, true},
      {"Price: 5 € (A4 €)", {"€", "€"}, {"5 €", "€"}},
  };
  for (const Case& c : cases) {
    Ranges r;
    for (const std::string& u : c.unknown) {
      const size_t from = r.empty() ? 0 : r.back().second;
      const size_t at = c.text.find(u, from);
      ASSERT_NE(at, std::string::npos) << u;
      r.emplace_back(at, at + u.size());
    }
    for (SpanMode mode : {SpanMode::kInPlace, SpanMode::kMarkers}) {
      const ProtectedSentence p = protect_spans(c.text, nullptr, true, mode, r);
      EXPECT_EQ(p.originals, c.originals) << c.text;
      // The model could not write them: markers, or in place their stand-ins.
      EXPECT_EQ(p.in_place, mode == SpanMode::kInPlace ? c.stand_ins : Strings{}) << c.text;
      EXPECT_EQ(p.verbatim, c.verbatim) << c.text;
      EXPECT_EQ(restore_spans(p.text, p), c.text);
      for (const std::string& u : c.unknown) EXPECT_EQ(p.text.find(u), std::string::npos) << p.text;
      // A translation that drops every marker still gives every span back.
      if (!p.verbatim) {
        const std::string out = restore_spans("Das ist es.", p);
        for (const std::string& o : c.originals) EXPECT_NE(out.find(o), std::string::npos) << out;
      }
    }
    // Without the builtin spans (--no-protect with a glossary), nothing but the terms.
    EXPECT_TRUE(protect_spans(c.text, nullptr, false, SpanMode::kMarkers, r).originals.empty());
  }
  // Stand-ins: checked as spans left in place are, put back as markers are (every whole
  // occurrence), also in single words (replace_markers).
  const std::string names = "François lives in São Paulo.";
  const ProtectedSentence st = protect_spans(names, nullptr, true, SpanMode::kInPlace,
                                             Ranges{range_of(names, "ç"), range_of(names, "ã")});
  EXPECT_EQ(st.text, "Francois lives in Sao Paulo.");
  EXPECT_TRUE(spans_kept("Francois wohnt in Sao Paulo.", st));
  EXPECT_EQ(restore_spans("Francois wohnt in Sao Paulo.", st), "François wohnt in São Paulo.");
  EXPECT_EQ(replace_markers("Francois,", st), "François,");
  EXPECT_FALSE(spans_kept("Francoise wohnt in Sao Paulo.", st));      // changed
  EXPECT_FALSE(spans_kept("Er wohnt in Sao Paulo.", st));             // dropped
  EXPECT_FALSE(spans_kept("Francois wohnt in Sao Paulo, Sao.", st));  // repeated
  // Where the stand-in is a word of the sentence already, a marker.
  const std::string both = "Sao and São";
  const ProtectedSentence m = protect_spans(both, nullptr, true, SpanMode::kInPlace, Ranges{{10, 12}});
  EXPECT_TRUE(m.in_place.empty());
  ASSERT_EQ(m.markers.size(), 1u);
  EXPECT_EQ(m.text, "Sao and " + m.markers[0]);
  // A stand-in is one well-formed word: a stray byte glued to a letter ("ät\x9f", where
  // the stray byte is unknown too) or punctuation inside the span ("ā-ē": "a" and "a-e"
  // would overlap) gives a marker, and everything comes back.
  for (const std::string& odd : {std::string("\xc3\xa4t.r.\xc3\xa4t\x9f"), std::string("~ x ~-~ y")}) {
    Ranges r;
    for (size_t i = 0; i < odd.size(); ++i) {
      if (static_cast<unsigned char>(odd[i]) < 0x80 && odd[i] != '~') continue;
      if (!r.empty() && r.back().second == i)
        r.back().second = i + 1;
      else
        r.emplace_back(i, i + 1);
    }
    const ProtectedSentence o = protect_spans(odd, nullptr, true, SpanMode::kInPlace, r);
    EXPECT_EQ(restore_spans(o.text, o), odd);
    for (const std::string& s : o.in_place)
      EXPECT_TRUE(std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalpha(static_cast<unsigned char>(c));
      })) << s;
  }
  const std::string dash = "\xc4\x81 x \xc4\x81-\xc4\x93 y";  // "ā x ā-ē y", ā and ē unknown
  const ProtectedSentence dp =
      protect_spans(dash, nullptr, true, SpanMode::kInPlace, Ranges{{0, 2}, {5, 7}, {8, 10}});
  EXPECT_EQ(dp.in_place, Strings{"a"});
  EXPECT_EQ(restore_spans(dp.text, dp), dash);
  // A builtin span holding an unknown character gets a marker, not left in place.
  const std::string path = "Open /home/françois/notes.txt now";
  const ProtectedSentence pp =
      protect_spans(path, nullptr, true, SpanMode::kInPlace, Ranges{range_of(path, "ç")});
  EXPECT_TRUE(pp.in_place.empty());
  EXPECT_EQ(pp.originals, Strings{"/home/françois/notes.txt"});
  // A glossary term wins over an unknown character inside it.
  auto g = Glossary::parse("café\tKaffeehaus\n");
  ASSERT_TRUE(g.has_value());
  const std::string cafe = "Meet me at the café ☕ today";
  const ProtectedSentence gp = protect_spans(cafe, g.value().get(), true, SpanMode::kMarkers,
                                             Ranges{range_of(cafe, "é"), range_of(cafe, "☕")});
  EXPECT_EQ(gp.originals, (Strings{"Kaffeehaus", "☕"}));
  // Ranges outside the sentence or empty are ignored.
  EXPECT_TRUE(
      protect_spans("abc", nullptr, true, SpanMode::kMarkers, Ranges{{2, 9}, {1, 1}}).originals.empty());
}

// Inline runs (HTML): text nodes joined across inline tags, tags back in place.
std::string same(std::string_view s) { return std::string(s); }

TEST(InlineRuns, PlaceholdersBecomeTheTagsAgain) {
  const Segmented doc = segment_html("<p>Click <b>Save</b> now &amp; here.</p>");
  const std::vector<InlineRun> runs = inline_runs(doc, same);
  ASSERT_EQ(runs.size(), 1u);
  const InlineRun& r = runs[0];
  EXPECT_EQ(r.source, "Click {tag1} Save {tag2} now & here.");
  EXPECT_EQ(r.plain, "Click Save now & here.");
  EXPECT_EQ(r.element, (std::vector<std::string>{"Save"}));
  std::string html;
  // The identity gives the run back; a translation gets its text escaped.
  ASSERT_TRUE(place_inline_tags(r, r.source, &html));
  EXPECT_EQ(html, "Click <b>Save</b> now &amp; here.");
  ASSERT_TRUE(place_inline_tags(r, "Klicke {tag1}  Speichern {tag2} & <jetzt>.", &html));
  EXPECT_EQ(html, "Klicke <b>Speichern</b> &amp; &lt;jetzt&gt;.");
  EXPECT_EQ(reassemble_runs(doc, runs, {html}, {}), "<p>Klicke <b>Speichern</b> &amp; &lt;jetzt&gt;.</p>");
  // Refused: a placeholder missing or repeated, the tags reversed, an element emptied
  // (or left with punctuation only).
  html = "unchanged";
  for (const char* bad : {"Klicke {tag1} Speichern.", "Klicke {tag1} {tag1} x {tag2}.", "{tag2} x {tag1} y",
                          "Speichern {tag1}{tag2} jetzt", "Speichern {tag1} , {tag2} jetzt"}) {
    EXPECT_FALSE(place_inline_tags(r, bad, &html)) << bad;
    EXPECT_EQ(html, "unchanged");
  }
  // A failed run: its text nodes' own translations.
  EXPECT_EQ(reassemble_runs(doc, runs, {""}, {"A", "B", "C & D"}), "<p>A <b>B</b> C &amp; D</p>");
}

TEST(InlineRuns, FoundElementsAreWrapped) {
  const Segmented doc = segment_html("<li>Open the <a href=\"f.html\">folder</a> and <i>select</i> it.</li>");
  const std::vector<InlineRun> runs = inline_runs(doc, same);
  ASSERT_EQ(runs.size(), 1u);
  ASSERT_EQ(runs[0].element, (std::vector<std::string>{"folder", "select"}));
  std::string html;
  // The first letter in either case; the elements in the sentence's order, whatever the
  // source's; a fragment's final full stop ignored.
  ASSERT_TRUE(wrap_found_elements(runs[0],
                                  "W\xC3\xA4hle den Ordner & \xC3\xB6"
                                  "ffne ihn.",
                                  {"Ordner", "w\xC3\xA4hle."}, &html));
  EXPECT_EQ(html,
            "<i>W\xC3\xA4hle</i> den <a href=\"f.html\">Ordner</a> &amp; \xC3\xB6"
            "ffne ihn.");
  // Only whole words, never overlapping.
  EXPECT_FALSE(
      wrap_found_elements(runs[0], "Die Ordnerliste w\xC3\xA4hlen", {"Ordner", "w\xC3\xA4hlen"}, &html));
  EXPECT_FALSE(wrap_found_elements(runs[0], "Ordner", {"Ordner", "Ordner"}, &html));
  EXPECT_FALSE(wrap_found_elements(runs[0], "Ordner w", {"Ordner", ""}, &html));
}

// An aligned translation: words (target, source) given as substrings, found in order.
AlignedText aligned(const std::string& plain, const std::string& text,
                    const std::vector<std::pair<std::string, std::string>>& words) {
  AlignedText a;
  a.text = text;
  size_t t_at = 0;
  for (const auto& [t, src] : words) {
    const size_t tb = text.find(t, t_at), sb = plain.find(src);
    EXPECT_NE(tb, std::string::npos) << t;
    EXPECT_NE(sb, std::string::npos) << src;
    a.words.push_back({{tb, tb + t.size()}, {sb, sb + src.size()}});
    t_at = tb + t.size();
  }
  return a;
}

TEST(InlineRuns, AlignedWordsCarryTheTags) {
  const Segmented doc = segment_html("<p>Please <b>do not <i>delete</i> this</b> file.<br>Thank you!</p>");
  const std::vector<InlineRun> runs = inline_runs(doc, same);
  ASSERT_EQ(runs.size(), 1u);
  const InlineRun& r = runs[0];
  // A <br> is a line break of the plain text; each cluster knows its place there.
  EXPECT_EQ(r.plain, "Please do not delete this file.\nThank you!");
  ASSERT_EQ(r.cluster_at.size(), r.clusters.size());
  EXPECT_EQ(r.plain.substr(r.cluster_at[0]), " do not delete this file.\nThank you!");
  std::string html = "unchanged";
  // Elements around their words' stretch (the outer one around the inner one too, even
  // where the translation puts them in another order), the <br> at the line break.
  const std::string text = "Bitte l\xC3\xB6schen Sie diese Datei nicht.\nDanke!";
  ASSERT_TRUE(place_aligned_tags(r,
                                 aligned(r.plain, text,
                                         {{"Bitte", "Please"},
                                          {"l\xC3\xB6schen", "delete"},
                                          {"diese", "this"},
                                          {"Datei", "file."},
                                          {"nicht.", "not"},
                                          {"Danke!", "Thank"}}),
                                 &html));
  EXPECT_EQ(html, "Bitte <b><i>l\xC3\xB6schen</i> Sie diese Datei nicht</b>.<br>Danke!");
  // Refused: an element with no aligned word; two side by side that would overlap; a
  // line break the translation lacks.
  html = "unchanged";
  EXPECT_FALSE(
      place_aligned_tags(r, aligned(r.plain, text, {{"Bitte", "Please"}, {"Danke!", "Thank"}}), &html));
  EXPECT_FALSE(place_aligned_tags(r,
                                  aligned(r.plain, "Bitte nicht l\xC3\xB6schen. Danke!",
                                          {{"nicht", "not"}, {"l\xC3\xB6schen.", "delete"}}),
                                  &html));
  EXPECT_EQ(html, "unchanged");
  const Segmented two = segment_html("<p>Open the <b>folder</b> and <i>select</i> it.</p>");
  const std::vector<InlineRun> side = inline_runs(two, same);
  ASSERT_EQ(side.size(), 1u);
  const std::string t2 =
      "W\xC3\xA4hle den Ordner & \xC3\xB6"
      "ffne ihn.";
  EXPECT_FALSE(place_aligned_tags(
      side[0],
      aligned(side[0].plain, t2, {{"W\xC3\xA4hle", "folder"}, {"den", "select"}, {"Ordner", "folder"}}),
      &html));
  EXPECT_EQ(html, "unchanged");
  ASSERT_TRUE(place_aligned_tags(side[0],
                                 aligned(side[0].plain, t2,
                                         {{"W\xC3\xA4hle", "select"},
                                          {"Ordner", "folder"},
                                          {"\xC3\xB6"
                                           "ffne",
                                           "Open"}}),
                                 &html));
  EXPECT_EQ(html,
            "<i>W\xC3\xA4hle</i> den <b>Ordner</b> &amp; \xC3\xB6"
            "ffne ihn.");
}

TEST(ProtectedSpans, SentenceSpansOfTheProtectedText) {
  const std::string sentence = "Get 5 km maps from https://a.org/x now.";
  const ProtectedSentence p = protect_spans(sentence);
  ASSERT_EQ(p.markers.size(), 2u) << p.text;
  ASSERT_EQ(p.spans.size(), 2u);
  EXPECT_EQ(sentence.substr(p.spans[0].begin, p.spans[0].size()), "5 km");
  EXPECT_EQ(sentence.substr(p.spans[1].begin, p.spans[1].size()), "https://a.org/x");
  // Every word of the protected text maps to the sentence's bytes: a marker to its span.
  auto back = [&](std::string_view word) {
    const size_t at = p.text.find(word);
    const TextSpan s = sentence_span(p, {at, at + word.size()});
    return sentence.substr(s.begin, s.size());
  };
  EXPECT_EQ(back("Get"), "Get");
  EXPECT_EQ(back(p.markers[0]), "5 km");
  EXPECT_EQ(back("maps"), "maps");
  EXPECT_EQ(back(p.markers[1]), "https://a.org/x");
  EXPECT_EQ(back("now."), "now.");
  EXPECT_EQ(back(p.text), sentence);
}

TEST(InlineRuns, OnlyTagsThatPairUpWithinARun) {
  // Tags at a run's edges belong to it when they pair up; <br> makes a run non-flat;
  // block tags and comments end runs.
  const Segmented doc = segment_html("<b>Hi</b> you <i>there</i> and<br>more<p>x <em>y</em></p><!-- c --> z");
  const std::vector<InlineRun> runs = inline_runs(doc, same);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].source, "{tag1} Hi {tag2} you {tag3} there {tag4} and {tag5} more");
  EXPECT_TRUE(runs[0].element.empty());
  EXPECT_EQ(runs[1].source, "x {tag1} y {tag2}");
  EXPECT_EQ(runs[1].plain, "x y");
  // An element around a block: its tags pair up in no run, and end them.
  const std::vector<InlineRun> split =
      inline_runs(segment_html("<b>Bold <p>block</p> text</b> and more <i>words</i>"), same);
  ASSERT_EQ(split.size(), 1u);
  EXPECT_EQ(split[0].source, "and more {tag1} words {tag2}");
  // Crossing (malformed) tags never form a run with both.
  for (const InlineRun& r : inline_runs(segment_html("a <b>b <i>c</b> d</i> e"), same)) {
    std::string out;
    EXPECT_TRUE(place_inline_tags(r, r.source, &out)) << r.source;
  }
  // The placeholder prefix avoids the document's own braces.
  const std::vector<InlineRun> braces = inline_runs(segment_html("Use {tag1} <b>now</b> please"), same);
  ASSERT_EQ(braces.size(), 1u);
  EXPECT_EQ(braces[0].source, "Use {tag1} {tagx1} now {tagx2} please");
}

// A <wbr> with text against it on both sides is a line break opportunity inside a word or
// URL: the run reads the word whole and its translation goes without it; one between
// spaces stays an element.
TEST(InlineRuns, WordBreaksInsideWordsAreNoElements) {
  const std::vector<InlineRun> runs = inline_runs(
      segment_html("<p>The con<wbr>figuration<WBR/>file at <b>example.com/<wbr>docs</b> and A <wbr> B</p>"),
      same);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].source, "The configurationfile at {tag1} example.com/docs {tag2} and A {tag3} B");
  EXPECT_EQ(runs[0].plain, "The configurationfile at example.com/docs and A B");
  EXPECT_TRUE(runs[0].element.empty());
  std::string out;
  ASSERT_TRUE(place_inline_tags(
      runs[0], "Die Konfigurationsdatei bei {tag1} example.com/docs {tag2} und A {tag3} B", &out));
  EXPECT_EQ(out, "Die Konfigurationsdatei bei <b>example.com/docs</b> und A <wbr> B");
  // Two words and a break: a run of its own, without placeholders.
  const std::vector<InlineRun> word = inline_runs(segment_html("<td>Super<wbr>market</td>"), same);
  ASSERT_EQ(word.size(), 1u);
  EXPECT_EQ(word[0].source, "Supermarket");
  ASSERT_TRUE(place_inline_tags(word[0], "Supermarkt", &out));
  EXPECT_EQ(out, "Supermarkt");
}

// Generated documents of words and nested inline elements: the identity comes back byte
// for byte; any shuffle of the placeholders is refused or nests properly.
TEST(InlineRuns, IdentityAndShufflesKeepTheMarkupWellFormed) {
  std::mt19937 rng(7);
  const char* words[] = {"file", "Open", "the", "x1", "r\xC3\xA9sum\xC3\xA9", "now."};
  const char* tags[] = {"b", "i", "a href=\"u\"", "em", "span class=\"k\""};
  for (int iter = 0; iter < 300; ++iter) {
    std::string doc = "<p>";
    std::vector<std::string> open;
    const int n = 3 + static_cast<int>(rng() % 10);
    for (int k = 0; k < n; ++k) {
      const unsigned c = rng() % 5;
      if (c == 0 && open.size() < 3) {
        const std::string t = tags[rng() % 5];
        doc += "<" + t + ">";
        open.push_back(t.substr(0, t.find(' ')));
      } else if (c == 1 && !open.empty()) {
        doc += "</" + open.back() + ">";
        open.pop_back();
      } else if (c == 2) {
        doc += "<br>";
      }
      doc += words[rng() % 6];
      if (rng() % 2) doc += " ";
    }
    while (!open.empty()) {
      doc += "</" + open.back() + ">";
      open.pop_back();
    }
    doc += "</p>";
    const Segmented seg = segment_html(doc);
    const std::vector<InlineRun> runs = inline_runs(seg, same);
    std::vector<std::string> html;
    for (const InlineRun& r : runs) {
      std::string out;
      ASSERT_TRUE(place_inline_tags(r, r.source, &out)) << doc;
      html.push_back(out);
    }
    std::vector<std::string> nodes;
    for (size_t i : seg.text) nodes.push_back(seg.pieces[i]);
    EXPECT_EQ(reassemble_runs(seg, runs, html, nodes), doc);
    for (const InlineRun& r : runs) {
      std::vector<std::string> order = r.holders;
      std::shuffle(order.begin(), order.end(), rng);
      std::string t;
      for (const std::string& h : order) t += "w " + h + " ";
      std::string out;
      if (!place_inline_tags(r, t, &out)) continue;
      // Well nested: every close tag closes the innermost open one.
      std::vector<std::string> stack;
      for (size_t at = out.find('<'); at != std::string::npos; at = out.find('<', at + 1)) {
        const size_t end = out.find_first_of(" >", at);
        const std::string name = out.substr(at + 1, end - at - 1);
        if (name == "br") continue;
        if (name[0] == '/') {
          ASSERT_FALSE(stack.empty()) << out;
          EXPECT_EQ("/" + stack.back(), name) << out;
          stack.pop_back();
        } else {
          stack.push_back(name);
        }
      }
      EXPECT_TRUE(stack.empty()) << out;
    }
  }
}

// What a document marks not to be translated (translate="no", class "notranslate")
// never reaches the model: its pieces are kept, not text, and give the document back.
std::vector<std::string> texts_of(const Segmented& seg) {
  std::vector<std::string> out;
  for (size_t i : seg.text) out.push_back(seg.pieces[i]);
  return out;
}

std::string joined(const Segmented& seg) {
  std::string out;
  for (const std::string& p : seg.pieces) out += p;
  return out;
}

// The pieces kept as written, each followed by '|'.
std::string kept_of(const Segmented& seg) {
  std::string kept;
  for (size_t k : seg.kept) kept += seg.pieces[k] + "|";
  return kept;
}

TEST(HtmlNoTranslate, MarkedElementsAreKeptWithEverythingInside) {
  using Strings = std::vector<std::string>;
  const std::string doc =
      "<div translate=\"no\"><div>Inner</div> <p>Kept <b>too</b></p></div><p>Yes.</p>"
      "<span class='x notranslate y'>ACME Corp</span> sells "
      "<p TRANSLATE=NO>Brand<p>Next item.</p>"
      "<ul><li translate=\"no\">Name<li>Other</ul>"
      "<p translate=\"no\">Intro<h2>Heading</h2>"
      "<section><p translate=\"no\">x<b>y</section> after"
      "<img translate=\"no\" alt=\"a\"> <br translate=\"no\"/>Tail <span translate=\"yes\">t</span>"
      "<div class=\"notranslatex\">Translated.</div>"
      "<div translate=\"no\"><script>if (a < b) x = '</div>';</script>Still kept</div>Last.";
  const Segmented seg = segment_html(doc);
  EXPECT_EQ(texts_of(seg), (Strings{"Yes.", "sells", "Next item.", "Other", "Heading", "after", "Tail", "t",
                                    "Translated.", "Last."}));
  EXPECT_EQ(joined(seg), doc);
  // Kept pieces are exactly those inside the marked elements (and raw content).
  EXPECT_EQ(kept_of(seg),
            "<div>|Inner|</div>| |<p>|Kept |<b>|too|</b>|</p>|ACME Corp|Brand|Name|Intro|x|<b>|y|"
            "<script>|if (a < b) x = '</div>';|</script>|Still kept|");
  // Sentence splitting carries the kept pieces along.
  auto splitter = SentenceSplitter::create("en");
  ASSERT_TRUE(splitter.has_value());
  Segmented two = segment_html("<p>One. Two.</p><code>a. b.</code><p>Three.</p>");
  split_sentences(&two, *splitter.value());
  EXPECT_EQ(texts_of(two), (Strings{"One.", "Two.", "Three."}));
  ASSERT_EQ(two.kept.size(), 1u);
  EXPECT_EQ(two.pieces[two.kept[0]], "a. b.");
}

// translate="yes" (or translate="") inside an element not to be translated: its content
// is translated again, and an element inside it that keeps its content keeps it again.
TEST(HtmlNoTranslate, TranslateYesInsideIsTranslatedAgain) {
  using Strings = std::vector<std::string>;
  const std::string doc =
      "<div translate=\"no\">Brand <span translate=\"yes\">Tagline here</span> Corp<p>Kept</p>"
      "<p translate>Empty means yes</p><p translate=\"yes\">Outer yes <b translate=\"no\">inner no "
      "<i translate=\"yes\">deep yes</i> still no</b> back</p> tail</div>After."
      "<kbd>ls <span translate=\"yes\">comment</span></kbd><p class=\"notranslate\">x <q "
      "translate=\"YES\">y</q></p>";
  const Segmented seg = segment_html(doc);
  EXPECT_EQ(texts_of(seg), (Strings{"Tagline here", "Empty means yes", "Outer yes", "deep yes", "back",
                                    "After.", "comment", "y"}));
  EXPECT_EQ(joined(seg), doc);
  EXPECT_EQ(kept_of(seg), "Brand | Corp|<p>|Kept|</p>|inner no | still no| tail|ls |x |");

  // Through the HTML path (a stand-in translator: letters outside placeholders upper-cased):
  // the kept words stay, the words around and inside are translated, every tag stays.
  auto upper = [](const std::vector<std::string>& units) -> Expected<std::vector<std::vector<std::string>>> {
    std::vector<std::vector<std::string>> out;
    for (const std::string& u : units) {
      std::string t;
      bool holder = false;
      for (char c : u) {
        holder = c == '{' ? true : c == '}' ? false : holder;
        t.push_back(holder ? c : static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
      }
      out.push_back({t});
    }
    return out;
  };
  const std::function<Expected<std::vector<std::vector<AlignedText>>>(const std::vector<std::string>&)> none;
  auto out =
      translate_html({"<p>Click <span translate=\"no\">Save <span translate=\"yes\">all</span> files</span> "
                      "now.</p><div translate=\"no\">Brand <em translate=\"yes\">Tagline</em></div>"},
                     true, upper, none);
  ASSERT_TRUE(out.has_value()) << out.status().to_string();
  EXPECT_EQ(out.value()[0][0],
            "<p>CLICK <span translate=\"no\">Save <span translate=\"yes\">ALL</span> files</span> NOW.</p>"
            "<div translate=\"no\">Brand <em translate=\"yes\">TAGLINE</em></div>");
}

TEST(HtmlNoTranslate, KeyboardInputAndOtherLanguagesAreKept) {
  using Strings = std::vector<std::string>;
  const std::string doc =
      "<html lang=\"de\"><body lang=\"fr\"><p>Type <kbd>sudo <kbd>apt</kbd> update</kbd> and "
      "<samp>Done.</samp></p>"
      "<blockquote lang=\"fr-CA\">Je pense, donc je suis.</blockquote><p lang=\"en-GB\">Colour.</p>"
      "<p lang=\"\">Empty.</p><p lang=\"und\">Unknown.</p><p xml:lang=\"de\" translate=\"yes\">Asked.</p>"
      "<q lang=\"la\">Carpe diem</q></body></html>";
  // With the source language: another language's elements are kept (not the root's or
  // the body's: a page's template often names the wrong one).
  EXPECT_EQ(texts_of(segment_html(doc, "en")),
            (Strings{"Type", "and", "Colour.", "Empty.", "Unknown.", "Asked."}));
  // Without it, only kbd and samp.
  EXPECT_EQ(texts_of(segment_html(doc)), (Strings{"Type", "and", "Je pense, donc je suis.", "Colour.",
                                                  "Empty.", "Unknown.", "Asked.", "Carpe diem"}));
  const Segmented seg = segment_html(doc, "en");
  const std::vector<InlineRun> runs = inline_runs(seg, same);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].source, "Type {tag1} and {tag2}");
}

TEST(HtmlNoTranslate, InlineKeptElementIsOnePlaceholderOfItsSentence) {
  const Segmented doc = segment_html(
      "<p>Click <span translate=\"no\">Save <b>All</b></span> to continue.</p>"
      "<li><code>ls -l</code> lists files.</li><p>Press <b>Enter</b>.</p>");
  const std::vector<InlineRun> runs = inline_runs(doc, same);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_TRUE(runs[0].verbatim);
  EXPECT_EQ(runs[0].source, "Click {tag1} to continue.");
  EXPECT_TRUE(runs[0].element.empty());
  EXPECT_TRUE(runs[1].verbatim);  // one text node beside kept code is a run too
  EXPECT_EQ(runs[1].source, "{tag1} lists files.");
  EXPECT_FALSE(runs[2].verbatim);
  std::string a, b;
  ASSERT_TRUE(place_inline_tags(runs[0], "Klicken Sie auf {tag1}, um fortzufahren.", &a));
  EXPECT_EQ(a, "Klicken Sie auf <span translate=\"no\">Save <b>All</b></span>, um fortzufahren.");
  ASSERT_TRUE(place_inline_tags(runs[1], "{tag1} listet Dateien auf.", &b));
  EXPECT_EQ(b, "<code>ls -l</code> listet Dateien auf.");
  // A lost placeholder is refused: the text nodes are then translated alone, the kept
  // element still in place.
  std::string c;
  EXPECT_FALSE(place_inline_tags(runs[0], "Klicken Sie, um fortzufahren.", &c));
  EXPECT_EQ(reassemble_runs(doc, runs, {"", b, ""},
                            {"Klicken", "fortfahren.", "x",
                             "Dr\xC3\xBC"
                             "cken",
                             "Eingabe", "."}),
            "<p>Klicken <span translate=\"no\">Save <b>All</b></span> fortfahren.</p>"
            "<li><code>ls -l</code> listet Dateien auf.</li><p>Dr\xC3\xBC"
            "cken <b>Eingabe</b>.</p>");
}

TEST(HtmlCharset, DeclaredEncodings) {
  EXPECT_EQ(declared_html_charset("<html><head><meta charset=\"ISO-8859-1\"></head>"), "iso-8859-1");
  EXPECT_EQ(declared_html_charset("<META CHARSET=windows-1252>"), "windows-1252");
  EXPECT_EQ(declared_html_charset("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=Latin1\">"),
            "latin1");
  EXPECT_EQ(declared_html_charset("<meta content='text/html;charset=\"koi8-r\"' http-equiv='content-type'>"),
            "koi8-r");
  EXPECT_EQ(declared_html_charset("<?xml version=\"1.0\" encoding=\"ISO-8859-15\"?><html>"), "iso-8859-15");
  EXPECT_EQ(declared_html_charset("\xEF\xBB\xBF<meta charset=\"iso-8859-1\">"), "utf-8");  // the BOM wins
  EXPECT_EQ(declared_html_charset("\xFF\xFE<\0p\0>\0"), "utf-16le");
  EXPECT_EQ(declared_html_charset("<meta name=\"charset\" content=\"x\"><p>charset=latin1</p>"), "");
  EXPECT_EQ(declared_html_charset("<p>nothing</p>"), "");
  // Only the first 1024 bytes count, as a browser's prescan.
  EXPECT_EQ(declared_html_charset(std::string(1100, ' ') + "<meta charset=\"latin1\">"), "");
}

TEST(HtmlCharset, LegacyPagesAreReadAndWrittenInTheirEncoding) {
  // A stand-in translator: "kitchen" becomes "Küche", "euro" "€", "snowman" "☃".
  auto fake = [](const std::vector<std::string>& units) -> Expected<std::vector<std::vector<std::string>>> {
    std::vector<std::vector<std::string>> out;
    for (std::string u : units) {
      for (auto [from, to] : {std::pair<std::string, std::string>{"kitchen",
                                                                  "K\xC3\xBC"
                                                                  "che"},
                              {"euro", "\xE2\x82\xAC"},
                              {"snowman", "\xE2\x98\x83"}})
        for (size_t at; (at = u.find(from)) != std::string::npos;) u.replace(at, from.size(), to);
      out.push_back({u});
    }
    return out;
  };
  auto one = [&](const std::string& html) {
    auto r = translate_html({html}, true, fake);
    return r.has_value() ? r.value()[0][0] : "error: " + r.status().message();
  };
  // Latin-1 bytes (caf\xE9) under a Latin-1 declaration: decoded, and the translation
  // written back in Latin-1 (ü as the byte 0xFC), windows-1252's € as 0x80, what it
  // cannot hold as a reference; the rest of the page byte for byte.
  EXPECT_EQ(one("<meta charset=\"iso-8859-1\"><p title=\"caf\xE9\">The caf\xE9 kitchen, euro, snowman.</p>"),
            "<meta charset=\"iso-8859-1\"><p title=\"caf\xE9\">The caf\xE9 K\xFC"
            "che, \x80, &#9731;.</p>");
  // A page of entities under a Latin-1 declaration (all its bytes ASCII): written in
  // ASCII, every other character a reference (right whatever the page is read as).
  EXPECT_EQ(one("<meta charset=\"iso-8859-1\"><p>The caf&eacute; kitchen.</p>"),
            "<meta charset=\"iso-8859-1\"><p>The caf&#233; K&#252;che.</p>");
  // Text that is UTF-8 already (a string from JSON, Python or C) is not converted,
  // whatever its <meta> says; nor is a page that declares UTF-8 or nothing.
  EXPECT_EQ(one("<meta charset=\"iso-8859-1\"><p>The caf\xC3\xA9 kitchen.</p>"),
            "<meta charset=\"iso-8859-1\"><p>The caf\xC3\xA9 K\xC3\xBC"
            "che.</p>");
  EXPECT_EQ(one("<meta charset=\"utf-8\"><p>The caf&eacute; kitchen.</p>"),
            "<meta charset=\"utf-8\"><p>The caf\xC3\xA9 K\xC3\xBC"
            "che.</p>");
  EXPECT_EQ(one("<p>kitchen \xC3\xA9</p>"),
            "<p>K\xC3\xBC"
            "che \xC3\xA9</p>");  // nothing declared, UTF-8: as it is
  // Nothing declared and not UTF-8: a legacy page, read and written as windows-1252.
  EXPECT_EQ(one("<p>kitchen \xE9 snowman</p>"),
            "<p>K\xFC"
            "che \xE9 &#9731;</p>");
  // A UTF-16 page (Windows' "Unicode"): read by its byte order mark, written back in it.
  const auto utf16 = [](std::string_view utf8, bool big) {
    return encode_text(utf8, {big ? TextEncoding::kUtf16Be : TextEncoding::kUtf16Le, "utf-16", true})
        .value()
        .bytes;
  };
  for (bool big : {false, true})
    EXPECT_EQ(one(utf16("<meta charset=\"utf-16\"><p>The kitchen \xE2\x98\x83 \xF0\x9F\x8E\x89.</p>", big)),
              utf16("<meta charset=\"utf-16\"><p>The K\xC3\xBC"
                    "che \xE2\x98\x83 \xF0\x9F\x8E\x89.</p>",
                    big));
  // An encoding edgemt cannot read: a clear error, naming it.
  const std::string bogus = one("<meta charset=\"x-no-such\"><p>The caf\xE9.</p>");
  EXPECT_NE(bogus.find("x-no-such"), std::string::npos) << bogus;
  EXPECT_NE(bogus.find("UTF-8"), std::string::npos) << bogus;
  // Every byte of a windows-1252 page comes back as it was where nothing is translated.
  std::string all = "<meta charset=\"windows-1252\"><pre>";
  for (int b = 1; b < 256; ++b)
    if (b != '<' && b != '&') all.push_back(static_cast<char>(b));
  all += "</pre>";
  EXPECT_EQ(one(all), all);
#if EDGEMT_HAVE_ICU
  // Other encodings through ICU: ISO-8859-15's € is 0xA4; KOI8-R has no ü.
  EXPECT_EQ(one("<meta charset=\"iso-8859-15\"><p>5 \xA4 kitchen \xE9</p>"),
            "<meta charset=\"iso-8859-15\"><p>5 \xA4 K\xFC"
            "che \xE9</p>");
  EXPECT_EQ(one("<meta charset=\"koi8-r\"><p>\xC1 kitchen</p>"),
            "<meta charset=\"koi8-r\"><p>\xC1 K&#252;che</p>");
  // Bytes that are not in the declared encoding (Shift_JIS cut after a lead byte).
  const std::string cut = one("<meta charset=\"shift_jis\"><p>kitchen \x82</p>");
  EXPECT_NE(cut.find("not in it"), std::string::npos) << cut;
#endif
}

TEST(TextEncoding, ByteOrderMarksAndLabels) {
  const auto bom = [](std::string_view b) {
    auto e = encoding_from_bom(b);
    return e ? e->name + (e->bom ? "+bom" : "") : std::string("none");
  };
  EXPECT_EQ(bom("\xEF\xBB\xBFx"), "utf-8+bom");
  EXPECT_EQ(bom("\xFF\xFEx\0"), "utf-16le+bom");
  EXPECT_EQ(bom("\xFE\xFF\0x"), "utf-16be+bom");
  EXPECT_EQ(bom(std::string_view("\xFF\xFE\0\0x\0\0\0", 8)), "utf-32le+bom");
  EXPECT_EQ(bom(std::string_view("\0\0\xFE\xFF", 4)), "utf-32be+bom");
  EXPECT_EQ(bom("plain"), "none");
  EXPECT_EQ(bom(""), "none");
  for (auto [label, name] : {std::pair{" UTF-8 ", "utf-8"},
                             {"Latin1", "windows-1252"},
                             {"ISO-8859-1", "windows-1252"},
                             {"cp1252", "windows-1252"},
                             {"utf-16le", "utf-16le"},
                             {"UTF-16", "utf-16"},
                             {"utf-32be", "utf-32be"}}) {
    auto e = find_text_encoding(label);
    ASSERT_TRUE(e.has_value()) << label;
    EXPECT_EQ(e.value().name, name) << label;
  }
  EXPECT_TRUE(find_text_encoding("UTF-16").value().bom);  // written with a mark
  EXPECT_FALSE(find_text_encoding("utf-16le").value().bom);
  for (const char* bad : {"x-no-such", "", "utf-9"}) {
    auto e = find_text_encoding(bad);
    ASSERT_FALSE(e.has_value()) << bad;
    EXPECT_NE(e.status().message().find(std::string("'") + bad + "'"), std::string::npos)
        << e.status().message();
  }
  // Text that says nothing: its mark, else UTF-8 where it is, else windows-1252.
  EXPECT_EQ(guess_text_encoding("K\xC3\xBC"
                                "che")
                .name,
            "utf-8");
  EXPECT_EQ(guess_text_encoding("K\xFC"
                                "che")
                .name,
            "windows-1252");
  EXPECT_EQ(guess_text_encoding("\xFE\xFF\0K").name, "utf-16be");
  EXPECT_TRUE(guess_text_encoding("\xFE\xFF\0K").bom);
}

TEST(TextEncoding, RoundTripsAndMalformedInput) {
  // Every character survives UTF-16 and UTF-32 both ways, astral ones as surrogate pairs.
  const std::string text =
      "A K\xC3\xBC"
      "che \xE2\x82\xAC \xE2\x98\x83 \xF0\x9F\x8E\x89 \xE6\x97\xA5\r\n";
  for (auto kind :
       {TextEncoding::kUtf16Le, TextEncoding::kUtf16Be, TextEncoding::kUtf32Le, TextEncoding::kUtf32Be})
    for (bool bom : {false, true}) {
      const TextEncoding e{kind, "x", bom};
      const EncodedText enc = encode_text(text, e).value();
      EXPECT_EQ(enc.unencodable, 0u);
      const size_t unit = kind == TextEncoding::kUtf16Le || kind == TextEncoding::kUtf16Be ? 2 : 4;
      EXPECT_EQ(enc.bytes.size(), (bom ? unit : 0) + (unit == 2 ? 18 : 17) * unit) << kind;
      EXPECT_EQ(encoding_from_bom(enc.bytes).has_value(), bom);
      const DecodedText dec = decode_text(enc.bytes, e).value();
      EXPECT_EQ(dec.utf8, text) << kind << bom;
      EXPECT_EQ(dec.bom, bom);
      EXPECT_EQ(dec.malformed, 0u);
    }
  EXPECT_EQ(encode_text("A", {TextEncoding::kUtf16Le, "utf-16le", false}).value().bytes,
            std::string("A\0", 2));
  EXPECT_EQ(encode_text("A", {TextEncoding::kUtf16Be, "utf-16be", false}).value().bytes,
            std::string("\0A", 2));
  // "utf-16" reads a big-endian mark too.
  const TextEncoding utf16 = find_text_encoding("utf-16").value();
  EXPECT_EQ(decode_text(std::string("\xFE\xFF\0H\0i", 6), utf16).value().utf8, "Hi");
  EXPECT_EQ(decode_text(std::string("\xFF\xFEH\0i\0", 6), utf16).value().utf8, "Hi");
  // A lone surrogate, a cut last unit: U+FFFD each, counted, the first's offset kept.
  const DecodedText bad = decode_text(std::string("a\0\x00\xD8"
                                                  "b\0c",
                                                  7),
                                      {TextEncoding::kUtf16Le, "utf-16le", false})
                              .value();
  EXPECT_EQ(bad.utf8,
            "a\xEF\xBF\xBD"
            "b\xEF\xBF\xBD");
  EXPECT_EQ(bad.malformed, 2u);
  EXPECT_EQ(bad.first_malformed, 2u);
  const DecodedText big32 =
      decode_text(std::string("\0\x11\0\0", 4), {TextEncoding::kUtf32Be, "utf-32be", false}).value();
  EXPECT_EQ(big32.utf8, "\xEF\xBF\xBD");  // past U+10FFFF
  EXPECT_EQ(big32.malformed, 1u);
  // Malformed UTF-8 is counted where it is, and kept as it is.
  const DecodedText u8 = decode_text("\xEF\xBB\xBFok \xFC!", {}).value();
  EXPECT_EQ(u8.utf8, "ok \xFC!");
  EXPECT_TRUE(u8.bom);
  EXPECT_EQ(u8.malformed, 1u);
  EXPECT_EQ(u8.first_malformed, 6u);

  // windows-1252: every byte is a character and comes back as it was.
  const TextEncoding cp1252 = find_text_encoding("latin1").value();
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  const DecodedText d = decode_text(all, cp1252).value();
  EXPECT_EQ(d.malformed, 0u);
  EXPECT_TRUE(is_valid_utf8(d.utf8));
  EXPECT_EQ(encode_text(d.utf8, cp1252).value().bytes, all);
  EXPECT_EQ(decode_text("\x80 \x93x\x94", cp1252).value().utf8, "\xE2\x82\xAC \xE2\x80\x9Cx\xE2\x80\x9D");
  // What it cannot hold: "?" or a reference, counted.
  const EncodedText q = encode_text(
                            "\xE2\x98\x83 K\xC3\xBC"
                            "che \xF0\x9F\x8E\x89",
                            cp1252)
                            .value();
  EXPECT_EQ(q.bytes,
            "? K\xFC"
            "che ?");
  EXPECT_EQ(q.unencodable, 2u);
  EXPECT_EQ(encode_text("\xE2\x98\x83", cp1252, Unencodable::kReference).value().bytes, "&#9731;");
#if EDGEMT_HAVE_ICU
  const TextEncoding latin9 = find_text_encoding("ISO-8859-15").value();
  EXPECT_EQ(latin9.kind, TextEncoding::kIcu);
  EXPECT_EQ(decode_text("5 \xA4", latin9).value().utf8, "5 \xE2\x82\xAC");
  EXPECT_EQ(encode_text("5 \xE2\x82\xAC", latin9).value().bytes, "5 \xA4");
  const EncodedText koi = encode_text("\xD0\xB0 \xC3\xBC", find_text_encoding("koi8-r").value()).value();
  EXPECT_EQ(koi.bytes, "\xC1 ?");
  EXPECT_EQ(koi.unencodable, 1u);
  const DecodedText cut = decode_text("ab \x82", find_text_encoding("shift_jis").value()).value();
  EXPECT_EQ(cut.malformed, 1u);
  EXPECT_EQ(cut.utf8.substr(0, 3), "ab ");
#endif
}

TEST(Csv, CellsWithWordsAreTheUnits) {
  const std::string text =
      "id,name,description,price,updated\r\n"
      "app.title,Open file,\"Opens a file from the disk, or from the network.\",12.50,2024-01-05\r\n"
      "btn_ok,Cancel,\"The file could not be opened.\nPlease try again.\",0,2024-02-01\r\n"
      "SKU42,  Save as  ,\"He said \"\"hello\"\".\",,\r\n"
      "user@example.org,camelCase,\xE2\x82\xAC 5,-,\"\"\r\n";
  const CsvDocument doc = CsvDocument::parse(text);
  EXPECT_EQ(doc.delimiter(), ',');
  EXPECT_EQ(doc.units(),
            (std::vector<std::string>{"id", "name", "description", "price", "updated", "Open file",
                                      "Opens a file from the disk, or from the network.", "Cancel",
                                      "The file could not be opened.\nPlease try again.", "Save as",
                                      "He said \"hello\"."}));
  EXPECT_EQ(doc.render(doc.units()), text);
  // Translations go where the cells were: spaces kept, quotes where they were or where
  // the translation needs them (a comma, a quote), "" inside.
  std::vector<std::string> t = doc.units();
  t[5] = "Datei, \"neu\"";
  t[9] = "Speichern unter";
  t[10] = "Er sagte \"Hallo\".";
  const std::string out = doc.render(t);
  EXPECT_NE(out.find("app.title,\"Datei, \"\"neu\"\"\",\"Opens"), std::string::npos) << out;
  EXPECT_NE(out.find("SKU42,  Speichern unter  ,\"Er sagte \"\"Hallo\"\".\",,\r\n"), std::string::npos)
      << out;
}

TEST(Csv, DelimitersAndOddFiles) {
  // ';' (Excel in German: the decimal comma takes ','), tabs, '|'.
  const CsvDocument semi = CsvDocument::parse("Name;Beschreibung;Preis\nDatei;Schnell, sicher.;12,50\n");
  EXPECT_EQ(semi.delimiter(), ';');
  EXPECT_EQ(semi.units(),
            (std::vector<std::string>{"Name", "Beschreibung", "Preis", "Datei", "Schnell, sicher."}));
  EXPECT_EQ(CsvDocument::parse("a\tb\tc\nx\ty, z\tw\n").delimiter(), '\t');
  EXPECT_EQ(CsvDocument::parse("a|b\nc|d\n").delimiter(), '|');
  EXPECT_EQ(CsvDocument::parse("One column\nof text\n").units(),
            (std::vector<std::string>{"One column", "of text"}));
  // A translation with the delimiter in an unquoted cell gets quotes.
  const CsvDocument one = CsvDocument::parse("Hello;World\n");
  EXPECT_EQ(one.render({"Hallo; du", "Welt"}), "\"Hallo; du\";Welt\n");
  // Excel's byte order mark stays first and out of the cells; an unclosed quote and
  // text after a closing quote are kept as they are; nothing is lost.
  for (const std::string& s :
       {std::string("\xEF\xBB\xBFName,Text\nA,B\n"), std::string("a,\"never closed\nb,c"),
        std::string("x,\"quoted\" tail,y\n"), std::string(",,\n\n,\r\n"), std::string(""),
        std::string("\"\"\"\",\"a\"\"b\"\n"), std::string("Monitor,5\" screen,x\n")}) {
    const CsvDocument d = CsvDocument::parse(s);
    EXPECT_EQ(d.render(d.units()), s);
    for (const std::string& u : d.units()) EXPECT_EQ(u.find("\xEF\xBB\xBF"), std::string::npos) << u;
  }
  EXPECT_EQ(CsvDocument::parse("x,\"quoted\" tail,y\n").units(), (std::vector<std::string>{"x", "y"}));
}

// A translation table (Godot's "keys,en,de"): the source language's column is read, its
// translations go in the target's column where empty (or a new one), the header and the
// rest as they are.
// A table whose header names its languages by name, in English or in the language itself.
TEST(Csv, TranslationTablesNamedByLanguageNames) {
  const CsvDocument english = CsvDocument::parse("Key;ENGLISH\nquit;Quit the game\n", "en", "de");
  EXPECT_EQ(english.source_column(), 1u);
  EXPECT_EQ(english.target_column(), 2u);
  EXPECT_EQ(english.render({"Spiel beenden"}), "Key;ENGLISH;German\nquit;Quit the game;Spiel beenden\n");
  const CsvDocument native = CsvDocument::parse(
      "id,Deutsch,Fran\xC3\xA7"
      "ais\n1,Hallo Welt,\n",
      "de", "en");
  EXPECT_EQ(native.source_column(), 1u);
  EXPECT_EQ(native.target_column(), 3u);
  EXPECT_EQ(native.render({"Hello world"}),
            "id,Deutsch,Fran\xC3\xA7"
            "ais,English\n1,Hallo Welt,,Hello world\n");
  const CsvDocument both = CsvDocument::parse("English,German\nOpen,\n", "en", "de");
  EXPECT_EQ(both.target_column(), 1u);
  EXPECT_EQ(both.render({"\xC3\x96"
                         "ffnen"}),
            "English,German\nOpen,\xC3\x96"
            "ffnen\n");
  // No column names the source language: every cell with words, in place.
  const CsvDocument none = CsvDocument::parse("Name,Notes\nAnna,Likes tea\n", "en", "de");
  EXPECT_EQ(none.source_column(), SIZE_MAX);
  EXPECT_EQ(language_named("deutsch")->code, "de");
  EXPECT_EQ(language_named("Fran\xC3\x87"
                           "AIS")
                ->code,
            "fr");
  EXPECT_EQ(language_named("Klingon"), nullptr);
  EXPECT_EQ(language_name_of("pt-BR")->english, "Portuguese");
}

TEST(Csv, TranslationTablesFillTheTargetLanguagesColumn) {
  const std::string godot =
      "keys,en,de,fr\r\n"
      "GREET,\"Hello, friend!\",,Bonjour\r\n"
      "QUIT,Quit,Beenden,Quitter\r\n"
      "EMPTY,,,\r\n"
      "SHORT,Open file\r\n"
      "\r\n"
      "ID,btn_ok,,\r\n";
  const CsvDocument doc = CsvDocument::parse(godot, "en", "de");
  EXPECT_EQ(doc.source_column(), 1u);
  EXPECT_EQ(doc.target_column(), 2u);
  EXPECT_EQ(doc.units(), (std::vector<std::string>{"Hello, friend!", "Open file"}));
  EXPECT_EQ(doc.render({"Hallo, Freund!",
                        "Datei \xC3\xB6"
                        "ffnen"}),
            "keys,en,de,fr\r\n"
            "GREET,\"Hello, friend!\",\"Hallo, Freund!\",Bonjour\r\n"
            "QUIT,Quit,Beenden,Quitter\r\n"
            "EMPTY,,,\r\n"
            "SHORT,Open file,Datei \xC3\xB6"
            "ffnen\r\n"
            "\r\n"
            "ID,btn_ok,,\r\n");
  // Without translations the target's cells stay empty (a short row gets its cell).
  std::string same = godot;
  same.replace(same.find("SHORT,Open file"), 15, "SHORT,Open file,");
  EXPECT_EQ(doc.render({}), same);
  // No column for the target language: a new last one, headed with its name; a region
  // subtag or a POSIX name matches its language; the target's column may come first.
  const CsvDocument added =
      CsvDocument::parse("id;en_US;comment\nok;Save the file;x\nk2;Print\n", "en", "de");
  EXPECT_EQ(added.delimiter(), ';');
  EXPECT_EQ(added.target_column(), 3u);
  EXPECT_EQ(added.render({"Datei speichern", "Drucken"}),
            "id;en_US;comment;de\nok;Save the file;x;Datei speichern\nk2;Print;;Drucken\n");
  const CsvDocument first = CsvDocument::parse("DE-de,EN-gb,en\n,Colour,Color\n", "en_US.UTF-8", "de");
  EXPECT_EQ(first.source_column(), 1u);
  EXPECT_EQ(first.target_column(), 0u);
  EXPECT_EQ(first.render({"Farbe"}), "DE-de,EN-gb,en\nFarbe,Colour,Color\n");
  // A quote never closed runs to the file's end: nothing goes after it.
  for (const char* open : {"keys,en\nA,Hello,\"x\n", "keys,en,de\nA,Hello,\""}) {
    const CsvDocument d = CsvDocument::parse(open, "en", "de");
    EXPECT_TRUE(d.units().empty()) << open;
    EXPECT_TRUE(d.render({}).ends_with(std::string(open).substr(std::string(open).find("\nA,")))) << open;
  }
  // A header that names no source language column: every cell with words, in place.
  for (const auto& [text, from, to] : {std::tuple{"name,description\nOpen,Opens a file\n", "en", "de"},
                                       {"keys,en\nA,Hello\n", "fr", "de"},
                                       {"keys,en\nA,Hello\n", "en", "en-GB"},
                                       {"keys,en\nA,Hello\n", "en", ""}}) {
    const CsvDocument d = CsvDocument::parse(text, from, to);
    EXPECT_EQ(d.source_column(), SIZE_MAX) << text << from << to;
    EXPECT_EQ(d.units(), CsvDocument::parse(text).units()) << text;
  }
}

TEST(Json, StringValuesWithWordsAreTheUnits) {
  const std::string text =
      "{\n  \"$schema\": \"https://example.com/s.json\",\n  \"app\": {\n    \"title\": \"Open file\",\n"
      "    \"greeting\": \"Hello, {{name}}!\",\n    \"id\": \"main window\",\n    \"icon\": "
      "\"images/logo.png\",\n"
      "    \"buttons\": [\"Cancel\", \" Save as \", \"OK\", \"btn_ok\"],\n    \"n\": -1.5e3, \"on\": true, "
      "\"x\": null,\n"
      "    \"quote\": \"He said \\\"hi\\\".\\nBye.\", \"user_id\": \"the admin\", \"caf\xC3\xA9\": "
      "\"Caf\xC3\xA9 open\"\n"
      "  }\n}\n";
  auto doc = JsonDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  EXPECT_EQ(doc.value().units(),
            (std::vector<std::string>{"Open file", "Hello, {{name}}!", "Cancel", "Save as", "OK",
                                      "He said \"hi\".\nBye.", "Caf\xC3\xA9 open"}));
  EXPECT_EQ(doc.value().render(doc.value().units()), text);  // nothing escaped otherwise
  std::vector<std::string> t = doc.value().units();
  t[0] =
      "Datei \"\xC3\xB6"
      "ffnen\"\t\\";
  t[3] = "Speichern";
  const std::string out = doc.value().render(t);
  EXPECT_NE(out.find("\"title\": \"Datei \\\"\xC3\xB6"
                     "ffnen\\\"\\t\\\\\","),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("\" Speichern \""), std::string::npos) << out;
  // A file that is all ASCII and escapes its other characters gets its translations so.
  auto ascii = JsonDocument::parse("{\"a\": \"Caf\\u00e9 open\"}");
  ASSERT_TRUE(ascii.has_value());
  EXPECT_EQ(ascii.value().units(), std::vector<std::string>{"Caf\xC3\xA9 open"});
  EXPECT_EQ(ascii.value().render({"K\xC3\xBC"
                                  "che \xF0\x9F\x8E\x89"}),
            "{\"a\": \"K\\u00fcche \\ud83c\\udf89\"}");
  // A byte order mark, a bare string, escapes of every kind.
  auto bom = JsonDocument::parse("\xEF\xBB\xBF[\"Hello world\", \"\\u0048i \\ud83c\\udf89 \\/ \\b\"]");
  ASSERT_TRUE(bom.has_value());
  EXPECT_EQ(bom.value().units(), (std::vector<std::string>{"Hello world", "Hi \xF0\x9F\x8E\x89 / \b"}));
  EXPECT_EQ(bom.value().render({"Hallo Welt", "x"}).substr(0, 18), "\xEF\xBB\xBF[\"Hallo Welt\", ");
  EXPECT_EQ(JsonDocument::parse("\"Just a sentence.\"").value().units(),
            std::vector<std::string>{"Just a sentence."});
}

// ICU messages: each leaf a unit with the text around its argument moved in, the number
// as {#}; the translation in ICU's syntax again, literal braces, '#' and apostrophes quoted
// where they must be, a plural with the target language's categories.
TEST(IcuMessage, LeavesAreSentencesAndComeBackInItsSyntax) {
  auto m = IcuMessage::parse(
      "You have {count, plural, =0 {no messages} one {# message} other {# messages}} "
      "from {name}.");
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->units(), (std::vector<std::string>{"You have no messages from {name}.",
                                                  "You have {#} message from {name}.",
                                                  "You have {#} messages from {name}."}));
  const std::vector<std::string> de{"Keine Nachrichten von {name}.", "{#} Nachricht von {name}.",
                                    "{#} Nachrichten von {name}."};
  EXPECT_EQ(m->render(de, "de"),
            "{count, plural, =0 {Keine Nachrichten von {name}.} one {# Nachricht von {name}.} other {# "
            "Nachrichten von {name}.}}");
  EXPECT_EQ(m->render(de, "ru"),
            "{count, plural, =0 {Keine Nachrichten von {name}.} one {# Nachricht von {name}.} few {# "
            "Nachrichten von {name}.} many {# Nachrichten von {name}.} other {# Nachrichten von {name}.}}");
  EXPECT_EQ(m->render(de, "ja"),
            "{count, plural, =0 {Keine Nachrichten von {name}.} other {# Nachrichten von {name}.}}");
  EXPECT_EQ(m->render({}),
            "You have {count, plural, =0 {no messages} one {# message} other {# messages}} from {name}.");
  // Untranslated leaves keep the source's sentence.
  EXPECT_EQ(m->render({"", "x"}, "xx"),
            "{count, plural, =0 {You have no messages from {name}.} one {x} other {You have # messages from "
            "{name}.}}");

  // Nested select in plural; an offset; a simple argument with a style; layout kept.
  auto n = IcuMessage::parse(
      "{gender, select,\n  female {{n, plural, offset:1 one {She and {n, number} other} other {She and # "
      "others}}}\n"
      "  other {They}\n}");
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->units(),
            (std::vector<std::string>{"She and {n, number} other", "She and {#} others", "They"}));
  EXPECT_EQ(
      n->render({"Sie und {n, number} andere", "Sie und {#} andere", "Sie"}, "de"),
      "{gender, select,\n  female {{n, plural, offset:1 one {Sie und {n, number} andere} other {Sie und # "
      "andere}}}\n  other {Sie}\n}");

  // A selectordinal gets the language's ordinal categories: German's one ("1."), English's
  // four ("1st", "2nd", "3rd", "4th"); its explicit values stay.
  auto o = IcuMessage::parse(
      "{place, selectordinal, =1 {Winner} one {#st} two {#nd} few {#rd} other {#th}} place");
  ASSERT_TRUE(o.has_value());
  const std::vector<std::string> places{"Sieger", "{#}. Platz", "{#}. Platz", "{#}. Platz", "{#}. Platz"};
  EXPECT_EQ(o->render(places, "de"), "{place, selectordinal, =1 {Sieger} other {#. Platz}}");
  EXPECT_EQ(
      o->render(places, "en"),
      "{place, selectordinal, =1 {Sieger} one {#. Platz} two {#. Platz} few {#. Platz} other {#. Platz}}");
  auto o2 = IcuMessage::parse("{n, selectordinal, other {#.}}");
  ASSERT_TRUE(o2.has_value());
  EXPECT_EQ(o2->render({"#th"}, "en"),
            "{n, selectordinal, one {'#'th} two {'#'th} few {'#'th} other {'#'th}}");
  EXPECT_EQ(o2->render({"{#}th"}, "cy"),
            "{n, selectordinal, zero {#th} one {#th} two {#th} few {#th} many {#th} other {#th}}");

  // Quoting: literal text that ICU would read as syntax.
  auto q = IcuMessage::parse("{n, plural, one {It''s '{'one'}' #} other {'#' of # isn't '{n}'}}");
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->units(), (std::vector<std::string>{"It's {one} {#}", "# of {#} isn't {n}"}));
  const std::string back = q->render(q->units(), "en");
  EXPECT_EQ(back, "{n, plural, one {It's '{'one'}' #} other {'#' of # isn't '{'n'}'}}");
  auto again = IcuMessage::parse(back);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->units(), q->units());
  // An apostrophe before what would start a quote, and at a leaf's end, is doubled.
  auto a = IcuMessage::parse("{n, select, other {x}}");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->render({"the users' {brace"}), "{n, select, other {the users' '{'brace}}");
  EXPECT_EQ(a->render({"O'{x"}), "{n, select, other {O'''{'x}}");
  EXPECT_EQ(IcuMessage::parse(a->render({"O'{x"}))->units(), std::vector<std::string>{"O'{x"});
  EXPECT_EQ(IcuMessage::parse(a->render({"the users' {brace"}))->units(),
            std::vector<std::string>{"the users' {brace"});
  EXPECT_EQ(a->render({"Chris'"}), "{n, select, other {Chris''}}");

  // Two choices side by side: the second, and the text after it, inside each branch of
  // the first, so that each leaf is a sentence; the first's '#' there is its {name}.
  auto two = IcuMessage::parse(
      "{n, plural, one {# file was} other {# files were}} moved to {m, plural, one {# folder} other {# "
      "folders}}.");
  ASSERT_TRUE(two.has_value());
  EXPECT_EQ(two->units(),
            (std::vector<std::string>{
                "{n} file was moved to {#} folder.", "{n} file was moved to {#} folders.",
                "{n} files were moved to {#} folder.", "{n} files were moved to {#} folders."}));
  EXPECT_EQ(
      two->render({"{n} Datei in {#} Ordner.", "{n} Datei in {#} Ordner.", "{n} Dateien in {#} Ordner.",
                   "{n} Dateien in {#} Ordner."},
                  "de"),
      "{n, plural, one {{m, plural, one {{n} Datei in # Ordner.} other {{n} Datei in # Ordner.}}} other "
      "{{m, plural, one {{n} Dateien in # Ordner.} other {{n} Dateien in # Ordner.}}}}");
  auto again2 = IcuMessage::parse(two->render(two->units(), "en"));
  ASSERT_TRUE(again2.has_value());
  EXPECT_EQ(again2->units(), two->units());
  // Three selects side by side, and a '#' beside a nested select.
  auto three =
      IcuMessage::parse("{a, select, x {A} other {B}}{b, select, other {C}} {c, select, other {D}}!");
  ASSERT_TRUE(three.has_value());
  EXPECT_EQ(three->units(), (std::vector<std::string>{"AC D!", "BC D!"}));
  auto beside = IcuMessage::parse("{n, plural, other {# {g, select, male {his} other {their}} files}}");
  ASSERT_TRUE(beside.has_value());
  EXPECT_EQ(beside->units(), (std::vector<std::string>{"{n} his files", "{n} their files"}));

  // Not messages to take apart: plain text and simple placeholders, broken syntax, no
  // "other", nesting past 8, a '#' of a plural with an offset that would move, choices
  // side by side that would be copied past a bound.
  std::string deep = "x";
  for (int i = 0; i < 9; ++i) deep = "{a, select, other {" + deep + "}}";
  std::string many;
  for (int i = 0; i < 12; ++i) many += "{a" + std::to_string(i) + ", select, x {x} other {y}} ";
  for (const std::string& no : {std::string("Hello {name}, {n, number} items"), std::string("plain"),
                                std::string("{n, plural, one {x}"), std::string("{n, plural, one {x} two}"),
                                std::string("{n, plural, one {x}}"), std::string("{, plural, other {x}}"),
                                deep, std::string("{n, plural, offset:1 other {# {g, select, other {x}}}}"),
                                std::string("{n, number, {x}"), many})
    EXPECT_FALSE(IcuMessage::parse(no).has_value()) << no;
  deep = "x";
  for (int i = 0; i < 8; ++i) deep = "{a, select, other {" + deep + "}}";
  EXPECT_TRUE(IcuMessage::parse(deep).has_value());
  // No blow-up: text moved into thousands of leaves is not taken apart, and nested plurals
  // that the language's categories would multiply keep the source's branches.
  std::string wide = std::string(20000, 'w') + " {a, select,";
  for (int i = 0; i < 2000; ++i) wide += " k" + std::to_string(i) + " {x}";
  EXPECT_FALSE(IcuMessage::parse(wide + " other {y}}").has_value());
  EXPECT_TRUE(IcuMessage::parse(wide.substr(19990) + " other {y}}").has_value());
  std::string nest = "x";
  for (int i = 0; i < 8; ++i) nest = "{n" + std::to_string(i) + ", plural, other {" + nest + "}}";
  auto nested = IcuMessage::parse(nest);
  ASSERT_TRUE(nested.has_value());
  EXPECT_EQ(nested->render({"y"}, "ar").size(), nest.size());
}

TEST(Json, IcuMessagesAreTranslatedLeafByLeaf) {
  const std::string text =
      "{\"inbox\": \"You have {count, plural, one {# new message} other {# new messages}}.\",\n"
      " \"hi\": \"Hello {name}!\",\n"
      " \"two\": \"{a, plural, one {One apple} other {# apples}} and {b, select, other {pears}}\",\n"
      " \"broken\": \"{n, plural, one {One apple}\"}\n";
  EXPECT_TRUE(IcuMessage::has_choice_argument("{ n ,select , other {x}}"));
  EXPECT_FALSE(IcuMessage::has_choice_argument("{n, number} {plural, x}"));
  auto doc = JsonDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  EXPECT_EQ(doc.value().units(),
            (std::vector<std::string>{"You have {#} new message.", "You have {#} new messages.",
                                      "Hello {name}!", "One apple and pears", "{a} apples and pears"}));
  EXPECT_EQ(doc.value().render({}), text);
  EXPECT_EQ(
      doc.value().render({"Sie haben {#} neue Nachricht.", "Sie haben {#} neue \"Nachrichten\".",
                          "Hallo {name}!", "Ein Apfel und Birnen", "{a} \u00c4pfel und Birnen"},
                         "pl"),
      "{\"inbox\": \"{count, plural, one {Sie haben # neue Nachricht.} few {Sie haben # neue "
      "\\\"Nachrichten\\\".} many {Sie haben # neue \\\"Nachrichten\\\".} other {Sie haben # neue "
      "\\\"Nachrichten\\\".}}\",\n \"hi\": \"Hallo {name}!\",\n"
      " \"two\": \"{a, plural, one {{b, select, other {Ein Apfel und Birnen}}} few {{b, select, other {{a} "
      "\u00c4pfel und Birnen}}} many {{b, select, other {{a} \u00c4pfel und Birnen}}} other {{b, select, "
      "other "
      "{{a} \u00c4pfel und Birnen}}}}\",\n"
      " \"broken\": \"{n, plural, one {One apple}\"}\n");
}

// i18next's JSON v3 plural keys ("x" and "x_plural"): into a language whose forms are
// other than those two, "x_0", "x_1", ... after "x_plural", each with the singular's
// translation where its example number is 1 and the language tells 1 from 2, else the
// plural's; forms the object has are not added again; into German or French, nothing.
TEST(Json, I18nextV3PluralKeysGetTheLanguagesForms) {
  const std::string text =
      "{\n  \"item\": \"One item\",\n  \"item_plural\": \"{{count}} items\",\n"
      "  \"day_plural\": \"{{count}} days\", \"day\": \"A day\", \"day_1\": \"x\",\n"
      "  \"lone_plural\": \"Lone plural\"\n}\n";
  auto doc = JsonDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  ASSERT_EQ(doc.value().units().size(), 6u);
  const std::vector<std::string> t{"Ein Element", "{{count}} Elemente", "{{count}} Tage", "Ein Tag", "y",
                                   "Einsam"};
  EXPECT_EQ(
      doc.value().render(t, "ru"),
      "{\n  \"item\": \"Ein Element\",\n  \"item_plural\": \"{{count}} Elemente\",\n"
      "  \"item_0\": \"Ein Element\",\n  \"item_1\": \"{{count}} Elemente\",\n"
      "  \"item_2\": \"{{count}} Elemente\",\n"
      "  \"day_plural\": \"{{count}} Tage\",\n  \"day_0\": \"Ein Tag\",\n  \"day_2\": \"{{count}} Tage\", "
      "\"day\": \"Ein Tag\", \"day_1\": \"y\",\n"
      "  \"lone_plural\": \"Einsam\"\n}\n");
  // Slovenian's singular form is its second; Japanese's one form takes the plural.
  const std::string sl = doc.value().render(t, "sl-SI");
  EXPECT_NE(sl.find("\"item_0\": \"{{count}} Elemente\",\n  \"item_1\": \"Ein Element\",\n"),
            std::string::npos)
      << sl;
  EXPECT_NE(sl.find("\"item_3\""), std::string::npos) << sl;
  const std::string ja = doc.value().render(t, "ja");
  EXPECT_NE(
      ja.find("\"item_plural\": \"{{count}} Elemente\",\n  \"item_0\": \"{{count}} Elemente\",\n  \"day"),
      std::string::npos)
      << ja;
  for (const char* language : {"de", "fr", "pt-BR", "en", "xx", ""})
    EXPECT_EQ(doc.value().render(t, language).find("item_0"), std::string::npos) << language;
  auto again = JsonDocument::parse(doc.value().render(t, "ar"));
  ASSERT_TRUE(again.has_value()) << again.status().message();
  EXPECT_EQ(again.value().units().size(), 6u + 6u + 5u);
}

// JSON v3 the other way: a Russian file's "x_0", "x_1", "x_2" (its forms for 1, 2 and
// 5) get "x" and "x_plural" into English or German (the translations of the singular and
// of the form for 5), and the forms a language with more has not into it (Arabic's for 0,
// 3, 11 and 100 take the form for 5; its 1 and 2 Russian's own). Where the file is in a
// language of the pair, or its forms are not as many as its language's, or "x" is there,
// nothing is added.
TEST(Json, I18nextV3NumberedFormsGetThePairInEnglish) {
  const std::string text =
      "{\n  \"item_0\": \"{{count}} файл\",\n  \"item_1\": \"{{count}} файла\",\n"
      "  \"item_2\": \"{{count}} файлов\",\n"
      "  \"step_0\": \"Первый шаг\", \"step_1\": \"Второй шаг\",\n"
      "  \"day\": \"День\", \"day_0\": \"{{count}} день\", \"day_1\": \"{{count}} дня\", "
      "\"day_2\": \"{{count}} дней\"\n}\n";
  auto doc = JsonDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  ASSERT_EQ(doc.value().units().size(), 9u);
  const std::vector<std::string> t{"{{count}} file", "{{count}} files", "{{count}} files",
                                   "First step",     "Second step",     "Day",
                                   "{{count}} day",  "{{count}} days",  "{{count}} days."};
  EXPECT_EQ(doc.value().render(t, "en", "ru"),
            "{\n  \"item_0\": \"{{count}} file\",\n  \"item_1\": \"{{count}} files\",\n"
            "  \"item_2\": \"{{count}} files\",\n  \"item\": \"{{count}} file\",\n"
            "  \"item_plural\": \"{{count}} files\",\n"
            "  \"step_0\": \"First step\", \"step_1\": \"Second step\",\n"
            "  \"day\": \"Day\", \"day_0\": \"{{count}} day\", \"day_1\": \"{{count}} days\", "
            "\"day_2\": \"{{count}} days.\"\n}\n");
  // Into Arabic: 0 -> the form for 5, 1 -> 1, 2 -> 2, 3, 11, 100 -> 5.
  std::vector<std::string> u = t;
  u[0] = "A";
  u[1] = "B";
  u[2] = "C";
  const std::string ar = doc.value().render(u, "ar", "ru-RU");
  EXPECT_NE(ar.find("\"item_2\": \"C\",\n  \"item_3\": \"C\",\n  \"item_4\": \"C\",\n  \"item_5\": \"C\",\n"),
            std::string::npos)
      << ar;
  EXPECT_EQ(ar.find("\"item\""), std::string::npos) << ar;
  EXPECT_EQ(ar.find("step_2"), std::string::npos) << ar;
  // A language with the same forms, an unknown or no source language, a source of the
  // pair: the file as translated.
  const std::string plain = doc.value().render(t, "en");
  for (const auto& [to, from] : std::vector<std::pair<const char*, const char*>>{
           {"uk", "ru"}, {"pl", "ru"}, {"en", ""}, {"en", "xx"}, {"de", "en"}, {"ru", "de"}})
    EXPECT_EQ(doc.value().render(t, to, from).size(), doc.value().render(t, to).size()) << to << " " << from;
  EXPECT_EQ(plain.find("\"item\""), std::string::npos) << plain;
  EXPECT_NE(doc.value().render(t, "de", "ru").find("\"item_plural\": \"{{count}} files\""),
            std::string::npos);
  // What it writes reads back: the English file's pair is JSON v3's, whose Russian forms
  // are there already.
  auto again = JsonDocument::parse(doc.value().render(t, "en", "ru"));
  ASSERT_TRUE(again.has_value()) << again.status().message();
  EXPECT_EQ(again.value().units().size(), 11u);
}

// i18next's plural keys: after "x_other", the target language's categories its object
// has not, with "x_other"'s translation, written as it is written; a lone "_other" key,
// an ordinal one, or a language without more categories: nothing added.
TEST(Json, I18nextPluralKeysGetTheLanguagesCategories) {
  const std::string text =
      "{\n  \"item_one\": \"One item\",\n  \"item_other\": \"{{count}} items\",\n"
      "  \"nested\": {\"day_one\":\"One day\",\"day_other\":\"{{count}} days\"},\n"
      "  \"place_ordinal_one\": \"{{count}}st place\",\n  \"place_ordinal_other\": \"{{count}}th place\",\n"
      "  \"color_other\": \"Another color\"\n}\n";
  auto doc = JsonDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  ASSERT_EQ(doc.value().units().size(), 7u);
  const std::vector<std::string> t{"Ein Element",     "{{count}} Elemente", "Ein Tag",     "{{count}} Tage",
                                   "Platz {{count}}", "{{count}}. Platz",   "Andere Farbe"};
  EXPECT_EQ(
      doc.value().render(t, "ru"),
      "{\n  \"item_one\": \"Ein Element\",\n  \"item_other\": \"{{count}} Elemente\",\n"
      "  \"item_few\": \"{{count}} Elemente\",\n  \"item_many\": \"{{count}} Elemente\",\n"
      "  \"nested\": {\"day_one\":\"Ein Tag\",\"day_other\":\"{{count}} Tage\",\"day_few\":\"{{count}} "
      "Tage\",\"day_many\":\"{{count}} Tage\"},\n"
      "  \"place_ordinal_one\": \"Platz {{count}}\",\n  \"place_ordinal_other\": \"{{count}}. Platz\",\n"
      "  \"color_other\": \"Andere Farbe\"\n}\n");
  const std::string de = doc.value().render(t, "de");
  EXPECT_EQ(de.find("_few"), std::string::npos) << de;
  // Into English the ordinal keys get English's ordinal categories ("2nd", "3rd").
  const std::string en = doc.value().render(t, "en");
  EXPECT_NE(
      en.find(
          "\"place_ordinal_other\": \"{{count}}. Platz\",\n  \"place_ordinal_two\": \"{{count}}. Platz\",\n"
          "  \"place_ordinal_few\": \"{{count}}. Platz\",\n"),
      std::string::npos)
      << en;
  EXPECT_EQ(en.find("item_few"), std::string::npos) << en;
  EXPECT_EQ(doc.value().render(t), doc.value().render(t, "xx"));
  // The result is JSON with the keys in it.
  auto again = JsonDocument::parse(doc.value().render(t, "ar"));
  ASSERT_TRUE(again.has_value()) << again.status().message();
  EXPECT_EQ(again.value().units().size(), 7u + 4u + 4u);
}

// Flutter's ARB files: "@key" metadata (descriptions, placeholders' examples) is for
// translators and tools, not the app's text: kept; "@@locale" becomes the translation's.
TEST(Json, ArbMetadataIsKeptAndTheLocaleIsTheTranslations) {
  const std::string arb =
      "{\n  \"@@locale\": \"en\",\n  \"helloWorld\": \"Hello World!\",\n"
      "  \"@helloWorld\": {\"description\": \"The conventional newborn programmer greeting\"},\n"
      "  \"newMessages\": \"You have {count} new messages\",\n"
      "  \"@newMessages\": {\"description\": \"How many messages\", \"placeholders\": {\"count\": "
      "{\"type\": \"int\", \"example\": \"forty two\"}}},\n"
      "  \"nested\": {\"@@locale\": \"en\", \"x\": \"Open the file\"}\n}\n";
  auto doc = JsonDocument::parse(arb);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  EXPECT_EQ(doc.value().units(),
            (std::vector<std::string>{"Hello World!", "You have {count} new messages", "Open the file"}));
  const std::string out = doc.value().render({"Hallo Welt!", "Sie haben {count} neue Nachrichten",
                                              "Datei \xC3\xB6"
                                              "ffnen"},
                                             "de");
  EXPECT_EQ(out,
            "{\n  \"@@locale\": \"de\",\n  \"helloWorld\": \"Hallo Welt!\",\n"
            "  \"@helloWorld\": {\"description\": \"The conventional newborn programmer greeting\"},\n"
            "  \"newMessages\": \"Sie haben {count} neue Nachrichten\",\n"
            "  \"@newMessages\": {\"description\": \"How many messages\", \"placeholders\": {\"count\": "
            "{\"type\": \"int\", \"example\": \"forty two\"}}},\n"
            "  \"nested\": {\"@@locale\": \"en\", \"x\": \"Datei \xC3\xB6"
            "ffnen\"}\n}\n");
  // Without a language the locale stays; untranslated, the file is as it was.
  EXPECT_EQ(doc.value().render({}), arb);
}

TEST(Json, InvalidDocumentsAreErrorsThatSayWhere) {
  for (auto [bad, what] : {std::pair{"{\"a\": \"x\",}", "line 1, column 11"},
                           {"{\n  \"a\": tru\n}", "line 2, column 8"},
                           {"[1, 2", "expected ',' or ']'"},
                           {"{\"a\" 1}", "expected ':'"},
                           {"\"tab\there\"", "control character"},
                           {"\"\\x\"", "bad escape"},
                           {"01", "text after"},
                           {"", "empty"},
                           {"{} {}", "text after"},
                           {"// comment\n{}", "unexpected character"}}) {
    auto d = JsonDocument::parse(bad);
    ASSERT_FALSE(d.has_value()) << bad;
    EXPECT_NE(d.status().message().find(what), std::string::npos) << bad << ": " << d.status().message();
  }
  // Deep nesting is refused, not a stack overflow.
  auto deep = JsonDocument::parse(std::string(100000, '['));
  ASSERT_FALSE(deep.has_value());
  EXPECT_NE(deep.status().message().find("nested deeper than 512"), std::string::npos)
      << deep.status().message();
  EXPECT_TRUE(JsonDocument::parse(std::string(500, '[') + std::string(500, ']')).has_value());
}

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

// CLDR's plural categories by language, as ICU (where the build has it) gives them.
TEST(PluralCategories, AreCldrs) {
  EXPECT_EQ(plural_categories("en"), kPluralOne | kPluralOther);
  EXPECT_EQ(plural_categories("ru_RU.UTF-8"), kPluralOne | kPluralFew | kPluralMany | kPluralOther);
  EXPECT_EQ(plural_categories("zh-Hant-TW"), kPluralOther);
  EXPECT_EQ(plural_categories("AR"), 63);
  EXPECT_EQ(plural_categories("fr-CA"), kPluralOne | kPluralMany | kPluralOther);
  for (const char* unknown : {"", "x", "xx", "e", "en1", "root", "toolongname", "tlh", "-de"})
    EXPECT_EQ(plural_categories(unknown), 0) << unknown;
  EXPECT_EQ(plural_category_name(kPluralFew), "few");
  EXPECT_EQ(plural_category_name(3), "");
  EXPECT_EQ(plural_category_named("many"), kPluralMany);
  EXPECT_EQ(plural_category_named("Many"), 0);
  EXPECT_EQ(ordinal_categories("en-GB"), kPluralOne | kPluralTwo | kPluralFew | kPluralOther);
  EXPECT_EQ(ordinal_categories("de"), kPluralOther);
  EXPECT_EQ(ordinal_categories("fr_CA"), kPluralOne | kPluralOther);
  EXPECT_EQ(ordinal_categories("tlh"), 0);
#if EDGEMT_TEST_HAVE_ICU_I18N
  int32_t n = 0;
  const icu::Locale* locales = icu::Locale::getAvailableLocales(n);
  std::set<std::string> languages{"iw", "in", "ji", "jw", "mo", "no", "sh", "tl"};
  for (int32_t i = 0; i < n; ++i)
    if (*locales[i].getLanguage() != '\0') languages.insert(locales[i].getLanguage());
  size_t checked = 0;
  for (const std::string& l : languages) {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::PluralRules> rules(icu::PluralRules::forLocale(icu::Locale(l.c_str()), status));
    ASSERT_TRUE(U_SUCCESS(status)) << l;
    std::unique_ptr<icu::StringEnumeration> keywords(rules->getKeywords(status));
    uint8_t want = 0;
    while (const char* k = keywords->next(nullptr, status)) want |= plural_category_named(k);
    EXPECT_EQ(plural_categories(l), want) << l;
    std::unique_ptr<icu::PluralRules> ordinal(
        icu::PluralRules::forLocale(icu::Locale(l.c_str()), UPLURAL_TYPE_ORDINAL, status));
    ASSERT_TRUE(U_SUCCESS(status)) << l;
    keywords.reset(ordinal->getKeywords(status));
    want = 0;
    while (const char* k = keywords->next(nullptr, status)) want |= plural_category_named(k);
    EXPECT_EQ(ordinal_categories(l), want) << l << " (ordinal)";
    ++checked;
  }
  EXPECT_GT(checked, 150u);
#endif
}

TEST(HtmlLanguage, NamedLanguagesBecomeTheTranslations) {
  auto marked = [](const std::string& html, std::string_view from, std::string_view to) {
    Segmented seg = segment_html(html);
    set_html_language(&seg, from, to);
    return joined(seg);
  };
  EXPECT_EQ(
      marked("<!DOCTYPE html><html lang=\"en\" xml:lang='en-US'><head>"
             "<meta http-equiv=\"Content-Language\" content=\"en\"><meta name=\"lang\" content=\"en\">"
             "</head><body><p lang=en-GB>Hi</p><q lang=\"fr\">Oui</q>"
             "<span lang=\"en\" translate=\"no\">Kept</span><div translate=\"no\"><p lang=\"en\">x</p></div>"
             "<pre lang=\"en\">a <b lang=\"en\">b</b></pre></body></html>",
             "en", "de"),
      "<!DOCTYPE html><html lang=\"de\" xml:lang='de'><head>"
      "<meta http-equiv=\"Content-Language\" content=\"de\"><meta name=\"lang\" content=\"en\">"
      "</head><body><p lang=\"de\">Hi</p><q lang=\"fr\">Oui</q>"
      "<span lang=\"en\" translate=\"no\">Kept</span><div translate=\"no\"><p lang=\"en\">x</p></div>"
      "<pre lang=\"de\">a <b lang=\"en\">b</b></pre></body></html>");
  // The root says the document's language even where it named another or none.
  EXPECT_EQ(marked("<HTML><body>x</body></HTML>", "en", "de"), "<HTML lang=\"de\"><body>x</body></HTML>");
  EXPECT_EQ(marked("<html dir=ltr lang=\"fr\">", "", "de"), "<html dir=ltr lang=\"de\">");
  // No target, or one that is not a language tag: nothing changes.
  EXPECT_EQ(marked("<html lang=\"en\">", "en", ""), "<html lang=\"en\">");
  EXPECT_EQ(marked("<html lang=\"en\">", "en", "de\"><x"), "<html lang=\"en\">");
  // A fragment without a root: only the elements in the source language.
  EXPECT_EQ(marked("<p lang=\"EN\">a</p><p>b</p>", "en", "de"), "<p lang=\"de\">a</p><p>b</p>");
}

}  // namespace

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

// ---- Markdown (TextFormat::kMarkdown) ----------------------------------------------

TEST(Markdown, InlineMarkupRoundTrips) {
  for (const char* md :
       {"plain text & <stuff>", "a **bold** and *it* and __b__ and _i_ word",
        "see [the guide](docs/install.md \"Title\") or [ref][x]", "![logo](img/a.png) after",
        "run `make *all*` now", "a \\*literal\\* star", "press <kbd>Ctrl</kbd>+<kbd>C</kbd>",
        "<https://example.org> and <span class=\"x\">y</span>", "2 * 3 * 4 and snake_case_name",
        "unclosed **bold and [link", "nested **bold *it* more** [a **b**](u)", "&amp; &copy; \"q\" 'a'"}) {
    std::vector<std::string> originals;
    const std::string html = markdown_inline_to_html(md, &originals);
    EXPECT_EQ(markdown_inline_from_html(html, originals), md) << html;
  }
  std::vector<std::string> o;
  EXPECT_EQ(markdown_inline_to_html("a **b** [c](d) `e<f>`", &o),
            "a <strong data-md=\"0\">b</strong> <a href=\"1\">c</a> `e&lt;f&gt;`");
}

TEST(Markdown, ProseIsTranslatedCodeAndMarkupKept) {
  const std::string doc =
      "---\ntitle: x\n---\n# Title #\n\nA paragraph with `code`.\n\n- item one\n- [ ] task\n1. first\n> "
      "quoted\n\n"
      "```sh\nmake install\n```\n\n    indented code\n\n<div>\nhtml block\n</div>\n\n"
      "| A | B |\n|---|:-:|\n| cell `x` | two |\n\n***\n\nSetext\n======\n\n[ref]: https://example.org\n";
  MarkdownDocument d = MarkdownDocument::parse(doc);
  const std::vector<std::string> want = {
      "Title", "A paragraph with `code`.", "item one", "task", "first", "quoted", "A", "B", "cell `x`", "two",
      "Setext"};
  EXPECT_EQ(d.units(), want);
  // Translated as themselves, the document comes back byte for byte (CRLF too).
  EXPECT_EQ(d.render(d.units()), doc);
  std::string crlf;
  for (char c : doc) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  MarkdownDocument dc = MarkdownDocument::parse(crlf);
  EXPECT_EQ(dc.units(), want);
  EXPECT_EQ(dc.render(dc.units()), crlf);
  // Translations go in place, markers kept.
  std::vector<std::string> t(want.size());
  for (size_t i = 0; i < t.size(); ++i) t[i] = std::string("T").append(std::to_string(i));
  EXPECT_EQ(d.render(t),
            "---\ntitle: x\n---\n# T0 #\n\nT1\n\n- T2\n- [ ] T3\n1. T4\n> T5\n\n"
            "```sh\nmake install\n```\n\n    indented code\n\n<div>\nhtml block\n</div>\n\n"
            "| T6 | T7 |\n|---|:-:|\n| T8 | T9 |\n\n***\n\nT10\n======\n\n[ref]: https://example.org\n");
}

TEST(Markdown, WrappedParagraphIsJoinedAndWrappedAgain) {
  const std::string doc = "> one two three four\n> five six seven\n\nnext\n";
  MarkdownDocument d = MarkdownDocument::parse(doc);
  ASSERT_EQ(d.units().size(), 2u);
  EXPECT_EQ(d.units()[0], "one two three four five six seven");
  EXPECT_EQ(d.render(d.units()), doc);  // the greedy wrap at the widest line (20 columns)
  EXPECT_EQ(d.render({"eins zwei drei vier fünf sechs sieben acht - neun", "weiter"}),
            "> eins zwei drei\n> vier fünf sechs\n> sieben acht - neun\n\nweiter\n");
}

TEST(Markdown, SetextHeadingsAndLazyLinesAsCommonMarkReadsThem) {
  // A setext heading of two lines ("---" under a paragraph is an underline, not a rule);
  // a lazy continuation line belongs to the quote's paragraph.
  const std::string doc =
      "Install the\npackage first\n---\n\n> The file could not\nbe opened.\n\nText\n===\n\n---\n";
  MarkdownDocument d = MarkdownDocument::parse(doc);
  EXPECT_EQ(d.units(),
            (std::vector<std::string>{"Install the package first", "The file could not be opened.", "Text"}));
  EXPECT_EQ(d.render(d.units()), doc);
  EXPECT_EQ(d.render({"Zuerst das Paket installieren",
                      "Die Datei konnte nicht ge\xC3\xB6"
                      "ffnet werden.",
                      "T"}),
            "Zuerst das\nPaket\ninstallieren\n---\n\n> Die Datei konnte\nnicht ge\xC3\xB6"
            "ffnet\nwerden.\n\nT\n===\n\n---\n");
}

}  // namespace edgemt

namespace edgemt {
namespace {

// Subtitles (runtime/formats/subtitles.h): what is translated, and what comes back.
std::string identity_render(const SubtitleDocument& d) { return d.render(d.units()); }

TEST(Subtitles, TimingLines) {
  EXPECT_TRUE(is_subtitle_timing_line("00:00:01,000 --> 00:00:04,000"));
  EXPECT_TRUE(is_subtitle_timing_line("01:02:03.456 --> 01:02:05.000 line:0 position:20%"));
  EXPECT_TRUE(is_subtitle_timing_line("00:01.000 --> 00:04.000"));  // WebVTT without hours
  EXPECT_TRUE(is_subtitle_timing_line("  0:00:01,5-->0:00:02,0"));
  EXPECT_FALSE(is_subtitle_timing_line("1"));
  EXPECT_FALSE(is_subtitle_timing_line("Where did you go --> there"));
  EXPECT_FALSE(is_subtitle_timing_line("00:00:01 --> 00:00:04"));  // no fraction
  EXPECT_FALSE(is_subtitle_timing_line("12:30 is when we meet."));
  EXPECT_FALSE(is_subtitle_timing_line(""));
}

// Override codes alone on a cue's first line ("{\an8}" above the text) stay a line of
// their own: the lines below are a dialogue (or a wrapped sentence) as without them, and
// the codes do not run into the first translated line (fuzz_text found "{\an8}- Wo").
TEST(Subtitles, CodesOnALineOfTheirOwnStayThere) {
  const std::string srt =
      "1\r\n00:00:01,000 --> 00:00:02,000\r\n{\\an8}\r\n- Where are you?\r\n- I am at home.\r\n\r\n"
      "2\n00:00:03,000 --> 00:00:04,000\n{\\an8} \nWhere did you\nput the keys?\n";
  const SubtitleDocument d = SubtitleDocument::parse(srt);
  ASSERT_EQ(d.units().size(), 3u);
  EXPECT_EQ(d.units()[0], "Where are you?");
  EXPECT_EQ(d.units()[1], "I am at home.");
  EXPECT_EQ(d.units()[2], "Where did you put the keys?");
  EXPECT_EQ(identity_render(d), srt);
  EXPECT_EQ(d.render({"Wo bist du?", "Ich bin zu Hause.", "Wo hast du die Schlüssel hingelegt?"}),
            "1\r\n00:00:01,000 --> 00:00:02,000\r\n{\\an8}\r\n- Wo bist du?\r\n- Ich bin zu Hause.\r\n\r\n"
            "2\n00:00:03,000 --> 00:00:04,000\n{\\an8} \nWo hast du die\nSchlüssel hingelegt?\n");
  // Nothing came back: each cue keeps its lines, codes included.
  EXPECT_EQ(d.render({"", "", ""}), srt);
}

TEST(Subtitles, SubRipCueLinesAreOneUnitAndTheRestIsKept) {
  const std::string srt =
      "\xEF\xBB\xBF"
      "1\r\n00:00:01,000 --> 00:00:04,000\r\nWhere did you\r\nput the keys?\r\n\r\n"
      "2\r\n00:00:04,500 --> 00:00:07,000\r\n- Where are you?\r\n-I am at home.\r\n\r\n"
      "3\r\n00:00:07,500 --> 00:00:09,000\r\n{\\an8}<i>Tom & Jerry</i> say 1 < 2\r\n";
  const SubtitleDocument d = SubtitleDocument::parse(srt);
  EXPECT_FALSE(d.webvtt());
  ASSERT_EQ(d.units().size(), 4u);
  EXPECT_EQ(d.units()[0], "Where did you put the keys?");
  EXPECT_EQ(d.units()[1], "Where are you?");  // a dialogue cue: line by line, dash kept aside
  EXPECT_EQ(d.units()[2], "I am at home.");
  EXPECT_EQ(d.units()[3], "<i>Tom &amp; Jerry</i> say 1 &lt; 2");  // tags kept, text escaped
  // Given back unchanged, the file is the same, byte for byte (line ends and BOM too).
  EXPECT_EQ(identity_render(d), srt);

  const std::string out = d.render({"Wo hast du die Schlüssel hingelegt?", "Wo bist du?", "Ich bin zu Hause.",
                                    "<i>Tom &amp; Jerry</i> sagen 1 &lt; 2"});
  EXPECT_EQ(out,
            "\xEF\xBB\xBF"
            "1\r\n00:00:01,000 --> 00:00:04,000\r\nWo hast du die\r\nSchlüssel hingelegt?\r\n\r\n"
            "2\r\n00:00:04,500 --> 00:00:07,000\r\n- Wo bist du?\r\n-Ich bin zu Hause.\r\n\r\n"
            "3\r\n00:00:07,500 --> 00:00:09,000\r\n{\\an8}<i>Tom & Jerry</i> sagen 1 < 2\r\n");
}

TEST(Subtitles, WebVttKeepsHeaderNotesAndStylesAndDropsKaraokeTimes) {
  const std::string vtt =
      "WEBVTT - a film\n\nNOTE a comment\nover two lines\n\nSTYLE\n::cue { color: yellow }\n\n"
      "intro\n00:01.000 --> 00:04.000 align:start\n<v Roger>Hello, how are you\ntoday?</v>\n\n"
      "00:05.000 --> 00:08.000\n<c.yellow>Save</c> the <00:06.000>file &amp; quit.";
  const SubtitleDocument d = SubtitleDocument::parse(vtt);
  EXPECT_TRUE(d.webvtt());
  ASSERT_EQ(d.units().size(), 2u);
  EXPECT_EQ(d.units()[0], "<v Roger>Hello, how are you today?</v>");
  EXPECT_EQ(d.units()[1], "<c.yellow>Save</c> the file &amp; quit.");  // already HTML-like: kept escaped
  const std::string out =
      d.render({"<v Roger>Hallo, wie geht es dir heute?</v>", "<c.yellow>Sichern</c> &amp; Ende."});
  EXPECT_EQ(out,
            "WEBVTT - a film\n\nNOTE a comment\nover two lines\n\nSTYLE\n::cue { color: yellow }\n\n"
            "intro\n00:01.000 --> 00:04.000 align:start\n<v Roger>Hallo, wie geht\nes dir heute?</v>\n\n"
            "00:05.000 --> 00:08.000\n<c.yellow>Sichern</c> &amp; Ende.");
}

TEST(Subtitles, CueWithoutBlankLineBeforeTheNextAndEmptyCues) {
  // A file that leaves out the blank line between cues; a cue without text.
  const std::string srt =
      "1\n00:00:01,000 --> 00:00:02,000\nHello.\n2\n00:00:03,000 --> 00:00:04,000\n\n"
      "3\n00:00:05,000 --> 00:00:06,000\nBye.\n";
  const SubtitleDocument d = SubtitleDocument::parse(srt);
  ASSERT_EQ(d.units().size(), 2u);
  EXPECT_EQ(d.units()[0], "Hello.");
  EXPECT_EQ(d.units()[1], "Bye.");
  EXPECT_EQ(d.render({"Hallo.", "Tschüss."}),
            "1\n00:00:01,000 --> 00:00:02,000\nHallo.\n2\n00:00:03,000 --> 00:00:04,000\n\n"
            "3\n00:00:05,000 --> 00:00:06,000\nTschüss.\n");
}

TEST(Subtitles, ACueNeverLosesItsTextOrStructure) {
  const std::string srt =
      "1\n00:00:01,000 --> 00:00:02,000\nTwo\nlines\n\n"
      "2\n00:00:03,000 --> 00:00:04,000\n- A\n- B\n";
  const SubtitleDocument d = SubtitleDocument::parse(srt);
  ASSERT_EQ(d.units().size(), 3u);
  // Empty translations: the cue keeps its text (an empty line would end the cue).
  EXPECT_EQ(d.render({"", " ", ""}), srt);
  // A translation with line breaks or a timing arrow cannot break the file's structure.
  EXPECT_EQ(d.render({"eins\nzwei --> drei", "x\r\ny", "z"}),
            "1\n00:00:01,000 --> 00:00:02,000\neins zwei\n-> drei\n\n"
            "2\n00:00:03,000 --> 00:00:04,000\n- x  y\n- z\n");
  // One word for two lines: one line.
  EXPECT_EQ(d.render({"Zwei", "a", "b"}),
            "1\n00:00:01,000 --> 00:00:02,000\nZwei\n\n2\n00:00:03,000 --> 00:00:04,000\n- a\n- b\n");
  // Missing translations (fewer than units) keep the text too.
  EXPECT_EQ(d.render({}), srt);
}

// A sentence over two or three cues is one unit, each cue's place marked; the cues get
// their parts at the marks, or by their share of the source where a mark is lost.
TEST(Subtitles, ASentenceOverCuesIsTranslatedWhole) {
  const std::string srt =
      "1\n00:00:01,000 --> 00:00:02,000\nI think that\nwe should\n\n"
      "2\n00:00:02,500 --> 00:00:04,000\nleave the house before\n\n"
      "3\n00:00:04,500 --> 00:00:06,000\nit starts to rain.\n\n"
      "4\n00:00:06,500 --> 00:00:08,000\nbut nobody listened,\n\n"     // after a full stop: alone
      "5\n00:00:08,500 --> 00:00:09,000\nand then\n\n"                 // joins 4
      "6\n00:00:09,500 --> 00:00:10,000\n<i>nothing</i> happened\n\n"  // tags: alone
      "7\n00:00:10,500 --> 00:00:11,000\nWe left\n\n"
      "8\n00:00:11,500 --> 00:00:12,000\nTogether.\n";  // upper case: alone
  const SubtitleDocument d = SubtitleDocument::parse(srt);
  ASSERT_EQ(d.units().size(), 5u);
  EXPECT_EQ(
      d.units()[0],
      "I think that we should <img data-cue=\"1\"> leave the house before <img data-cue=\"2\"> it starts to "
      "rain.");
  EXPECT_EQ(d.units()[1], "but nobody listened, <img data-cue=\"1\"> and then");
  EXPECT_EQ(d.units()[2], "<i>nothing</i> happened");
  EXPECT_EQ(d.units()[3], "We left");
  EXPECT_EQ(d.units()[4], "Together.");
  EXPECT_EQ(identity_render(d), srt);
  // The marks where the translation put them: each cue its part, broken into its lines.
  const std::string out =
      d.render({"Ich denke, wir sollten das Haus <img data-cue=\"1\"> verlassen, bevor es "
                "<img data-cue=\"2\"> zu regnen beginnt.",
                "aber niemand hörte zu, <img data-cue=\"1\"> und dann", "<i>nichts</i> geschah", "Wir gingen",
                "Zusammen."});
  EXPECT_EQ(out,
            "1\n00:00:01,000 --> 00:00:02,000\nIch denke, wir\nsollten das Haus\n\n"
            "2\n00:00:02,500 --> 00:00:04,000\nverlassen, bevor es\n\n"
            "3\n00:00:04,500 --> 00:00:06,000\nzu regnen beginnt.\n\n"
            "4\n00:00:06,500 --> 00:00:08,000\naber niemand hörte zu,\n\n"
            "5\n00:00:08,500 --> 00:00:09,000\nund dann\n\n"
            "6\n00:00:09,500 --> 00:00:10,000\n<i>nichts</i> geschah\n\n"
            "7\n00:00:10,500 --> 00:00:11,000\nWir gingen\n\n"
            "8\n00:00:11,500 --> 00:00:12,000\nZusammen.\n");
  // A mark lost (or out of order, or with no words on one side): shares of the source.
  for (const char* t :
       {"aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk lll",
        "aaa bbb <img data-cue=\"2\"> ccc ddd eee fff ggg hhh iii <img data-cue=\"1\"> jjj kkk lll",
        "<img data-cue=\"1\"> aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk <img data-cue=\"2\"> lll"}) {
    const std::string r = d.render({t, "", "", "", ""});
    EXPECT_NE(r.find("00:00:02,000\naaa bbb\nccc ddd\n\n"), std::string::npos) << t << "\n" << r;
    // 22, 22 and 18 characters in the source: cuts nearest to 35% and 71% of 47.
    EXPECT_NE(r.find("00:00:04,000\neee fff ggg hhh iii\n\n"), std::string::npos) << t << "\n" << r;
    EXPECT_NE(r.find("00:00:06,000\njjj kkk lll\n\n"), std::string::npos) << t << "\n" << r;
    EXPECT_EQ(r.find("data-cue"), std::string::npos) << r;
  }
  // Too few words for the cues: the cue without any keeps its text.
  EXPECT_NE(d.render({"Eins", "", "", "", ""}).find("00:00:04,000\nleave the house before\n"),
            std::string::npos);
}

TEST(Subtitles, LinesAreBrokenEvenlyAtSpacesOutsideTags) {
  using V = std::vector<std::string>;
  EXPECT_EQ(break_subtitle_lines("one two three four", 2), (V{"one two", "three four"}));
  EXPECT_EQ(break_subtitle_lines("<font color=\"#ff0000\">aaaa bbbb</font> cc", 2),
            (V{"<font color=\"#ff0000\">aaaa", "bbbb</font> cc"}));
  EXPECT_EQ(break_subtitle_lines("a b c d e f", 3), (V{"a b", "c d", "e f"}));
  EXPECT_EQ(break_subtitle_lines("  word  ", 2), (V{"word"}));
  EXPECT_EQ(break_subtitle_lines("Grüße   aus Köln", 2), (V{"Grüße", "aus Köln"}));
  EXPECT_EQ(break_subtitle_lines("", 2), V{});
  EXPECT_EQ(break_subtitle_lines("one two three", 1), (V{"one two three"}));
  // Never an empty line, whatever the spaces.
  for (const char* s : {"a  b", " a b ", "a    ", "a b c d e f g h i j", "x &amp; y"}) {
    for (size_t n = 1; n <= 5; ++n) {
      for (const std::string& l : break_subtitle_lines(s, n)) {
        EXPECT_FALSE(l.empty()) << s << " in " << n;
        EXPECT_NE(l.front(), ' ');
        EXPECT_NE(l.back(), ' ');
      }
      EXPECT_LE(break_subtitle_lines(s, n).size(), n);
    }
  }
}

}  // namespace
}  // namespace edgemt

namespace edgemt {
namespace {

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

// ---- Apple .strings (TextFormat::kStrings) ----------------------------------------
TEST(AppleStrings, ValuesAreUnits) {
  const std::string text =
      "\xEF\xBB\xBF/* Title of the main window */\n"
      "\"main.title\" = \"File Manager\";\n"
      "// A button\n"
      "\"Cancel\"=\"Cancel\";\n"
      "\"greeting\" = \"Hello, %@! You have %d new messages.\" ;\n"
      "\"quote\" = \"Say \\\"yes\\\" to\\ncontinue.\\t\";\n"
      "unquoted_key = 'Open the settings';\n"
      "bare = Settings;\n"
      "\"help.url\" = \"https://example.org/help\";\n"
      "\"flag\" = \"true\";\n"
      "\"only key\";\n"
      "\"esc\" = \"Caf\\U00e9 \\UD83D\\UDE00 \\101BC\";\n"
      "\"empty\" = \"\";\n";
  auto f = AppleStrings::parse(text);
  ASSERT_TRUE(f.has_value()) << f.status().message();
  EXPECT_EQ(f.value().units(),
            (std::vector<std::string>{"File Manager", "Cancel", "Hello, %@! You have %d new messages.",
                                      "Say \"yes\" to\ncontinue.", "Open the settings", "Settings",
                                      "Caf\xC3\xA9 \xF0\x9F\x98\x80 ABC"}));
  EXPECT_EQ(f.value().render({}), text);
  const std::string out =
      f.value().render({"Dateiverwaltung", "Abbrechen", "Hallo, %@!", "Sag \"ja\"\\\nweiter.",
                        "\xC3\x96"
                        "ffne 'die' Einstellungen",
                        "Einstellungen", ""});
  EXPECT_EQ(out,
            "\xEF\xBB\xBF/* Title of the main window */\n"
            "\"main.title\" = \"Dateiverwaltung\";\n"
            "// A button\n"
            "\"Cancel\"=\"Abbrechen\";\n"
            "\"greeting\" = \"Hallo, %@!\" ;\n"
            "\"quote\" = \"Sag \\\"ja\\\"\\\\\\nweiter.\\t\";\n"
            "unquoted_key = '\xC3\x96"
            "ffne \\'die\\' Einstellungen';\n"
            "bare = \"Einstellungen\";\n"
            "\"help.url\" = \"https://example.org/help\";\n"
            "\"flag\" = \"true\";\n"
            "\"only key\";\n"
            "\"esc\" = \"Caf\\U00e9 \\UD83D\\UDE00 \\101BC\";\n"
            "\"empty\" = \"\";\n");
  // What is not the format: an error naming the line, never a crash.
  for (auto [bad, what] : {std::pair{"\"a\" = \"Open the file\"\n\n\"b\" = \"x\";", "line 1: expected ';'"},
                           {"\"a\" = \"Open;\n", "line 1: the key's value is a string never closed"},
                           {"\"a\" = \"x\";\n/* open\n", "line 2: a comment (/*) is never closed"},
                           {"\"a\" \"b\";", "line 1: expected '=' after the key"},
                           {"\"a\" = ;", "line 1: expected the key's value"},
                           {"= \"b\";", "line 1: expected a key"},
                           {"\"a\" = \"b\"", "expected ';' after the value, found the end of the file"},
                           {"bplist00\xD1\x01\x02", "binary property list"}}) {
    auto d = AppleStrings::parse(bad);
    ASSERT_FALSE(d.has_value()) << bad;
    EXPECT_NE(d.status().message().find(what), std::string::npos) << d.status().message();
  }
  for (const std::string ok : {"", "  // nothing\n", "/* */"}) {
    auto d = AppleStrings::parse(ok);
    ASSERT_TRUE(d.has_value()) << ok;
    EXPECT_TRUE(d.value().units().empty());
    EXPECT_EQ(d.value().render({}), ok);
  }
}

// ---- .NET .resx (TextFormat::kResx) -----------------------------------------------
TEST(ResxDocument, StringResourcesAreUnits) {
  const std::string text =
      "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
      "<root>\n"
      "  <xsd:schema id=\"root\" xmlns=\"\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><xsd:element "
      "name=\"root\"/></xsd:schema>\n"
      "  <resheader name=\"resmimetype\"><value>text/microsoft-resx</value></resheader>\n"
      "  <data name=\"Greeting\" xml:space=\"preserve\">\n"
      "    <value>Welcome to the &lt;b&gt;shop&lt;/b&gt;, {0}!</value>\n"
      "    <comment>Shown on the start page</comment>\n"
      "  </data>\n"
      "  <data name=\"$this.Text\" xml:space=\"preserve\"><value>Settings</value></data>\n"
      "  <data name=\"&gt;&gt;button1.Name\" xml:space=\"preserve\"><value>Save button</value></data>\n"
      "  <data name=\"button1.Size\" type=\"System.Drawing.Size, System.Drawing\"><value>Big "
      "one</value></data>\n"
      "  <data name=\"Title\" type=\"System.String, mscorlib\"><value>File &amp; folder</value></data>\n"
      "  <data name=\"Logo\" mimetype=\"application/x-microsoft.net.object.bytearray.base64\"><value>Some "
      "words</value></data>\n"
      "  <data name=\"Help.Url\"><value>Help page</value></data>\n"
      "  <data name=\"Padded\" xml:space=\"preserve\"><value>  Close the window  </value></data>\n"
      "  <data name=\"Flag\"><value>true</value></data>\n"
      "  <data name=\"Mixed\"><value>Bold <!-- c --> text</value></data>\n"
      "  <data name=\"Empty\"><value/></data>\n"
      "</root>\n";
  auto doc = ResxDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  EXPECT_EQ(doc.value().units(), (std::vector<std::string>{"Welcome to the <b>shop</b>, {0}!", "Settings",
                                                           "File & folder", "Close the window"}));
  EXPECT_EQ(doc.value().render({}), text);
  const std::string out = doc.value().render({"Willkommen im <b>Laden</b>, {0}!", "", "Datei & Ordner",
                                              "Fenster schlie\xC3\x9F"
                                              "en"});
  std::string want = text;
  auto swap = [&](const std::string& from, const std::string& to) {
    ASSERT_NE(want.find(from), std::string::npos) << from;
    want.replace(want.find(from), from.size(), to);
  };
  swap("Welcome to the &lt;b&gt;shop&lt;/b&gt;, {0}!", "Willkommen im &lt;b&gt;Laden&lt;/b&gt;, {0}!");
  swap("File &amp; folder", "Datei &amp; Ordner");
  swap("  Close the window  ",
       "  Fenster schlie\xC3\x9F"
       "en  ");
  EXPECT_EQ(out, want);
  for (auto [bad, what] : {std::pair{"<root><data name=\"a\"><value>x</data></root>", "not well-formed"},
                           {"<resources><string name=\"a\">x</string></resources>", "not a .resx file"}}) {
    auto d = ResxDocument::parse(bad);
    ASSERT_FALSE(d.has_value()) << bad;
    EXPECT_NE(d.status().message().find(what), std::string::npos) << d.status().message();
  }
}

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

// ---- Apple .stringsdict (TextFormat::kStringsdict) --------------------------------
TEST(StringsdictDocument, PluralRulesGetTheLanguagesCategories) {
  const std::string text =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
      "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<dict>\n"
      "\t<key>%d files</key>\n\t<dict>\n"
      "\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@files@</string>\n"
      "\t\t<key>files</key>\n\t\t<dict>\n"
      "\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n"
      "\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n"
      "\t\t\t<key>one</key>\n\t\t\t<string>%d file &amp; folder</string>\n"
      "\t\t\t<key>other</key>\n\t\t\t<string>%d files</string>\n"
      "\t\t</dict>\n\t</dict>\n</dict>\n</plist>\n";
  auto doc = StringsdictDocument::parse(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  EXPECT_EQ(doc.value().units(), (std::vector<std::string>{"%d file & folder", "%d files"}));
  EXPECT_EQ(doc.value().render({}), text);
  EXPECT_EQ(doc.value().render({}, "de"), text);
  std::string want = text;
  want.replace(want.find("%d file &amp; folder"), 20, "%d Datei &amp; Ordner");
  want.replace(want.find("%d files</string>"), 8, "%d Dateien");
  EXPECT_EQ(doc.value().render({"%d Datei & Ordner", "%d Dateien"}, "de"), want);
  // Into Russian: few and many after the last category, from other's translation.
  std::string ru = want;
  const std::string after = "<string>%d Dateien</string>";
  ru.insert(
      ru.find(after) + after.size(),
      "\n\t\t\t<key>few</key>\n\t\t\t<string>%d Dateien</string>\n\t\t\t<key>many</key>\n\t\t\t<string>%d "
      "Dateien</string>");
  EXPECT_EQ(doc.value().render({"%d Datei & Ordner", "%d Dateien"}, "ru"), ru);
  // A format key with words, and a width rule's variants, are texts too; a format key of
  // variables alone, and the lookup keys, are not.
  const std::string more =
      "<plist><dict><key>k</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@ left</string>"
      "<key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
      "<key>one</key><string>%d item</string><key>other</key><string>%d items</string></dict></dict>"
      "<key>Welcome</key><dict><key>NSStringVariableWidthRuleType</key><dict><key>20</key><string>Hi"
      "</string><key>50</key><string>Welcome back</string></dict></dict>"
      "<key>j</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string></dict></dict></plist>";
  auto more_doc = StringsdictDocument::parse(more);
  ASSERT_TRUE(more_doc.has_value()) << more_doc.status().message();
  EXPECT_EQ(more_doc.value().units(),
            (std::vector<std::string>{"%#@n@ left", "%d item", "%d items", "Hi", "Welcome back"}));
  std::string more_de = more;
  for (auto [from, to] : {std::pair{">%#@n@ left<", ">noch %#@n@<"},
                          {">%d item<", ">%d Element<"},
                          {">%d items<", ">%d Elemente<"},
                          {">Hi<", ">Hallo<"},
                          {">Welcome back<",
                           ">Willkommen zur\xC3\xBC"
                           "ck<"}})
    more_de.replace(more_de.find(from), std::string_view(from).size(), to);
  EXPECT_EQ(more_doc.value().render({"noch %#@n@", "%d Element", "%d Elemente", "Hallo",
                                     "Willkommen zur\xC3\xBC"
                                     "ck"},
                                    "de"),
            more_de);
  // A rule with "other" alone, on one line: German's "one" added beside it, from its
  // translation, with no line breaks of its own.
  const std::string one_line =
      "<plist><dict><key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType"
      "</string><key>other</key><string>%d items</string></dict></dict></plist>";
  auto compact = StringsdictDocument::parse(one_line);
  ASSERT_TRUE(compact.has_value()) << compact.status().message();
  std::string compact_de = one_line;
  compact_de.replace(compact_de.find("%d items</string>"), 17,
                     "%d Elemente</string><key>one</key><string>%d Elemente</string>");
  EXPECT_EQ(compact.value().render({"%d Elemente"}, "de"), compact_de);
  for (auto [bad, what] : {std::pair{"<plist><dict></plist>", "not well-formed"},
                           {"<resources/>", "not a .stringsdict file"},
                           {"bplist00\xD1\x01\x02", "binary property list"}}) {
    auto d = StringsdictDocument::parse(bad);
    ASSERT_FALSE(d.has_value()) << bad;
    EXPECT_NE(d.status().message().find(what), std::string::npos) << d.status().message();
  }
}

}  // namespace
}  // namespace edgemt
