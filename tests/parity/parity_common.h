// What the parity tests share (parity_test.cc: transformers' references in
// tests/data/parity; marian_test.cc: Marian's in tests/data/marian): the reference
// cases (a directory with reference.json, converted by ctest into <name>.emt first),
// id-list helpers, the ISAs this CPU runs, and an engine over a case's sources.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "ops/ops.h"
#include "runtime/api/translator.h"
#include "runtime/core/status.h"
#include "runtime/nmt/engine.h"

namespace edgemt::testing {

struct ReferenceCase {
  std::string name;
  std::filesystem::path model_file;  // the converted .emt (and .int8.emt beside it)
  nlohmann::json ref;
};

// Every subdirectory of `source_dir` with a reference.json, sorted by name.
inline std::vector<ReferenceCase> load_reference_cases(const std::filesystem::path& source_dir,
                                                       const std::filesystem::path& built_dir) {
  namespace fs = std::filesystem;
  std::vector<ReferenceCase> out;
  if (!fs::exists(source_dir)) return out;
  for (const auto& e : fs::directory_iterator(source_dir)) {
    if (!e.is_directory() || !fs::exists(e.path() / "reference.json")) continue;
    ReferenceCase c;
    c.name = e.path().filename().string();
    c.model_file = built_dir / (c.name + ".emt");
    std::ifstream in(e.path() / "reference.json");
    in >> c.ref;
    out.push_back(std::move(c));
  }
  std::sort(out.begin(), out.end(),
            [](const ReferenceCase& a, const ReferenceCase& b) { return a.name < b.name; });
  return out;
}

inline std::vector<std::vector<int32_t>> ids_of(const nlohmann::json& j) {
  std::vector<std::vector<int32_t>> v;
  for (const nlohmann::json& row : j) v.push_back(row.get<std::vector<int32_t>>());
  return v;
}

inline std::string join(std::span<const int32_t> v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ' ';
    s += std::to_string(v[i]);
  }
  return s;
}
inline std::string join(const std::vector<int32_t>& v) { return join(std::span<const int32_t>(v)); }

// The ISAs this CPU runs, the scalar reference first. EDGEMT_TEST_ISAS (a comma-separated
// list of level names, "best" for the best this CPU runs) keeps only those of them it
// names, and the reference: scripts/test's asan stage names avx2,best on x86, as the
// parity tests on all six x86 levels took most of that stage (most of their time in the
// SSE4.2 gemm tiles and ASan's checks of their 16-byte loads and stores; the kernel tests
// still run every level under the sanitizers). A name that is no level of this build is
// a test failure; a level this CPU lacks is left out.
inline std::vector<ops::Isa> runnable_isas() {
  std::vector<bool> keep(static_cast<size_t>(ops::Isa::kCount), true);
  if (const char* env = std::getenv("EDGEMT_TEST_ISAS"); env != nullptr && *env != '\0') {
    std::fill(keep.begin(), keep.end(), false);
    keep[static_cast<size_t>(ops::Isa::ref)] = true;
    std::string list(env);
    for (size_t b = 0; b <= list.size();) {
      size_t e = list.find(',', b);
      if (e == std::string::npos) e = list.size();
      const std::string name = list.substr(b, e - b);
      b = e + 1;
      if (name.empty()) continue;
      ops::Isa isa = ops::Isa::ref;
      if (name == "best") {
        isa = ops::best_isa();
      } else if (!ops::isa_from_name(name.c_str(), &isa)) {
        ADD_FAILURE() << "EDGEMT_TEST_ISAS names " << name << ", which is no ISA level";
        continue;
      }
      keep[static_cast<size_t>(isa)] = true;
    }
  }
  std::vector<ops::Isa> v;
  for (size_t i = 0; i < static_cast<size_t>(ops::Isa::kCount); ++i)
    if (keep[i] && ops::isa_supported(static_cast<ops::Isa>(i))) v.push_back(static_cast<ops::Isa>(i));
  return v;
}

// An engine for `sources` (its source limit their longest) generating at most max_new
// tokens; isa null: the best this CPU runs. Null (and a test failure) on error.
inline std::unique_ptr<Engine> make_engine(std::shared_ptr<const Model> model,
                                           const std::vector<std::vector<int32_t>>& sources, int max_new,
                                           const ops::Kernels* isa, int threads, int batch, int beam,
                                           const EngineProbes& probes) {
  EngineLimits lim;
  lim.max_batch = batch;
  lim.max_beam = beam;
  lim.max_source_length = 0;
  for (const auto& s : sources)
    lim.max_source_length = std::max(lim.max_source_length, static_cast<int>(s.size()));
  lim.max_target_length = max_new;
  lim.num_threads = threads;
  auto e = Engine::create(std::move(model), lim, isa, probes);
  EXPECT_TRUE(e.has_value()) << e.status().to_string();
  return e.has_value() ? std::move(e.value()) : nullptr;
}
inline std::unique_ptr<Engine> make_engine(std::shared_ptr<const Model> model,
                                           const std::vector<std::vector<int32_t>>& sources, int max_new,
                                           const ops::Kernels* isa, int threads, int batch, int beam,
                                           bool keep_logits) {
  EngineProbes probes;
  probes.keep_first_logits = keep_logits;
  return make_engine(std::move(model), sources, max_new, isa, threads, batch, beam, probes);
}

// A Translator over a reference model, planned for `batch` x `beam` and max_new tokens.
inline std::unique_ptr<Translator> make_translator(std::shared_ptr<const Model> model, int batch, int beam,
                                                   int max_new) {
  TranslatorOptions o;
  o.max_batch = batch;
  o.max_beam = beam;
  o.max_target_length = max_new;
  auto t = Translator::create(std::move(model), o);
  EXPECT_TRUE(t.has_value()) << t.status().to_string();
  return t.has_value() ? std::move(t.value()) : nullptr;
}

// Translates sources [begin, end) as one batch.
inline std::vector<std::vector<int32_t>> run_engine(Engine& e,
                                                    const std::vector<std::vector<int32_t>>& sources,
                                                    size_t begin, size_t end, const SearchParams& p) {
  std::vector<std::span<const int32_t>> in, out(end - begin);
  for (size_t i = begin; i < end; ++i) in.emplace_back(sources[i]);
  const Status st = e.run(in, p, out);
  EXPECT_TRUE(st.is_ok()) << st.to_string();
  std::vector<std::vector<int32_t>> r;
  for (auto& s : out) r.emplace_back(s.begin(), s.end());
  return r;
}

// A test over one reference case (the test parameter indexes `cases`): its converted
// model, source ids and length limit.
class ReferenceTest : public ::testing::TestWithParam<size_t> {
 protected:
  void load(const std::vector<ReferenceCase>& cases) {
    ASSERT_LT(GetParam(), cases.size());
    c_ = &cases[GetParam()];
    ASSERT_TRUE(std::filesystem::exists(c_->model_file))
        << c_->model_file << " was not converted (run ctest, which converts first)";
    auto m = Model::load(c_->model_file.string());
    ASSERT_TRUE(m.has_value()) << m.status().to_string();
    model_ = m.value();
    src_ = ids_of(c_->ref.at("src_ids"));
    max_new_ = c_->ref.at("max_new_tokens").get<int>();
  }

  const ReferenceCase* c_ = nullptr;
  std::shared_ptr<const Model> model_;
  std::vector<std::vector<int32_t>> src_;
  int max_new_ = 0;
};

}  // namespace edgemt::testing
