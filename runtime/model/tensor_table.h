// The tensors of a verified model file by name, and the checks every weight view
// goes through: dtype, layout, shape, byte size, 64-byte alignment, int8 scales and
// row sums. Weight structs (weights.h) load themselves through it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/core/status.h"

namespace edgemt {

namespace fb {
struct Model;
struct Tensor;
}  // namespace fb

struct LinearWeights;
struct EmbeddingWeights;
struct NormWeights;

class TensorTable {
 public:
  explicit TensorTable(const uint8_t* base) : base_(base) {}

  // Indexes the model's tensors by name (each name once, shapes aligned).
  Status index(const fb::Model* model);

  bool has(std::string_view name) const { return by_name_.count(name) != 0; }

  // A float tensor of exactly `shape`, row-major.
  Status f32(std::string_view name, const std::vector<int64_t>& shape, const float** out) const;

  // A linear layer's weight [n, k] (f32 or int8 panels) and its optional bias.
  Status linear(std::string_view module, size_t n, size_t k, LinearWeights* w) const;

  // A token embedding table [rows, d]: f32 or int8, row-major or in panels.
  Status embedding(std::string_view name, size_t rows, size_t d, EmbeddingWeights* e) const;

  // A layer norm's gamma and beta [d].
  Status norm(std::string_view module, size_t d, NormWeights* n) const;

 private:
  Status find(std::string_view name, const fb::Tensor** t) const;

  static Status check_shape(std::string_view name, const fb::Tensor* t, const std::vector<int64_t>& want);

  Status check_aligned(std::string_view name, const void* p) const;

  Status check_data(std::string_view name, const fb::Tensor* t, size_t bytes, const void** p) const;

  Status check_scales(std::string_view name, const fb::Tensor* t, size_t n, const float** out) const;

  const uint8_t* base_;
  std::unordered_map<std::string_view, const fb::Tensor*> by_name_;
};

}  // namespace edgemt
