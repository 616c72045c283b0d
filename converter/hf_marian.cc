// Hugging Face MarianMT (or Pegasus: the same with pre-norm layers) directory -> SourceModel
// (packed by pack.h).
//
// MarianMT specifics (transformers/models/marian):
// - token ids come from vocab.json (and target_vocab.json with separate vocabularies),
//   not from SentencePiece's own ids; unknown pieces map to <unk>;
// - positions are sinusoidal and generated, not stored: for position p and column j,
//   angle = p / 10000^(2 * (j // 2) / d), sin of the even-j angles in the first half of
//   the vector, cos of the odd-j angles in the second half (computed in double, like
//   numpy, then rounded to float);
// - post-norm layers, embeddings scaled by sqrt(d_model) when scale_embedding;
// - lm_head is tied to the decoder embeddings unless tie_word_embeddings is false;
//   final_logits_bias is added to the logits;
// - the pad id is also the decoder start id, and pad is never generated.
#include "converter/hf_marian.h"

#include <sentencepiece_processor.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "converter/checkpoint.h"
#include "converter/pack.h"
#include "runtime/model/names.h"

namespace edgemt::convert {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json read_json(const fs::path& p, bool required) {
  if (!fs::exists(p)) {
    if (required) throw ConvertError("missing file " + p.string());
    return json::object();
  }
  std::ifstream in(p);
  if (!in) throw ConvertError("cannot read " + p.string());
  try {
    json j;
    in >> j;
    if (!j.is_object()) throw ConvertError(p.string() + " is not a JSON object");
    return j;
  } catch (const json::exception& e) {
    throw ConvertError(p.string() + " is not valid JSON: " + e.what());
  }
}

std::string read_file(const fs::path& p) {
  if (!fs::exists(p)) throw ConvertError("missing file " + p.string());
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  if (!in && !in.eof()) throw ConvertError("cannot read " + p.string());
  return ss.str();
}

int get_int(const json& j, const char* key, const std::string& file) {
  if (!j.contains(key)) throw ConvertError(file + " has no " + key);
  const json& v = j.at(key);
  if (!v.is_number_integer()) throw ConvertError(file + ": " + key + " must be an integer");
  const int64_t x = v.get<int64_t>();
  if (x < INT32_MIN || x > INT32_MAX) throw ConvertError(file + ": " + key + " is out of range");
  return static_cast<int>(x);
}

int get_int_or(const json& j, const char* key, int def, const std::string& file) {
  if (!j.contains(key) || j.at(key).is_null()) return def;
  return get_int(j, key, file);
}

bool get_bool_or(const json& j, const char* key, bool def) {
  if (!j.contains(key) || !j.at(key).is_boolean()) return def;
  return j.at(key).get<bool>();
}

// A generation setting from generation_config.json, else config.json.
const json* gen_value(const json& gen, const json& cfg, const char* key) {
  if (gen.contains(key) && !gen.at(key).is_null()) return &gen.at(key);
  if (cfg.contains(key) && !cfg.at(key).is_null()) return &cfg.at(key);
  return nullptr;
}

std::vector<std::string> read_vocab(const fs::path& p, int size) {
  const json j = read_json(p, true);
  std::vector<std::string> pieces(static_cast<size_t>(size));
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!it.value().is_number_integer())
      throw ConvertError(p.string() + ": the id of '" + it.key() + "' is not an integer");
    const int64_t id = it.value().get<int64_t>();
    if (id < 0 || id >= size)
      throw ConvertError(p.string() + ": piece '" + it.key() + "' has id " + std::to_string(id) +
                         ", outside the model's vocabulary of " + std::to_string(size));
    if (!pieces[static_cast<size_t>(id)].empty())
      throw ConvertError(p.string() + ": id " + std::to_string(id) + " is used by two pieces");
    if (it.key().empty()) throw ConvertError(p.string() + ": an empty piece has id " + std::to_string(id));
    pieces[static_cast<size_t>(id)] = it.key();
  }
  return pieces;
}

