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

#include "runtime/core/mapped_file.h"
#include "runtime/core/status.h"
#include "runtime/model/config.h"
#include "runtime/model/weights.h"
#include "runtime/tokenizer/tokenizer.h"

namespace edgemt {

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
  // "float32", "int8", or "int8, 7-bit weights" when every int8 gemm weight lies in
  // [-64, 64] (edgemt-convert --int8-weight-bits 7: ops::qs8_gemm_w7).
  const char* precision() const;
  // The lexical shortlist, when the model has one (verified at load).
  const ShortlistView& shortlist() const { return shortlist_; }
  // Free-form metadata (converter, source checkpoint...).
  const std::vector<std::pair<std::string, std::string>>& metadata() const { return metadata_; }
  // The language pair (BCP 47 codes such as "en", "de"): the metadata's source_language and
  // target_language, else a file name ending in -<src>-<tgt>.emt (model-en-de.emt,
  // model-en-de.int8.emt); "" when neither names it.
  const std::string& source_language() const { return source_language_; }
  const std::string& target_language() const { return target_language_; }
  // The pair a file name names (-<src>-<tgt>.emt or -<src>-<tgt>.<tag>.emt); false if none.
  static bool language_pair_of_file(const std::string& path, std::string* source, std::string* target);

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
  bool int8_w7_ = false;  // quantized_ and every int8 gemm weight marked w7
  ShortlistView shortlist_;
  std::vector<std::pair<std::string, std::string>> metadata_;
  std::string file_name_;  // load() only
  std::string source_language_, target_language_;
};

}  // namespace edgemt
