#pragma once

#include <string>

#include "converter/model_spec.h"

namespace edgemt::convert {

// Serialises `spec` to `path` atomically: the file is written under a temporary name in
// the same directory and renamed at the end, so no partial output is ever left behind.
// Throws ConvertError.
void write_model(const ModelSpec& spec, const std::string& path);

}  // namespace edgemt::convert
