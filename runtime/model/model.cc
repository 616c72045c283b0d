#include "runtime/model/model.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <unordered_map>

#include "ops/gemm/pack.h"
#include "runtime/core/arena.h"
#include "runtime/model/names.h"
#include "runtime/model/schema_version.h"
#include "schema/edgemt_generated.h"

namespace edgemt {

const float* EmbeddingWeights::f32_row(size_t r) const {
  return panel ? f32 + ops::f32_panel_row_offset(d, r) : f32 + r * d;
}

const int8_t* EmbeddingWeights::i8_row(size_t r) const {
  return panel ? i8 + ops::qs8_panel_row_offset(d, r) : i8 + r * d;
}

namespace {

std::string shape_str(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(s[i]);
  }
  return out + "]";
}

std::string shape_str(const flatbuffers::Vector<int64_t>* s) {
  std::vector<int64_t> v;
  if (s != nullptr) v.assign(s->begin(), s->end());
  return shape_str(v);
}

const char* dtype_name(fb::DType t) {
  switch (t) {
    case fb::DType::F32: return "f32";
    case fb::DType::I8: return "i8";
    case fb::DType::I32: return "i32";
  }
  return "unknown";
}

// Checks and views the tensors of a verified FlatBuffer.
class TensorTable {
 public:
  TensorTable(const uint8_t* base) : base_(base) {}

  Status index(const flatbuffers::Vector<flatbuffers::Offset<fb::Tensor>>* tensors) {
    if (tensors == nullptr) return invalid_model("the model has no tensors");
    for (const fb::Tensor* t : *tensors) {
      const std::string_view name(t->name()->c_str(), t->name()->size());
      if (!by_name_.emplace(name, t).second)
        return invalid_model("tensor " + std::string(name) + " appears twice");
      // The Verifier checks a vector's length field (4-byte aligned), not that 8-byte
      // elements are 8-byte aligned: reading a misaligned shape is undefined behaviour
      // (and faults on 32-bit ARM), so such a file is rejected.
      if (t->shape() != nullptr && reinterpret_cast<uintptr_t>(t->shape()->Data()) % alignof(int64_t) != 0)
        return invalid_model("tensor " + std::string(name) + " has a misaligned shape vector");
    }
    return Status::ok();
  }

  bool has(std::string_view name) const { return by_name_.count(name) != 0; }

  // A float tensor of exactly `shape`, row-major.
  Status f32(std::string_view name, const std::vector<int64_t>& shape, const float** out) const {
    const fb::Tensor* t = nullptr;
    EDGEMT_RETURN_IF_ERROR(find(name, &t));
    if (t->dtype() != fb::DType::F32 || t->layout() != fb::Layout::RowMajor)
      return invalid_model("tensor " + std::string(name) + " is " + dtype_name(t->dtype()) +
                           " (layout " + std::to_string(static_cast<int>(t->layout())) +
                           "), expected f32 row-major");
    EDGEMT_RETURN_IF_ERROR(check_shape(name, t, shape));
    size_t count = 1;
    for (int64_t d : shape) count *= static_cast<size_t>(d);
    const void* p = nullptr;
    EDGEMT_RETURN_IF_ERROR(check_data(name, t, count * sizeof(float), &p));
    *out = static_cast<const float*>(p);
    return Status::ok();
  }

