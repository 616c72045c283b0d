#include "runtime/text/sentence_splitter.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>

#include "runtime/text/protected_spans.h"

#if EDGEMT_HAVE_ICU
#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/utext.h>
#endif

namespace edgemt {
namespace {

// Length of the whitespace character starting at text[i] (0: none): ASCII spaces and
// controls, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000.
size_t space_at(std::string_view t, size_t i) {
  const auto b = [&](size_t k) { return i + k < t.size() ? static_cast<unsigned char>(t[i + k]) : 0u; };
  const unsigned c = b(0);
  if (c == ' ' || (c >= '\t' && c <= '\r')) return 1;
  if (c == 0xC2 && b(1) == 0xA0) return 2;
  if (c == 0xE1 && b(1) == 0x9A && b(2) == 0x80) return 3;
  if (c == 0xE2 && b(1) == 0x80 &&
      ((b(2) >= 0x80 && b(2) <= 0x8A) || b(2) == 0xA8 || b(2) == 0xA9 || b(2) == 0xAF))
    return 3;
  if (c == 0xE2 && b(1) == 0x81 && b(2) == 0x9F) return 3;
  if (c == 0xE3 && b(1) == 0x80 && b(2) == 0x80) return 3;
  return 0;
}

// Length of the whitespace character that ends just before text[i] (0: none).
size_t space_before(std::string_view t, size_t i) {
  for (size_t len = 1; len <= 3 && len <= i; ++len)
    if (space_at(t, i - len) == len) return len;
  return 0;
}

// Sentence-ending punctuation at text[i]: its length, and whether it is a full-width
// (CJK) mark, which ends a sentence without a following space.
size_t terminator_at(std::string_view t, size_t i, bool* full_width) {
  const auto b = [&](size_t k) { return i + k < t.size() ? static_cast<unsigned char>(t[i + k]) : 0u; };
  const unsigned c = b(0);
  if (c == '.' || c == '!' || c == '?') return 1;
  if (c == 0xE2 && b(1) == 0x80 && b(2) == 0xA6) return 3;              // …
  if ((c == 0xE3 && b(1) == 0x80 && b(2) == 0x82) ||                    // 。
      (c == 0xEF && b(1) == 0xBC && (b(2) == 0x81 || b(2) == 0x9F)) ||  // ！ ？
      (c == 0xEF && b(1) == 0xBD && b(2) == 0xA1)) {                    // ｡
    *full_width = true;
    return 3;
  }
  return 0;
}

// Closing quotes and brackets that belong to the sentence before them.
size_t closer_at(std::string_view t, size_t i) {
  const auto b = [&](size_t k) { return i + k < t.size() ? static_cast<unsigned char>(t[i + k]) : 0u; };
  const unsigned c = b(0);
  if (c == '"' || c == '\'' || c == ')' || c == ']' || c == '}') return 1;
  if (c == 0xC2 && b(1) == 0xBB) return 2;                                                    // »
  if (c == 0xE2 && b(1) == 0x80 && (b(2) == 0x99 || b(2) == 0x9D || b(2) == 0xBA)) return 3;  // ’ ” ›
  if (c == 0xE3 && b(1) == 0x80 && (b(2) == 0x8D || b(2) == 0x8F)) return 3;                  // 」 』
  if (c == 0xEF && b(1) == 0xBC && b(2) == 0x89) return 3;                                    // ）
  return 0;
}

bool ascii_lower(unsigned char c) { return c >= 'a' && c <= 'z'; }
bool ascii_alpha(unsigned char c) { return (c | 0x20) >= 'a' && (c | 0x20) <= 'z'; }
bool ascii_digit(unsigned char c) { return c >= '0' && c <= '9'; }

// Words that end in a period without ending the sentence, lower case (several
// languages; the last resort of builds without ICU, whose lists are per language).
constexpr std::array<std::string_view, 62> kAbbreviations = {
    "mr",   "mrs", "ms",   "dr",  "prof", "st",   "jr",  "sr",     "vs",  "mt",   "ft",   "no",   "nr",
    "nos",  "fig", "figs", "vol", "vols", "ed",   "eds", "approx", "ca",  "cf",   "p",    "pp",   "ch",
    "art",  "sec", "jan",  "feb", "mar",  "apr",  "jun", "jul",    "aug", "sep",  "sept", "oct",  "nov",
    "dec",  "gen", "col",  "lt",  "sgt",  "capt", "gov", "rev",    "bzw", "bspw", "ggf",  "evtl", "vgl",
    "inkl", "hr",  "fr",   "frl", "str",  "tel",  "abs", "abb",    "mme", "mlle"};

// Languages that write ordinal numbers with a period ("am 3. Oktober").
constexpr std::array<std::string_view, 19> kOrdinalPeriod = {"de", "da", "nb", "no", "nn", "fi", "cs",
                                                             "sk", "pl", "hu", "sl", "hr", "sr", "bs",
                                                             "et", "lv", "lt", "is", "tr"};

// The word that ends at line[end] (a period): an initial, an ordinal number where the
// language writes them so, a word with periods inside ("e.g", "z.B") or a known
// abbreviation.
bool abbreviation_before(std::string_view line, size_t end, bool ordinal_period) {
  size_t b = end;
  while (b > 0 && space_before(line, b) == 0) --b;
  while (b < end && (line[b] == '(' || line[b] == '[' || line[b] == '"' || line[b] == '\'')) ++b;
  const std::string_view w = line.substr(b, end - b);
  if (w.empty()) return false;
  // Periods inside, between parts of one or two letters: "e.g", "z.B", "U.S".
  if (w.find('.') != std::string_view::npos) {
    size_t part = 0;
    for (char ch : w) {
      if (ch == '.') {
        part = 0;
      } else if (++part > 2) {
        return false;
      }
    }
    return true;
  }
  const auto c0 = static_cast<unsigned char>(w[0]);
  if (w.size() == 1 && ascii_alpha(c0)) return true;
  // One non-ASCII letter (2-byte UTF-8): an initial such as "Ö.".
  if (w.size() == 2 && c0 >= 0xC3 && c0 <= 0xDF) return true;
  if (ordinal_period &&
      std::all_of(w.begin(), w.end(), [](char ch) { return ascii_digit(static_cast<unsigned char>(ch)); }))
    return true;
  if (w.size() > 6) return false;
  std::string lower(w);
  for (char& ch : lower) ch = static_cast<char>((ch >= 'A' && ch <= 'Z') ? ch - 'A' + 'a' : ch);
  return std::find(kAbbreviations.begin(), kAbbreviations.end(), lower) != kAbbreviations.end();
}

class RuleSplitter final : public SentenceSplitter {
 public:
  const char* name() const override { return "rules"; }

