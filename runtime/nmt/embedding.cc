#include "runtime/nmt/embedding.h"

namespace edgemt {

void embed_rows(const NmtContext& c, const EmbeddingWeights& table, const float* positions, size_t rows,
                const int32_t* ids, const int32_t* pos, int32_t fixed_pos, float* out, ProfOp op) {
  ScopedProf sp(c.profiler, op);
  const size_t d = c.dims.model;
  const float scale = c.config->embedding_scale;
  const ops::Kernels& k = *c.kernels;
  c.pool->parallel_for(
      rows,
      [&](size_t b, size_t e, int) {
        for (size_t r = b; r < e; ++r) {
          const size_t id = static_cast<size_t>(ids[r]);
          const size_t p = static_cast<size_t>(pos != nullptr ? pos[r] : fixed_pos);
          if (table.type == WeightType::kF32) {
            k.f32_embed(d, table.f32_row(id), table.f32_stride(), scale, positions + p * d, out + r * d);
          } else {
            k.qs8_embed(d, table.i8_row(id), table.i8_group_stride(), table.scales[id], scale,
                        positions + p * d, out + r * d);
          }
        }
      },
      16);
}

}  // namespace edgemt