  Status linear(std::string_view module, size_t n, size_t k, LinearWeights* w) const {
    const std::string wname = names::weight(module);
    const fb::Tensor* t = nullptr;
    EDGEMT_RETURN_IF_ERROR(find(wname, &t));
    EDGEMT_RETURN_IF_ERROR(check_shape(wname, t, {static_cast<int64_t>(n), static_cast<int64_t>(k)}));
    w->n = n;
    w->k = k;
    const void* p = nullptr;
    if (t->dtype() == fb::DType::F32) {
      if (t->layout() != fb::Layout::PanelF32x16)
        return invalid_model("tensor " + wname + " is f32 but not in the PanelF32x16 layout");
      EDGEMT_RETURN_IF_ERROR(check_data(wname, t, ops::f32_panel_size(n, k) * sizeof(float), &p));
      w->type = WeightType::kF32;
      w->w = static_cast<const float*>(p);
    } else if (t->dtype() == fb::DType::I8) {
      if (t->layout() != fb::Layout::PanelI8x16x4)
        return invalid_model("tensor " + wname + " is i8 but not in the PanelI8x16x4 layout");
      EDGEMT_RETURN_IF_ERROR(check_data(wname, t, ops::qs8_panel_size(n, k), &p));
      w->type = WeightType::kI8;
      w->w8 = static_cast<const int8_t*>(p);
      EDGEMT_RETURN_IF_ERROR(check_scales(wname, t, n, &w->scales));
      if (t->row_sums() == nullptr || t->row_sums()->size() != n)
        return invalid_model("tensor " + wname + " has no row sums for its " + std::to_string(n) + " channels");
      EDGEMT_RETURN_IF_ERROR(check_aligned(wname, t->row_sums()->Data()));
      w->row_sums = t->row_sums()->data();
    } else {
      return invalid_model("tensor " + wname + " has dtype " + dtype_name(t->dtype()) + ", expected f32 or i8");
    }
    const std::string bname = names::bias(module);
    if (has(bname)) {
      EDGEMT_RETURN_IF_ERROR(f32(bname, {static_cast<int64_t>(n)}, &w->bias));
    } else {
      w->bias = nullptr;
    }
    return Status::ok();
  }

  Status embedding(std::string_view name, size_t rows, size_t d, EmbeddingWeights* e) const {
    const fb::Tensor* t = nullptr;
    EDGEMT_RETURN_IF_ERROR(find(name, &t));
    EDGEMT_RETURN_IF_ERROR(check_shape(name, t, {static_cast<int64_t>(rows), static_cast<int64_t>(d)}));
    const bool i8_panel = t->dtype() == fb::DType::I8 && t->layout() == fb::Layout::PanelI8x16x4;
    const bool f32_panel = t->dtype() == fb::DType::F32 && t->layout() == fb::Layout::PanelF32x16;
    if (t->layout() != fb::Layout::RowMajor && !i8_panel && !f32_panel)
      return invalid_model("tensor " + std::string(name) + " must be row-major or in its dtype's panel layout");
    e->rows = rows;
    e->d = d;
    const void* p = nullptr;
    if (t->dtype() == fb::DType::F32) {
      EDGEMT_RETURN_IF_ERROR(check_data(name, t, (f32_panel ? ops::f32_panel_size(rows, d) : rows * d) * sizeof(float), &p));
      e->type = WeightType::kF32;
      e->f32 = static_cast<const float*>(p);
      e->panel = f32_panel;
    } else if (t->dtype() == fb::DType::I8) {
      EDGEMT_RETURN_IF_ERROR(check_data(name, t, i8_panel ? ops::qs8_panel_size(rows, d) : rows * d, &p));
      e->type = WeightType::kI8;
      e->i8 = static_cast<const int8_t*>(p);
      e->panel = i8_panel;
      EDGEMT_RETURN_IF_ERROR(check_scales(name, t, rows, &e->scales));
      if (i8_panel) {
        if (t->row_sums() == nullptr || t->row_sums()->size() != rows)
          return invalid_model("tensor " + std::string(name) + " has no row sums for its " + std::to_string(rows) + " rows");
        EDGEMT_RETURN_IF_ERROR(check_aligned(name, t->row_sums()->Data()));
        e->row_sums = t->row_sums()->data();
      }
    } else {
      return invalid_model("tensor " + std::string(name) + " has dtype " + dtype_name(t->dtype()) + ", expected f32 or i8");
    }
    return Status::ok();
  }

  Status norm(std::string_view module, size_t d, NormWeights* n) const {
    EDGEMT_RETURN_IF_ERROR(f32(names::weight(module), {static_cast<int64_t>(d)}, &n->gamma));
    return f32(names::bias(module), {static_cast<int64_t>(d)}, &n->beta);
  }

 private:
  Status find(std::string_view name, const fb::Tensor** t) const {
    const auto it = by_name_.find(name);
    if (it == by_name_.end()) return invalid_model("tensor " + std::string(name) + " is missing");
    *t = it->second;
    return Status::ok();
  }

  static Status check_shape(std::string_view name, const fb::Tensor* t, const std::vector<int64_t>& want) {
    const auto* s = t->shape();
    bool ok = s != nullptr && s->size() == want.size();
    for (size_t i = 0; ok && i < want.size(); ++i) ok = s->Get(static_cast<flatbuffers::uoffset_t>(i)) == want[i];
    if (!ok)
      return invalid_model("tensor " + std::string(name) + " has shape " + shape_str(s) +
                           ", expected " + shape_str(want));
    return Status::ok();
  }

