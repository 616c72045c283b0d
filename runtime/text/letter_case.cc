#include "runtime/text/letter_case.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "runtime/core/utf8.h"

namespace edgemt {
namespace {

// The character starting at s[i]; a malformed byte has no case (its code point: none).
Utf8Char char_at(std::string_view s, size_t i) {
  Utf8Char c = decode_utf8(s, i);
  if (!c.well_formed) c.code_point = 0xFFFFFFFFu;
  return c;
}

// Greek vowels with tonos: capital, lower case.
constexpr std::pair<uint32_t, uint32_t> kTonos[] = {{0x386, 0x3AC}, {0x388, 0x3AD}, {0x389, 0x3AE},
                                                    {0x38A, 0x3AF}, {0x38C, 0x3CC}, {0x38E, 0x3CD},
                                                    {0x38F, 0x3CE}};

// The lower-case letter of a capital, 0 for anything else.
uint32_t lower_of(uint32_t c) {
  if (c >= 'A' && c <= 'Z') return c + 0x20;
  if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 0x20;  // À-Þ but ×
  if (c == 0x178) return 0xFF;                               // Ÿ
  if ((c >= 0x100 && c <= 0x137 && c != 0x130) || (c >= 0x14A && c <= 0x177)) return c % 2 == 0 ? c + 1 : 0;
  if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) return c % 2 == 1 ? c + 1 : 0;
  if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2) return c + 0x20;  // Α-Ω
  for (const auto& [upper, lower] : kTonos)
    if (c == upper) return lower;
  if (c >= 0x410 && c <= 0x42F) return c + 0x20;  // А-Я
  if (c >= 0x400 && c <= 0x40F) return c + 0x50;  // Ѐ-Џ
  return 0;
}

// The capital of a lower-case letter, 0 for anything else ("ß": see to_capitals).
uint32_t upper_of(uint32_t c) {
  if (c >= 'a' && c <= 'z') return c - 0x20;
  if (c >= 0xE0 && c <= 0xFE && c != 0xF7) return c - 0x20;
  if (c == 0xFF) return 0x178;
  if (c == 0x3C2) return 0x3A3;  // final sigma
  if (c >= 0x3B1 && c <= 0x3C9) return c - 0x20;
  if (c >= 0x430 && c <= 0x44F) return c - 0x20;
  if (c >= 0x450 && c <= 0x45F) return c - 0x50;
  for (const auto& [upper, lower] : kTonos)
    if (c == lower) return upper;
  if (c >= 0x100 && c <= 0x17E) {
    const uint32_t u = c - 1;
    return lower_of(u) == c ? u : 0;
  }
  return 0;
}

bool is_capital(uint32_t c) { return lower_of(c) != 0 || c == 0x130; }  // İ has no lower case of its own here
bool is_lower(uint32_t c) {
  // ß, ı, ĸ, ŉ, ſ: lower case without a capital here.
  return upper_of(c) != 0 || c == 0xDF || c == 0x131 || c == 0x138 || c == 0x149 || c == 0x17F;
}

// `word` with every capital lowered, but the first letter (capitalized) where `keep_first`.
std::string lowered(std::string_view word, bool keep_first) {
  std::string out;
  out.reserve(word.size());
  bool first = keep_first;
  for (size_t i = 0; i < word.size();) {
    const Utf8Char ch = char_at(word, i);
    const uint32_t cp = ch.code_point;
    const size_t n = ch.length;
    const uint32_t l = lower_of(cp);
    if (first && (l != 0 || is_lower(cp))) {
      first = false;
      out.append(word.substr(i, n));
    } else if (l != 0) {
      append_utf8(l, &out);
    } else {
      out.append(word.substr(i, n));
    }
    i += n;
  }
  return out;
}

}  // namespace

bool capital_at(std::string_view s, size_t i) { return i < s.size() && is_capital(char_at(s, i).code_point); }

bool written_in_capitals(std::string_view s) {
  size_t capitals = 0, in_word = 0, most_in_a_word = 0;
  for (size_t i = 0; i < s.size();) {
    if (is_ascii_space(s[i])) {
      in_word = 0;
      ++i;
      continue;
    }
    const Utf8Char ch = char_at(s, i);
    const uint32_t cp = ch.code_point;
    const size_t n = ch.length;
    if (is_lower(cp)) return false;
    if (is_capital(cp)) {
      ++capitals;
      most_in_a_word = std::max(most_in_a_word, ++in_word);
    }
    i += n;
  }
  return capitals >= 4 && most_in_a_word >= 2;
}

std::string to_capitals(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const Utf8Char ch = char_at(text, i);
    const uint32_t cp = ch.code_point;
    const size_t n = ch.length;
    const uint32_t u = upper_of(cp);
    if (u != 0) {
      append_utf8(u, &out);
    } else if (cp == 0xDF) {
      out += "SS";
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

std::string to_lower_case(std::string_view text) { return lowered(text, false); }

std::string recase_capitals(std::string_view sentence,
                            const std::function<double(std::string_view)>& log_prob) {
  std::string out;
  out.reserve(sentence.size());
  bool starts = true;  // the next word begins a sentence
  std::vector<std::string> forms;
  for (size_t i = 0; i < sentence.size();) {
    if (is_ascii_space(sentence[i])) {
      out += sentence[i++];
      continue;
    }
    size_t e = i;
    while (e < sentence.size() && !is_ascii_space(sentence[e])) ++e;
    const std::string_view word = sentence.substr(i, e - i);
    bool has_capital = false;
    for (size_t k = 0; k < word.size() && !has_capital;) {
      const Utf8Char ch = char_at(word, k);
      has_capital = is_capital(ch.code_point);
      k += ch.length;
    }
    if (!has_capital) {
      out.append(word);
    } else {
      forms.clear();
      if (!starts) forms.push_back(lowered(word, false));
      forms.push_back(lowered(word, true));
      forms.emplace_back(word);
      size_t best = 0;
      double best_lp = log_prob(forms[0]);
      for (size_t f = 1; f < forms.size(); ++f) {
        const double lp = log_prob(forms[f]);
        if (lp > best_lp) {
          best = f;
          best_lp = lp;
        }
      }
      out += forms[best];
    }
    // A sentence ends with '.', '!' or '?', before any closing quotes and brackets.
    size_t end = word.size();
    while (end > 0 &&
           (word[end - 1] == '"' || word[end - 1] == '\'' || word[end - 1] == ')' || word[end - 1] == ']'))
      --end;
    starts = end > 0 && (word[end - 1] == '.' || word[end - 1] == '!' || word[end - 1] == '?');
    i = e;
  }
  return out;
}

}  // namespace edgemt
