// What the converter writes: a checkpoint translated into edgemt's naming, layout and
// config. Readers (hf_marian.cc) fill it; writer.cc serialises exactly this into the
// schema in schema/edgemt.fbs.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runtime/model/config.h"

namespace edgemt::convert {

enum class TensorDType : uint8_t { kF32 = 0, kI8 = 1 };
enum class TensorLayout : uint8_t { kRowMajor = 0, kPanelF32x16 = 1, kPanelI8x16x4 = 2 };

struct SpecTensor {
  std::string name;
  TensorDType dtype = TensorDType::kF32;
  TensorLayout layout = TensorLayout::kRowMajor;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;      // bytes in `layout`
  std::vector<float> scales;      // kI8
  std::vector<int32_t> row_sums;  // kI8 linear weights
  uint8_t max_abs = 0;            // kI8 linear weights: max |int8| (Tensor.max_abs)
};

struct ModelSpec {
  ModelConfig config;  // the runtime's own description (runtime/model/config.h)
  GenerationDefaults generation;
  std::string source_spm, target_spm;
  std::vector<std::string> source_vocab;  // id -> piece
  std::vector<std::string> target_vocab;  // empty when shared
  std::vector<SpecTensor> tensors;
  std::vector<std::pair<std::string, std::string>> metadata;
  // Lexical shortlist (schema Shortlist); empty offsets: none.
  struct Shortlist {
    uint32_t first_num = 0, best_num = 0, target_vocab = 0;
    bool add_source_ids = false;
    std::vector<uint32_t> offsets, targets;
  } shortlist;
};

}  // namespace edgemt::convert