 protected:
  void split_line(std::string_view line, std::vector<TextSpan>* out) override {
    const size_t n = line.size();
    size_t start = 0;
    size_t i = 0;
    while (i < n) {
      bool full_width = false;
      const size_t term = terminator_at(line, i, &full_width);
      if (term == 0) {
        ++i;
        continue;
      }
      const bool lone_period = line[i] == '.';
      size_t j = i + term;
      bool more = true;
      while (more && j < n) {
        bool fw = false;
        if (const size_t t = terminator_at(line, j, &fw); t > 0) {
          full_width = full_width || fw;
          j += t;
        } else if (const size_t c = closer_at(line, j); c > 0) {
          j += c;
        } else {
          more = false;
        }
      }
      const bool single = lone_period && j == i + 1;
      if (j >= n) break;
      if (space_at(line, j) == 0) {
        if (full_width) {
          out->push_back({start, j});
          start = j;
        }
        i = j;
        continue;
      }
      size_t k = j;
      while (k < n && space_at(line, k) > 0) k += space_at(line, k);
      if (k >= n) break;
      const auto next = static_cast<unsigned char>(line[k]);
      if (ascii_lower(next) || (single && abbreviation_before(line, i, ordinal_period_))) {
        i = k;
        continue;
      }
      out->push_back({start, j});
      start = k;
      i = k;
    }
    if (start < n) out->push_back({start, n});
  }

