// edgemt._edgemt: the Python binding, a thin layer over the C API (include/edgemt.h).
// The GIL is released while translating; errors become Python exceptions carrying the
// C API's message. The Pythonic interface (CTranslate2-style translate_batch) is in
// python/edgemt/__init__.py.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "edgemt.h"
#include "runtime/formats/format_list.h"

namespace py = pybind11;

namespace {

PyObject* g_cancelled_error = nullptr;  // edgemt.CancelledError (a RuntimeError)

// Sets the Python exception for a failed C API call (with the GIL held) and unwinds.
[[noreturn]] void raise(edgemt_status s) {
  PyObject* type = PyExc_RuntimeError;
  switch (s) {
    case EDGEMT_NOT_FOUND:
      type = PyExc_FileNotFoundError;
      break;
    case EDGEMT_INVALID_ARGUMENT:
    case EDGEMT_INVALID_MODEL:
    case EDGEMT_OUT_OF_RANGE:
      type = PyExc_ValueError;
      break;
    case EDGEMT_UNSUPPORTED:
      type = PyExc_NotImplementedError;
      break;
    case EDGEMT_OUT_OF_MEMORY:
      type = PyExc_MemoryError;
      break;
    case EDGEMT_CANCELLED:
      type = g_cancelled_error != nullptr ? g_cancelled_error : PyExc_RuntimeError;
      break;
    default:
      break;
  }
  PyErr_SetString(type, edgemt_last_error());
  throw py::error_already_set();
}

void check(edgemt_status s) {
  if (s != EDGEMT_OK) raise(s);
}

struct Model {
  edgemt_model* handle = nullptr;
  explicit Model(const std::string& path) {
    edgemt_status s;
    {
      py::gil_scoped_release nogil;
      s = edgemt_model_load(path.c_str(), &handle);
    }
    check(s);
  }
  ~Model() { edgemt_model_free(handle); }
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;
};

// A flag another thread sets to stop a call (edgemt_translate_options.cancel).
struct CancelFlag {
  alignas(4) int32_t flag = 0;
  void cancel() { __atomic_store_n(&flag, 1, __ATOMIC_RELAXED); }
  void reset() { __atomic_store_n(&flag, 0, __ATOMIC_RELAXED); }
  bool cancelled() const { return __atomic_load_n(&flag, __ATOMIC_RELAXED) != 0; }
};

struct Options {
  int beam = 0, max_length = 0;
  bool has_length_penalty = false;
  float length_penalty = 1.0f;
  float max_length_factor = 0.0f;
  int max_length_offset = 0;
  bool split_sentences = true;
  bool repetition_guard = true;
  bool protect_spans = true;
  std::string glossary;               // tab-separated "source<TAB>target" lines; empty: none
  int format = EDGEMT_FORMAT_TEXT;    // what the texts are (edgemt_format)
  int sampling_topk = 0;              // 0 or 1: no sampling
  float sampling_temperature = 0.0f;  // 0: 1
  uint64_t seed = 0;
  std::shared_ptr<CancelFlag> cancel;  // none: not cancellable
  edgemt_translate_options c() const {
    edgemt_translate_options o;
    edgemt_translate_options_init(&o);
    o.beam = beam;
    o.max_length = max_length;
    o.has_length_penalty = has_length_penalty ? 1 : 0;
    o.length_penalty = length_penalty;
    o.max_length_factor = max_length_factor;
    o.max_length_offset = max_length_offset;
    o.no_sentence_split = split_sentences ? 0 : 1;
    o.no_repetition_guard = repetition_guard ? 0 : 1;
    o.no_span_protection = protect_spans ? 0 : 1;
    o.glossary = glossary.empty() ? nullptr : glossary.c_str();
    o.format = format;
    o.sampling_topk = sampling_topk;
    o.sampling_temperature = sampling_temperature;
    o.seed = seed;
    o.cancel = cancel ? &cancel->flag : nullptr;
    return o;
  }
};

class Translator {
 public:
  Translator(std::shared_ptr<Model> model, int max_batch, int max_beam, int max_source_length,
             int max_target_length, int num_threads)
      : model_(std::move(model)) {
    edgemt_translator_options o;
    edgemt_translator_options_init(&o);
    o.max_batch = max_batch;
    o.max_beam = max_beam;
    o.max_source_length = max_source_length;
    o.max_target_length = max_target_length;
    o.num_threads = num_threads;
    check(edgemt_translator_create(model_->handle, &o, &handle_));
  }
  ~Translator() { edgemt_translator_free(handle_); }
  Translator(const Translator&) = delete;
  // None removes the reranker.
  void set_reranker(std::shared_ptr<Model> reverse, float weight) {
    check(edgemt_translator_set_reranker(handle_, reverse ? reverse->handle : nullptr, weight));
    reverse_ = std::move(reverse);
  }
  Translator& operator=(const Translator&) = delete;

