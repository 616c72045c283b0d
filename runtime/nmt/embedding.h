// Token embeddings plus sinusoidal (or learned) positions, scaled: the first step of
// the encoder and of every decoder step.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/nmt/context.h"

namespace edgemt {

// out[r] = table[ids[r]] * scale + positions[pos[r]] (pos null: fixed_pos for every
// row), float32 or int8 tables.
void embed_rows(const NmtContext& c, const EmbeddingWeights& table, const float* positions, size_t rows,
                const int32_t* ids, const int32_t* pos, int32_t fixed_pos, float* out, ProfOp op);

}  // namespace edgemt
