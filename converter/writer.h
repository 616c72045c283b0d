#pragma once

#include <string>

#include "converter/model_spec.h"

namespace edgemt::convert {

// Serialises `spec` to `path` atomically: the file is written under a temporary name in
// the same directory and renamed at the end, so no partial output is ever left behind.
// Throws ConvertError.
struct WriteOptions {
  // Tests only: build files that a correct converter never writes.
  bool align_tensors = true;
  uint32_t schema_version = 0;  // 0: this build's version
};
void write_model(const ModelSpec& spec, const std::string& path, const WriteOptions& options = {});

}  // namespace edgemt::convert
