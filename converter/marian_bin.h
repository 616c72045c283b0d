// Marian's binary model format (.bin, marian-conv's output; the form Firefox
// Translations ships its students in: model.*.intgemm8.bin, model.*.intgemm.alphas.bin):
//   uint64 version (1), uint64 n, n x {uint64 name length (with NUL), type, shape
//   length, data length}, the names (NUL-terminated), the shapes (int32), uint64 pad and
//   pad bytes (data starts on a 256-byte boundary), then each item's data (data length
//   bytes, padded).
// Types (common/types.h): float32 0x0404, float16 0x0402, int8 0x0101 (the YAML of
// "special:model.yml"), intgemm8 0x4101 and intgemm16 0x4102: the matrix quantized with
// one multiplier m (value = q / m), stored transposed ([cols][rows], except "Wemb",
// stored as it is), followed by m as a float32.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "converter/checkpoint.h"

namespace edgemt::convert {

class MarianBin : public Checkpoint {
 public:
  // Throws ConvertError naming the file for anything malformed or unsupported.
  static std::unique_ptr<MarianBin> open(const std::string& path);
  static std::unique_ptr<MarianBin> from_bytes(const std::string& name, std::string bytes);

  // The text of an int8 item up to its first NUL ("special:model.yml"), or nullopt.
  virtual std::optional<std::string> text(const std::string& name) const = 0;
  // Whether any matrix is stored quantized (intgemm8/16): read() dequantizes it.
  virtual bool quantized() const = 0;
};

}  // namespace edgemt::convert
