// The one naming of model tensors, shared by the converter (which writes them) and the
// runtime (which looks them up), e.g. "encoder/layer_3/self_attn/qkv_proj/weight".
#pragma once

#include <string>
#include <string_view>

namespace edgemt::names {

// Token embeddings [vocab, d_model]. With shared embeddings only the encoder's exists.
inline constexpr std::string_view kEncoderEmbedTokens = "encoder/embed_tokens";
inline constexpr std::string_view kDecoderEmbedTokens = "decoder/embed_tokens";
// Position tables [max_positions, d_model]; without a decoder table, the decoder uses
// the encoder's (sinusoidal tables are the same on both sides).
inline constexpr std::string_view kEncoderEmbedPositions = "encoder/embed_positions";
inline constexpr std::string_view kDecoderEmbedPositions = "decoder/embed_positions";
// Final layer norms of pre-norm models.
inline constexpr std::string_view kEncoderLayerNorm = "encoder/layer_norm";
inline constexpr std::string_view kDecoderLayerNorm = "decoder/layer_norm";
// Output projection [target_vocab, d_model] when not tied to the decoder embeddings.
inline constexpr std::string_view kOutputProjection = "decoder/output_projection";
// [target_vocab]
inline constexpr std::string_view kFinalLogitsBias = "decoder/final_logits_bias";

// Sub-module names inside a layer.
inline constexpr std::string_view kSelfQkv = "self_attn/qkv_proj";     // [3d, d]: q, k, v
inline constexpr std::string_view kSelfOut = "self_attn/out_proj";     // [d, d]
inline constexpr std::string_view kSelfNorm = "self_attn_layer_norm";  // [d]
inline constexpr std::string_view kCrossQ = "cross_attn/q_proj";       // [d, d]
inline constexpr std::string_view kCrossKv = "cross_attn/kv_proj";     // [2d, d]: k, v
inline constexpr std::string_view kCrossOut = "cross_attn/out_proj";   // [d, d]
inline constexpr std::string_view kCrossNorm = "cross_attn_layer_norm";
inline constexpr std::string_view kFc1 = "fc1";  // [ffn, d]
inline constexpr std::string_view kFc2 = "fc2";  // [d, ffn]
inline constexpr std::string_view kFinalNorm = "final_layer_norm";
// SSRU decoder layers (DecoderLayerKind kSsru), in place of self_attn/*:
inline constexpr std::string_view kSsruProj = "ssru/proj";        // [2d, d]: W (bias 0), then Wf (bias bf)
inline constexpr std::string_view kSsruNorm = "ssru_layer_norm";  // [d]

enum class Stack { kEncoder, kDecoder };

inline std::string layer(Stack s, int index, std::string_view module) {
  std::string out = s == Stack::kEncoder ? "encoder/layer_" : "decoder/layer_";
  out += std::to_string(index);
  out += '/';
  out += module;
  return out;
}

// "<module>/weight", "<module>/bias"
inline std::string weight(std::string_view module) { return std::string(module) + "/weight"; }
inline std::string bias(std::string_view module) { return std::string(module) + "/bias"; }

}  // namespace edgemt::names
