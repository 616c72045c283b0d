// Typed views of a model's weights: pointers into the mapped file (used in place,
// never copied), laid out for the kernels. Each part loads and verifies its own
// tensors (names, dtypes, layouts, shapes, sizes, alignment) through a TensorTable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/core/status.h"
#include "runtime/model/config.h"
#include "runtime/model/tensor_table.h"

namespace edgemt {

// A linear layer y = x W^T + b, W of logical shape [n, k], packed for the gemm kernels.
struct LinearWeights {
  WeightType type = WeightType::kF32;
  size_t n = 0, k = 0;
  const float* w = nullptr;           // kF32: PanelF32x16
  const int8_t* w8 = nullptr;         // kI8: PanelI8x16x4
  const float* scales = nullptr;      // kI8: [n]
  const int32_t* row_sums = nullptr;  // kI8: [n]
  const float* bias = nullptr;        // [n] or null
  bool w7 = false;                    // kI8: every value in [-64, 64] (Tensor.max_abs): ops::qs8_gemm_w7
};

// Token embeddings [rows, d]: f32 row-major, or int8 with a scale per row, row-major
// or (when the table is also the tied output projection) in the PanelI8x16x4 layout.
struct EmbeddingWeights {
  WeightType type = WeightType::kF32;
  size_t rows = 0, d = 0;
  const float* f32 = nullptr;
  const int8_t* i8 = nullptr;
  const float* scales = nullptr;
  const int32_t* row_sums = nullptr;  // int8 panel layout only
  bool w7 = false;                    // int8 panel layout: every value in [-64, 64] (Tensor.max_abs)
  bool panel = false;                 // rows live in PanelF32x16 / PanelI8x16x4 panels
  // f32: first element of row r and the distance between its elements.
  const float* f32_row(size_t r) const;
  size_t f32_stride() const { return panel ? 16 : 1; }
  // int8: first byte of row r and the distance between its groups of 4 bytes.
  const int8_t* i8_row(size_t r) const;
  size_t i8_group_stride() const { return panel ? 64 : 4; }
};

struct NormWeights {
  const float* gamma = nullptr;
  const float* beta = nullptr;
};

// Each layer kind loads and verifies its own weights from the file's tensors.
struct EncoderLayerWeights {
  LinearWeights qkv, out;
  NormWeights self_norm;
  LinearWeights fc1, fc2;
  NormWeights final_norm;

  Status load(const TensorTable& tensors, const ModelConfig& cfg, int index);
};

struct DecoderLayerWeights {
  // kTransformer: self-attention (qkv, out) and self_norm; kSsru: ssru (W | Wf) and
  // ssru_norm, the self-attention fields empty.
  LinearWeights qkv, out;
  NormWeights self_norm;
  LinearWeights ssru;
  NormWeights ssru_norm;
  LinearWeights cross_q, cross_kv, cross_out;
  NormWeights cross_norm;
  LinearWeights fc1, fc2;
  NormWeights final_norm;

  Status load(const TensorTable& tensors, const ModelConfig& cfg, int index);
};

struct ModelWeights {
  EmbeddingWeights source_embed;
  EmbeddingWeights target_embed;            // == source_embed when shared
  const float* source_positions = nullptr;  // [max_positions, d]
  const float* target_positions = nullptr;
  std::vector<EncoderLayerWeights> encoder;
  std::vector<DecoderLayerWeights> decoder;
  NormWeights encoder_norm, decoder_norm;  // pre-norm models only
  // Output projection: a view of the target embedding table when tied (stored in the
  // gemm's panel layout), else its own weight.
  bool output_tied = true;
  LinearWeights output;
  const float* final_logits_bias = nullptr;  // [target_vocab] or null

  // Embeddings, positions, every layer, final norms and the output projection.
  Status load(const TensorTable& tensors, const ModelConfig& cfg);
  // Every gemm weight, empty ones included: each encoder layer's qkv, out, fc1, fc2, each
  // decoder layer's qkv, out, ssru, cross_q, cross_kv, cross_out, fc1, fc2, then output.
  std::vector<const LinearWeights*> linears() const;
};

}  // namespace edgemt
