// Arbitrary bytes through the converter's Marian readers: the .npz archive reader and the
// YAML subset reader of Marian's configurations. Anything malformed must throw
// ConvertError: any other exception, a crash, a leak or a hang is a bug.
//
// Input: byte 0 picks the mode (its value mod 6).
//   0, 5: the rest is a whole .npz file; every array is read, and special:model.yml
//      (when there) goes through the YAML reader;
//   1: the rest is a YAML configuration (model.yml, decoder.yml), and a Marian word
//      vocabulary (opus.vocab.yml: every id must get a non-empty piece);
//   2: the rest is a whole Marian binary model (.bin); every item is read;
//   3, 4: the rest is a gzip (3) or zstd (4) file, as Firefox ships its models:
//      decompressed (at most 4 MiB) as edgemt-convert does; what comes out must start
//      with what decompressed_prefix gives, and is read as a Marian binary model.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "converter/checkpoint.h"
#include "converter/decompress.h"
#include "converter/marian_bin.h"
#include "converter/marian_yaml.h"
#include "converter/npz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace edgemt;
  if (size == 0) return 0;
  std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);
  const int mode = data[0] % 6;
  if (mode == 3 || mode == 4) {
    namespace fs = std::filesystem;
    struct Scratch {  // this process's files, removed at exit
      fs::path dir = fs::temp_directory_path() / ("edgemt_fuzz_decompress_" + std::to_string(::getpid()));
      Scratch() { fs::create_directories(dir); }
      ~Scratch() {
        std::error_code ec;
        fs::remove_all(dir, ec);
      }
    };
    static const Scratch scratch;
    const fs::path in = scratch.dir / "in", out = scratch.dir / "out";
    std::ofstream(in, std::ios::binary) << rest;
    const convert::Compression c = mode == 3 ? convert::Compression::kGzip : convert::Compression::kZstd;
    bool decompressed = false;
    try {
      convert::decompress_file(in, out, c, "fuzz input", uint64_t{4} << 20);
      decompressed = true;
      std::ifstream f(out, std::ios::binary);
      const std::string got{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
      const std::string prefix = convert::decompressed_prefix(in, c, 16);
      if (got.compare(0, prefix.size(), prefix) != 0) __builtin_trap();
      if (prefix.size() < std::min<size_t>(16, got.size())) __builtin_trap();
      auto bin = convert::MarianBin::from_bytes("fuzz.bin", got);
      for (const std::string& name : bin->names()) (void)bin->shape(name);
    } catch (const convert::ConvertError&) {
      if (!decompressed && fs::exists(out)) __builtin_trap();  // a failed decompression leaves no file
    }
    std::error_code ec;
    fs::remove(out, ec);
    return 0;
  }
  try {
    if (mode == 2) {
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
    if (mode == 1) {
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