  Status check_aligned(std::string_view name, const void* p) const {
    const auto off = static_cast<size_t>(static_cast<const uint8_t*>(p) - base_);
    if (off % 64 != 0)
      return invalid_model("tensor " + std::string(name) + " data is not 64-byte aligned (offset " +
                           std::to_string(off) + ")");
    return Status::ok();
  }

  Status check_data(std::string_view name, const fb::Tensor* t, size_t bytes, const void** p) const {
    if (t->data() == nullptr) return invalid_model("tensor " + std::string(name) + " has no data");
    if (t->data()->size() != bytes)
      return invalid_model("tensor " + std::string(name) + " has " + std::to_string(t->data()->size()) +
                           " bytes of data, expected " + std::to_string(bytes));
    EDGEMT_RETURN_IF_ERROR(check_aligned(name, t->data()->Data()));
    *p = t->data()->Data();
    return Status::ok();
  }

  Status check_scales(std::string_view name, const fb::Tensor* t, size_t n, const float** out) const {
    if (t->scales() == nullptr || t->scales()->size() != n)
      return invalid_model("tensor " + std::string(name) + " needs " + std::to_string(n) + " scales");
    EDGEMT_RETURN_IF_ERROR(check_aligned(name, t->scales()->Data()));
    const float* s = t->scales()->data();
    for (size_t i = 0; i < n; ++i) {
      if (!(s[i] > 0.0f) || !(s[i] < 1e30f))
        return invalid_model("tensor " + std::string(name) + " has an invalid scale at row " + std::to_string(i));
    }
    *out = s;
    return Status::ok();
  }

  const uint8_t* base_;
  std::unordered_map<std::string_view, const fb::Tensor*> by_name_;
};

Status check_range(const char* what, int64_t v, int64_t lo, int64_t hi) {
  if (v < lo || v > hi)
    return invalid_model(std::string("config ") + what + " = " + std::to_string(v) + " is outside [" +
                         std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return Status::ok();
}

}  // namespace

Expected<std::shared_ptr<const Model>> Model::load(const std::string& path) {
  auto file = MappedFile::open(path);
  if (!file) return file.status();
  std::shared_ptr<Model> m(new Model());
  m->file_ = std::move(file.value());
  m->data_ = m->file_.data();
  m->size_ = m->file_.size();
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
  if (size_ < 16) return invalid_model("the file is too small to be an edgemt model (" + std::to_string(size_) + " bytes)");
  if (size_ >= (size_t{1} << 31)) return invalid_model("the file is larger than the 2 GiB FlatBuffers limit");
  if (!flatbuffers::BufferHasIdentifier(data_, kFileIdentifier, /*size_prefixed=*/true))
    return invalid_model("not an edgemt model file (file identifier is not \"EMT1\")");
  // The file starts with its own length: a truncated or extended file is caught even
  // where only padding is missing.
  const size_t declared = static_cast<size_t>(flatbuffers::GetPrefixedSize(data_)) + sizeof(flatbuffers::uoffset_t);
  if (declared != size_)
    return invalid_model("the file is truncated or has trailing data: it declares " + std::to_string(declared) +
                         " bytes but has " + std::to_string(size_));
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
    return invalid_model("config d_model " + std::to_string(c->d_model()) + " is not divisible by the head count");
  cfg.source_vocab_size = c->source_vocab_size();
  cfg.target_vocab_size = c->target_vocab_size();
  cfg.d_model = c->d_model();
  cfg.encoder_layers = c->encoder_layers();
  cfg.decoder_layers = c->decoder_layers();
  cfg.encoder_heads = c->encoder_heads();
  cfg.decoder_heads = c->decoder_heads();
  cfg.encoder_ffn_dim = c->encoder_ffn_dim();
  cfg.decoder_ffn_dim = c->decoder_ffn_dim();
  switch (c->activation()) {
    case fb::Activation::Relu: cfg.activation = ops::Activation::kRelu; break;
    case fb::Activation::Gelu: cfg.activation = ops::Activation::kGelu; break;
    case fb::Activation::Swish: cfg.activation = ops::Activation::kSwish; break;
    case fb::Activation::GeluTanh: cfg.activation = ops::Activation::kGeluTanh; break;
    default: return invalid_model("unknown activation " + std::to_string(static_cast<int>(c->activation())));
  }
  switch (c->norm_placement()) {
    case fb::NormPlacement::Post: cfg.norm_placement = NormPlacement::kPost; break;
    case fb::NormPlacement::Pre: cfg.norm_placement = NormPlacement::kPre; break;
    default: return invalid_model("unknown norm placement " + std::to_string(static_cast<int>(c->norm_placement())));
  }
  switch (c->position_kind()) {
    case fb::PositionKind::SinusoidalSplit:
    case fb::PositionKind::SinusoidalInterleaved:
    case fb::PositionKind::Learned: break;
    default: return invalid_model("unknown position kind " + std::to_string(static_cast<int>(c->position_kind())));
  }
  cfg.layer_norm_epsilon = c->layer_norm_epsilon();
  if (!(cfg.layer_norm_epsilon > 0.0f && cfg.layer_norm_epsilon < 1.0f))
    return invalid_model("config layer_norm_epsilon " + std::to_string(cfg.layer_norm_epsilon) + " is not in (0, 1)");
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
    generation_.forced_eos_id = g->forced_eos_id();
    if (g->banned_ids() != nullptr) {
      for (int32_t id : *g->banned_ids()) {
        EDGEMT_RETURN_IF_ERROR(check_range("banned id", id, 0, cfg.target_vocab_size - 1));
        generation_.banned_ids.push_back(id);
      }
    }
  }

