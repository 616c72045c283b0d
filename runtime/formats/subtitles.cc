#include "runtime/formats/subtitles.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include "runtime/text/lines.h"
#include "runtime/text/markup.h"

namespace edgemt {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool blank(std::string_view s) { return trim(s).empty(); }

bool all_digits(std::string_view s) {
  s = trim(s);
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A time "[hh:]mm:ss[,.]fff" (SubRip's hours may have one digit or more, WebVTT's
// fraction exactly three; both are accepted leniently) at s[*p]; advances *p.
bool parse_time(std::string_view s, size_t* p) {
  size_t i = *p;
  int groups = 0;
  for (;;) {
    const size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == start) return false;
    ++groups;
    if (i < s.size() && s[i] == ':' && groups < 3) {
      ++i;
      continue;
    }
    break;
  }
  if (groups < 2 || i >= s.size() || (s[i] != ',' && s[i] != '.')) return false;
  const size_t frac = ++i;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  if (i == frac) return false;
  *p = i;
  return true;
}

// SubRip's formatting tags, kept as tags; any other '<' is text.
bool srt_tag(std::string_view s, size_t at, size_t* end) {
  const size_t close = s.find('>', at);
  if (close == std::string_view::npos) return false;
  std::string_view name = s.substr(at + 1, close - at - 1);
  if (!name.empty() && name[0] == '/') name.remove_prefix(1);
  const size_t sp = name.find(' ');
  const bool attrs = sp != std::string_view::npos;
  if (attrs) name = name.substr(0, sp);
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool ok =
      lower == "font" || (!attrs && (lower == "i" || lower == "b" || lower == "u" || lower == "s"));
  if (ok) *end = close + 1;
  return ok;
}

// SubRip text to an HTML fragment: its tags kept, the rest escaped.
std::string srt_to_html(std::string_view s) {
  std::string out;
  size_t text = 0;  // the start of the text since the last tag
  for (size_t i = 0; i < s.size();) {
    size_t end = 0;
    if (s[i] == '<' && srt_tag(s, i, &end)) {
      out += escape_html(s.substr(text, i - text));
      out.append(s, i, end - i);
      i = text = end;
      continue;
    }
    ++i;
  }
  out += escape_html(s.substr(text));
  return out;
}

// WebVTT cue text is HTML-like already: only its karaoke timestamps ("<00:01.000>") go.
std::string vtt_to_html(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '<' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
      const size_t close = s.find('>', i);
      if (close != std::string_view::npos) {
        i = close + 1;
        continue;
      }
    }
    out += s[i++];
  }
  return out;
}

// A translated fragment back to SubRip: tags kept, the HTML path's escapes undone.
std::string html_to_srt(std::string_view s) {
  static constexpr std::pair<std::string_view, char> kEntities[] = {
      {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}};
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '<') {
      const size_t close = s.find('>', i);
      const size_t end = close == std::string_view::npos ? s.size() : close + 1;
      out.append(s, i, end - i);
      i = end;
      continue;
    }
    bool done = false;
    if (s[i] == '&') {
      for (const auto& [name, ch] : kEntities) {
        if (s.substr(i, name.size()) == name) {
          out += ch;
          i += name.size();
          done = true;
          break;
        }
      }
    }
    if (!done) out += s[i++];
  }
  return out;
}

// One line of a cue as written back: no line breaks, no "-->" (a timing line's mark).
std::string clean_line(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  for (size_t p; (p = s.find("-->")) != std::string::npos;) s.replace(p, 3, "->");
  return std::string(trim(s));
}

// A dialogue line's dash and the spaces after it ("- "), or "": all the spaces the text
// is trimmed of, so that none is lost between the dash and the translation.
std::string_view dialogue_dash(std::string_view line) {
  if (line.empty() || line[0] != '-' || line.substr(0, 3) == "-->") return {};
  size_t n = 1;
  while (n < line.size() && is_space(line[n])) ++n;
  return line.substr(0, n);
}

}  // namespace

bool is_subtitle_timing_line(std::string_view line) {
  size_t p = 0;
  while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
  if (!parse_time(line, &p)) return false;
  while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
  if (line.substr(p, 3) != "-->") return false;
  p += 3;
  while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
  return parse_time(line, &p);
}

