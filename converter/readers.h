// The checkpoint readers, one entry each: adding a checkpoint family is a reader file
// plus one line in readers.cc. edgemt-convert picks the first reader that accepts the
// input, or the one --format names.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "converter/pack.h"
#include "converter/source_model.h"

namespace edgemt::convert {

struct CheckpointReader {
  std::string_view name;         // --format NAME, and the model file's source_format
  std::string_view description;  // one line for --help
  bool (*accepts)(const std::string& input);
  SourceModel (*read)(const std::string& input);
};

std::span<const CheckpointReader> checkpoint_readers();

// Reads `input` with the reader named `format` (empty: the first that accepts it).
// Throws ConvertError naming the formats when none fits.
SourceModel read_checkpoint(const std::string& input, std::string_view format = {});

// read_checkpoint + pack_model: what edgemt-convert writes.
ModelSpec convert_checkpoint(const std::string& input, const ConvertOptions& options,
                             std::string_view format = {});

}  // namespace edgemt::convert
