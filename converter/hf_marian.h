#pragma once

#include <string>

#include "converter/source_model.h"

namespace edgemt::convert {

// A directory that looks like a Hugging Face checkpoint (it holds config.json).
bool is_hf_marian_dir(const std::string& input);

// Reads a Hugging Face MarianMT directory (config.json, model.safetensors or
// pytorch_model.bin, source.spm, target.spm, vocab.json [, target_vocab.json],
// optional generation_config.json and tokenizer_config.json). Throws ConvertError.
SourceModel read_hf_marian(const std::string& dir);

}  // namespace edgemt::convert
