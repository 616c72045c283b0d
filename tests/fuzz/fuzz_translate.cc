// Arbitrary bytes as text (invalid UTF-8, NUL bytes, huge lines, whitespace, many lines)
// through Translator::translate on the fixed tiny model. Invariants:
//   - translate() succeeds on any text and returns exactly one string per line;
//   - an empty or whitespace-only line gives "";
//   - the same lines give the same translations again (no state leaks between calls)
//     and alone as in a batch (outputs do not depend on batching).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_common.h"

namespace {

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
    EDGEMT_FUZZ_CHECK(!blank(lines[i]) || out[i].empty(), "blank line %zu translated to '%s'", i,
                      out[i].c_str());

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
  return 0;
}