namespace {

// Cuts an HTML fragment at spaces outside tags into parts whose shown characters end
// nearest to fractions[k] of the whole (ascending), in order; parts never empty (fewer
// when it has fewer words).
std::vector<std::string> cut_at_shares(std::string_view html, const std::vector<double>& fractions) {
  html = trim(html);
  // The spaces outside tags where a line may break, with the characters shown before them.
  std::vector<std::pair<size_t, size_t>> spaces;  // (byte, shown before)
  size_t shown = 0;
  for (size_t i = 0; i < html.size();) {
    if (html[i] == '<') {
      const size_t close = html.find('>', i);
      i = close == std::string_view::npos ? html.size() : close + 1;
      continue;
    }
    if (html[i] == ' ') spaces.emplace_back(i, shown);
    if (html[i] == '&') {  // an entity shows one character
      const size_t semi = html.find(';', i);
      if (semi != std::string_view::npos && semi - i <= 8) {
        ++shown;
        i = semi + 1;
        continue;
      }
    }
    if ((static_cast<unsigned char>(html[i]) & 0xC0) != 0x80) ++shown;  // UTF-8 lead bytes
    ++i;
  }
  std::vector<size_t> breaks;
  size_t next = 0;  // first usable entry of spaces
  for (size_t k = 0; k < fractions.size() && next < spaces.size(); ++k) {
    const double target = static_cast<double>(shown) * fractions[k];
    size_t best = next;
    for (size_t s = next; s < spaces.size(); ++s) {
      if (std::abs(static_cast<double>(spaces[s].second) - target) <
          std::abs(static_cast<double>(spaces[best].second) - target))
        best = s;
    }
    breaks.push_back(spaces[best].first);
    next = best + 1;
    while (next < spaces.size() && spaces[next].first == spaces[next - 1].first + 1)
      ++next;  // a run of spaces
  }
  std::vector<std::string> out;
  size_t at = 0;
  for (size_t b : breaks) {
    const std::string_view part = trim(html.substr(at, b - at));
    if (!part.empty()) out.emplace_back(part);
    at = b + 1;
  }
  const std::string_view last = trim(html.substr(std::min(at, html.size())));
  if (!last.empty()) out.emplace_back(last);
  return out;
}

constexpr std::string_view kCueMark = "<img data-cue=\"";

// Shown characters of a tagless fragment (an entity is one).
size_t shown_chars(std::string_view html) {
  size_t n = 0;
  for (size_t i = 0; i < html.size(); ++i) {
    if (html[i] == '&') {
      const size_t semi = html.find(';', i);
      if (semi != std::string_view::npos && semi - i <= 8) i = semi;
    } else if ((static_cast<unsigned char>(html[i]) & 0xC0) == 0x80) {
      continue;
    }
    ++n;
  }
  return n;
}

// Does a cue's text (a tagless fragment) end without ending a sentence (in a letter, a
// digit or a comma)? Does it start in lower case (ASCII, or Latin-1's ß-ÿ)?
bool runs_on(std::string_view html) {
  html = trim(html);
  if (html.empty()) return false;
  const unsigned char c = static_cast<unsigned char>(html.back());
  if (c < 0x80) return std::isalnum(c) || c == ',';
  size_t lead = html.size() - 1;
  while (lead > 0 && (static_cast<unsigned char>(html[lead]) & 0xC0) == 0x80) --lead;
  const unsigned char l = static_cast<unsigned char>(html[lead]);
  return l >= 0xC3 && l <= 0xC5;  // Latin letters (Latin-1 Supplement, Extended-A)
}
bool starts_lower(std::string_view html) {
  html = trim(html);
  if (html.empty()) return false;
  const unsigned char c = static_cast<unsigned char>(html[0]);
  if (c < 0x80) return c >= 'a' && c <= 'z';
  return c == 0xC3 && html.size() > 1 && static_cast<unsigned char>(html[1]) >= 0x9F;
}

// A unit over `n` cues cut into the cues' parts: at its marks where every one is there,
// in order, with words on each side; else at the cues' shares of the source's
// characters. Marks are removed either way.
std::vector<std::string> cut_at_cues(std::string_view html, const std::vector<size_t>& shown) {
  const size_t n = shown.size();
  std::vector<std::string> parts;
  size_t at = 0;
  bool marked = true;
  for (size_t k = 1; k < n && marked; ++k) {
    const std::string mark = std::string(kCueMark) + std::to_string(k) + "\">";
    const size_t m = html.find(mark, at);
    marked = m != std::string_view::npos;
    if (marked) {
      parts.emplace_back(html.substr(at, m - at));
      at = m + mark.size();
    }
  }
  std::string rest(html.substr(std::min(at, html.size())));
  auto strip = [](std::string s) {
    for (size_t m; (m = s.find(kCueMark)) != std::string::npos;) {
      const size_t e = s.find('>', m);
      s.erase(m, e == std::string::npos ? std::string::npos : e + 1 - m);
      if (m > 0 && m < s.size() && s[m - 1] == ' ' && s[m] == ' ') s.erase(m, 1);  // one space, not two
    }
    return std::string(trim(s));
  };
  if (marked) {
    parts.push_back(std::move(rest));
    for (std::string& p : parts) p = strip(std::move(p));
    if (std::none_of(parts.begin(), parts.end(), [](const std::string& p) { return blank(p); })) return parts;
  }
  size_t total = 0;
  for (size_t s : shown) total += s;
  std::vector<double> fractions;
  size_t sum = 0;
  for (size_t k = 0; k + 1 < n; ++k) {
    sum += shown[k];
    fractions.push_back(total == 0 ? 0.0 : static_cast<double>(sum) / static_cast<double>(total));
  }
  parts = cut_at_shares(strip(std::string(html)), fractions);
  parts.resize(n);  // fewer words than cues: the last cues get nothing (and keep their text)
  return parts;
}

}  // namespace