 private:
};

#if EDGEMT_HAVE_ICU
class IcuSplitter final : public SentenceSplitter {
 public:
  explicit IcuSplitter(std::unique_ptr<icu::BreakIterator> it) : it_(std::move(it)) {}
  const char* name() const override { return "icu"; }

 protected:
  void split_line(std::string_view line, std::vector<TextSpan>* out) override {
    if (line.size() > static_cast<size_t>(INT32_MAX)) {  // ICU's offsets are 32-bit
      out->push_back({0, line.size()});
      return;
    }
    UErrorCode st = U_ZERO_ERROR;
    UText ut = UTEXT_INITIALIZER;
    utext_openUTF8(&ut, line.data(), static_cast<int64_t>(line.size()), &st);
    if (U_SUCCESS(st)) it_->setText(&ut, st);
    if (U_FAILURE(st)) {
      utext_close(&ut);
      out->push_back({0, line.size()});
      return;
    }
    // Offsets are native (UTF-8 byte) indices.
    int32_t s = it_->first();
    for (int32_t e = it_->next(); e != icu::BreakIterator::DONE; s = e, e = it_->next())
      out->push_back({static_cast<size_t>(s), static_cast<size_t>(e)});
    // The iterator keeps a shallow copy of the text: point it away before `line` goes.
    it_->setText(icu::UnicodeString());
    utext_close(&ut);
  }