  // The C API's view of sequences: pointers and lengths.
  static std::pair<std::vector<const int32_t*>, std::vector<size_t>> views(
      const std::vector<std::vector<int32_t>>& ids) {
    std::pair<std::vector<const int32_t*>, std::vector<size_t>> v;
    for (const auto& s : ids) {
      v.first.push_back(s.data());
      v.second.push_back(s.size());
    }
    return v;
  }

  // Token ids to token ids with no copy per sequence: ids (any sequence of sequences of
  // ints: lists, tuples, arrays) are read into this translator's reused flat buffers and
  // the results built straight into Python lists, so once the buffers have grown a call
  // allocates nothing per sequence (the lists and ints are Python's, from its own
  // small-object allocator for lists of up to 64 ids).
  py::list translate_ids(py::handle ids, const Options& opt) {
    read_ids(ids, "translate_ids");
    const size_t n = in_lengths_.size();
    const int32_t* const* out = nullptr;
    const size_t* out_len = nullptr;
    const edgemt_translate_options o = opt.c();
    edgemt_status s;
    {
      py::gil_scoped_release nogil;
      s = edgemt_translate_ids(handle_, in_ptrs_.data(), in_lengths_.data(), n, &o, &out, &out_len);
    }
    check(s);
    py::list result(n);
    for (size_t i = 0; i < n; ++i) {
      py::list row(out_len[i]);
      for (size_t j = 0; j < out_len[i]; ++j) {
        PyObject* id = PyLong_FromLong(out[i][j]);
        if (id == nullptr) throw py::error_already_set();
        PyList_SET_ITEM(row.ptr(), static_cast<Py_ssize_t>(j), id);
      }
      PyList_SET_ITEM(result.ptr(), static_cast<Py_ssize_t>(i), row.release().ptr());
    }
    return result;
  }

  // Each sequence's hypotheses, best first, with their scores.
  using Nbest = std::vector<std::vector<std::pair<std::vector<int32_t>, float>>>;
  Nbest translate_ids_nbest(const std::vector<std::vector<int32_t>>& ids, size_t num_hypotheses,
                            const Options& opt) {
    const auto [ptrs, lengths] = views(ids);
    const size_t *first = nullptr, *counts = nullptr, *out_len = nullptr;
    const int32_t* const* out = nullptr;
    const float* scores = nullptr;
    const edgemt_translate_options o = opt.c();
    edgemt_status s;
    {
      py::gil_scoped_release nogil;
      s = edgemt_translate_ids_nbest(handle_, ptrs.data(), lengths.data(), ids.size(), num_hypotheses, &o,
                                     &first, &counts, &out, &out_len, &scores);
    }
    check(s);
    Nbest result(ids.size());
    for (size_t i = 0; i < ids.size(); ++i)
      for (size_t j = first[i]; j < first[i] + counts[i]; ++j)
        result[i].emplace_back(std::vector<int32_t>(out[j], out[j] + out_len[j]), scores[j]);
    return result;
  }

  std::vector<std::vector<int32_t>> source_ids(const std::vector<std::vector<std::string>>& tokens) const {
    std::vector<std::vector<int32_t>> ids(tokens.size());
    for (size_t i = 0; i < tokens.size(); ++i) {
      ids[i].resize(tokens[i].size());
      for (size_t j = 0; j < tokens[i].size(); ++j)
        check(edgemt_model_source_token_id(model_->handle, tokens[i][j].c_str(), &ids[i][j]));
    }
    return ids;
  }
  std::vector<std::string> target_tokens(const std::vector<int32_t>& ids) const {
    std::vector<std::string> out;
    for (int32_t id : ids) {
      const char* piece = edgemt_model_target_token(model_->handle, id);
      out.emplace_back(piece != nullptr ? piece : "");
    }
    return out;
  }

