// Language identification for the text layer: which language a text is written in, for
// edgemt-server's POST /detect and `source: auto`. CLD2 (Compact Language Detector 2, the
// detector Firefox's translations use; Debian's libcld2-dev) where edgemt is built with it;
// without it (the cross builds, or EDGEMT_WITH_CLD2=OFF) nothing is identified and callers
// fall back on what their models' vocabularies know.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace edgemt {

struct LanguageGuess {
  std::string code;  // ISO 639-1 where there is one ("en", "de", "zh", "he"), else CLD2's
  int percent = 0;   // share of the text's letters in this language, 1-100
  bool operator==(const LanguageGuess&) const = default;
};

// Up to three languages of `text` (UTF-8; markup skipped when `html`), most of the text
// first; empty when the text is too short or too mixed to tell (a single word often is),
// not valid UTF-8, or edgemt is built without CLD2. Thread-safe. Only the first 256 KiB
// are read.
std::vector<LanguageGuess> identify_languages(std::string_view text, bool html = false);

// `text` without the capitalized words that do not begin a sentence: mostly names
// ("Müller and Schröder met in Düsseldorf." -> "Müller and met in"), which tell nothing of
// the language they stand in but weigh on CLD2 like words of their own ("François lives in
// São Paulo." is Portuguese to it). Words are separated by white space; a sentence begins a
// text, a line, and follows a word ending in '.', '!', '?' or ':'. Capitals: letter_case.h's
// (Latin, Greek, Cyrillic).
std::string without_names(std::string_view text);

// Whether identify_languages can identify anything (edgemt was built with CLD2).
bool language_identification_available();

// The primary subtag of a language code, lower case: "zh-Hant" -> "zh", "pt_BR" -> "pt".
std::string primary_language(std::string_view code);

}  // namespace edgemt
