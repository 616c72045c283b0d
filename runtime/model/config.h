// The one description of a model's shape and options, shared by the converter (which
// fills it from a checkpoint and writes it) and the runtime (which reads it from the
// file and builds its parts from it). config_schema.h maps it to and from the schema.
#pragma once

#include <cstdint>
#include <vector>

#include "ops/ops.h"

namespace edgemt {

enum class WeightType : uint8_t { kF32, kI8 };

// Where each residual sub-layer normalises (schema NormPlacement).
enum class NormPlacement : uint8_t {
  kPost,  // x = LN(x + f(x)): MarianMT, "Attention Is All You Need"
  kPre,   // x = x + f(LN(x)), and a final LN after each stack
};

// How the position tables were made (schema PositionKind); tables are stored either way.
enum class PositionKind : uint8_t { kSinusoidalSplit, kSinusoidalInterleaved, kLearned };

// What each decoder layer is made of (schema DecoderLayerKind).
enum class DecoderLayerKind : uint8_t {
  kTransformer,  // self-attention over a KV cache, cross-attention, feed-forward
  kSsru,         // an SSRU (one state vector per layer and hypothesis), cross-attention, feed-forward
};

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
  PositionKind position_kind = PositionKind::kSinusoidalSplit;
  DecoderLayerKind decoder_layer_kind = DecoderLayerKind::kTransformer;
  float layer_norm_epsilon = 1e-5f;
  int max_positions = 0;
  float embedding_scale = 1.0f;   // token embeddings are multiplied by this
  bool shared_embeddings = true;  // encoder and decoder use one table
  bool tied_output = true;        // the output projection is the decoder's table
  bool has_final_logits_bias = false;
  int pad_id = 0;
  int eos_id = 0;
  int unk_id = 0;
  int decoder_start_id = 0;
};

// A lexical shortlist (schema Shortlist): views into the model file, or owned vectors
// in the converter.
struct ShortlistView {
  uint32_t first_num = 0;
  uint32_t best_num = 0;
  bool add_source_ids = false;
  uint32_t target_vocab = 0;          // padding ids stay below this
  const uint32_t* offsets = nullptr;  // [num_offsets]
  size_t num_offsets = 0;
  const uint32_t* targets = nullptr;  // [num_targets]
  size_t num_targets = 0;
  bool present() const { return offsets != nullptr; }
};

// How beam search ranks and ends hypotheses (schema BeamStyle).
enum class BeamStyle : uint8_t {
  // transformers' (generation/utils.py): K live hypotheses; finished ones are collected
  // until K are (early stopping) or no live one can win; score sum / length^length_penalty.
  kTransformers,
  // Marian's (translator/beam_search.cpp): the top K expansions; those ending in eos
  // finish and the beam shrinks by them until it is empty or the length limit finishes
  // the rest; score (sum - word_penalty * length) / length^length_penalty, length
  // counting the eos (Marian's --normalize and --word-penalty).
  kMarian,
};

// Search defaults recorded from the checkpoint's generation config.
struct GenerationDefaults {
  int num_beams = 1;
  int max_length = 0;  // total target length incl. decoder start (transformers' max_length); 0: unset
  float length_penalty = 1.0f;
  bool early_stopping = true;
  int forced_eos_id = -1;
  std::vector<int32_t> banned_ids;  // never generated (includes pad)
  BeamStyle beam_style = BeamStyle::kTransformers;
  float word_penalty = 0.0f;       // kMarian only
  float max_length_factor = 0.0f;  // outputs <= ceil(factor * source tokens); 0: none
};

}  // namespace edgemt
