// The converter's shared step, after any reader: checks every value is finite, packs
// linear weights for the gemm kernels (float32 panels) or quantizes them (int8), lays
// out the embedding tables (a table that is also the tied output projection is stored
// once, in the panel layout) and returns what writer.h writes.
#pragma once

#include <string>
#include <string_view>

#include "converter/model_spec.h"
#include "converter/source_model.h"

namespace edgemt::convert {

struct ConvertOptions {
  bool quantize_int8 = false;        // linear weights (and embeddings) as int8
  bool keep_embeddings_f32 = false;  // with int8: keep the embedding tables float32
  int int8_levels = 127;             // with int8: largest |q| of gemm weights (127, or 63 = 7-bit)
  // The language pair recorded in the model's metadata (source_language,
  // target_language), replacing the reader's; empty: the reader's (if any).
  std::string source_language, target_language;
};

// A language code as the model's metadata holds it: ISO 639-1/-3 letters with an
// optional subtag ("en", "pt-br", "zh-Hans"); group names such as Opus-MT's "ROMANCE" are
// not codes.
bool is_language_code(std::string_view code);

// Throws ConvertError (a non-finite value, a size that does not match the config).
ModelSpec pack_model(SourceModel source, const ConvertOptions& options);

}  // namespace edgemt::convert
