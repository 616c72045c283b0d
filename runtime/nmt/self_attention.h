// Self-attention sub-layers: the encoder's (every token of a sentence attends to every
// token of it) and the decoder's (one new position attends to itself and every earlier
// one, whose keys and values a KvCache keeps).
#pragma once

#include <cstddef>

#include "runtime/nmt/context.h"
#include "runtime/nmt/decoder_state.h"
#include "runtime/nmt/source_batch.h"

namespace edgemt {

// out = softmax(q k^T * scale) v Wo, with q|k|v = in Wqkv, per sentence and head.
// wide: [tokens][dims.encoder_wide] (q|k|v), context: [tokens][d], out: [tokens][d].
void encoder_self_attention(const NmtContext& c, const EncoderLayerWeights& layer, const SourceBatch& src,
                            const float* in, float* wide, float* context, float* out, const QuantBuffers& q);

// One decoder step at position t for `rows` rows: appends each row's key and value to
// its slot in the cache, attends over positions 0..t. wide: [rows][dims.decoder_wide].
void decoder_self_attention(const NmtContext& c, const DecoderLayerWeights& layer, size_t layer_index,
                            KvCache& cache, const StepRows& step, size_t rows, size_t t, const float* in,
                            float* wide, float* context, float* out, const QuantBuffers& q);

}  // namespace edgemt