std::vector<std::string> break_subtitle_lines(std::string_view html, size_t lines) {
  std::vector<double> fractions;
  for (size_t k = 1; k < lines; ++k) fractions.push_back(static_cast<double>(k) / static_cast<double>(lines));
  return cut_at_shares(html, fractions);
}

SubtitleDocument SubtitleDocument::parse(std::string_view text) {
  SubtitleDocument d;
  const std::vector<LineSpan> lines = split_lines(text);
  auto body = [&](size_t i) { return text.substr(lines[i].begin, lines[i].body_end - lines[i].begin); };
  auto whole = [&](size_t i) { return text.substr(lines[i].begin, lines[i].end - lines[i].begin); };
  if (!lines.empty()) {
    std::string_view first = body(0);
    if (first.substr(0, 3) == "\xEF\xBB\xBF") first.remove_prefix(3);
    d.webvtt_ = first.substr(0, 6) == "WEBVTT";
  }
  auto to_html = [&](std::string_view s) { return d.webvtt_ ? vtt_to_html(s) : srt_to_html(s); };
  // The first cue of the last cue's unit (SIZE_MAX: one no cue joins) and the last cue's
  // text, for a sentence that runs over cues.
  size_t group_first = SIZE_MAX;
  std::string last_html;
  for (size_t i = 0; i < lines.size();) {
    Piece verbatim;
    verbatim.verbatim = std::string(whole(i));
    d.pieces_.push_back(std::move(verbatim));
    if (!is_subtitle_timing_line(body(i))) {
      ++i;
      continue;
    }
    // The cue's text: up to a blank line, or (a file that leaves the blank line out) the
    // next cue's number and timing line.
    size_t j = i + 1;
    while (j < lines.size() && !blank(body(j)) && !is_subtitle_timing_line(body(j)) &&
           !(all_digits(body(j)) && j + 1 < lines.size() && is_subtitle_timing_line(body(j + 1))))
      ++j;
    if (j > i + 1) {
      Piece cue;
      std::vector<std::string_view> texts;
      for (size_t k = i + 1; k < j; ++k) {
        texts.push_back(body(k));
        cue.original.emplace_back(body(k));
        cue.line_ends.emplace_back(text.substr(lines[k].body_end, lines[k].end - lines[k].body_end));
      }
      // SubRip's override codes before the text ("{\an8}") stay in front of it.
      size_t codes = 0;
      while (texts[0].substr(codes, 2) == "{\\") {
        const size_t close = texts[0].find('}', codes);
        if (close == std::string_view::npos) break;
        codes = close + 1;
      }
      if (codes > 0) {  // and the spaces after them
        while (codes < texts[0].size() && (texts[0][codes] == ' ' || texts[0][codes] == '\t')) ++codes;
      }
      cue.prefix = std::string(texts[0].substr(0, codes));
      texts[0].remove_prefix(codes);
      if (codes > 0 && trim(texts[0]).empty() && texts.size() > 1) {
        // The codes alone on the first line ("{\an8}" above the text): that line stays a
        // line of its own, with its end.
        cue.prefix = cue.original[0] + cue.line_ends[0];
        cue.prefix_line = true;
        texts.erase(texts.begin());
        cue.original.erase(cue.original.begin());
        cue.line_ends.erase(cue.line_ends.begin());
      }
      const bool dialogue =
          texts.size() >= 2 && std::all_of(texts.begin(), texts.end(),
                                           [](std::string_view t) { return !dialogue_dash(t).empty(); });
      if (dialogue) {
        for (std::string_view t : texts) {
          const std::string_view dash = dialogue_dash(t);
          cue.line_prefix.emplace_back(dash);
          cue.units.push_back(d.units_.size());
          d.units_.push_back(to_html(trim(t.substr(dash.size()))));
        }
      } else {
        std::string joined;
        for (std::string_view t : texts) {
          t = trim(t);
          if (t.empty()) continue;
          if (!joined.empty()) joined += ' ';
          joined.append(t);
        }
        std::string html = to_html(joined);
        // The sentence runs on from the cue before: one unit, this cue's place marked.
        Piece* first = group_first < d.pieces_.size() ? &d.pieces_[group_first] : nullptr;
        const size_t unit = first != nullptr ? first->units[0] : 0;
        if (first != nullptr && first->shown.size() < 3 && html.find('<') == std::string::npos &&
            codes == 0 && runs_on(last_html) && starts_lower(html)) {
          cue.units.push_back(unit);
          cue.part = first->shown.size();
          first->shown.push_back(shown_chars(html));
          d.units_[unit] += " " + std::string(kCueMark) + std::to_string(cue.part) + "\"> " + html;
        } else {
          cue.units.push_back(d.units_.size());
          group_first = html.find('<') == std::string::npos && codes == 0 ? d.pieces_.size() : SIZE_MAX;
          cue.shown.push_back(shown_chars(html));
          d.units_.push_back(html);
        }
        last_html = std::move(html);
      }
      if (dialogue) group_first = SIZE_MAX;
      d.pieces_.push_back(std::move(cue));
    }
    i = j;
  }
  return d;
}

