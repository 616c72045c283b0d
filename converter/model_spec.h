// What the converter writes: a checkpoint translated into edgemt's naming, layout and
// config. Readers (hf_marian.cc) fill it; writer.cc serialises exactly this into the
// schema in schema/edgemt.fbs.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace edgemt::convert {

enum class TensorDType : uint8_t { kF32 = 0, kI8 = 1 };
enum class TensorLayout : uint8_t { kRowMajor = 0, kPanelF32x16 = 1, kPanelI8x16x4 = 2 };

struct SpecTensor {
  std::string name;
  TensorDType dtype = TensorDType::kF32;
  TensorLayout layout = TensorLayout::kRowMajor;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;     // bytes in `layout`
  std::vector<float> scales;     // kI8
  std::vector<int32_t> row_sums; // kI8 linear weights
};

struct SpecConfig {
  int source_vocab_size = 0, target_vocab_size = 0, d_model = 0;
  int encoder_layers = 0, decoder_layers = 0, encoder_heads = 0, decoder_heads = 0;
  int encoder_ffn_dim = 0, decoder_ffn_dim = 0;
  int activation = 2;        // fb::Activation
  int norm_placement = 0;    // fb::NormPlacement
  float layer_norm_epsilon = 1e-5f;
  int position_kind = 0;     // fb::PositionKind
  int max_positions = 0;
  float embedding_scale = 1.0f;
  bool shared_embeddings = true;
  bool tied_output = true;
  bool has_final_logits_bias = false;
  int pad_id = 0, eos_id = 0, unk_id = 0, decoder_start_id = 0;
};

struct SpecGeneration {
  int num_beams = 1;
  int max_length = 0;
  float length_penalty = 1.0f;
  bool early_stopping = true;
  int forced_eos_id = -1;
  std::vector<int32_t> banned_ids;
};

struct ModelSpec {
  SpecConfig config;
  SpecGeneration generation;
  std::string source_spm, target_spm;
  std::vector<std::string> source_vocab;  // id -> piece
  std::vector<std::string> target_vocab;  // empty when shared
  std::vector<SpecTensor> tensors;
  std::vector<std::pair<std::string, std::string>> metadata;
};

}  // namespace edgemt::convert
