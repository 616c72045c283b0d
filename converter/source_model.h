// What a checkpoint reader returns: the model in edgemt's terms (config, generation
// defaults, tokenizer, float32 parameters named as runtime/model/names.h names them,
// unpacked and row-major). Readers only read and translate names; one shared step
// (pack.h) checks, packs, quantizes and applies the tied-output policy, and writer.h
// writes the result.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "converter/model_spec.h"

namespace edgemt::convert {

enum class ParamKind { kLinear, kNorm };

// One linear layer (y = x W^T + b) or layer norm.
struct SourceParam {
  ParamKind kind = ParamKind::kLinear;
  std::string module;         // e.g. names::layer(Stack::kEncoder, 0, names::kFc1)
  size_t n = 0, k = 0;        // linear: weight [n][k]; norm: [n] (k = 0)
  std::vector<float> weight;  // linear weight, or norm gamma
  std::vector<float> bias;    // [n]; empty: a linear without bias
  std::string origin;         // the checkpoint's name(s) for it, for messages
  // Linear: per weight row, the step of int8 values it already holds (a Marian intgemm8
  // matrix: q * step); 0 or empty: none. int8 conversion then keeps those values.
  std::vector<float> int8_steps;
};

struct SourceModel {
  ModelConfig config;  // config.tied_output: the checkpoint ties the output projection
  GenerationDefaults generation;
  std::string source_spm, target_spm;
  std::vector<std::string> source_vocab;  // id -> piece
  std::vector<std::string> target_vocab;  // empty when shared
  // Token embeddings [vocab][d]; target_embed is empty with shared embeddings.
  std::vector<float> source_embed, target_embed;
  float source_embed_int8_step = 0.0f, target_embed_int8_step = 0.0f;  // as SourceParam::int8_steps
  // Position table [max_positions][d] (sinusoidal tables serve both sides).
  std::vector<float> positions;
  // Layers' parameters, in file order; an untied output projection is the linear
  // names::kOutputProjection.
  std::vector<SourceParam> params;
  std::vector<float> final_logits_bias;  // [target_vocab] or empty
  std::vector<std::pair<std::string, std::string>> metadata;
  ModelSpec::Shortlist shortlist;  // empty offsets: none

  void add_linear(std::string module, size_t n, size_t k, std::vector<float> weight, std::vector<float> bias,
                  std::string origin, std::vector<float> int8_steps = {}) {
    params.push_back({ParamKind::kLinear, std::move(module), n, k, std::move(weight), std::move(bias),
                      std::move(origin), std::move(int8_steps)});
  }
  void add_norm(std::string module, std::vector<float> gamma, std::vector<float> beta, std::string origin) {
    const size_t n = gamma.size();
    params.push_back({ParamKind::kNorm,
                      std::move(module),
                      n,
                      0,
                      std::move(gamma),
                      std::move(beta),
                      std::move(origin),
                      {}});
  }
};

}  // namespace edgemt::convert
