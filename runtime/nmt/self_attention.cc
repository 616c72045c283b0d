#include "runtime/nmt/self_attention.h"

namespace edgemt {

void encoder_self_attention(const NmtContext& c, const EncoderLayerWeights& layer, const SourceBatch& src,
                            const float* in, float* wide, float* context, float* out, const QuantBuffers& q) {
  const Dims& d = c.dims;
  const size_t n = src.tokens, heads = d.encoder_heads, hd = d.encoder_head_dim, ld = d.encoder_wide;
  c.linear(layer.qkv, n, in, d.model, wide, ld, ops::Activation::kNone, q, ProfOp::kEncGemmQkv,
           ProfOp::kEncQuantize);
  {
    ScopedProf sp(c.profiler, ProfOp::kEncAttention);
    c.pool->parallel_for(src.sentences * heads, [&](size_t b, size_t e, int thread) {
      float* packed_keys = c.scratch_of(thread);
      float* scores = packed_keys + d.source_key_blocks * hd * ops::kKeyBlock;
      for (size_t task = b; task < e; ++task) {
        const size_t s = task / heads, h = task % heads;
        const size_t off = src.offset(s), len = src.length(s);
        const float* qkv = wide + off * ld;
        c.kernels->f32_pack_keys(len, hd, qkv + d.model + h * hd, ld, packed_keys, hd * ops::kKeyBlock, 0,
                                 true);
        c.kernels->f32_attention(len, len, hd, qkv + h * hd, ld, packed_keys, hd * ops::kKeyBlock,
                                 qkv + 2 * d.model + h * hd, ld, context + off * d.model + h * hd, d.model,
                                 d.encoder_attention_scale, scores);
      }
    });
  }
  c.linear(layer.out, n, context, d.model, out, d.model, ops::Activation::kNone, q, ProfOp::kEncGemmOut,
           ProfOp::kEncQuantize);
}

void decoder_self_attention(const NmtContext& c, const DecoderLayerWeights& layer, size_t layer_index,
                            KvCache& cache, const StepRows& step, size_t rows, size_t t, const float* in,
                            float* wide, float* context, float* out, const QuantBuffers& q) {
  const Dims& d = c.dims;
  const size_t heads = d.decoder_heads, hd = d.decoder_head_dim, ld = d.decoder_wide;
  c.linear(layer.qkv, rows, in, d.model, wide, ld, ops::Activation::kNone, q, ProfOp::kDecGemmQkv,
           ProfOp::kDecQuantize);
  {
    ScopedProf sp(c.profiler, ProfOp::kDecSelfAttention);
    c.pool->parallel_for(rows * heads, [&](size_t b, size_t e, int thread) {
      float* scores = c.scratch_of(thread);
      for (size_t task = b; task < e; ++task) {
        const size_t r = task / heads, h = task % heads;
        const size_t slot = static_cast<size_t>(step.slot[r]);
        const float* qkv = wide + r * ld;
        cache.append(layer_index, slot, h, t, qkv + d.model + h * hd, qkv + 2 * d.model + h * hd);
        c.kernels->f32_attention(1, t + 1, hd, qkv + h * hd, hd, cache.keys(layer_index, slot, h),
                                 hd * ops::kKeyBlock, cache.values(layer_index, slot) + h * hd, d.model,
                                 context + r * d.model + h * hd, d.model, d.decoder_attention_scale, scores);
      }
    });
  }
  c.linear(layer.out, rows, context, d.model, out, d.model, ops::Activation::kNone, q, ProfOp::kDecGemmOut,
           ProfOp::kDecQuantize);
}

}  // namespace edgemt
