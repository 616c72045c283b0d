#include "runtime/api/model_input.h"

#include <string>
#include <utility>
#include <vector>

#include "runtime/text/letter_case.h"

namespace edgemt {

ProtectedSentence protect_for_model(const Tokenizer& tok, std::string_view sentence, const Glossary* glossary,
                                    bool builtin_spans, SpanMode mode) {
  std::string recased;
  if (builtin_spans && written_in_capitals(sentence)) {
    recased = recase_capitals(sentence, [&](std::string_view word) { return tok.source_log_prob(word); });
    sentence = recased;
  }
  std::vector<std::pair<size_t, size_t>> unknown;
  if (builtin_spans) tok.unknown_spans(sentence, &unknown);
  ProtectedSentence p = protect_spans(sentence, glossary, builtin_spans, mode, unknown);
  p.capitals = !recased.empty();
  return p;
}

}  // namespace edgemt
