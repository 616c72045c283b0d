// A sentence as a model is given it with protection on: the one place the Translator and
// edgemt-server prepare a sentence, so that both give the same translation.
#pragma once

#include <string_view>

#include "runtime/text/protected_spans.h"
#include "runtime/tokenizer/tokenizer.h"

namespace edgemt {

// protect_spans of `sentence` (see there) with the characters the model's vocabulary
// lacks (Tokenizer::unknown_spans) copied through; with builtin spans on, a sentence
// written in capitals (written_in_capitals) is first recased as the model's source
// vocabulary knows its words best (recase_capitals with Tokenizer::source_log_prob), and
// its translation comes back in capitals (ProtectedSentence::capitals). Byte offsets into
// the result's sentence are offsets into `sentence` (recasing keeps every length).
ProtectedSentence protect_for_model(const Tokenizer& tok, std::string_view sentence, const Glossary* glossary,
                                    bool builtin_spans, SpanMode mode);

}  // namespace edgemt
