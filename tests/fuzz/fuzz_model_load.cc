// Arbitrary bytes as a model file: Model::from_bytes must reject anything malformed
// with a Status (never crash, hang or read out of bounds); whatever it accepts must
// translate a short sentence with a small translator.
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace edgemt;
  auto m = Model::from_bytes(data, size);
  if (!m) {
    EDGEMT_FUZZ_CHECK(!m.status().message().empty(), "an error without a message");
    return 0;
  }
  TranslatorOptions o;
  o.max_batch = 2;
  o.max_beam = 2;
  o.max_source_length = 16;
  o.max_target_length = 8;
  auto t = Translator::create(m.value(), o);
  if (!t) return 0;  // e.g. limits the model cannot meet
  TranslateOptions to;
  to.beam = 2;
  auto r = t.value()->translate({"Hello world.", ""}, to);
  if (r) {
    EDGEMT_FUZZ_CHECK(r.value().size() == 2, "%zu outputs for 2 inputs", r.value().size());
    EDGEMT_FUZZ_CHECK(r.value()[1].empty(), "empty input translated to '%s'", r.value()[1].c_str());
  }
  return 0;
}
