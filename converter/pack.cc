#include "converter/pack.h"

#include <cmath>
#include <cstring>
#include <regex>

#include "converter/checkpoint.h"
#include "converter/quantize.h"
#include "ops/gemm/pack.h"
#include "runtime/model/names.h"

namespace edgemt::convert {
namespace {

SpecTensor f32_tensor(std::string name, std::vector<int64_t> shape, const std::vector<float>& v) {
  SpecTensor t;
  t.name = std::move(name);
  t.shape = std::move(shape);
  t.data.resize(v.size() * sizeof(float));
  std::memcpy(t.data.data(), v.data(), t.data.size());
  return t;
}

SpecTensor f32_panels(std::string name, size_t n, size_t k, const std::vector<float>& w) {
  std::vector<float> packed(ops::f32_panel_size(n, k));
  ops::pack_f32_panels(n, k, w.data(), packed.data());
  SpecTensor t = f32_tensor(std::move(name), {static_cast<int64_t>(n), static_cast<int64_t>(k)}, packed);
  t.layout = TensorLayout::kPanelF32x16;
  return t;
}

// name: edgemt's name; origin: the checkpoint's, if known.
void check(const std::string& name, const std::vector<float>& v, size_t want,
           const std::string& origin = {}) {
  const std::string what = "tensor " + name + (origin.empty() ? "" : " (" + origin + " in the checkpoint)");
  if (v.size() != want)
    throw ConvertError(what + " has " + std::to_string(v.size()) + " values, expected " +
                       std::to_string(want));
  for (size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i]))
      throw ConvertError(what + " has a non-finite value at index " + std::to_string(i));
}

}  // namespace

bool is_language_code(std::string_view code) {
  static const std::regex kCode("[a-z]{2,3}(-[A-Za-z0-9]{2,8})?");
  return std::regex_match(code.begin(), code.end(), kCode);
}

ModelSpec pack_model(SourceModel src, const ConvertOptions& opt) {
  ModelSpec spec;
  spec.config = src.config;
  spec.generation = std::move(src.generation);
  spec.source_spm = std::move(src.source_spm);
  spec.target_spm = std::move(src.target_spm);
  spec.source_vocab = std::move(src.source_vocab);
  spec.target_vocab = std::move(src.target_vocab);
  spec.metadata = std::move(src.metadata);
  if (!opt.source_language.empty() || !opt.target_language.empty()) {
    for (const std::string* code : {&opt.source_language, &opt.target_language})
      if (!is_language_code(*code))
        throw ConvertError("'" + *code + "' is not a language code (such as en, de, pt-br)");
    std::erase_if(spec.metadata, [](const auto& kv) {
      return kv.first == "source_language" || kv.first == "target_language";
    });
    spec.metadata.emplace_back("source_language", opt.source_language);
    spec.metadata.emplace_back("target_language", opt.target_language);
  }
  spec.shortlist = std::move(src.shortlist);
  ModelConfig& c = spec.config;
  const size_t d = static_cast<size_t>(c.d_model);
  const size_t sv = static_cast<size_t>(c.source_vocab_size), tv = static_cast<size_t>(c.target_vocab_size);
  const bool shared = c.shared_embeddings, tie = src.config.tied_output;

  check(std::string(names::kEncoderEmbedTokens), src.source_embed, sv * d);
  if (!shared) check(std::string(names::kDecoderEmbedTokens), src.target_embed, tv * d);
  check(std::string(names::kEncoderEmbedPositions), src.positions, static_cast<size_t>(c.max_positions) * d);

  // Embeddings. An int8 table that is also the tied output projection is stored once,
  // in the gemm kernels' panel layout (lookups gather its rows); otherwise row-major.
  // The tied projection reads the table, unless int8 linears keep f32 embeddings (then
  // the projection gets its own int8 weight below).
  const bool int8_embeddings = opt.quantize_int8 && !opt.keep_embeddings_f32;
  const bool table_is_output = tie && !(opt.quantize_int8 && opt.keep_embeddings_f32);
  auto add_embedding = [&](std::string_view name, size_t rows, const std::vector<float>& table,
                           bool is_output, float int8_step) {
    if (int8_embeddings) {
      spec.tensors.push_back(
          quantize_embedding(std::string(name), rows, d, table, is_output, int8_step, opt.int8_levels));
    } else if (is_output) {
      spec.tensors.push_back(f32_panels(std::string(name), rows, d, table));
    } else {
      spec.tensors.push_back(
          f32_tensor(std::string(name), {static_cast<int64_t>(rows), static_cast<int64_t>(d)}, table));
    }
  };
  add_embedding(names::kEncoderEmbedTokens, sv, src.source_embed, table_is_output && shared,
                src.source_embed_int8_step);
  if (!shared)
    add_embedding(names::kDecoderEmbedTokens, tv, src.target_embed, table_is_output,
                  src.target_embed_int8_step);
  spec.tensors.push_back(f32_tensor(std::string(names::kEncoderEmbedPositions),
                                    {c.max_positions, static_cast<int64_t>(d)}, src.positions));

  for (const SourceParam& p : src.params) {
    if (p.kind == ParamKind::kNorm) {
      check(names::weight(p.module), p.weight, p.n, p.origin);
      check(names::bias(p.module), p.bias, p.n, p.origin);
      spec.tensors.push_back(f32_tensor(names::weight(p.module), {static_cast<int64_t>(p.n)}, p.weight));
      spec.tensors.push_back(f32_tensor(names::bias(p.module), {static_cast<int64_t>(p.n)}, p.bias));
      continue;
    }
    check(names::weight(p.module), p.weight, p.n * p.k, p.origin);
    if (opt.quantize_int8) {
      spec.tensors.push_back(
          quantize_linear(names::weight(p.module), p.n, p.k, p.weight, p.int8_steps, opt.int8_levels));
    } else {
      spec.tensors.push_back(f32_panels(names::weight(p.module), p.n, p.k, p.weight));
    }
    if (!p.bias.empty()) {
      check(names::bias(p.module), p.bias, p.n, p.origin);
      spec.tensors.push_back(f32_tensor(names::bias(p.module), {static_cast<int64_t>(p.n)}, p.bias));
    }
  }

  // Tied output with f32 embeddings and int8 linears: the projection gets its own int8 weight.
  if (tie && opt.quantize_int8 && opt.keep_embeddings_f32) {
    c.tied_output = false;
    const float step = shared ? src.source_embed_int8_step : src.target_embed_int8_step;
    spec.tensors.push_back(quantize_linear(names::weight(names::kOutputProjection), tv, d,
                                           shared ? src.source_embed : src.target_embed,
                                           std::vector<float>(step > 0.0f ? tv : 0, step), opt.int8_levels));
  }
  // A bias of zeros is not stored.
  bool nonzero = false;
  for (float v : src.final_logits_bias) nonzero = nonzero || v != 0.0f;
  if (nonzero) {
    check(std::string(names::kFinalLogitsBias), src.final_logits_bias, tv);
    c.has_final_logits_bias = true;
    spec.tensors.push_back(
        f32_tensor(std::string(names::kFinalLogitsBias), {static_cast<int64_t>(tv)}, src.final_logits_bias));
  }
  spec.metadata.emplace_back("weights", opt.quantize_int8
                                            ? (opt.keep_embeddings_f32 ? "int8 (f32 embeddings)" : "int8")
                                            : "float32");
  return spec;
}

}  // namespace edgemt::convert
