// numpy .npz archives (Marian's model.npz): a zip of .npy arrays, one per parameter,
// read in place. Marian also stores its model configuration in it, as the 1-D int8
// array "special:model.yml" (YAML text and a NUL).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "converter/checkpoint.h"

namespace edgemt::convert {

class Npz : public Checkpoint {
 public:
  // Throws ConvertError naming the file for anything malformed or unsupported
  // (compressed entries: numpy.savez_compressed; dtypes other than float16/32/64 and
  // 8-bit integers).
  static std::unique_ptr<Npz> open(const std::string& path);
  // The same from the bytes of such a file (fuzzing, tests); `name` stands for the file.
  static std::unique_ptr<Npz> from_bytes(const std::string& name, std::string bytes);

  // The bytes of a 1-D 8-bit array up to its first NUL (Marian's "special:model.yml"),
  // or nullopt when there is no such array.
  virtual std::optional<std::string> text(const std::string& name) const = 0;
};

}  // namespace edgemt::convert
