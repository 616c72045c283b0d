// Subtitle files for the text layer (TextFormat::kSubtitles): SubRip (.srt) and WebVTT
// (.vtt, a file whose first line starts with "WEBVTT"). Each cue's text is translated;
// cue numbers, timing lines (with WebVTT's cue settings), blank lines, WebVTT's header,
// NOTE, STYLE and REGION blocks come back byte for byte, each line with its own line end.
//
// A cue's text lines are one sentence or more broken for the screen ("Where did you" /
// "put the keys?"), so they are translated together, as one paragraph, and the
// translation is broken again into as many lines as the cue had (at spaces, the lines as
// even as they can be; fewer when it has fewer words). A dialogue cue, whose every line
// starts with a dash ("- Where are you?" / "- Here."), is translated line by line, each
// line keeping its dash. A line never comes back empty (an empty line would end the cue):
// a cue whose translation is empty keeps its text.
//
// A sentence that runs over cues (a cue ending without a sentence's end, the next
// starting in lower case: "I think we should" / "leave before it rains.") is translated
// as one sentence, up to three cues, each cue's place marked in it (<img data-cue="k">,
// which the HTML path puts after the words it followed); each cue gets its part of the
// translation, or, where a mark went missing, a share as large as its share of the
// source. Cues with formatting tags stay alone.
//
// Formatting tags go through the HTML path (html_document.h), which puts them around the
// right words: SubRip's <i>, <b>, <u>, <s> and <font ...> (its other text, & and < too,
// is plain text, escaped for that path and unescaped after), WebVTT's cue spans (<i>,
// <b>, <u>, <c.class>, <v Speaker>, <lang>, <ruby>, <rt>; its text is already escaped as
// HTML). WebVTT's karaoke timestamps inside a cue (<00:00:05.000>) are dropped, since
// the translated words do not keep their times. SubRip's leading override codes
// ("{\an8}", a position) are kept before the first line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace edgemt {

class SubtitleDocument {
 public:
  static SubtitleDocument parse(std::string_view text);

  bool webvtt() const { return webvtt_; }
  // The units to translate, as HTML fragments.
  const std::vector<std::string>& units() const { return units_; }
  // The file with each cue's text replaced by the translation of its units (html[i]
  // translates units()[i]: the same tags, translated text).
  std::string render(const std::vector<std::string>& html) const;

 private:
  struct Piece {
    std::string verbatim;       // kept as it is (a line with its end), when units is empty
    std::vector<size_t> units;  // a cue: its units (one, or one per dialogue line)
    // A sentence over cues: this cue is part `part` of its unit; the first cue of the unit
    // has `shown`, each part's characters in the source.
    size_t part = 0;
    std::vector<size_t> shown;
    std::vector<std::string> original;     // a cue: its text lines as they were
    std::vector<std::string> line_ends;    // a cue: its text lines' ends
    std::vector<std::string> line_prefix;  // a dialogue cue: each line's dash ("- ")
    std::string prefix;                    // before the first line ("{\an8}")
    bool prefix_line = false;              // the codes are a line of their own (prefix has its end)
  };
  bool webvtt_ = false;
  std::vector<Piece> pieces_;
  std::vector<std::string> units_;
};

// Is this line a cue timing line ("00:00:01,000 --> 00:00:04,000", WebVTT's "01.000 -->
// 04.000 line:0")?
bool is_subtitle_timing_line(std::string_view line);

// Breaks an HTML fragment into at most `lines` lines at spaces outside tags, as evenly
// as it can (by the number of characters shown). Never an empty line.
std::vector<std::string> break_subtitle_lines(std::string_view html, size_t lines);

}  // namespace edgemt