  // Tensors.
  TensorTable tt(data_);
  EDGEMT_RETURN_IF_ERROR(tt.index(fm->tensors()));
  const size_t d = static_cast<size_t>(cfg.d_model);
  const size_t sv = static_cast<size_t>(cfg.source_vocab_size);
  const size_t tv = static_cast<size_t>(cfg.target_vocab_size);
  const int64_t dp = cfg.d_model, mp = cfg.max_positions;
  ModelWeights& w = weights_;
  EDGEMT_RETURN_IF_ERROR(tt.embedding(names::kEncoderEmbedTokens, sv, d, &w.source_embed));
  if (cfg.shared_embeddings) {
    w.target_embed = w.source_embed;
  } else {
    EDGEMT_RETURN_IF_ERROR(tt.embedding(names::kDecoderEmbedTokens, tv, d, &w.target_embed));
  }
  EDGEMT_RETURN_IF_ERROR(tt.f32(names::kEncoderEmbedPositions, {mp, dp}, &w.source_positions));
  if (tt.has(names::kDecoderEmbedPositions)) {
    EDGEMT_RETURN_IF_ERROR(tt.f32(names::kDecoderEmbedPositions, {mp, dp}, &w.target_positions));
  } else {
    w.target_positions = w.source_positions;
  }
  using names::Stack;
  const size_t ef = static_cast<size_t>(cfg.encoder_ffn_dim), df = static_cast<size_t>(cfg.decoder_ffn_dim);
  w.encoder.resize(static_cast<size_t>(cfg.encoder_layers));
  for (int i = 0; i < cfg.encoder_layers; ++i) {
    EncoderLayerWeights& l = w.encoder[static_cast<size_t>(i)];
    EDGEMT_RETURN_IF_ERROR(tt.linear(names::layer(Stack::kEncoder, i, names::kSelfQkv), 3 * d, d, &l.qkv));
    EDGEMT_RETURN_IF_ERROR(tt.linear(names::layer(Stack::kEncoder, i, names::kSelfOut), d, d, &l.out));
    EDGEMT_RETURN_IF_ERROR(tt.norm(names::layer(Stack::kEncoder, i, names::kSelfNorm), d, &l.self_norm));
    EDGEMT_RETURN_IF_ERROR(tt.linear(names::layer(Stack::kEncoder, i, names::kFc1), ef, d, &l.fc1));
    EDGEMT_RETURN_IF_ERROR(tt.linear(names::layer(Stack::kEncoder, i, names::kFc2), d, ef, &l.fc2));
    EDGEMT_RETURN_IF_ERROR(tt.norm(names::layer(Stack::kEncoder, i, names::kFinalNorm), d, &l.final_norm));
  }
  w.decoder.resize(static_cast<size_t>(cfg.decoder_layers));
  for (int i = 0; i < cfg.decoder_layers; ++i) {
    DecoderLayerWeights& l = w.decoder[static_cast<size_t>(i)];
    EDGEMT_RETURN_IF_ERROR(tt.linear(names::layer(Stack::kDecoder, i, names::kSelfQkv), 3 * d, d, &l.qkv));
    EDGEMT_RETURN_IF_ERROR(tt.linear(names::layer(Stack::kDecoder, i, names::kSelfOut), d, d, &l.out));
    EDGEMT_RETURN_IF_ERROR(tt.norm(names::layer(Stack::kDecoder, i, names::kSelfNorm), d, &l.self_norm));
    EDGEMT_RETURN_IF_ERROR(tt.linear(names::layer(Stack::kDecoder, i, names::kCrossQ), d, d, &l.cross_q));
    EDGEMT_RETURN_IF_ERROR(tt.linear(names::layer(Stack::kDecoder, i, names::kCrossKv), 2 * d, d, &l.cross_kv));
    EDGEMT_RETURN_IF_ERROR(tt.linear(names::layer(Stack::kDecoder, i, names::kCrossOut), d, d, &l.cross_out));
    EDGEMT_RETURN_IF_ERROR(tt.norm(names::layer(Stack::kDecoder, i, names::kCrossNorm), d, &l.cross_norm));
    EDGEMT_RETURN_IF_ERROR(tt.linear(names::layer(Stack::kDecoder, i, names::kFc1), df, d, &l.fc1));
    EDGEMT_RETURN_IF_ERROR(tt.linear(names::layer(Stack::kDecoder, i, names::kFc2), d, df, &l.fc2));
    EDGEMT_RETURN_IF_ERROR(tt.norm(names::layer(Stack::kDecoder, i, names::kFinalNorm), d, &l.final_norm));
  }
  if (cfg.norm_placement == NormPlacement::kPre) {
    EDGEMT_RETURN_IF_ERROR(tt.norm(names::kEncoderLayerNorm, d, &w.encoder_norm));
    EDGEMT_RETURN_IF_ERROR(tt.norm(names::kDecoderLayerNorm, d, &w.decoder_norm));
  }
  w.output_tied = cfg.tied_output;
  if (!cfg.tied_output) {
    EDGEMT_RETURN_IF_ERROR(tt.linear(names::kOutputProjection, tv, d, &w.output));
  } else {
    // A tied projection is the embedding table itself, stored in the gemm's panels.
    if (!w.target_embed.panel)
      return invalid_model("the embedding table used as the tied output projection must be in a panel layout");
    w.output.type = w.target_embed.type;
    w.output.n = tv;
    w.output.k = d;
    w.output.w = w.target_embed.f32;
    w.output.w8 = w.target_embed.i8;
    w.output.scales = w.target_embed.scales;
    w.output.row_sums = w.target_embed.row_sums;
  }
  if (cfg.has_final_logits_bias)
    EDGEMT_RETURN_IF_ERROR(tt.f32(names::kFinalLogitsBias, {static_cast<int64_t>(tv)}, &w.final_logits_bias));

