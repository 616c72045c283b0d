// Arbitrary token id sequences through Translator::translate_ids and
// translate_batch_ids on the fixed tiny model. Ids outside the source vocabulary must
// give an error Status, never a crash; valid ids must translate, one output per source,
// every output id inside the target vocabulary.
//
// Input: byte 0 picks the search options; then 0xFF starts a new sequence, 0xF0..0xFE
// appends a special id (out of range, eos, pad...), any other byte b appends
// (b << 8 | next byte) modulo the vocabulary size + 4 (so a few ids are out of range).
#include <climits>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace edgemt;
  if (size == 0) return 0;
  Translator& t = fuzz::fixed_translator();
  const ModelConfig& cfg = t.model().config();
  const int32_t sv = cfg.source_vocab_size, tv = cfg.target_vocab_size;

  const uint8_t opt = data[0];
  TranslateOptions to;
  to.beam = 1 + (opt & 1);
  to.max_length = 1 + ((opt >> 1) & 7);
  constexpr EarlyStopping kStops[] = {EarlyStopping::kFalse, EarlyStopping::kTrue, EarlyStopping::kNever};
  if (((opt >> 4) & 3) != 0) to.early_stopping = kStops[((opt >> 4) & 3) - 1];
  if (opt & 0x40) to.length_penalty = (opt & 0x80) ? -2.0f : 0.0f;

  const int32_t specials[] = {-1,         INT32_MIN,  INT32_MAX, sv, sv - 1, cfg.eos_id,
                              cfg.pad_id, cfg.unk_id, 0,         tv, -sv,    cfg.decoder_start_id,
                              1,          2,          3};
  std::vector<std::vector<int32_t>> sources(1);
  bool valid = true;
  for (size_t i = 1; i < size; ++i) {
    const uint8_t b = data[i];
    int32_t id;
    if (b == 0xFF) {
      sources.emplace_back();
      continue;
    } else if (b >= 0xF0) {
      id = specials[b - 0xF0];
    } else {
      const uint32_t hi = b, lo = i + 1 < size ? data[++i] : 0;
      id = static_cast<int32_t>(((hi << 8) | lo) % static_cast<uint32_t>(sv + 4));
    }
    valid = valid && id >= 0 && id < sv;
    sources.back().push_back(id);
  }

  std::vector<std::vector<int32_t>> results;
  const Status st = t.translate_ids(sources, &results, to);
  if (!valid) {
    EDGEMT_FUZZ_CHECK(!st.is_ok(), "out-of-range ids were accepted");
  } else {
    EDGEMT_FUZZ_CHECK(st.is_ok(), "valid ids failed: %s", st.to_string().c_str());
    EDGEMT_FUZZ_CHECK(results.size() == sources.size(), "%zu results for %zu sources", results.size(),
                      sources.size());
    // Each chunk of at most max_source_length - 1 ids gives at most max_length ids.
    const size_t piece = static_cast<size_t>(t.limits().max_source_length) - 1;
    for (size_t i = 0; i < results.size(); ++i) {
      size_t n = sources[i].size();
      if (n > 0 && sources[i].back() == cfg.eos_id) --n;
      const size_t chunks = n == 0 ? 1 : (n + piece - 1) / piece;
      EDGEMT_FUZZ_CHECK(results[i].size() <= chunks * static_cast<size_t>(*to.max_length),
                        "%zu output ids for %zu chunks", results[i].size(), chunks);
      for (int32_t id : results[i])
        EDGEMT_FUZZ_CHECK(id >= 0 && id < tv, "output id %d outside [0, %d)", id, tv);
    }
  }

  // The allocation-free batch API on the raw sequences (no eos appended, maybe empty or
  // too long, maybe too many): an error or a result, never a crash.
  if (sources.size() <= 8) {
    std::vector<std::span<const int32_t>> src(sources.begin(), sources.end());
    std::vector<std::span<const int32_t>> out(src.size());
    const Status bs = t.translate_batch_ids(src, out, to);
    if (bs.is_ok()) {
      for (size_t i = 0; i < src.size(); ++i) {
        EDGEMT_FUZZ_CHECK(out[i].size() <= static_cast<size_t>(*to.max_length), "batch output %zu too long",
                          i);
        for (int32_t id : out[i])
          EDGEMT_FUZZ_CHECK(id >= 0 && id < tv, "output id %d outside [0, %d)", id, tv);
      }
    }
  }
  return 0;
}
