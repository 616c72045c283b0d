// Arbitrary bytes through the converter's Marian readers: the .npz archive reader and the
// YAML subset reader of Marian's configurations. Anything malformed must throw
// ConvertError: any other exception, a crash, a leak or a hang is a bug.
//
// Input: byte 0 picks the mode (its value mod 3).
//   0: the rest is a whole .npz file; every array is read, and special:model.yml
//      (when there) goes through the YAML reader;
//   1: the rest is a YAML configuration (model.yml, decoder.yml), and a Marian word
//      vocabulary (opus.vocab.yml: every id must get a non-empty piece);
//   2: the rest is a whole Marian binary model (.bin); every item is read.
#include <cstddef>
#include <cstdint>
#include <string>

#include "converter/checkpoint.h"
#include "converter/marian_bin.h"
#include "converter/marian_yaml.h"
#include "converter/npz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace edgemt;
  if (size == 0) return 0;
  std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    if (data[0] % 3 == 2) {
      auto bin = convert::MarianBin::from_bytes("fuzz.bin", std::move(rest));
      for (const std::string& name : bin->names()) {
        const std::vector<int64_t> shape = bin->shape(name);
        try {
          const convert::FloatTensor t = bin->read(name);
          size_t numel = 1;
          for (int64_t d : shape) numel *= static_cast<size_t>(d);
          if (t.shape != shape || t.data.size() != numel) __builtin_trap();
        } catch (const convert::ConvertError&) {  // e.g. a non-positive multiplier
        }
      }
      if (const auto yml = bin->text("special:model.yml"))
        convert::parse_marian_yaml(*yml, "special:model.yml");
      return 0;
    }
    if (data[0] % 3 == 1) {
      try {
        for (const std::string& piece : convert::parse_marian_vocab(rest, "fuzz.vocab.yml"))
          if (piece.empty()) __builtin_trap();
      } catch (const convert::ConvertError&) {
      }
      const convert::YamlMap y = convert::parse_marian_yaml(rest, "fuzz.yml");
      for (const auto& [k, v] : y)
        if (k.empty() || (!v.is_list && !v.items.empty())) __builtin_trap();
      return 0;
    }
    auto npz = convert::Npz::from_bytes("fuzz.npz", std::move(rest));
    for (const std::string& name : npz->names()) {
      if (!npz->has(name)) __builtin_trap();
      const std::vector<int64_t> shape = npz->shape(name);
      const convert::FloatTensor t = npz->read(name);
      size_t numel = 1;
      for (int64_t d : shape) numel *= static_cast<size_t>(d);
      if (t.shape != shape || t.data.size() != numel) __builtin_trap();
    }
    if (const auto yml = npz->text("special:model.yml"))
      convert::parse_marian_yaml(*yml, "special:model.yml");
  } catch (const convert::ConvertError&) {
  }
  return 0;
}