void check_spm(const std::string& bytes, const fs::path& p) {
  sentencepiece::SentencePieceProcessor sp;
  const auto st = sp.LoadFromSerializedProto(bytes);
  if (!st.ok()) throw ConvertError(p.string() + " is not a SentencePiece model: " + st.ToString());
}

class Reader {
 public:
  Reader(const Checkpoint& ck) : ck_(ck) {}

  FloatTensor get(const std::string& name, const std::vector<int64_t>& shape) const {
    const std::string n = resolve(name);
    if (n.empty()) throw ConvertError("tensor " + name + " is missing from the checkpoint");
    FloatTensor t = ck_.read(n);
    if (t.shape != shape)
      throw ConvertError("tensor " + n + " has shape " + shape_to_string(t.shape) + ", expected " +
                         shape_to_string(shape));
    return t;
  }
  bool has(const std::string& name) const { return !resolve(name).empty(); }

 private:
  // Checkpoints saved from MarianMTModel prefix names with "model."; from MarianModel not.
  std::string resolve(const std::string& name) const {
    if (ck_.has(name)) return name;
    if (name.rfind("model.", 0) == 0 && ck_.has(name.substr(6))) return name.substr(6);
    return "";
  }
  const Checkpoint& ck_;
};

// A linear layer from one or more HF linears stacked along the output dimension.
void add_linear(SourceModel* m, const Reader& r, const std::string& module,
                const std::vector<std::string>& hf, size_t n_each, size_t k) {
  std::vector<float> w, b;
  w.reserve(hf.size() * n_each * k);
  bool has_bias = true;
  for (const std::string& h : hf) has_bias = has_bias && r.has(h + ".bias");
  for (const std::string& h : hf) {
    FloatTensor t = r.get(h + ".weight", {static_cast<int64_t>(n_each), static_cast<int64_t>(k)});
    w.insert(w.end(), t.data.begin(), t.data.end());
    if (has_bias) {
      FloatTensor bt = r.get(h + ".bias", {static_cast<int64_t>(n_each)});
      b.insert(b.end(), bt.data.begin(), bt.data.end());
    }
  }
  std::string origin;
  for (const std::string& h : hf) origin += (origin.empty() ? "" : " + ") + h;
  m->add_linear(module, n_each * hf.size(), k, std::move(w), std::move(b), origin);
}

void add_norm(SourceModel* m, const Reader& r, const std::string& module, const std::string& hf, size_t d) {
  FloatTensor g = r.get(hf + ".weight", {static_cast<int64_t>(d)});
  FloatTensor b = r.get(hf + ".bias", {static_cast<int64_t>(d)});
  m->add_norm(module, std::move(g.data), std::move(b.data), hf);
}

std::vector<float> marian_positions(int n_pos, int dim) {
  std::vector<float> out(static_cast<size_t>(n_pos) * static_cast<size_t>(dim));
  const int sentinel = dim % 2 == 0 ? dim / 2 : dim / 2 + 1;
  for (int p = 0; p < n_pos; ++p) {
    float* row = out.data() + static_cast<size_t>(p) * static_cast<size_t>(dim);
    // Column j of position_enc is p / 10000^(2 * (j // 2) / dim); the first half takes
    // sin of the even columns, the second half cos of the odd columns.
    int c = 0;
    for (int j = 0; j < dim; j += 2, ++c) {
      const double angle =
          static_cast<double>(p) / std::pow(10000.0, 2.0 * (j / 2) / static_cast<double>(dim));
      row[c] = static_cast<float>(std::sin(angle));
    }
    c = sentinel;
    for (int j = 1; j < dim; j += 2, ++c) {
      const double angle =
          static_cast<double>(p) / std::pow(10000.0, 2.0 * (j / 2) / static_cast<double>(dim));
      row[c] = static_cast<float>(std::cos(angle));
    }
  }
  return out;
}

}  // namespace

bool is_hf_marian_dir(const std::string& input) {
  return fs::is_directory(input) && fs::exists(fs::path(input) / "config.json");
}

