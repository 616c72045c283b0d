// The source side of one run: every sentence's token ids packed one after the other,
// each token's position in its sentence, and where each sentence starts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "runtime/core/arena.h"
#include "runtime/core/status.h"
#include "runtime/nmt/context.h"

namespace edgemt {

struct SourceBatch {
  int32_t* ids = nullptr;        // [max_source_tokens]
  int32_t* positions = nullptr;  // [max_source_tokens] position of each token in its sentence
  int32_t* offsets = nullptr;    // [max_batch + 1] first token of each sentence; offsets[n] = tokens
  int32_t* lengths = nullptr;    // [max_batch]
  size_t sentences = 0;
  size_t tokens = 0;

  void declare(ArenaLayout& layout, const Dims& dims);
  // Checks and packs the sources (each 1 .. max_source ids, ending with eos, ids below
  // source_vocab); no allocation.
  Status fill(std::span<const std::span<const int32_t>> sources, const Dims& dims, int32_t source_vocab);

  size_t offset(size_t s) const { return static_cast<size_t>(offsets[s]); }
  size_t length(size_t s) const { return static_cast<size_t>(lengths[s]); }
};

}  // namespace edgemt
