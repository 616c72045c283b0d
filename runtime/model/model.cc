#include "runtime/model/model.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <regex>
#include <string_view>
#include <unordered_map>

#include "runtime/core/arena.h"
#include "runtime/model/config_schema.h"
#include "runtime/model/schema_version.h"
#include "runtime/model/tensor_table.h"
#include "schema/edgemt_generated.h"

namespace edgemt {

namespace {

Status check_range(const char* what, int64_t v, int64_t lo, int64_t hi) {
  if (v < lo || v > hi)
    return invalid_model(std::string("config ") + what + " = " + std::to_string(v) + " is outside [" +
                         std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return Status::ok();
}

}  // namespace

namespace {

// What a file that is not an edgemt model seems to be, by its first bytes: the
// checkpoints and compressed files people point a runtime at before converting them.
std::string_view looks_like(const uint8_t* d, size_t n) {
  auto starts = [&](std::string_view magic) {
    return n >= magic.size() && std::memcmp(d, magic.data(), magic.size()) == 0;
  };
  if (starts(std::string_view("PK\x03\x04", 4)))
    return "a zip archive (a Marian .npz, or a pytorch_model.bin)";
  if (starts("\x1f\x8b")) return "a gzip-compressed file (Firefox Translations ships its models' files so)";
  if (starts("\x28\xb5\x2f\xfd"))
    return "a zstd-compressed file (Firefox Translations ships its models' files so)";
  if (starts(std::string_view("\x01\0\0\0\0\0\0\0", 8))) return "a Marian binary model (.bin)";
  if (n >= 9 && d[8] == '{') {
    uint64_t header = 0;
    std::memcpy(&header, d, 8);
    if (header > 1 && header < n) return "a safetensors file";
  }
  return {};
}

}  // namespace

Expected<std::shared_ptr<const Model>> Model::load(const std::string& path) {
  if (std::error_code ec; std::filesystem::is_directory(path, ec))
    return invalid_argument(
        path +
        " is a directory, not an edgemt model file (.emt); a model directory (Hugging Face "
        "MarianMT, Marian, Firefox Translations) converts into one: edgemt-convert " +
        path + " model.emt");
  auto file = MappedFile::open(path);
  if (!file) return file.status();
  std::shared_ptr<Model> m(new Model());
  m->file_ = std::move(file.value());
  m->data_ = m->file_.data();
  m->size_ = m->file_.size();
  m->file_name_ = std::filesystem::path(path).filename().string();
  auto r = finish(std::move(m));
  if (!r) return Status(r.status().code(), "failed to load model " + path + ": " + r.status().message());
  return r;
}

Expected<std::shared_ptr<const Model>> Model::from_bytes(const void* data, size_t size) {
  std::shared_ptr<Model> m(new Model());
  if (size > 0) {
    void* p = std::aligned_alloc(64, align_up(size, 64));
    if (p == nullptr) return out_of_range("cannot allocate " + std::to_string(size) + " bytes");
    std::memcpy(p, data, size);
    m->owned_ = std::unique_ptr<uint8_t[], void (*)(uint8_t*)>(static_cast<uint8_t*>(p),
                                                               [](uint8_t* q) { std::free(q); });
    m->data_ = m->owned_.get();
  }
  m->size_ = size;
  return finish(std::move(m));
}

Expected<std::shared_ptr<const Model>> Model::finish(std::shared_ptr<Model> m) {
  EDGEMT_RETURN_IF_ERROR(m->parse());
  return std::shared_ptr<const Model>(std::move(m));
}

Status Model::parse() {
  if (size_ < 16)
    return invalid_model("the file is too small to be an edgemt model (" + std::to_string(size_) + " bytes)");
  if (size_ >= (size_t{1} << 31)) return invalid_model("the file is larger than the 2 GiB FlatBuffers limit");
  if (!flatbuffers::BufferHasIdentifier(data_, kFileIdentifier, /*size_prefixed=*/true)) {
    const std::string_view seems = looks_like(data_, size_);
    return invalid_model("not an edgemt model file (file identifier is not \"EMT1\")" +
                         (seems.empty() ? std::string()
                                        : "; it looks like " + std::string(seems) +
                                              ": convert the model with edgemt-convert first"));
  }
  // The file starts with its own length: a truncated or extended file is caught even
  // where only padding is missing.
  const size_t declared =
      static_cast<size_t>(flatbuffers::GetPrefixedSize(data_)) + sizeof(flatbuffers::uoffset_t);
  if (declared != size_)
    return invalid_model("the file is truncated or has trailing data: it declares " +
                         std::to_string(declared) + " bytes but has " + std::to_string(size_));
  flatbuffers::Verifier verifier(data_, size_, /*max_depth=*/64, /*max_tables=*/1000000);
  if (!fb::VerifySizePrefixedModelBuffer(verifier))
    return invalid_model("the file is corrupt (FlatBuffers verification failed)");
  const fb::Model* fm = fb::GetSizePrefixedModel(data_);
  if (fm->schema_version() == 0 || fm->schema_version() > kSchemaVersion)
    return invalid_model("schema version " + std::to_string(fm->schema_version()) +
                         " is not supported (this build reads versions 1 to " +
                         std::to_string(kSchemaVersion) + ")");
  const fb::Config* c = fm->config();
  if (c == nullptr) return invalid_model("the model has no config");

  ModelConfig& cfg = config_;
  EDGEMT_RETURN_IF_ERROR(check_range("d_model", c->d_model(), 1, 1 << 16));
  EDGEMT_RETURN_IF_ERROR(check_range("encoder_layers", c->encoder_layers(), 1, 256));
  EDGEMT_RETURN_IF_ERROR(check_range("decoder_layers", c->decoder_layers(), 1, 256));
  EDGEMT_RETURN_IF_ERROR(check_range("encoder_heads", c->encoder_heads(), 1, c->d_model()));
  EDGEMT_RETURN_IF_ERROR(check_range("decoder_heads", c->decoder_heads(), 1, c->d_model()));
  EDGEMT_RETURN_IF_ERROR(check_range("encoder_ffn_dim", c->encoder_ffn_dim(), 1, 1 << 20));
  EDGEMT_RETURN_IF_ERROR(check_range("decoder_ffn_dim", c->decoder_ffn_dim(), 1, 1 << 20));
  EDGEMT_RETURN_IF_ERROR(check_range("source_vocab_size", c->source_vocab_size(), 2, 1 << 24));
  EDGEMT_RETURN_IF_ERROR(check_range("target_vocab_size", c->target_vocab_size(), 2, 1 << 24));
  EDGEMT_RETURN_IF_ERROR(check_range("max_positions", c->max_positions(), 2, 1 << 20));
  if (c->d_model() % c->encoder_heads() != 0 || c->d_model() % c->decoder_heads() != 0)
    return invalid_model("config d_model " + std::to_string(c->d_model()) +
                         " is not divisible by the head count");
  cfg.source_vocab_size = c->source_vocab_size();
  cfg.target_vocab_size = c->target_vocab_size();
  cfg.d_model = c->d_model();
  cfg.encoder_layers = c->encoder_layers();
  cfg.decoder_layers = c->decoder_layers();
  cfg.encoder_heads = c->encoder_heads();
  cfg.decoder_heads = c->decoder_heads();
  cfg.encoder_ffn_dim = c->encoder_ffn_dim();
  cfg.decoder_ffn_dim = c->decoder_ffn_dim();
  const auto activation = from_schema(c->activation());
  if (!activation)
    return invalid_model("unknown activation " + std::to_string(static_cast<int>(c->activation())));
  cfg.activation = *activation;
  const auto placement = from_schema(c->norm_placement());
  if (!placement)
    return invalid_model("unknown norm placement " + std::to_string(static_cast<int>(c->norm_placement())));
  cfg.norm_placement = *placement;
  const auto positions = from_schema(c->position_kind());
  if (!positions)
    return invalid_model("unknown position kind " + std::to_string(static_cast<int>(c->position_kind())));
  cfg.position_kind = *positions;
  const auto layer_kind = from_schema(c->decoder_layer_kind());
  if (!layer_kind)
    return invalid_model("decoder layer kind " + std::to_string(static_cast<int>(c->decoder_layer_kind())) +
                         " is not one this build runs (a newer edgemt wrote this model?)");
  cfg.decoder_layer_kind = *layer_kind;
  cfg.layer_norm_epsilon = c->layer_norm_epsilon();
  if (!(cfg.layer_norm_epsilon > 0.0f && cfg.layer_norm_epsilon < 1.0f))
    return invalid_model("config layer_norm_epsilon " + std::to_string(cfg.layer_norm_epsilon) +
                         " is not in (0, 1)");
  cfg.max_positions = c->max_positions();
  cfg.embedding_scale = c->embedding_scale();
  if (!(cfg.embedding_scale > 0.0f && cfg.embedding_scale < 1e6f))
    return invalid_model("config embedding_scale " + std::to_string(cfg.embedding_scale) + " is invalid");
  cfg.shared_embeddings = c->shared_embeddings();
  cfg.tied_output = c->tied_output();
  cfg.has_final_logits_bias = c->has_final_logits_bias();
  cfg.pad_id = c->pad_id();
  cfg.eos_id = c->eos_id();
  cfg.unk_id = c->unk_id();
  cfg.decoder_start_id = c->decoder_start_id();
  if (cfg.shared_embeddings && cfg.source_vocab_size != cfg.target_vocab_size)
    return invalid_model("shared embeddings need equal source and target vocabulary sizes");
  const int64_t vmin = std::min(cfg.source_vocab_size, cfg.target_vocab_size);
  EDGEMT_RETURN_IF_ERROR(check_range("eos_id", cfg.eos_id, 0, vmin - 1));
  EDGEMT_RETURN_IF_ERROR(check_range("pad_id", cfg.pad_id, 0, vmin - 1));
  EDGEMT_RETURN_IF_ERROR(check_range("unk_id", cfg.unk_id, 0, cfg.source_vocab_size - 1));
  EDGEMT_RETURN_IF_ERROR(check_range("decoder_start_id", cfg.decoder_start_id, 0, cfg.target_vocab_size - 1));

  // Generation defaults.
  if (const fb::Generation* g = fm->generation(); g != nullptr) {
    EDGEMT_RETURN_IF_ERROR(check_range("num_beams", g->num_beams(), 1, 256));
    EDGEMT_RETURN_IF_ERROR(check_range("max_length", g->max_length(), 0, 1 << 20));
    EDGEMT_RETURN_IF_ERROR(check_range("forced_eos_id", g->forced_eos_id(), -1, cfg.target_vocab_size - 1));
    generation_.num_beams = g->num_beams();
    generation_.max_length = g->max_length();
    generation_.length_penalty = g->length_penalty();
    if (!(generation_.length_penalty > -100.0f && generation_.length_penalty < 100.0f))
      return invalid_model("generation length_penalty is invalid");
    generation_.early_stopping = g->early_stopping();
    switch (g->beam_style()) {
      case fb::BeamStyle::Transformers:
        generation_.beam_style = BeamStyle::kTransformers;
        break;
      case fb::BeamStyle::Marian:
        generation_.beam_style = BeamStyle::kMarian;
        break;
      default:
        return invalid_model("generation beam_style " + std::to_string(static_cast<int>(g->beam_style())) +
                             " is unknown (a newer converter wrote this file?)");
    }
    generation_.word_penalty = g->word_penalty();
    if (!(generation_.word_penalty > -1000.0f && generation_.word_penalty < 1000.0f))
      return invalid_model("generation word_penalty is invalid");
    generation_.max_length_factor = g->max_length_factor();
    if (!(generation_.max_length_factor >= 0.0f && generation_.max_length_factor < 1000.0f))
      return invalid_model("generation max_length_factor is invalid");
    generation_.forced_eos_id = g->forced_eos_id();
    if (g->banned_ids() != nullptr) {
      for (int32_t id : *g->banned_ids()) {
        EDGEMT_RETURN_IF_ERROR(check_range("banned id", id, 0, cfg.target_vocab_size - 1));
        generation_.banned_ids.push_back(id);
      }
    }
  }

  // Tensors: each part loads and verifies its own.
  TensorTable tt(data_);
  EDGEMT_RETURN_IF_ERROR(tt.index(fm));
  ModelWeights& w = weights_;
  EDGEMT_RETURN_IF_ERROR(w.load(tt, cfg));
  const size_t sv = static_cast<size_t>(cfg.source_vocab_size);
  const size_t tv = static_cast<size_t>(cfg.target_vocab_size);

  quantized_ = w.source_embed.type == WeightType::kI8;
  for (const auto& l : w.encoder) quantized_ = quantized_ || l.qkv.type == WeightType::kI8;
  size_t i8 = 0, w7 = 0;
  for (const LinearWeights* lw : w.linears()) {
    i8 += lw->type == WeightType::kI8 ? 1 : 0;
    w7 += lw->type == WeightType::kI8 && lw->w7 ? 1 : 0;
  }
  int8_w7_ = quantized_ && i8 > 0 && w7 == i8;

  // Tokenizer.
  const fb::Tokenizer* tok = fm->tokenizer();
  if (tok == nullptr || tok->source_spm() == nullptr || tok->target_spm() == nullptr ||
      tok->source_vocab() == nullptr || tok->source_vocab()->pieces() == nullptr)
    return invalid_model("the model has no tokenizer (SentencePiece models and vocabulary)");
  TokenizerSpec spec;
  spec.source_spm =
      std::string_view(reinterpret_cast<const char*>(tok->source_spm()->data()), tok->source_spm()->size());
  spec.target_spm =
      std::string_view(reinterpret_cast<const char*>(tok->target_spm()->data()), tok->target_spm()->size());
  for (const auto* s : *tok->source_vocab()->pieces()) spec.source_pieces.emplace_back(s->c_str(), s->size());
  if (tok->target_vocab() != nullptr && tok->target_vocab()->pieces() != nullptr)
    for (const auto* s : *tok->target_vocab()->pieces())
      spec.target_pieces.emplace_back(s->c_str(), s->size());
  if (spec.source_pieces.size() != sv)
    return invalid_model("the source vocabulary has " + std::to_string(spec.source_pieces.size()) +
                         " pieces, expected " + std::to_string(sv));
  if (!spec.target_pieces.empty() && spec.target_pieces.size() != tv)
    return invalid_model("the target vocabulary has " + std::to_string(spec.target_pieces.size()) +
                         " pieces, expected " + std::to_string(tv));
  if (spec.target_pieces.empty() && sv != tv)
    return invalid_model("the model has one vocabulary but different source and target sizes");
  spec.eos_id = cfg.eos_id;
  spec.unk_id = cfg.unk_id;
  spec.pad_id = cfg.pad_id;
  auto t = Tokenizer::create(std::move(spec));
  if (!t) return t.status();
  tokenizer_ = std::move(t.value());

  if (const fb::Shortlist* sl = fm->shortlist(); sl != nullptr) {
    if (sl->offsets() == nullptr || sl->targets() == nullptr || sl->offsets()->size() < 1)
      return invalid_model("the shortlist has no offsets or targets");
    ShortlistView& v = shortlist_;
    v.first_num = sl->first_num();
    v.best_num = sl->best_num();
    v.add_source_ids = sl->add_source_ids();
    v.target_vocab = sl->target_vocab();
    if (v.target_vocab == 0 || v.target_vocab > tv)
      return invalid_model("the shortlist's target_vocab is outside the target vocabulary");
    v.offsets = sl->offsets()->data();
    v.num_offsets = sl->offsets()->size();
    v.targets = sl->targets()->data();
    v.num_targets = sl->targets()->size();
    if (v.num_offsets > static_cast<size_t>(cfg.source_vocab_size) + 1)
      return invalid_model("the shortlist has " + std::to_string(v.num_offsets) +
                           " offsets, more than the source vocabulary + 1");
    if (v.offsets[0] != 0) return invalid_model("the shortlist's first offset is not 0");
    for (size_t i = 1; i < v.num_offsets; ++i)
      if (v.offsets[i] < v.offsets[i - 1] || v.offsets[i] > v.num_targets)
        return invalid_model("the shortlist's offsets are not increasing within its targets (at " +
                             std::to_string(i) + ")");
    for (size_t i = 0; i < v.num_targets; ++i)
      if (v.targets[i] >= tv) return invalid_model("the shortlist lists a target id outside the vocabulary");
    if (v.first_num > tv) return invalid_model("the shortlist's first_num exceeds the target vocabulary");
  }

  if (fm->metadata() != nullptr) {
    for (const fb::KeyValue* kv : *fm->metadata()) {
      if (kv->key() != nullptr && kv->value() != nullptr)
        metadata_.emplace_back(kv->key()->str(), kv->value()->str());
    }
  }
  for (const auto& [k, v] : metadata_) {
    if (k == "source_language") source_language_ = v;
    if (k == "target_language") target_language_ = v;
  }
  if (source_language_.empty() || target_language_.empty())
    language_pair_of_file(file_name_, &source_language_, &target_language_);
  return Status::ok();
}

const char* Model::precision() const {
  if (!quantized_) return "float32";
  return int8_w7_ ? "int8, 7-bit weights" : "int8";
}

bool Model::language_pair_of_file(const std::string& path, std::string* source, std::string* target) {
  static const std::regex pair_re(R"(-([a-z]{2,3})-([a-z]{2,3})(\.[^.]*)?\.emt$)");
  const std::string name = std::filesystem::path(path).filename().string();
  std::smatch m;
  if (!std::regex_search(name, m, pair_re)) return false;
  *source = m[1].str();
  *target = m[2].str();
  return true;
}

}  // namespace edgemt
