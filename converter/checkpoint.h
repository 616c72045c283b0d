// Checkpoint readers: tensors by name, converted to float32.
// The converter is an offline tool: readers throw ConvertError with a message that
// names the file and what is wrong.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/core/mapped_file.h"

namespace edgemt::convert {

struct ConvertError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct FloatTensor {
  std::vector<int64_t> shape;
  std::vector<float> data;
  // > 0: the checkpoint held int8 values (Marian's intgemm8): data[i] = q * int8_step with
  // integer q in [-127, 127], which int8 conversion keeps exactly.
  float int8_step = 0.0f;
  size_t numel() const { return data.size(); }
};

// A set of named tensors read lazily from one or more files.
class Checkpoint {
 public:
  virtual ~Checkpoint() = default;
  virtual bool has(const std::string& name) const = 0;
  virtual std::vector<int64_t> shape(const std::string& name) const = 0;
  // Throws ConvertError if missing or of an unsupported dtype.
  virtual FloatTensor read(const std::string& name) const = 0;
  virtual std::vector<std::string> names() const = 0;
};

// model.safetensors, or the shards listed by model.safetensors.index.json.
std::unique_ptr<Checkpoint> open_safetensors(const std::string& dir);
// pytorch_model.bin (torch.save zip archive), read without Python.
std::unique_ptr<Checkpoint> open_pytorch_bin(const std::string& path);
// The same from the bytes of such a file (fuzzing, tests); `name` stands for the file in
// messages.
std::unique_ptr<Checkpoint> open_pytorch_bin_bytes(const std::string& name, std::string bytes);

std::string shape_to_string(const std::vector<int64_t>& s);

// The one file mapping (runtime/core/mapped_file.h), throwing ConvertError.
MappedFile map_file(const std::string& path);

}  // namespace edgemt::convert
