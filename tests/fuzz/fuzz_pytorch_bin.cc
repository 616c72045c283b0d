// Arbitrary bytes through the converter's pytorch_model.bin reader (zip directory,
// pickle machine, tensor views). Anything malformed must throw ConvertError: any other
// exception, a crash, a leak or a hang is a bug. Every tensor it accepts is read.
//
// Input: byte 0 picks the mode.
//   even: the rest is the whole file;
//   odd:  the rest is k = one byte (<= 8), k little-endian uint16 storage sizes, then
//         data.pkl; they are wrapped into a valid torch.save-like zip (archive/data.pkl,
//         archive/data/0..k-1, archive/byteorder), so mutations reach the pickle machine.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "converter/checkpoint.h"
#include "tests/converter/stored_zip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace edgemt;
  if (size == 0) return 0;
  std::string file;
  if ((data[0] & 1) == 0) {
    file.assign(reinterpret_cast<const char*>(data + 1), size - 1);
  } else {
    size_t pos = 1;
    const size_t k = pos < size ? std::min<size_t>(data[pos++], 8) : 0;
    std::vector<std::pair<std::string, std::string>> entries;
    entries.emplace_back("archive/data.pkl", "");
    for (size_t i = 0; i < k; ++i) {
      size_t n = 0;
      if (pos + 2 <= size) {
        n = data[pos] | (data[pos + 1] << 8);
        pos += 2;
      }
      std::string bytes(n, '\0');
      for (size_t j = 0; j < n; ++j) bytes[j] = static_cast<char>((j * 37 + i) & 0xFF);
      entries.emplace_back("archive/data/" + std::to_string(i), std::move(bytes));
    }
    entries.emplace_back("archive/byteorder", "little");
    entries[0].second.assign(reinterpret_cast<const char*>(data + std::min(pos, size)),
                             size - std::min(pos, size));
    file = testing::make_stored_zip(entries);
  }
  try {
    auto ck = convert::open_pytorch_bin_bytes("fuzz.bin", std::move(file));
    for (const std::string& name : ck->names()) {
      if (!ck->has(name)) __builtin_trap();
      const std::vector<int64_t> shape = ck->shape(name);
      try {
        const convert::FloatTensor t = ck->read(name);
        if (t.shape != shape) __builtin_trap();
        size_t numel = 1;
        for (int64_t d : shape) numel *= static_cast<size_t>(d);
        if (t.data.size() != numel) __builtin_trap();
      } catch (const convert::ConvertError&) {
      }
    }
  } catch (const convert::ConvertError&) {
  }
  return 0;
}