  std::vector<std::vector<std::string>> translate_tokens(const std::vector<std::vector<std::string>>& tokens,
                                                         const Options& opt) {
    const std::vector<std::vector<int32_t>> ids = source_ids(tokens);
    const auto [ptrs, lengths] = views(ids);
    const int32_t* const* out_ids = nullptr;
    const size_t* out_len = nullptr;
    const edgemt_translate_options o = opt.c();
    edgemt_status s;
    {
      py::gil_scoped_release nogil;
      s = edgemt_translate_ids(handle_, ptrs.data(), lengths.data(), ids.size(), &o, &out_ids, &out_len);
    }
    check(s);
    std::vector<std::vector<int32_t>> out(ids.size());
    for (size_t i = 0; i < ids.size(); ++i) out[i].assign(out_ids[i], out_ids[i] + out_len[i]);
    std::vector<std::vector<std::string>> result(out.size());
    for (size_t i = 0; i < out.size(); ++i) result[i] = target_tokens(out[i]);
    return result;
  }

  std::vector<std::vector<std::pair<std::vector<std::string>, float>>> translate_tokens_nbest(
      const std::vector<std::vector<std::string>>& tokens, size_t num_hypotheses, const Options& opt) {
    const Nbest out = translate_ids_nbest(source_ids(tokens), num_hypotheses, opt);
    std::vector<std::vector<std::pair<std::vector<std::string>, float>>> result(out.size());
    for (size_t i = 0; i < out.size(); ++i)
      for (const auto& [h, score] : out[i]) result[i].emplace_back(target_tokens(h), score);
    return result;
  }

  // Each target's tokens' log-probabilities given its source, the final eos included
  // (edgemt_score_ids).
  std::vector<std::vector<float>> score_ids(const std::vector<std::vector<int32_t>>& sources,
                                            const std::vector<std::vector<int32_t>>& targets) {
    if (sources.size() != targets.size())
      throw std::invalid_argument("score: " + std::to_string(sources.size()) + " sources but " +
                                  std::to_string(targets.size()) + " targets");
    const auto [src, src_len] = views(sources);
    const auto [tgt, tgt_len] = views(targets);
    const float* const* out = nullptr;
    const size_t* out_len = nullptr;
    edgemt_status s;
    {
      py::gil_scoped_release nogil;
      s = edgemt_score_ids(handle_, src.data(), src_len.data(), tgt.data(), tgt_len.data(), sources.size(),
                           &out, &out_len);
    }
    check(s);
    std::vector<std::vector<float>> result(sources.size());
    for (size_t i = 0; i < sources.size(); ++i) result[i].assign(out[i], out[i] + out_len[i]);
    return result;
  }

  // Text pairs (edgemt_score).
  std::vector<std::vector<float>> score(const std::vector<std::string>& sources,
                                        const std::vector<std::string>& targets) {
    if (sources.size() != targets.size())
      throw std::invalid_argument("score: " + std::to_string(sources.size()) + " sources but " +
                                  std::to_string(targets.size()) + " targets");
    std::vector<const char*> src(sources.size()), tgt(targets.size());
    for (size_t i = 0; i < sources.size(); ++i) {
      src[i] = sources[i].c_str();
      tgt[i] = targets[i].c_str();
    }
    const float* const* out = nullptr;
    const size_t* out_len = nullptr;
    edgemt_status s;
    {
      py::gil_scoped_release nogil;
      s = edgemt_score(handle_, src.data(), tgt.data(), sources.size(), &out, &out_len);
    }
    check(s);
    std::vector<std::vector<float>> result(sources.size());
    for (size_t i = 0; i < sources.size(); ++i) result[i].assign(out[i], out[i] + out_len[i]);
    return result;
  }

  // Pieces in, as CTranslate2's score_batch takes them.
  std::vector<std::vector<float>> score_tokens(const std::vector<std::vector<std::string>>& sources,
                                               const std::vector<std::vector<std::string>>& targets) {
    std::vector<std::vector<int32_t>> tgt(targets.size());
    for (size_t i = 0; i < targets.size(); ++i)
      for (const std::string& piece : targets[i]) {
        int32_t id = 0;
        check(edgemt_model_target_token_id(model_->handle, piece.c_str(), &id));
        tgt[i].push_back(id);
      }
    return score_ids(source_ids(sources), tgt);
  }

  std::vector<std::string> translate(const std::vector<std::string>& texts, const Options& opt) {
    const edgemt_translate_options o = opt.c();
    return text_call(texts, [&](const char* const* in, const char* const** out) {
      return edgemt_translate(handle_, in, texts.size(), &o, out);
    });
  }

  // An office document's or e-book's bytes to the translated file's (edgemt_translate_document).
  py::bytes translate_document(const std::string& data, const Options& opt) {
    const edgemt_translate_options o = opt.c();
    const void* out = nullptr;
    size_t out_size = 0;
    edgemt_status s;
    {
      py::gil_scoped_release nogil;
      s = edgemt_translate_document(handle_, data.data(), data.size(), &o, &out, &out_size);
    }
    check(s);
    return py::bytes(static_cast<const char*>(out), out_size);
  }