  quantized_ = w.source_embed.type == WeightType::kI8;
  for (const auto& l : w.encoder) quantized_ = quantized_ || l.qkv.type == WeightType::kI8;

  // Tokenizer.
  const fb::Tokenizer* tok = fm->tokenizer();
  if (tok == nullptr || tok->source_spm() == nullptr || tok->target_spm() == nullptr ||
      tok->source_vocab() == nullptr || tok->source_vocab()->pieces() == nullptr)
    return invalid_model("the model has no tokenizer (SentencePiece models and vocabulary)");
  TokenizerSpec spec;
  spec.source_spm = std::string_view(reinterpret_cast<const char*>(tok->source_spm()->data()), tok->source_spm()->size());
  spec.target_spm = std::string_view(reinterpret_cast<const char*>(tok->target_spm()->data()), tok->target_spm()->size());
  for (const auto* s : *tok->source_vocab()->pieces()) spec.source_pieces.emplace_back(s->c_str(), s->size());
  if (tok->target_vocab() != nullptr && tok->target_vocab()->pieces() != nullptr)
    for (const auto* s : *tok->target_vocab()->pieces()) spec.target_pieces.emplace_back(s->c_str(), s->size());
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

  if (fm->metadata() != nullptr) {
    for (const fb::KeyValue* kv : *fm->metadata()) {
      if (kv->key() != nullptr && kv->value() != nullptr) metadata_.emplace_back(kv->key()->str(), kv->value()->str());
    }
  }
  return Status::ok();
}

}  // namespace edgemt
