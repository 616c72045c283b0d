// The one list of real model shapes the benchmarks run at.
#pragma once

#include <cstddef>

namespace edgemt::bench {

struct ModelShape {
  const char* name;
  size_t d_model, ffn, vocab, heads;
};

// Opus-MT base (MarianMT: d 512, FFN 2048, ~58k vocabulary, 8 heads) and a small edge
// model (the deep-encoder/shallow-decoder shape of edge models: d 256, FFN 1536, 32k).
inline constexpr ModelShape kModels[] = {
    {"opus", 512, 2048, 58101, 8},
    {"edge", 256, 1536, 32000, 4},
};

// Rows of a gemm: batch x beam while decoding (1..64), tokens in the encoder (64..2048).
inline constexpr size_t kRows[] = {1, 4, 16, 64, 256};

// The linear layers of one model: y[rows, n] = x[rows, k] W^T.
enum class Layer { kQkv, kOut, kFfn1, kFfn2, kLogits };
inline constexpr Layer kLayers[] = {Layer::kQkv, Layer::kOut, Layer::kFfn1, Layer::kFfn2, Layer::kLogits};

inline const char* layer_name(Layer l) {
  switch (l) {
    case Layer::kQkv:
      return "qkv";
    case Layer::kOut:
      return "out";
    case Layer::kFfn1:
      return "ffn1";
    case Layer::kFfn2:
      return "ffn2";
    case Layer::kLogits:
      return "logits";
  }
  return "?";
}

inline void layer_dims(const ModelShape& m, Layer l, size_t* n, size_t* k) {
  switch (l) {
    case Layer::kQkv:
      *n = 3 * m.d_model;
      *k = m.d_model;
      break;
    case Layer::kOut:
      *n = m.d_model;
      *k = m.d_model;
      break;
    case Layer::kFfn1:
      *n = m.ffn;
      *k = m.d_model;
      break;
    case Layer::kFfn2:
      *n = m.d_model;
      *k = m.ffn;
      break;
    case Layer::kLogits:
      *n = m.vocab;
      *k = m.d_model;
      break;
  }
}

}  // namespace edgemt::bench
