// Shared by the fuzz targets: the fixed tiny model and an invariant check that aborts
// (so libFuzzer records the input) with a message.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "runtime/api/translator.h"

namespace edgemt::fuzz {

#define EDGEMT_FUZZ_CHECK(cond, ...)                                                     \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      std::fprintf(stderr, "invariant failed: %s (%s:%d): ", #cond, __FILE__, __LINE__); \
      std::fprintf(stderr, __VA_ARGS__);                                                 \
      std::fputc('\n', stderr);                                                          \
      std::abort();                                                                      \
    }                                                                                    \
  } while (0)

// $EDGEMT_FUZZ_MODEL, else the model converted at build time.
inline std::shared_ptr<const Model> fixed_model() {
  static const std::shared_ptr<const Model> model = [] {
    const char* env = std::getenv("EDGEMT_FUZZ_MODEL");
    const std::string path = env != nullptr && *env != '\0' ? env : EDGEMT_FUZZ_MODEL;
    auto m = Model::load(path);
    if (!m) {
      std::fprintf(stderr, "fuzz: cannot load the fixed model: %s\n", m.status().to_string().c_str());
      std::exit(1);
    }
    return m.value();
  }();
  return model;
}

// A translator with small limits, created once and reused across inputs (as a
// long-running service would), so state leaking from one call into the next shows up.
inline Translator& fixed_translator() {
  static const std::unique_ptr<Translator> t = [] {
    TranslatorOptions o;
    o.max_batch = 4;
    o.max_beam = 2;
    o.max_source_length = 24;  // long texts are split into chunks
    o.max_target_length = 8;
    auto r = Translator::create(fixed_model(), o);
    if (!r) {
      std::fprintf(stderr, "fuzz: cannot create the translator: %s\n", r.status().to_string().c_str());
      std::exit(1);
    }
    return std::move(r.value());
  }();
  return *t;
}

}  // namespace edgemt::fuzz
