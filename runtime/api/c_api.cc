// The C API (include/edgemt.h) over the C++ API (translator.h). Every entry point
// catches everything: no exception crosses the C boundary.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "edgemt.h"
#include "runtime/api/scored_json.h"
#include "runtime/api/translator.h"

struct edgemt_model {
  std::shared_ptr<const edgemt::Model> model;
};

struct edgemt_translator {
  std::unique_ptr<edgemt::Translator> translator;
  // Results of the last call, owned here (capacities reused across calls).
  std::vector<std::string> texts;
  std::vector<const char*> text_ptrs;
  std::vector<std::span<const int32_t>> sources;
  edgemt::IdSequences ids;  // edgemt_translate_ids' results, back to back
  std::vector<const int32_t*> id_ptrs;
  std::vector<size_t> id_lengths;
  // N-best calls.
  std::vector<std::vector<std::vector<int32_t>>> nbest;
  std::vector<std::vector<float>> nbest_scores;
  std::vector<size_t> first, counts;
  std::vector<float> scores;
  // Scoring calls.
  std::vector<std::span<const int32_t>> targets;
  std::vector<std::vector<float>> logprobs;
  std::vector<const float*> logprob_ptrs;
  std::vector<size_t> logprob_lengths;
};

// The format table's C values are include/edgemt.h's.
constexpr int EDGEMT_FORMAT_NONE = -1;
#define EDGEMT_FORMAT_C_VALUE(Id, CValue, CName, Doc, Units, Names, Extensions, Flags) \
  static_assert(EDGEMT_FORMAT_##CName == (CValue),                                     \
                "format_list.h: " #Id "'s C value is not EDGEMT_FORMAT_" #CName);
EDGEMT_DOCUMENT_FORMATS(EDGEMT_FORMAT_C_VALUE)
#undef EDGEMT_FORMAT_C_VALUE

namespace {

thread_local std::string t_error;
thread_local std::string t_default_model;
thread_local std::string t_route_second;

edgemt_status fail(edgemt_status s, std::string message) {
  t_error = std::move(message);
  return s;
}

edgemt_status from_status(const edgemt::Status& s) {
  using edgemt::StatusCode;
  if (s.is_ok()) return EDGEMT_OK;
  t_error = s.message();
  switch (s.code()) {
    case StatusCode::kInvalidArgument:
      return EDGEMT_INVALID_ARGUMENT;
    case StatusCode::kNotFound:
      return EDGEMT_NOT_FOUND;
    case StatusCode::kIoError:
      return EDGEMT_IO_ERROR;
    case StatusCode::kInvalidModel:
      return EDGEMT_INVALID_MODEL;
    case StatusCode::kUnsupported:
      return EDGEMT_UNSUPPORTED;
    case StatusCode::kOutOfRange:
      return EDGEMT_OUT_OF_RANGE;
    case StatusCode::kCancelled:
      return EDGEMT_CANCELLED;
    default:
      return EDGEMT_INTERNAL;
  }
}

// Runs f, turning any exception into a status (bad_alloc: out of memory).
template <class F>
edgemt_status guarded(F&& f) noexcept {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return fail(EDGEMT_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return fail(EDGEMT_INTERNAL, std::string("internal error: ") + e.what());
  } catch (...) {
    return fail(EDGEMT_INTERNAL, "internal error: unknown exception");
  }
}

// Whether a caller's options struct (of struct_size bytes) holds `field`.
#define EDGEMT_HAS_FIELD(opts, type, field) \
  ((opts)->struct_size >= offsetof(type, field) + sizeof((opts)->field))

// Largest struct_size accepted: anything bigger is not an initialised options struct.
constexpr uint32_t kMaxStructSize = 4096;

edgemt_status check_size(uint32_t size, const char* what) {
  if (size < sizeof(uint32_t) || size > kMaxStructSize)
    return fail(EDGEMT_INVALID_ARGUMENT, std::string(what) + ".struct_size is " + std::to_string(size) +
                                             ": initialise the struct with " + what + "_init()");
  return EDGEMT_OK;
}

edgemt_status to_translate_options(const edgemt_translate_options* o, edgemt::TranslateOptions* out) {
  *out = {};
  if (o == nullptr) return EDGEMT_OK;
  if (const edgemt_status s = check_size(o->struct_size, "edgemt_translate_options"); s != EDGEMT_OK)
    return s;
  using T = edgemt_translate_options;
  if (EDGEMT_HAS_FIELD(o, T, beam) && o->beam != 0) out->beam = o->beam;
  if (EDGEMT_HAS_FIELD(o, T, max_length) && o->max_length != 0) out->max_length = o->max_length;
  if (EDGEMT_HAS_FIELD(o, T, length_penalty) && o->has_length_penalty != 0)
    out->length_penalty = o->length_penalty;
  if (EDGEMT_HAS_FIELD(o, T, max_length_factor) && o->max_length_factor != 0.0f)
    out->max_length_factor = o->max_length_factor;  // negative or NaN: refused by the translator
  if (EDGEMT_HAS_FIELD(o, T, max_length_offset) && o->max_length_offset != 0)
    out->max_length_offset = o->max_length_offset;
  if (EDGEMT_HAS_FIELD(o, T, word_penalty) && o->has_word_penalty != 0) out->word_penalty = o->word_penalty;
  if (EDGEMT_HAS_FIELD(o, T, no_sentence_split) && o->no_sentence_split != 0) out->split_sentences = false;
  if (EDGEMT_HAS_FIELD(o, T, no_repetition_guard) && o->no_repetition_guard != 0)
    out->repetition_guard = false;
  if (EDGEMT_HAS_FIELD(o, T, no_span_protection) && o->no_span_protection != 0) out->protect_spans = false;
  if (EDGEMT_HAS_FIELD(o, T, glossary) && o->glossary != nullptr) {
    auto g = edgemt::Glossary::parse(o->glossary);
    if (!g) return fail(EDGEMT_INVALID_ARGUMENT, g.status().message());
    out->glossary = std::move(g.value());
  }
  if (EDGEMT_HAS_FIELD(o, T, sampling_topk) && o->sampling_topk != 0) out->sampling_topk = o->sampling_topk;
  if (EDGEMT_HAS_FIELD(o, T, sampling_temperature) && o->sampling_temperature != 0.0f)
    out->sampling_temperature = o->sampling_temperature;  // negative or NaN: refused by the translator
  if (EDGEMT_HAS_FIELD(o, T, seed)) out->seed = o->seed;
  if (EDGEMT_HAS_FIELD(o, T, cancel)) out->cancel = o->cancel;
  if (EDGEMT_HAS_FIELD(o, T, format)) {
    // edgemt_format's values are the format table's (runtime/formats/format_list.h).
    const edgemt::DocumentFormat* format = nullptr;
    for (const edgemt::DocumentFormat& f : edgemt::document_formats())
      if (f.c_value >= 0 && f.c_value == static_cast<int>(o->format)) format = &f;
    if (format == nullptr) {
      std::vector<std::pair<int, std::string_view>> all;
      for (const edgemt::DocumentFormat& f : edgemt::document_formats())
        if (f.c_value >= 0) all.emplace_back(f.c_value, f.c_name);
      std::sort(all.begin(), all.end());
      std::string names;
      for (size_t i = 0; i < all.size(); ++i)
        names += std::string(i == 0                ? "EDGEMT_FORMAT_"
                             : i + 1 == all.size() ? " or _"
                                                   : ", _") +
                 std::string(all[i].second);
      return fail(EDGEMT_INVALID_ARGUMENT, "format must be " + names + ", got " + std::to_string(o->format));
    }
    if (format->id != edgemt::TextFormat::kText) out->format = format->id;
  }
  if (EDGEMT_HAS_FIELD(o, T, beam_style)) {
    switch (o->beam_style) {
      case EDGEMT_BEAM_STYLE_DEFAULT:
        break;
      case EDGEMT_BEAM_STYLE_TRANSFORMERS:
        out->beam_style = edgemt::BeamStyle::kTransformers;
        break;
      case EDGEMT_BEAM_STYLE_MARIAN:
        out->beam_style = edgemt::BeamStyle::kMarian;
        break;
      default:
        return fail(EDGEMT_INVALID_ARGUMENT,
                    "beam_style " + std::to_string(o->beam_style) + " is not an edgemt_beam_style value");
    }
  }
  if (EDGEMT_HAS_FIELD(o, T, early_stopping)) {
    switch (o->early_stopping) {  // an int32_t: any value a C caller passes is defined
      case EDGEMT_EARLY_STOPPING_DEFAULT:
        break;
      case EDGEMT_EARLY_STOPPING_TRUE:
        out->early_stopping = edgemt::EarlyStopping::kTrue;
        break;
      case EDGEMT_EARLY_STOPPING_FALSE:
        out->early_stopping = edgemt::EarlyStopping::kFalse;
        break;
      case EDGEMT_EARLY_STOPPING_NEVER:
        out->early_stopping = edgemt::EarlyStopping::kNever;
        break;
      default:
        return fail(EDGEMT_INVALID_ARGUMENT, "early_stopping " +
                                                 std::to_string(static_cast<int>(o->early_stopping)) +
                                                 " is not an " + "edgemt_early_stopping value");
    }
  }
  return EDGEMT_OK;
}

}  // namespace

extern "C" {

void edgemt_translator_options_init(edgemt_translator_options* o) {
  if (o == nullptr) return;
  std::memset(o, 0, sizeof *o);
  o->struct_size = sizeof *o;
  o->max_batch = 8;
  o->num_threads = 1;
}

void edgemt_translate_options_init(edgemt_translate_options* o) {
  if (o == nullptr) return;
  std::memset(o, 0, sizeof *o);
  o->struct_size = sizeof *o;
  o->length_penalty = 1.0f;
  o->early_stopping = EDGEMT_EARLY_STOPPING_DEFAULT;
}

const char* edgemt_version(void) { return EDGEMT_VERSION_STRING; }

const char* edgemt_active_isa(void) { return edgemt::active_isa(); }

const char* edgemt_status_string(edgemt_status status) {
  switch (status) {
    case EDGEMT_OK:
      return "ok";
    case EDGEMT_INVALID_ARGUMENT:
      return "invalid argument";
    case EDGEMT_NOT_FOUND:
      return "not found";
    case EDGEMT_IO_ERROR:
      return "i/o error";
    case EDGEMT_INVALID_MODEL:
      return "invalid model";
    case EDGEMT_UNSUPPORTED:
      return "unsupported";
    case EDGEMT_OUT_OF_RANGE:
      return "out of range";
    case EDGEMT_OUT_OF_MEMORY:
      return "out of memory";
    case EDGEMT_INTERNAL:
      return "internal error";
    case EDGEMT_CANCELLED:
      return "cancelled";
  }
  return "unknown status";
}

const char* edgemt_last_error(void) { return t_error.c_str(); }

edgemt_status edgemt_model_load(const char* path, edgemt_model** model) {
  return guarded([&] {
    if (model == nullptr) return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_model_load: model is NULL");
    *model = nullptr;
    if (path == nullptr) return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_model_load: path is NULL");
    auto m = edgemt::Model::load(path);
    if (!m) return from_status(m.status());
    *model = new edgemt_model{std::move(m.value())};
    return EDGEMT_OK;
  });
}

const char* edgemt_default_model_path(void) {
  try {
    t_default_model = edgemt::default_model_path();
  } catch (...) {
    t_default_model.clear();
  }
  return t_default_model.c_str();
}

edgemt_status edgemt_bundled_model_path(const char* source, const char* target, const char** path) {
  return guarded([&] {
    if (path == nullptr) return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_bundled_model_path: path is NULL");
    *path = nullptr;
    auto p = edgemt::bundled_model_path(source == nullptr ? "" : source, target == nullptr ? "" : target);
    if (!p) return from_status(p.status());
    t_default_model = std::move(p.value());
    *path = t_default_model.c_str();
    return EDGEMT_OK;
  });
}

edgemt_status edgemt_bundled_model_route(const char* source, const char* target, const char** first,
                                         const char** second) {
  return guarded([&] {
    if (first == nullptr || second == nullptr)
      return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_bundled_model_route: first or second is NULL");
    *first = nullptr;
    *second = nullptr;
    auto r = edgemt::bundled_model_route(source == nullptr ? "" : source, target == nullptr ? "" : target);
    if (!r) return from_status(r.status());
    t_default_model = r.value()[0];
    t_route_second = r.value().size() > 1 ? r.value()[1] : std::string();
    *first = t_default_model.c_str();
    if (r.value().size() > 1) *second = t_route_second.c_str();
    return EDGEMT_OK;
  });
}

const char* edgemt_model_source_language(const edgemt_model* model) {
  return model == nullptr || !model->model ? "" : model->model->source_language().c_str();
}

const char* edgemt_model_target_language(const edgemt_model* model) {
  return model == nullptr || !model->model ? "" : model->model->target_language().c_str();
}

const char* edgemt_model_metadata(const edgemt_model* model, const char* key) {
  if (model == nullptr || key == nullptr) return nullptr;
  for (const auto& [k, v] : model->model->metadata())
    if (k == key) return v.c_str();
  return nullptr;
}

edgemt_status edgemt_model_source_token_id(const edgemt_model* model, const char* token, int32_t* id) {
  if (model == nullptr || token == nullptr || id == nullptr)
    return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_model_source_token_id: model, token or id is NULL");
  *id = model->model->tokenizer().source_id(token);
  return EDGEMT_OK;
}

edgemt_status edgemt_model_target_token_id(const edgemt_model* model, const char* token, int32_t* id) {
  if (model == nullptr || token == nullptr || id == nullptr)
    return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_model_target_token_id: model, token or id is NULL");
  *id = model->model->tokenizer().target_id(token);
  return EDGEMT_OK;
}

const char* edgemt_model_target_token(const edgemt_model* model, int32_t id) {
  if (model == nullptr) return nullptr;
  const std::string_view piece = model->model->tokenizer().target_piece(id);
  // Pieces are stored NUL-terminated in the model file (FlatBuffers strings).
  return piece.empty() ? nullptr : piece.data();
}

void edgemt_model_free(edgemt_model* model) { delete model; }

edgemt_status edgemt_translator_create(const edgemt_model* model, const edgemt_translator_options* options,
                                       edgemt_translator** translator) {
  return guarded([&] {
    if (translator == nullptr)
      return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translator_create: translator is NULL");
    *translator = nullptr;
    if (model == nullptr) return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translator_create: model is NULL");
    edgemt_translator_options defaults;
    edgemt_translator_options_init(&defaults);
    const edgemt_translator_options* o = options != nullptr ? options : &defaults;
    if (const edgemt_status s = check_size(o->struct_size, "edgemt_translator_options"); s != EDGEMT_OK)
      return s;
    using T = edgemt_translator_options;
    edgemt::TranslatorOptions to;
    if (EDGEMT_HAS_FIELD(o, T, max_batch)) to.max_batch = o->max_batch;
    if (EDGEMT_HAS_FIELD(o, T, max_beam)) to.max_beam = o->max_beam;
    if (EDGEMT_HAS_FIELD(o, T, max_source_length)) to.max_source_length = o->max_source_length;
    if (EDGEMT_HAS_FIELD(o, T, max_target_length)) to.max_target_length = o->max_target_length;
    if (EDGEMT_HAS_FIELD(o, T, num_threads)) to.num_threads = o->num_threads;
    if (to.max_beam < 0 || to.max_source_length < 0 || to.max_target_length < 0)
      return fail(EDGEMT_INVALID_ARGUMENT,
                  "edgemt_translator_options: limits must be 0 (the model's) or positive");
    auto t = edgemt::Translator::create(model->model, to);
    if (!t) return from_status(t.status());
    auto* h = new edgemt_translator();
    h->translator = std::move(t.value());
    *translator = h;
    return EDGEMT_OK;
  });
}

void edgemt_translator_free(edgemt_translator* translator) { delete translator; }

edgemt_status edgemt_translator_set_reranker(edgemt_translator* translator, const edgemt_model* reverse,
                                             float weight) {
  return guarded([&] {
    if (translator == nullptr)
      return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translator_set_reranker: translator is NULL");
    if (reverse == nullptr) return from_status(translator->translator->set_reranker(nullptr));
    edgemt::TranslatorOptions to;
    to.max_batch = translator->translator->limits().max_batch;
    to.num_threads = translator->translator->limits().num_threads;
    to.max_beam = 1;
    auto r = edgemt::Translator::create(reverse->model, to);
    if (!r) return from_status(r.status());
    return from_status(translator->translator->set_reranker(std::move(r.value()), weight));
  });
}

namespace {

// The n texts as strings (a NULL one is an error naming `fn`).
edgemt_status texts_of(const char* const* texts, size_t n, const char* fn, std::vector<std::string>* in) {
  in->reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (texts[i] == nullptr)
      return fail(EDGEMT_INVALID_ARGUMENT, std::string(fn) + ": text " + std::to_string(i) + " is NULL");
    in->emplace_back(texts[i]);
  }
  return EDGEMT_OK;
}

}  // namespace

edgemt_status edgemt_translate(edgemt_translator* translator, const char* const* texts, size_t n,
                               const edgemt_translate_options* options, const char* const** results) {
  return guarded([&] {
    if (results == nullptr) return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translate: results is NULL");
    *results = nullptr;
    if (translator == nullptr) return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translate: translator is NULL");
    if (texts == nullptr && n > 0) return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translate: texts is NULL");
    edgemt::TranslateOptions to;
    if (const edgemt_status s = to_translate_options(options, &to); s != EDGEMT_OK) return s;
    std::vector<std::string> in;
    if (const edgemt_status s = texts_of(texts, n, "edgemt_translate", &in); s != EDGEMT_OK) return s;
    auto r = translator->translator->translate(in, to);
    if (!r) return from_status(r.status());
    translator->texts = std::move(r.value());
    translator->text_ptrs.resize(n);
    for (size_t i = 0; i < n; ++i) translator->text_ptrs[i] = translator->texts[i].c_str();
    *results = translator->text_ptrs.data();
    return EDGEMT_OK;
  });
}

edgemt_status edgemt_translate_document(edgemt_translator* translator, const void* data, size_t size,
                                        const edgemt_translate_options* options, const void** out,
                                        size_t* out_size) {
  return guarded([&] {
    if (out == nullptr || out_size == nullptr)
      return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translate_document: out or out_size is NULL");
    *out = nullptr;
    *out_size = 0;
    if (translator == nullptr)
      return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translate_document: translator is NULL");
    if (data == nullptr && size > 0)
      return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translate_document: data is NULL");
    edgemt::TranslateOptions to;
    if (const edgemt_status s = to_translate_options(options, &to); s != EDGEMT_OK) return s;
    to.format = edgemt::TextFormat::kOffice;
    auto r = translator->translator->translate(
        {size == 0 ? std::string() : std::string(static_cast<const char*>(data), size)}, to);
    if (!r) return from_status(r.status());
    translator->texts = std::move(r.value());
    *out = translator->texts[0].data();
    *out_size = translator->texts[0].size();
    return EDGEMT_OK;
  });
}

edgemt_status edgemt_translate_pdf(edgemt_translator* translator, const void* data, size_t size,
                                   const edgemt_translate_options* options, const char** text) {
  return guarded([&] {
    if (text == nullptr) return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translate_pdf: text is NULL");
    *text = nullptr;
    if (translator == nullptr)
      return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translate_pdf: translator is NULL");
    if (data == nullptr && size > 0)
      return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translate_pdf: data is NULL");
    edgemt::TranslateOptions to;
    if (const edgemt_status s = to_translate_options(options, &to); s != EDGEMT_OK) return s;
    auto r = translator->translator->translate_pdf(
        size == 0 ? std::string_view() : std::string_view(static_cast<const char*>(data), size), to);
    if (!r) return from_status(r.status());
    translator->texts.assign(1, std::move(r.value()));
    *text = translator->texts[0].c_str();
    return EDGEMT_OK;
  });
}

edgemt_status edgemt_translate_scored(edgemt_translator* translator, const char* const* texts, size_t n,
                                      size_t num_hypotheses, const edgemt_translate_options* options,
                                      const char* const** results) {
  return guarded([&] {
    if (results == nullptr) return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translate_scored: results is NULL");
    *results = nullptr;
    if (translator == nullptr)
      return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translate_scored: translator is NULL");
    if (texts == nullptr && n > 0)
      return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translate_scored: texts is NULL");
    if (num_hypotheses < 1)
      return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translate_scored: num_hypotheses must be at least 1");
    edgemt::TranslateOptions to;
    if (const edgemt_status s = to_translate_options(options, &to); s != EDGEMT_OK) return s;
    std::vector<std::string> in;
    if (const edgemt_status s = texts_of(texts, n, "edgemt_translate_scored", &in); s != EDGEMT_OK) return s;
    auto r = translator->translator->translate_scored(in, num_hypotheses, to);
    if (!r) return from_status(r.status());
    translator->texts.resize(n);
    translator->text_ptrs.resize(n);
    for (size_t i = 0; i < n; ++i) {
      translator->texts[i] = edgemt::scored_json(r.value()[i], in[i], num_hypotheses > 1);
      translator->text_ptrs[i] = translator->texts[i].c_str();
    }
    *results = translator->text_ptrs.data();
    return EDGEMT_OK;
  });
}

edgemt_status edgemt_translate_ids(edgemt_translator* translator, const int32_t* const* ids,
                                   const size_t* lengths, size_t n, const edgemt_translate_options* options,
                                   const int32_t* const** out_ids, const size_t** out_lengths) {
  return guarded([&] {
    if (out_ids == nullptr || out_lengths == nullptr)
      return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translate_ids: out_ids or out_lengths is NULL");
    *out_ids = nullptr;
    *out_lengths = nullptr;
    if (translator == nullptr)
      return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translate_ids: translator is NULL");
    if (n > 0 && (ids == nullptr || lengths == nullptr))
      return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_translate_ids: ids or lengths is NULL");
    edgemt::TranslateOptions to;
    if (const edgemt_status s = to_translate_options(options, &to); s != EDGEMT_OK) return s;
    edgemt_translator& t = *translator;
    // Buffers only grow: once they hold the largest call's sequences, calls allocate
    // nothing (whatever their lengths and order; tests/runtime/alloc_test.cc).
    if (t.sources.size() < n) t.sources.resize(n);
    if (t.id_ptrs.size() < n) t.id_ptrs.resize(n);
    if (t.id_lengths.size() < n) t.id_lengths.resize(n);
    for (size_t i = 0; i < n; ++i) {
      if (ids[i] == nullptr && lengths[i] > 0)
        return fail(EDGEMT_INVALID_ARGUMENT,
                    "edgemt_translate_ids: sequence " + std::to_string(i) + " is NULL");
      t.sources[i] = std::span<const int32_t>(ids[i], lengths[i]);
    }
    const edgemt::Status st = t.translator->translate_ids(std::span(t.sources.data(), n), &t.ids, to);
    if (!st.is_ok()) return from_status(st);
    for (size_t i = 0; i < n; ++i) {
      t.id_ptrs[i] = t.ids[i].data();
      t.id_lengths[i] = t.ids[i].size();
    }
    *out_ids = t.id_ptrs.data();
    *out_lengths = t.id_lengths.data();
    return EDGEMT_OK;
  });
}

edgemt_status edgemt_translate_ids_nbest(edgemt_translator* translator, const int32_t* const* ids,
                                         const size_t* lengths, size_t n, size_t num_hypotheses,
                                         const edgemt_translate_options* options, const size_t** out_first,
                                         const size_t** out_counts, const int32_t* const** out_ids,
                                         const size_t** out_lengths, const float** out_scores) {
  return guarded([&] {
    const char* what = "edgemt_translate_ids_nbest";
    if (out_first == nullptr || out_counts == nullptr || out_ids == nullptr || out_lengths == nullptr ||
        out_scores == nullptr)
      return fail(EDGEMT_INVALID_ARGUMENT, std::string(what) + ": an output pointer is NULL");
    *out_first = *out_counts = *out_lengths = nullptr;
    *out_ids = nullptr;
    *out_scores = nullptr;
    if (translator == nullptr)
      return fail(EDGEMT_INVALID_ARGUMENT, std::string(what) + ": translator is NULL");
    if (n > 0 && (ids == nullptr || lengths == nullptr))
      return fail(EDGEMT_INVALID_ARGUMENT, std::string(what) + ": ids or lengths is NULL");
    if (num_hypotheses < 1) return fail(EDGEMT_INVALID_ARGUMENT, std::string(what) + ": num_hypotheses is 0");
    edgemt::TranslateOptions to;
    if (const edgemt_status s = to_translate_options(options, &to); s != EDGEMT_OK) return s;
    edgemt_translator& t = *translator;
    if (t.sources.size() < n) t.sources.resize(n);
    for (size_t i = 0; i < n; ++i) {
      if (ids[i] == nullptr && lengths[i] > 0)
        return fail(EDGEMT_INVALID_ARGUMENT,
                    std::string(what) + ": sequence " + std::to_string(i) + " is NULL");
      t.sources[i] = std::span<const int32_t>(ids[i], lengths[i]);
    }
    const edgemt::Status st = t.translator->translate_ids_nbest(
        std::span(t.sources.data(), n), num_hypotheses, &t.nbest, to, &t.nbest_scores);
    if (!st.is_ok()) return from_status(st);
    t.first.assign(n, 0);
    t.counts.assign(n, 0);
    t.id_ptrs.clear();
    t.id_lengths.clear();
    t.scores.clear();
    for (size_t i = 0; i < n; ++i) {
      t.first[i] = t.id_ptrs.size();
      t.counts[i] = t.nbest[i].size();
      for (size_t j = 0; j < t.nbest[i].size(); ++j) {
        t.id_ptrs.push_back(t.nbest[i][j].data());
        t.id_lengths.push_back(t.nbest[i][j].size());
        t.scores.push_back(t.nbest_scores[i][j]);
      }
    }
    *out_first = t.first.data();
    *out_counts = t.counts.data();
    *out_ids = t.id_ptrs.data();
    *out_lengths = t.id_lengths.data();
    *out_scores = t.scores.data();
    return EDGEMT_OK;
  });
}

}  // extern "C"