 private:
  std::unique_ptr<icu::BreakIterator> it_;
};
#endif

bool ordinal_period(const std::string& lang) {
  const std::string primary = lang.substr(0, lang.find_first_of("-_"));
  return std::find(kOrdinalPeriod.begin(), kOrdinalPeriod.end(), primary) != kOrdinalPeriod.end();
}

// A language tag as ICU and the rules take it: letters, digits, - and _ only.
std::string clean_language(const std::string& language) {
  if (language.size() > 35) return "";
  for (char c : language)
    if (!ascii_alpha(static_cast<unsigned char>(c)) && !ascii_digit(static_cast<unsigned char>(c)) &&
        c != '-' && c != '_')
      return "";
  std::string lower = language;
  for (char& c : lower) c = static_cast<char>((c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c);
  return lower;
}

}  // namespace

bool SentenceSplitter::icu_available() { return EDGEMT_HAVE_ICU != 0; }

Expected<std::unique_ptr<SentenceSplitter>> SentenceSplitter::create(const std::string& language, Kind kind) {
  const std::string lang = clean_language(language);
  if (kind == Kind::kIcu && !icu_available()) return invalid_argument("this build of edgemt has no ICU");
#if EDGEMT_HAVE_ICU
  if (kind != Kind::kRules) {
    UErrorCode st = U_ZERO_ERROR;
    // ss=standard: ICU's per-language abbreviation suppressions ("Mr.", "z. B.").
    const icu::Locale loc =
        lang.empty() ? icu::Locale::getRoot() : icu::Locale::createFromName((lang + "@ss=standard").c_str());
    std::unique_ptr<icu::BreakIterator> it(icu::BreakIterator::createSentenceInstance(loc, st));
    if (U_FAILURE(st) || it == nullptr)
      return internal_error(std::string("ICU sentence break iterator: ") + u_errorName(st));
    std::unique_ptr<SentenceSplitter> r(new IcuSplitter(std::move(it)));
    r->ordinal_period_ = ordinal_period(lang);
    return r;
  }
#endif
  std::unique_ptr<SentenceSplitter> r(new RuleSplitter());
  r->ordinal_period_ = ordinal_period(lang);
  return r;
}

TextSpan trim_space(std::string_view text, TextSpan span) {
  size_t b = span.begin, e = span.end;
  while (b < e) {
    const size_t s = space_at(text.substr(0, e), b);
    if (s == 0) break;
    b += s;
  }
  while (e > b) {
    const size_t s = space_before(text.substr(0, e), e);
    if (s == 0 || e - s < b) break;
    e -= s;
  }
  return {b, e};
}

void SentenceSplitter::split(std::string_view text, std::vector<TextSpan>* out) {
  std::vector<TextSpan> pieces, guarded;
  size_t line_start = 0;
  while (line_start <= text.size()) {
    // A line break ends a sentence, and so does a tab: it separates columns (a
    // spreadsheet's cells pasted as text, TSV, "Name:<TAB>value"), each translated alone.
    size_t line_end = text.find_first_of("\r\n\t", line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    if (line_end > line_start) {
      pieces.clear();
      const std::string_view line = text.substr(line_start, line_end - line_start);
      split_line(line, &pieces);
      guarded.clear();
      find_protected_spans(line, &guarded);
      // A break inside a URL, an e-mail address, a path... ("download.html?id=7": ICU
      // breaks after any '?') is undone.
      auto inside_span = [&](size_t prev_end, size_t next_begin) {
        for (const TextSpan& g : guarded)
          if (g.begin < prev_end && g.end > next_begin) return true;
        return false;
      };
      const size_t first = out->size();
      for (const TextSpan& p : pieces) {
        const TextSpan t = trim_space(line, p);
        if (t.end <= t.begin) continue;
        // A break after an abbreviation, an initial or an ordinal number is undone (ICU
        // knows a few abbreviations per language, no initials and no ordinals).
        if (out->size() > first && ((line[out->back().end - 1] == '.' &&
                                     abbreviation_before(line, out->back().end - 1, ordinal_period_)) ||
                                    inside_span(out->back().end, t.begin))) {
          out->back().end = t.end;
        } else {
          out->push_back(t);
        }
      }
      for (size_t k = first; k < out->size(); ++k) {
        (*out)[k].begin += line_start;
        (*out)[k].end += line_start;
      }
    }
    line_start = line_end + 1;
  }
}

bool split_long_sentence(std::string_view text, TextSpan span, TextSpan* first, TextSpan* second) {
  // Candidate cuts are whitespace runs inside the span; each is ranked by what precedes
  // it (2: ; : or a dash, 1: a comma, 0: anything) and, within a rank, by its distance
  // to the middle. Clause boundaries win when they lie in the middle half.
  const size_t mid = span.begin + span.size() / 2, quarter = span.size() / 4;
  size_t best_cut = 0, best_rank = 0, best_dist = SIZE_MAX;
  bool found = false;
  for (size_t i = span.begin + 1; i < span.end;) {
    const size_t s = space_at(text, i);
    if (s == 0) {
      ++i;
      continue;
    }
    const auto prev = static_cast<unsigned char>(text[i - 1]);
    size_t rank = (prev == ';' || prev == ':' || prev == '-') ? 2 : prev == ',' ? 1 : 0;
    // U+2013/U+2014 (en/em dash) before the space.
    if (i >= span.begin + 3 && static_cast<unsigned char>(text[i - 3]) == 0xE2 &&
        static_cast<unsigned char>(text[i - 2]) == 0x80 && (prev == 0x93 || prev == 0x94))
      rank = 2;
    const size_t dist = i > mid ? i - mid : mid - i;
    if (dist > quarter) rank = 0;  // a clause boundary far from the middle is no better
    if (!found || rank > best_rank || (rank == best_rank && dist < best_dist)) {
      found = true;
      best_cut = i;
      best_rank = rank;
      best_dist = dist;
    }
    i += s;
  }
  if (!found) return false;
  *first = trim_space(text, {span.begin, best_cut});
  *second = trim_space(text, {best_cut, span.end});
  return first->end > first->begin && second->end > second->begin;
}

}  // namespace edgemt