  // A PDF's bytes to the translation of its text (edgemt_translate_pdf).
  std::string translate_pdf(const std::string& data, const Options& opt) {
    const edgemt_translate_options o = opt.c();
    const char* out = nullptr;
    edgemt_status s;
    {
      py::gil_scoped_release nogil;
      s = edgemt_translate_pdf(handle_, data.data(), data.size(), &o, &out);
    }
    check(s);
    return out;
  }

  // Each text's scored translation as JSON (edgemt_translate_scored).
  std::vector<std::string> translate_scored(const std::vector<std::string>& texts, size_t num_hypotheses,
                                            const Options& opt) {
    const edgemt_translate_options o = opt.c();
    return text_call(texts, [&](const char* const* in, const char* const** out) {
      return edgemt_translate_scored(handle_, in, texts.size(), num_hypotheses, &o, out);
    });
  }

 private:
  // Reads a sequence of sequences of ints into in_flat_ / in_lengths_ / in_ptrs_ (cleared,
  // never shrunk). A str, a non-sequence, a non-int (floats included) or an id outside
  // int32 raise TypeError or ValueError naming the place.
  void read_ids(py::handle ids, const char* what) {
    in_flat_.clear();
    in_lengths_.clear();
    in_ptrs_.clear();
    // The message is built only on the way out (i < 0: ids itself).
    const auto not_ids = [&](Py_ssize_t i) {
      PyErr_Clear();
      const std::string where =
          i < 0 ? "ids must be a sequence" : "ids[" + std::to_string(i) + "] must be a sequence";
      return py::type_error(std::string(what) + ": " + where + " of sequences of ints");
    };
    if (PyUnicode_Check(ids.ptr()) || PyBytes_Check(ids.ptr())) throw not_ids(-1);
    const py::object outer = py::reinterpret_steal<py::object>(PySequence_Fast(ids.ptr(), "ids"));
    if (!outer) throw not_ids(-1);
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(outer.ptr());
    for (Py_ssize_t i = 0; i < n; ++i) {
      PyObject* item = PySequence_Fast_GET_ITEM(outer.ptr(), i);
      if (PyUnicode_Check(item) || PyBytes_Check(item)) throw not_ids(i);
      const py::object row = py::reinterpret_steal<py::object>(PySequence_Fast(item, "ids"));
      if (!row) throw not_ids(i);
      const size_t start = in_flat_.size();
      const Py_ssize_t m = PySequence_Fast_GET_SIZE(row.ptr());
      for (Py_ssize_t j = 0; j < m; ++j) {
        const py::object v =
            py::reinterpret_steal<py::object>(PyNumber_Index(PySequence_Fast_GET_ITEM(row.ptr(), j)));
        if (!v) {
          PyErr_Clear();
          throw py::type_error(std::string(what) + ": ids[" + std::to_string(i) + "][" + std::to_string(j) +
                               "] is not an int");
        }
        int overflow = 0;
        const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
        if (overflow != 0 || x < INT32_MIN || x > INT32_MAX)
          throw py::value_error(std::string(what) + ": ids[" + std::to_string(i) + "][" + std::to_string(j) +
                                "] is outside the vocabulary (not an int32)");
        in_flat_.push_back(static_cast<int32_t>(x));
      }
      in_lengths_.push_back(in_flat_.size() - start);
    }
    size_t at = 0;
    for (size_t len : in_lengths_) {
      in_ptrs_.push_back(in_flat_.data() + at);
      at += len;
    }
  }

  // A C API call from texts to as many result strings, run without the GIL.
  template <typename F>
  static std::vector<std::string> text_call(const std::vector<std::string>& texts, F call) {
    std::vector<const char*> ptrs(texts.size());
    for (size_t i = 0; i < texts.size(); ++i) ptrs[i] = texts[i].c_str();
    const char* const* out = nullptr;
    edgemt_status s;
    {
      py::gil_scoped_release nogil;
      s = call(ptrs.data(), &out);
    }
    check(s);
    return std::vector<std::string>(out, out + texts.size());
  }

  std::shared_ptr<Model> model_;
  std::shared_ptr<Model> reverse_;  // set_reranker's, kept alive with the translator
  edgemt_translator* handle_ = nullptr;
  // translate_ids' input, back to back (reused: they keep their capacity).
  std::vector<int32_t> in_flat_;
  std::vector<size_t> in_lengths_;
  std::vector<const int32_t*> in_ptrs_;
};

}  // namespace