SourceModel read_hf_marian(const std::string& dir_path) {
  const fs::path dir(dir_path);
  if (!fs::is_directory(dir)) throw ConvertError(dir_path + " is not a directory");
  const std::string cfg_file = (dir / "config.json").string();
  const json cfg = read_json(dir / "config.json", true);
  const json gen = read_json(dir / "generation_config.json", false);
  const json tokcfg = read_json(dir / "tokenizer_config.json", false);

  const std::string model_type = cfg.value("model_type", std::string());
  // Pegasus is MarianMT with pre-norm layers and a final layer norm after each stack
  // (same positions, embeddings scale, tied output, final_logits_bias and tensor names).
  const bool pegasus = model_type == "pegasus";
  if (model_type != "marian" && !pegasus)
    throw ConvertError(cfg_file + ": model_type is '" + model_type +
                       "'; edgemt-convert reads MarianMT ('marian') and Pegasus ('pegasus') models");
  if (cfg.contains("is_encoder_decoder") && cfg["is_encoder_decoder"].is_boolean() &&
      !cfg["is_encoder_decoder"].get<bool>())
    throw ConvertError(cfg_file + ": is_encoder_decoder is false; only encoder-decoder models are supported");

  SourceModel spec;
  ModelConfig& c = spec.config;
  c.d_model = get_int(cfg, "d_model", cfg_file);
  c.encoder_layers = get_int(cfg, "encoder_layers", cfg_file);
  c.decoder_layers = get_int(cfg, "decoder_layers", cfg_file);
  c.encoder_heads = get_int(cfg, "encoder_attention_heads", cfg_file);
  c.decoder_heads = get_int(cfg, "decoder_attention_heads", cfg_file);
  c.encoder_ffn_dim = get_int(cfg, "encoder_ffn_dim", cfg_file);
  c.decoder_ffn_dim = get_int(cfg, "decoder_ffn_dim", cfg_file);
  c.max_positions = get_int(cfg, "max_position_embeddings", cfg_file);
  c.source_vocab_size = get_int(cfg, "vocab_size", cfg_file);
  c.target_vocab_size = get_int_or(cfg, "decoder_vocab_size", c.source_vocab_size, cfg_file);
  c.shared_embeddings = get_bool_or(cfg, "share_encoder_decoder_embeddings", true);
  const bool tie = get_bool_or(cfg, "tie_word_embeddings", true);
  c.tied_output = tie;
  if (c.shared_embeddings && c.target_vocab_size != c.source_vocab_size)
    throw ConvertError(cfg_file + ": share_encoder_decoder_embeddings with vocab_size " +
                       std::to_string(c.source_vocab_size) + " != decoder_vocab_size " +
                       std::to_string(c.target_vocab_size));
  auto positive = [&](const char* what, int v) {
    if (v <= 0) throw ConvertError(cfg_file + ": " + what + " must be positive, got " + std::to_string(v));
  };
  positive("d_model", c.d_model);
  positive("encoder_layers", c.encoder_layers);
  positive("decoder_layers", c.decoder_layers);
  positive("encoder_attention_heads", c.encoder_heads);
  positive("decoder_attention_heads", c.decoder_heads);
  positive("encoder_ffn_dim", c.encoder_ffn_dim);
  positive("decoder_ffn_dim", c.decoder_ffn_dim);
  positive("max_position_embeddings", c.max_positions);
  positive("vocab_size", c.source_vocab_size);
  positive("decoder_vocab_size", c.target_vocab_size);
  if (c.d_model % c.encoder_heads != 0 || c.d_model % c.decoder_heads != 0)
    throw ConvertError(cfg_file + ": d_model " + std::to_string(c.d_model) +
                       " is not divisible by the attention heads");

  const std::string act = cfg.value("activation_function", std::string("gelu"));
  if (act == "relu")
    c.activation = ops::Activation::kRelu;
  else if (act == "gelu")
    c.activation = ops::Activation::kGelu;
  else if (act == "swish" || act == "silu")
    c.activation = ops::Activation::kSwish;
  else if (act == "gelu_new" || act == "gelu_pytorch_tanh" || act == "gelu_fast")
    c.activation = ops::Activation::kGeluTanh;
  else
    throw ConvertError(cfg_file + ": activation_function '" + act +
                       "' is not supported (relu, gelu, swish/silu, gelu_new)");
  c.norm_placement = pegasus ? NormPlacement::kPre : NormPlacement::kPost;
  c.position_kind = PositionKind::kSinusoidalSplit;
  c.decoder_layer_kind = DecoderLayerKind::kTransformer;
  c.layer_norm_epsilon = 1e-5f;
  const bool scale = get_bool_or(cfg, "scale_embedding", false);
  c.embedding_scale = scale ? static_cast<float>(std::sqrt(static_cast<double>(c.d_model))) : 1.0f;
  c.pad_id = get_int(cfg, "pad_token_id", cfg_file);
  if (cfg.contains("eos_token_id") && cfg["eos_token_id"].is_array()) {
    if (cfg["eos_token_id"].size() != 1)
      throw ConvertError(cfg_file + ": several eos_token_id values are not supported");
    c.eos_id = cfg["eos_token_id"][0].get<int>();
  } else {
    c.eos_id = get_int(cfg, "eos_token_id", cfg_file);
  }
  c.decoder_start_id = get_int_or(cfg, "decoder_start_token_id", c.pad_id, cfg_file);
  if (const json* v = gen_value(gen, json::object(), "decoder_start_token_id");
      v != nullptr && v->is_number_integer())
    c.decoder_start_id = v->get<int>();

  // Vocabularies (ids from vocab.json, as MarianTokenizer).
  const bool separate = get_bool_or(tokcfg, "separate_vocabs", false);
  spec.source_vocab = read_vocab(dir / "vocab.json", c.source_vocab_size);
  if (separate) {
    spec.target_vocab = read_vocab(dir / "target_vocab.json", c.target_vocab_size);
  } else if (c.target_vocab_size != c.source_vocab_size) {
    spec.target_vocab = read_vocab(dir / "vocab.json", c.target_vocab_size);
  }
  int unk = -1;
  for (size_t i = 0; i < spec.source_vocab.size(); ++i)
    if (spec.source_vocab[i] == "<unk>") unk = static_cast<int>(i);
  if (unk < 0) throw ConvertError((dir / "vocab.json").string() + " has no <unk> piece");
  c.unk_id = unk;
  const int vmin = std::min(c.source_vocab_size, c.target_vocab_size);
  auto check_id = [&](const char* what, int id, int limit) {
    if (id < 0 || id >= limit)
      throw ConvertError(cfg_file + ": " + what + " " + std::to_string(id) +
                         " is outside the vocabulary [0, " + std::to_string(limit) + ")");
  };
  check_id("pad_token_id", c.pad_id, vmin);
  check_id("eos_token_id", c.eos_id, vmin);
  check_id("decoder_start_token_id", c.decoder_start_id, c.target_vocab_size);

  spec.source_spm = read_file(dir / "source.spm");
  spec.target_spm = read_file(dir / "target.spm");
  check_spm(spec.source_spm, dir / "source.spm");
  check_spm(spec.target_spm, dir / "target.spm");

  // Generation defaults: generation_config.json, else config.json.
  GenerationDefaults& g = spec.generation;
  if (const json* v = gen_value(gen, cfg, "num_beams"); v && v->is_number_integer())
    g.num_beams = std::max(1, v->get<int>());
  if (const json* v = gen_value(gen, cfg, "max_length"); v && v->is_number_integer()) {
    g.max_length = std::max(0, v->get<int>());
  } else {
    // transformers' GenerationConfig default: 20 tokens including the decoder start.
    g.max_length = 20;
    std::fprintf(stderr,
                 "edgemt-convert: note: no max_length in the checkpoint; using transformers' default of 20 "
                 "(translate --max-length overrides it)\n");
  }
  if (const json* v = gen_value(gen, cfg, "length_penalty"); v && v->is_number())
    g.length_penalty = v->get<float>();
  // early_stopping: true unless the checkpoint says otherwise ("never" is kept as false).
  if (const json* v = gen_value(gen, cfg, "early_stopping"); v && v->is_boolean())
    g.early_stopping = v->get<bool>();
  if (const json* v = gen_value(gen, cfg, "forced_eos_token_id"); v) {
    if (v->is_number_integer())
      g.forced_eos_id = v->get<int>();
    else if (v->is_array() && v->size() == 1)
      g.forced_eos_id = (*v)[0].get<int>();
    if (g.forced_eos_id >= c.target_vocab_size)
      throw ConvertError("forced_eos_token_id is outside the target vocabulary");
  }
  g.banned_ids.push_back(c.pad_id);  // pad is never generated
  if (const json* v = gen_value(gen, cfg, "bad_words_ids"); v && v->is_array()) {
    for (const json& seq : *v) {
      if (seq.is_array() && seq.size() == 1 && seq[0].is_number_integer()) {
        const int id = seq[0].get<int>();
        check_id("bad_words_ids entry", id, c.target_vocab_size);
        if (std::find(g.banned_ids.begin(), g.banned_ids.end(), id) == g.banned_ids.end())
          g.banned_ids.push_back(id);
      } else {
        std::fprintf(stderr, "edgemt-convert: warning: multi-token bad_words_ids entries are ignored\n");
      }
    }
  }
  for (const char* key : {"no_repeat_ngram_size", "repetition_penalty", "min_length", "min_new_tokens"}) {
    if (const json* v = gen_value(gen, cfg, key);
        v && v->is_number() && v->get<double>() != 0.0 &&
        !(std::string(key) == "repetition_penalty" && v->get<double>() == 1.0))
      std::fprintf(stderr, "edgemt-convert: warning: %s is not supported and is ignored\n", key);
  }

  // Weights.
  std::unique_ptr<Checkpoint> ck = open_safetensors(dir_path);
  if (ck == nullptr) {
    const fs::path bin = dir / "pytorch_model.bin";
    if (!fs::exists(bin)) throw ConvertError("no model.safetensors or pytorch_model.bin in " + dir_path);
    ck = open_pytorch_bin(bin.string());
  }
  const Reader r(*ck);
  const size_t d = static_cast<size_t>(c.d_model);
  const int64_t di = c.d_model;
  auto embedding = [&](const std::vector<std::string>& candidates, int rows) {
    for (const std::string& n : candidates)
      if (r.has(n)) return r.get(n, {rows, di}).data;
    throw ConvertError("tensor " + candidates.front() + " is missing from the checkpoint");
  };
  if (c.shared_embeddings) {
    spec.source_embed = embedding(
        {"model.shared.weight", "model.encoder.embed_tokens.weight", "model.decoder.embed_tokens.weight"},
        c.source_vocab_size);
  } else {
    spec.source_embed =
        embedding({"model.encoder.embed_tokens.weight", "model.shared.weight"}, c.source_vocab_size);
    spec.target_embed = embedding({"model.decoder.embed_tokens.weight"}, c.target_vocab_size);
  }
  spec.positions = marian_positions(c.max_positions, c.d_model);

  using names::Stack;
  const size_t ef = static_cast<size_t>(c.encoder_ffn_dim), df = static_cast<size_t>(c.decoder_ffn_dim);
  for (int i = 0; i < c.encoder_layers; ++i) {
    const std::string p = "model.encoder.layers." + std::to_string(i) + ".";
    add_linear(&spec, r, names::layer(Stack::kEncoder, i, names::kSelfQkv),
               {p + "self_attn.q_proj", p + "self_attn.k_proj", p + "self_attn.v_proj"}, d, d);
    add_linear(&spec, r, names::layer(Stack::kEncoder, i, names::kSelfOut), {p + "self_attn.out_proj"}, d, d);
    add_norm(&spec, r, names::layer(Stack::kEncoder, i, names::kSelfNorm), p + "self_attn_layer_norm", d);
    add_linear(&spec, r, names::layer(Stack::kEncoder, i, names::kFc1), {p + "fc1"}, ef, d);
    add_linear(&spec, r, names::layer(Stack::kEncoder, i, names::kFc2), {p + "fc2"}, d, ef);
    add_norm(&spec, r, names::layer(Stack::kEncoder, i, names::kFinalNorm), p + "final_layer_norm", d);
  }
  for (int i = 0; i < c.decoder_layers; ++i) {
    const std::string p = "model.decoder.layers." + std::to_string(i) + ".";
    add_linear(&spec, r, names::layer(Stack::kDecoder, i, names::kSelfQkv),
               {p + "self_attn.q_proj", p + "self_attn.k_proj", p + "self_attn.v_proj"}, d, d);
    add_linear(&spec, r, names::layer(Stack::kDecoder, i, names::kSelfOut), {p + "self_attn.out_proj"}, d, d);
    add_norm(&spec, r, names::layer(Stack::kDecoder, i, names::kSelfNorm), p + "self_attn_layer_norm", d);
    add_linear(&spec, r, names::layer(Stack::kDecoder, i, names::kCrossQ), {p + "encoder_attn.q_proj"}, d, d);
    add_linear(&spec, r, names::layer(Stack::kDecoder, i, names::kCrossKv),
               {p + "encoder_attn.k_proj", p + "encoder_attn.v_proj"}, d, d);
    add_linear(&spec, r, names::layer(Stack::kDecoder, i, names::kCrossOut), {p + "encoder_attn.out_proj"}, d,
               d);
    add_norm(&spec, r, names::layer(Stack::kDecoder, i, names::kCrossNorm), p + "encoder_attn_layer_norm", d);
    add_linear(&spec, r, names::layer(Stack::kDecoder, i, names::kFc1), {p + "fc1"}, df, d);
    add_linear(&spec, r, names::layer(Stack::kDecoder, i, names::kFc2), {p + "fc2"}, d, df);
    add_norm(&spec, r, names::layer(Stack::kDecoder, i, names::kFinalNorm), p + "final_layer_norm", d);
  }

  if (pegasus) {
    add_norm(&spec, r, std::string(names::kEncoderLayerNorm), "model.encoder.layer_norm", d);
    add_norm(&spec, r, std::string(names::kDecoderLayerNorm), "model.decoder.layer_norm", d);
  }

  // Output projection: the decoder embeddings unless tie_word_embeddings is false.
  const int64_t tv = c.target_vocab_size;
  if (!tie) {
    if (!r.has("lm_head.weight"))
      throw ConvertError("tie_word_embeddings is false but lm_head.weight is missing");
    // lm_head has no bias in MarianMT; add_linear adds one only if present.
    add_linear(&spec, r, std::string(names::kOutputProjection), {"lm_head"}, static_cast<size_t>(tv), d);
  }
  if (r.has("final_logits_bias")) {
    FloatTensor b = ck->read(ck->has("final_logits_bias") ? "final_logits_bias" : "model.final_logits_bias");
    if (b.numel() != static_cast<size_t>(tv))
      throw ConvertError("tensor final_logits_bias has shape " + shape_to_string(b.shape) +
                         ", expected [1, " + std::to_string(tv) + "]");
    spec.final_logits_bias = std::move(b.data);
  }

  spec.metadata.emplace_back("converter", "edgemt-convert");
  spec.metadata.emplace_back("source_format", "huggingface-marian");
  spec.metadata.emplace_back("source_dir", fs::absolute(dir).lexically_normal().string());
  // The language pair, when tokenizer_config.json names one (Opus-MT's and tools/train's
  // exports do): translate --from/--to and the server find models by it. Only language
  // codes ("en", "de", "pt-br"): group names such as Opus-MT's "ROMANCE" are not a pair.
  const json tok = read_json(dir / "tokenizer_config.json", false);
  auto language_code = [&](const char* key) -> std::string {
    if (!tok.contains(key) || !tok[key].is_string()) return "";
    const std::string v = tok[key].get<std::string>();
    return is_language_code(v) ? v : "";
  };
  if (const std::string s = language_code("source_lang"), t = language_code("target_lang");
      !s.empty() && !t.empty()) {
    spec.metadata.emplace_back("source_language", s);
    spec.metadata.emplace_back("target_language", t);
  }
  return spec;
}

}  // namespace edgemt::convert
