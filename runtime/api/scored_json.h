// Scored translations as JSON (translate --output jsonl, the C API's
// edgemt_translate_scored, Python's Translator.translate_scored): one object per text.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/api/translator.h"

namespace edgemt {

// One text's scored translation (Translator::translate_scored) as a JSON object on one
// line: {"translation", "score", "confidence", "words": [{"word", "confidence",
// "source"}], "source_words", "alignment" (Moses' "source-target" word index pairs),
// with n_best an "n_best" list ({"translation", "score", "confidence"}, best first),
// "sentences": [{"source", the same fields}]}; a blank text gives {"translation": ""}.
// `text` is the text that was translated (source_words are its bytes).
std::string scored_json(const ScoredText& t, const std::string& text, bool n_best);

// One scored pair (Translator::score, translate --score --output jsonl) on one line:
// {"log_prob" (the sum), "tokens" (the target's pieces and "</s>"), "log_probs" (each
// token's)}.
std::string score_json(const std::vector<std::string_view>& tokens, std::span<const float> log_probs);

}  // namespace edgemt