std::string SubtitleDocument::render(const std::vector<std::string>& html) const {
  std::string out;
  auto from_html = [&](std::string_view s) { return clean_line(webvtt_ ? std::string(s) : html_to_srt(s)); };
  std::vector<std::string> cue_parts;  // a unit over cues, cut into the cues' parts
  for (const Piece& p : pieces_) {
    if (p.units.empty()) {
      out += p.verbatim;
      continue;
    }
    std::vector<std::string> lines;
    if (!p.line_prefix.empty()) {
      for (size_t k = 0; k < p.units.size(); ++k) {
        std::string t = p.units[k] < html.size() ? from_html(html[p.units[k]]) : std::string();
        // Nothing came back: the line keeps its text (the first without its codes,
        // which are put back below).
        lines.push_back(blank(t) ? p.original[k].substr(k == 0 && !p.prefix_line ? p.prefix.size() : 0)
                                 : p.line_prefix[k] + t);
      }
      lines[0] = p.prefix + lines[0];
    } else {
      std::string_view t = p.units[0] < html.size() ? std::string_view(html[p.units[0]]) : "";
      if (p.part == 0 && p.shown.size() > 1) {
        cue_parts = cut_at_cues(t, p.shown);  // this cue and the next ones
      } else if (p.part == 0) {
        cue_parts.clear();
      }
      if (p.part < cue_parts.size()) t = cue_parts[p.part];
      for (const std::string& l : break_subtitle_lines(t, p.original.size())) {
        std::string line = from_html(l);
        if (!blank(line)) lines.push_back(std::move(line));
      }
      if (lines.empty()) {
        lines = p.original;  // nothing came back: the cue keeps its text
        if (p.prefix_line) lines[0] = p.prefix + lines[0];
      } else if (!p.prefix.empty()) {
        lines[0] = p.prefix + lines[0];
      }
    }
    for (size_t k = 0; k < lines.size(); ++k) {
      out += lines[k];
      out += k + 1 < lines.size() ? p.line_ends[std::min(k, p.line_ends.size() - 1)] : p.line_ends.back();
    }
  }
  return out;
}

}  // namespace edgemt