PYBIND11_MODULE(_edgemt, m) {
  m.doc() = "edgemt: offline machine translation (binding of the C API; see edgemt.Translator)";
  m.def("version", &edgemt_version);
  // translate()'s format names (as translate --format's) to the C API's edgemt_format:
  // the format table's (runtime/formats/format_list.h), its formats that have a C value.
  py::dict formats;
  const auto add = [&](std::string_view names, int value) {
    for (size_t at = 0; at < names.size();) {
      size_t end = names.find(' ', at);
      if (end == std::string_view::npos) end = names.size();
      if (value >= 0 && end > at) formats[py::str(std::string(names.substr(at, end - at)))] = value;
      at = end + 1;
    }
  };
#define EDGEMT_PY_FORMAT(Id, CValue, CName, Doc, Units, Names, Extensions, Flags) add(Names, CValue);
  EDGEMT_DOCUMENT_FORMATS(EDGEMT_PY_FORMAT)
#undef EDGEMT_PY_FORMAT
  m.attr("FORMATS") = formats;
  m.def("active_isa", &edgemt_active_isa);
  m.def("default_model_path", &edgemt_default_model_path);
  m.def("bundled_model_path", [](const std::string& source, const std::string& target) {
    const char* path = nullptr;
    check(edgemt_bundled_model_path(source.c_str(), target.c_str(), &path));
    return std::string(path);
  });
  m.def("bundled_model_route", [](const std::string& source, const std::string& target) {
    const char* first = nullptr;
    const char* second = nullptr;
    check(edgemt_bundled_model_route(source.c_str(), target.c_str(), &first, &second));
    std::vector<std::string> paths{first};
    if (second != nullptr) paths.emplace_back(second);
    return paths;
  });
  py::class_<Model, std::shared_ptr<Model>>(m, "Model")
      .def(py::init<const std::string&>(), py::arg("path"))
      .def_property_readonly(
          "source_language",
          [](const Model& self) { return std::string(edgemt_model_source_language(self.handle)); })
      .def_property_readonly("target_language", [](const Model& self) {
        return std::string(edgemt_model_target_language(self.handle));
      });
  g_cancelled_error = PyErr_NewException("edgemt._edgemt.CancelledError", PyExc_RuntimeError, nullptr);
  m.attr("CancelledError") = py::handle(g_cancelled_error);
  py::class_<CancelFlag, std::shared_ptr<CancelFlag>>(m, "CancelFlag")
      .def(py::init<>())
      .def("cancel", &CancelFlag::cancel)
      .def("reset", &CancelFlag::reset)
      .def_property_readonly("cancelled", &CancelFlag::cancelled);
  py::class_<Options>(m, "Options")
      .def(py::init<>())
      .def_readwrite("cancel", &Options::cancel)
      .def_readwrite("beam", &Options::beam)
      .def_readwrite("max_length", &Options::max_length)
      .def_readwrite("has_length_penalty", &Options::has_length_penalty)
      .def_readwrite("length_penalty", &Options::length_penalty)
      .def_readwrite("max_length_factor", &Options::max_length_factor)
      .def_readwrite("max_length_offset", &Options::max_length_offset)
      .def_readwrite("split_sentences", &Options::split_sentences)
      .def_readwrite("repetition_guard", &Options::repetition_guard)
      .def_readwrite("protect_spans", &Options::protect_spans)
      .def_readwrite("glossary", &Options::glossary)
      .def_readwrite("format", &Options::format)
      .def_readwrite("sampling_topk", &Options::sampling_topk)
      .def_readwrite("sampling_temperature", &Options::sampling_temperature)
      .def_readwrite("seed", &Options::seed);
  py::class_<Translator>(m, "Translator")
      .def(py::init<std::shared_ptr<Model>, int, int, int, int, int>(), py::arg("model"),
           py::arg("max_batch"), py::arg("max_beam"), py::arg("max_source_length"),
           py::arg("max_target_length"), py::arg("num_threads"))
      .def("set_reranker", &Translator::set_reranker, py::arg("reverse"), py::arg("weight"))
      .def("translate_ids", &Translator::translate_ids)
      .def("translate_tokens", &Translator::translate_tokens)
      .def("translate_ids_nbest", &Translator::translate_ids_nbest)
      .def("translate_tokens_nbest", &Translator::translate_tokens_nbest)
      .def("translate", &Translator::translate)
      .def("translate_scored", &Translator::translate_scored)
      .def("translate_document", &Translator::translate_document)
      .def("translate_pdf", &Translator::translate_pdf)
      .def("score_ids", &Translator::score_ids)
      .def("score", &Translator::score)
      .def("score_tokens", &Translator::score_tokens);
}
