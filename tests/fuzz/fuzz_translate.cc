// Arbitrary bytes as text (invalid UTF-8, NUL bytes, huge lines, whitespace, many lines)
// through Translator::translate on the fixed tiny model. Invariants:
//   - translate() succeeds on any text and returns exactly one string per line;
//   - an empty or whitespace-only line is given back as it is ("" unsplit);
//   - the same lines give the same translations again (no state leaks between calls)
//     and alone as in a batch (outputs do not depend on batching);
//   - with a reranker (the tiny model, said to translate German to English, scoring
//     backwards; small limits so that many pairs do not fit and keep the search's order),
//     each line's translation is one of the beam's hypotheses, and a blank line still
//     gives "".
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_common.h"

namespace {

// The fixed model (English->German) with a reranker: the same tiny model said to translate
// German to English (tests/fuzz/CMakeLists.txt), with small limits so that many pairs do
// not fit and keep the search's order.
edgemt::Translator& reranking_translator() {
  static const std::unique_ptr<edgemt::Translator> t = [] {
    edgemt::TranslatorOptions o;
    o.max_batch = 4;
    o.max_beam = 2;
    o.max_source_length = 24;
    o.max_target_length = 8;
    auto r = edgemt::Translator::create(edgemt::fuzz::fixed_model(), o);
    o.max_beam = 1;
    o.max_source_length = 16;
    o.max_target_length = 24;
    auto back = edgemt::Translator::create(EDGEMT_FUZZ_REVERSE_MODEL, o);
    if (!r || !back) {
      std::fprintf(stderr, "fuzz: cannot create the reranking translators\n");
      std::exit(1);
    }
    if (const edgemt::Status st = r.value()->set_reranker(std::move(back.value()), 1.0f); !st.is_ok()) {
      std::fprintf(stderr, "fuzz: set_reranker: %s\n", st.to_string().c_str());
      std::exit(1);
    }
    return std::move(r.value());
  }();
  return *t;
}

bool blank(const std::string& s) {
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace edgemt;
  edgemt::Translator& t = fuzz::fixed_translator();
  std::vector<std::string> lines;
  const std::string text(reinterpret_cast<const char*>(data), size);
  size_t start = 0;
  for (;;) {
    const size_t nl = text.find('\n', start);
    lines.push_back(text.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  auto r = t.translate(lines);
  EDGEMT_FUZZ_CHECK(r.has_value(), "translate failed: %s", r.status().to_string().c_str());
  const std::vector<std::string>& out = r.value();
  EDGEMT_FUZZ_CHECK(out.size() == lines.size(), "%zu outputs for %zu lines", out.size(), lines.size());
  for (size_t i = 0; i < lines.size(); ++i)
    EDGEMT_FUZZ_CHECK(!blank(lines[i]) || out[i] == lines[i], "blank line %zu translated to '%s'", i,
                      out[i].c_str());  // only spacing: given back as it is

  // Determinism across calls and batch compositions (kept cheap: few lines only).
  if (lines.size() <= 4) {
    auto again = t.translate(lines);
    EDGEMT_FUZZ_CHECK(again.has_value() && again.value() == out, "a second call gave other translations");
    for (size_t i = 0; i < lines.size(); ++i) {
      auto one = t.translate({lines[i]});
      EDGEMT_FUZZ_CHECK(one.has_value() && one.value().size() == 1, "translating line %zu alone failed", i);
      EDGEMT_FUZZ_CHECK(one.value()[0] == out[i], "line %zu: '%s' alone but '%s' in a batch", i,
                        one.value()[0].c_str(), out[i].c_str());
    }
  }
  // Reranking (kept to two lines: it translates them twice more).
  if (lines.size() <= 2) {
    TranslateOptions o;
    o.beam = 2;
    o.split_sentences = false;
    auto reranked = reranking_translator().translate(lines, o);
    EDGEMT_FUZZ_CHECK(reranked.has_value() && reranked.value().size() == lines.size(), "reranking failed: %s",
                      reranked.has_value() ? "wrong count" : reranked.status().to_string().c_str());
    auto nbest = t.translate_nbest(lines, 2, o);
    EDGEMT_FUZZ_CHECK(nbest.has_value(), "translate_nbest failed");
    for (size_t i = 0; i < lines.size(); ++i) {
      const std::vector<std::string>& h = nbest.value()[i];
      EDGEMT_FUZZ_CHECK(std::find(h.begin(), h.end(), reranked.value()[i]) != h.end(),
                        "line %zu: reranked '%s' is none of the beam's hypotheses", i,
                        reranked.value()[i].c_str());
      EDGEMT_FUZZ_CHECK(!blank(lines[i]) || reranked.value()[i].empty(), "blank line %zu reranked to '%s'", i,
                        reranked.value()[i].c_str());
    }
  }
  return 0;
}
