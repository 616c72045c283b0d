#pragma once

#include <string>

#include "converter/model_spec.h"

namespace edgemt::convert {

struct ConvertOptions {
  bool quantize_int8 = false;        // linear weights (and embeddings) as int8
  bool keep_embeddings_f32 = false;  // with int8: keep the embedding tables float32
};

// Reads a Hugging Face MarianMT directory (config.json, model.safetensors or
// pytorch_model.bin, source.spm, target.spm, vocab.json [, target_vocab.json],
// optional generation_config.json and tokenizer_config.json). Throws ConvertError.
ModelSpec read_hf_marian(const std::string& dir, const ConvertOptions& options);

}  // namespace edgemt::convert
