#include "runtime/text/language_id.h"

#include <algorithm>
#include <cctype>

#include "runtime/core/utf8.h"
#include "runtime/text/letter_case.h"

#if EDGEMT_HAVE_CLD2
#include <cstdio>  // compact_lang_det.h uses FILE without including it
// clang-format off
#include <cld2/public/compact_lang_det.h>
#include <cld2/public/encodings.h>
// clang-format on
#endif

namespace edgemt {

std::string primary_language(std::string_view code) {
  std::string out;
  for (char c : code) {
    if (c == '-' || c == '_') break;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::string without_names(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool sentence_start = true;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      if (c == '\n') sentence_start = true;
      out += c;
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != '\r' &&
           text[end] != '\n')
      ++end;
    const std::string_view word = text.substr(i, end - i);
    // Its first letter: past opening quotes and brackets (ASCII punctuation, Latin-1's
    // "«", "¿", "¡" and the general punctuation block's quotes).
    size_t k = 0;
    while (k < word.size()) {
      const auto b = static_cast<unsigned char>(word[k]);
      if (b < 0x80 && !std::isalnum(b)) {
        ++k;
      } else if (b == 0xC2 && k + 1 < word.size()) {
        k += 2;
      } else if (b == 0xE2 && k + 2 < word.size() && static_cast<unsigned char>(word[k + 1]) == 0x80) {
        k += 3;
      } else {
        break;
      }
    }
    if (sentence_start || k >= word.size() || !capital_at(word, k)) out.append(word);
    const char last = word.back();
    sentence_start = last == '.' || last == '!' || last == '?' || last == ':';
    i = end;
  }
  return out;
}

bool language_identification_available() { return EDGEMT_HAVE_CLD2 != 0; }

std::vector<LanguageGuess> identify_languages(std::string_view text, bool html) {
  std::vector<LanguageGuess> out;
#if EDGEMT_HAVE_CLD2
  constexpr size_t kMaxBytes = 256 * 1024;
  if (text.size() > kMaxBytes) {
    // Cut at a character boundary: a cut multi-byte sequence would make CLD2 refuse it all.
    text = text.substr(0, utf8_boundary_before(text, kMaxBytes));
  }
  CLD2::Language lang3[3];
  int percent3[3] = {0, 0, 0};
  double score3[3] = {0, 0, 0};
  int text_bytes = 0, valid_prefix = 0;
  bool reliable = false;
  const CLD2::CLDHints hints = {nullptr, nullptr, CLD2::UNKNOWN_ENCODING, CLD2::UNKNOWN_LANGUAGE};
  CLD2::ExtDetectLanguageSummaryCheckUTF8(text.data(), static_cast<int>(text.size()), !html, &hints, 0, lang3,
                                          percent3, score3, nullptr, &text_bytes, &reliable, &valid_prefix);
  if (!reliable || valid_prefix < static_cast<int>(text.size())) return out;
  for (int i = 0; i < 3; ++i) {
    if (lang3[i] == CLD2::UNKNOWN_LANGUAGE || lang3[i] == CLD2::TG_UNKNOWN_LANGUAGE || percent3[i] <= 0)
      continue;
    std::string code = primary_language(CLD2::LanguageCode(lang3[i]));
    // CLD2 keeps a few withdrawn ISO 639-1 codes.
    if (code == "iw") code = "he";
    if (code == "in") code = "id";
    if (code == "jw") code = "jv";
    auto same = std::find_if(out.begin(), out.end(), [&](const LanguageGuess& g) { return g.code == code; });
    if (same != out.end()) {
      same->percent += percent3[i];  // zh-Hans and zh-Hant are both "zh"
    } else {
      out.push_back({code, percent3[i]});
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const LanguageGuess& a, const LanguageGuess& b) { return a.percent > b.percent; });
#else
  (void)text;
  (void)html;
#endif
  return out;
}

}  // namespace edgemt
