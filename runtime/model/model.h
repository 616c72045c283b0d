// A loaded edgemt model: the read-only mapping of a .emt file, verified once, with
// typed views of its weights (pointers into the mapping: weights are used in place,
// never copied) and its tokenizer.
//
// A Model is immutable after load and shared (std::shared_ptr<const Model>) by any
// number of Translators, in any threads: N workers cost one model plus N arenas.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ops/ops.h"
#include "runtime/core/mapped_file.h"
#include "runtime/core/status.h"
#include "runtime/tokenizer/tokenizer.h"

namespace edgemt {

enum class WeightType : uint8_t { kF32, kI8 };
enum class NormPlacement : uint8_t { kPost, kPre };

struct ModelConfig {
  int source_vocab_size = 0;
  int target_vocab_size = 0;
  int d_model = 0;
  int encoder_layers = 0;
  int decoder_layers = 0;
  int encoder_heads = 0;
  int decoder_heads = 0;
  int encoder_ffn_dim = 0;
  int decoder_ffn_dim = 0;
  ops::Activation activation = ops::Activation::kSwish;
  NormPlacement norm_placement = NormPlacement::kPost;
  float layer_norm_epsilon = 1e-5f;
  int max_positions = 0;
  float embedding_scale = 1.0f;
  bool shared_embeddings = true;
  bool tied_output = true;
  bool has_final_logits_bias = false;
  int pad_id = 0;
  int eos_id = 0;
  int unk_id = 0;
  int decoder_start_id = 0;
};

// Search defaults recorded from the checkpoint's generation config.
struct GenerationDefaults {
  int num_beams = 1;
  int max_length = 0;  // total target length incl. decoder start (transformers' max_length); 0: unset
  float length_penalty = 1.0f;
  bool early_stopping = true;
  int forced_eos_id = -1;
  std::vector<int32_t> banned_ids;  // never generated (includes pad)
};

// A linear layer y = x W^T + b, W of logical shape [n, k], packed for the gemm kernels.
struct LinearWeights {
  WeightType type = WeightType::kF32;
  size_t n = 0, k = 0;
  const float* w = nullptr;         // kF32: PanelF32x16
  const int8_t* w8 = nullptr;       // kI8: PanelI8x16x4
  const float* scales = nullptr;    // kI8: [n]
  const int32_t* row_sums = nullptr;// kI8: [n]
  const float* bias = nullptr;      // [n] or null
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

struct EncoderLayerWeights {
  LinearWeights qkv, out;
  NormWeights self_norm;
  LinearWeights fc1, fc2;
  NormWeights final_norm;
};

struct DecoderLayerWeights {
  LinearWeights qkv, out;
  NormWeights self_norm;
  LinearWeights cross_q, cross_kv, cross_out;
  NormWeights cross_norm;
  LinearWeights fc1, fc2;
  NormWeights final_norm;
};

struct ModelWeights {
  EmbeddingWeights source_embed;
  EmbeddingWeights target_embed;  // == source_embed when shared
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
};

class Model {
 public:
  // Maps and verifies a model file. Every check happens here: identifier, schema
  // version, FlatBuffers verification, then every tensor's presence, dtype, layout,
  // shape, size and alignment against the config, special ids, and the tokenizer.
  static Expected<std::shared_ptr<const Model>> load(const std::string& path);
  // Same, from bytes in memory (copied into an aligned buffer owned by the model).
  static Expected<std::shared_ptr<const Model>> from_bytes(const void* data, size_t size);

  const ModelConfig& config() const { return config_; }
  const GenerationDefaults& generation() const { return generation_; }
  const ModelWeights& weights() const { return weights_; }
  const Tokenizer& tokenizer() const { return *tokenizer_; }
  // Bytes of the mapped (or owned) file.
  size_t file_bytes() const { return size_; }
  const uint8_t* file_data() const { return data_; }
  bool is_quantized() const { return quantized_; }
  // Free-form metadata (converter, source checkpoint...).
  const std::vector<std::pair<std::string, std::string>>& metadata() const { return metadata_; }

 private:
  Model() = default;
  static Expected<std::shared_ptr<const Model>> finish(std::shared_ptr<Model> m);
  Status parse();

  MappedFile file_;
  std::unique_ptr<uint8_t[], void (*)(uint8_t*)> owned_{nullptr, [](uint8_t*) {}};
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  ModelConfig config_;
  GenerationDefaults generation_;
  ModelWeights weights_;
  std::unique_ptr<Tokenizer> tokenizer_;
  bool quantized_ = false;
  std::vector<std::pair<std::string, std::string>> metadata_;
};

}  // namespace edgemt
