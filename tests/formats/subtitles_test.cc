// Subtitles (runtime/formats/subtitles.h): what is translated, and what comes back.
#include "runtime/formats/subtitles.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

namespace edgemt {
namespace {

using V = std::vector<std::string>;

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
