#include "runtime/nmt/cross_attention.h"

#include <cstring>

namespace edgemt {

void CrossMemory::declare(ArenaLayout& layout) {
  const Dims& d = c_.dims;
  layout.add(&projection_, "cross k/v projection", d.max_source_tokens * 2 * d.model, kPhaseCrossMemory,
             kPhaseCrossMemory);
  layout.add(&keys_, "cross keys", d.decoder_layers * d.max_batch * d.decoder_heads * head_key_floats(),
             kPhaseCrossMemory, kPhaseDecode);
  layout.add(&values_, "cross values", d.decoder_layers * d.max_source_tokens * d.model, kPhaseCrossMemory,
             kPhaseDecode);
}

void CrossMemory::build(const SourceBatch& src, const float* encoder_out, const QuantBuffers& q) {
  const Dims& d = c_.dims;
  const size_t n = src.tokens, heads = d.decoder_heads, hd = d.decoder_head_dim, ld = 2 * d.model;
  for (size_t l = 0; l < d.decoder_layers; ++l) {
    c_.linear(c_.weights->decoder[l].cross_kv, n, encoder_out, d.model, projection_, ld,
              ops::Activation::kNone, q, ProfOp::kCrossKv, ProfOp::kEncQuantize);
    ScopedProf sp(c_.profiler, ProfOp::kCrossKv);
    c_.pool->parallel_for(src.sentences * heads, [&](size_t b, size_t e, int) {
      for (size_t task = b; task < e; ++task) {
        const size_t s = task / heads, h = task % heads;
        c_.kernels->f32_pack_keys(src.length(s), hd, projection_ + src.offset(s) * ld + h * hd, ld,
                                  keys(l, s, h), hd * ops::kKeyBlock, 0, true);
      }
    });
    float* v = values(l);
    c_.pool->parallel_for(
        n,
        [&](size_t b, size_t e, int) {
          for (size_t r = b; r < e; ++r)
            std::memcpy(v + r * d.model, projection_ + r * ld + d.model, d.model * sizeof(float));
        },
        64);
  }
}

void CrossMemory::attend(const DecoderLayerWeights& layer, size_t layer_index, const SourceBatch& src,
                         const StepRows& step, size_t rows, const float* in, float* queries, float* context,
                         float* out, const QuantBuffers& q, float* weights, size_t ldw,
                         int weight_head) const {
  const Dims& d = c_.dims;
  const size_t heads = d.decoder_heads, hd = d.decoder_head_dim;
  c_.linear(layer.cross_q, rows, in, d.model, queries, d.model, ops::Activation::kNone, q,
            ProfOp::kDecGemmCrossQ, ProfOp::kDecQuantize);
  {
    ScopedProf sp(c_.profiler, ProfOp::kDecCrossAttention);
    const float* v = values(layer_index);
    // One head of row r; with `weights`, its probabilities (the kernel leaves a single
    // query's in scratch) added to the row's.
    auto head = [&](size_t r, size_t h, float* scores) {
      const size_t s = static_cast<size_t>(step.sentence[r]);
      const size_t len = src.length(s);
      c_.kernels->f32_attention(1, len, hd, queries + r * d.model + h * hd, hd, keys(layer_index, s, h),
                                hd * ops::kKeyBlock, v + src.offset(s) * d.model + h * hd, d.model,
                                context + r * d.model + h * hd, d.model, d.decoder_attention_scale, scores);
      if (weights == nullptr) return;
      float* w = weights + r * ldw;
      if (weight_head >= 0) {
        if (static_cast<int>(h) == weight_head) std::memcpy(w, scores, len * sizeof(float));
        return;
      }
      for (size_t j = 0; j < len; ++j) w[j] = (h == 0 ? 0.0f : w[j]) + scores[j];
    };
    if (weights == nullptr) {
      c_.pool->parallel_for(rows * heads, [&](size_t b, size_t e, int thread) {
        for (size_t task = b; task < e; ++task) head(task / heads, task % heads, c_.scratch_of(thread));
      });
    } else {  // a row's heads in one task, in order
      c_.pool->parallel_for(rows, [&](size_t b, size_t e, int thread) {
        for (size_t r = b; r < e; ++r)
          for (size_t h = 0; h < heads; ++h) head(r, h, c_.scratch_of(thread));
      });
    }
  }
  c_.linear(layer.cross_out, rows, context, d.model, out, d.model, ops::Activation::kNone, q,
            ProfOp::kDecGemmCrossOut, ProfOp::kDecQuantize);
}

}  // namespace edgemt
