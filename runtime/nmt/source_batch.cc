#include "runtime/nmt/source_batch.h"

#include <string>

namespace edgemt {

void SourceBatch::declare(ArenaLayout& layout, const Dims& dims) {
  layout.add(&ids, "source ids", dims.max_source_tokens, kPhaseEncode, kPhaseResults);
  layout.add(&positions, "source token positions", dims.max_source_tokens, kPhaseEncode, kPhaseEncode);
  layout.add(&offsets, "sentence offsets", dims.max_batch + 1, kPhaseEncode, kPhaseResults);
  layout.add(&lengths, "sentence lengths", dims.max_batch, kPhaseEncode, kPhaseResults);
}

Status SourceBatch::fill(std::span<const std::span<const int32_t>> sources, const Dims& dims,
                         int32_t source_vocab) {
  const size_t n = sources.size();
  if (n > dims.max_batch)
    return out_of_range("batch of " + std::to_string(n) + " sentences exceeds the limit of " +
                        std::to_string(dims.max_batch));
  size_t off = 0;
  for (size_t s = 0; s < n; ++s) {
    const auto src = sources[s];
    if (src.empty())
      return invalid_argument("sentence " + std::to_string(s) + " has no tokens (it needs at least eos)");
    if (src.size() > dims.max_source)
      return out_of_range("sentence " + std::to_string(s) + " has " + std::to_string(src.size()) +
                          " tokens, more than the limit of " + std::to_string(dims.max_source));
    for (size_t i = 0; i < src.size(); ++i) {
      if (src[i] < 0 || src[i] >= source_vocab)
        return invalid_argument("sentence " + std::to_string(s) + " has token id " + std::to_string(src[i]) +
                                " outside the source vocabulary [0, " + std::to_string(source_vocab) + ")");
      ids[off + i] = src[i];
      positions[off + i] = static_cast<int32_t>(i);
    }
    offsets[s] = static_cast<int32_t>(off);
    lengths[s] = static_cast<int32_t>(src.size());
    off += src.size();
  }
  offsets[n] = static_cast<int32_t>(off);
  sentences = n;
  tokens = off;
  return Status::ok();
}

}  // namespace edgemt