namespace {

// Points the caller at t.logprobs (a scoring call's results).
edgemt_status give_logprobs(edgemt_translator& t, const float* const** out_logprobs,
                            const size_t** out_lengths) {
  const size_t n = t.logprobs.size();
  t.logprob_ptrs.resize(n);
  t.logprob_lengths.resize(n);
  for (size_t i = 0; i < n; ++i) {
    t.logprob_ptrs[i] = t.logprobs[i].data();
    t.logprob_lengths[i] = t.logprobs[i].size();
  }
  *out_logprobs = t.logprob_ptrs.data();
  *out_lengths = t.logprob_lengths.data();
  return EDGEMT_OK;
}

}  // namespace

edgemt_status edgemt_score_ids(edgemt_translator* translator, const int32_t* const* sources,
                               const size_t* source_lengths, const int32_t* const* targets,
                               const size_t* target_lengths, size_t n, const float* const** out_logprobs,
                               const size_t** out_lengths) {
  return guarded([&] {
    if (out_logprobs == nullptr || out_lengths == nullptr)
      return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_score_ids: out_logprobs or out_lengths is NULL");
    *out_logprobs = nullptr;
    *out_lengths = nullptr;
    if (translator == nullptr) return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_score_ids: translator is NULL");
    if (n > 0 &&
        (sources == nullptr || source_lengths == nullptr || targets == nullptr || target_lengths == nullptr))
      return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_score_ids: sources, targets or their lengths are NULL");
    edgemt_translator& t = *translator;
    t.sources.resize(n);
    t.targets.resize(n);
    for (size_t i = 0; i < n; ++i) {
      if ((sources[i] == nullptr && source_lengths[i] > 0) ||
          (targets[i] == nullptr && target_lengths[i] > 0))
        return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_score_ids: pair " + std::to_string(i) + " is NULL");
      t.sources[i] = std::span<const int32_t>(sources[i], source_lengths[i]);
      t.targets[i] = std::span<const int32_t>(targets[i], target_lengths[i]);
    }
    const edgemt::Status st = t.translator->score_ids(t.sources, t.targets, &t.logprobs);
    if (!st.is_ok()) return from_status(st);
    return give_logprobs(t, out_logprobs, out_lengths);
  });
}

edgemt_status edgemt_score(edgemt_translator* translator, const char* const* sources,
                           const char* const* targets, size_t n, const float* const** out_logprobs,
                           const size_t** out_lengths) {
  return guarded([&] {
    if (out_logprobs == nullptr || out_lengths == nullptr)
      return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_score: out_logprobs or out_lengths is NULL");
    *out_logprobs = nullptr;
    *out_lengths = nullptr;
    if (translator == nullptr) return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_score: translator is NULL");
    if (n > 0 && (sources == nullptr || targets == nullptr))
      return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_score: sources or targets is NULL");
    std::vector<std::string> src(n), tgt(n);
    for (size_t i = 0; i < n; ++i) {
      if (sources[i] == nullptr || targets[i] == nullptr)
        return fail(EDGEMT_INVALID_ARGUMENT, "edgemt_score: pair " + std::to_string(i) + " is NULL");
      src[i] = sources[i];
      tgt[i] = targets[i];
    }
    auto r = translator->translator->score(src, tgt);
    if (!r) return from_status(r.status());
    translator->logprobs = std::move(r.value());
    return give_logprobs(*translator, out_logprobs, out_lengths);
  });
}
