#include "converter/marian_bin.h"

#include <cmath>
#include <cstring>
#include <map>

#include "converter/float16.h"
#include "converter/zip.h"  // Blob, le32, le64

namespace edgemt::convert {
namespace {

enum : uint64_t {
  kFloat32 = 0x0404,
  kFloat16 = 0x0402,
  kInt8 = 0x0101,
  kUint8 = 0x0201,
  kIntgemm8 = 0x4101,
  kIntgemm16 = 0x4102,
};

std::string type_name(uint64_t t) {
  switch (t) {
    case kFloat32:
      return "float32";
    case kFloat16:
      return "float16";
    case kInt8:
      return "int8";
    case kUint8:
      return "uint8";
    case kIntgemm8:
      return "intgemm8";
    case kIntgemm16:
      return "intgemm16";
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%llx", static_cast<unsigned long long>(t));
  return buf;
}

struct Item {
  uint64_t type = 0;
  std::vector<int64_t> shape;
  uint64_t numel = 1;
  const uint8_t* data = nullptr;
  uint64_t bytes = 0;
};

class MarianBinImpl final : public MarianBin {
 public:
  MarianBinImpl(std::string file, std::unique_ptr<Blob> blob)
      : file_(std::move(file)), blob_(std::move(blob)) {
    const uint8_t* p = blob_->data();
    const uint64_t n = blob_->size();
    uint64_t pos = 0;
    auto need = [&](uint64_t bytes, const char* what) {
      if (bytes > n || pos > n - bytes) fail(std::string("is truncated (") + what + ")");
    };
    need(16, "header");
    const uint64_t version = le64(p), count = le64(p + 8);
    pos = 16;
    if (version != 1)
      fail("is not a Marian binary model (version " + std::to_string(version) +
           ", expected 1): is it a Marian .bin model?");
    if (count == 0 || count > (n - pos) / 32) fail("has an impossible item count " + std::to_string(count));
    struct Header {
      uint64_t name_len, type, shape_len, data_len;
    };
    std::vector<Header> headers(count);
    need(32 * count, "item headers");
    for (uint64_t i = 0; i < count; ++i) {
      const uint8_t* h = p + pos + 32 * i;
      headers[i] = {le64(h), le64(h + 8), le64(h + 16), le64(h + 24)};
    }
    pos += 32 * count;
    std::vector<std::string> names(count);
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t len = headers[i].name_len;
      if (len == 0 || len > 4096) fail("has an item name of length " + std::to_string(len));
      need(len, "names");
      if (p[pos + len - 1] != 0) fail("has an item name that is not NUL-terminated");
      names[i].assign(reinterpret_cast<const char*>(p + pos), len - 1);
      if (names[i].empty() || names[i].find('\0') != std::string::npos)
        fail("has an empty or malformed item name");
      pos += len;
    }
    std::vector<Item> items(count);
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t len = headers[i].shape_len;
      if (len > 8) fail("has item " + names[i] + " of rank " + std::to_string(len));
      need(4 * len, "shapes");
      for (uint64_t k = 0; k < len; ++k) {
        const auto d = static_cast<int32_t>(le32(p + pos + 4 * k));
        if (d < 0) fail("has item " + names[i] + " with a negative dimension");
        items[i].shape.push_back(d);
        if (__builtin_mul_overflow(items[i].numel, static_cast<uint64_t>(d), &items[i].numel))
          fail("has item " + names[i] + " with too many elements");
      }
      pos += 4 * len;
    }
    need(8, "padding length");
    const uint64_t pad = le64(p + pos);
    pos += 8;
    need(pad, "padding");
    pos += pad;
    for (uint64_t i = 0; i < count; ++i) {
      Item& it = items[i];
      it.type = headers[i].type;
      it.bytes = headers[i].data_len;
      need(it.bytes, "item data");
      it.data = p + pos;
      pos += it.bytes;
      uint64_t want = 0;
      bool ok = true;
      switch (it.type) {
        case kFloat32:
          ok = !__builtin_mul_overflow(it.numel, 4, &want);
          break;
        case kFloat16:
          ok = !__builtin_mul_overflow(it.numel, 2, &want);
          break;
        case kInt8:
        case kUint8:
          want = it.numel;
          break;
        case kIntgemm8:
          ok = !__builtin_add_overflow(it.numel, 4, &want);
          break;
        case kIntgemm16:
          ok = !__builtin_mul_overflow(it.numel, 2, &want) && !__builtin_add_overflow(want, 4, &want);
          break;
        default:
          fail("has item " + names[i] + " of type " + type_name(it.type) +
               " (supported: float32, float16, int8, intgemm8, intgemm16; CPU-specific packed types such as "
               "intgemm8avx2 or packed8avx512 are not portable: convert the model with marian-conv "
               "--gemm-type intgemm8 or float32)");
      }
      if (!ok || want > it.bytes)
        fail("has item " + names[i] + " (" + type_name(it.type) + ", shape " + shape_to_string(it.shape) +
             ") with " + std::to_string(it.bytes) + " bytes of data, fewer than the " + std::to_string(want) +
             " it needs");
      if ((it.type == kIntgemm8 || it.type == kIntgemm16) && it.shape.size() < 2)
        fail("has the quantized item " + names[i] + " that is not a matrix");
      if (it.type == kIntgemm8 || it.type == kIntgemm16) quantized_ = true;
      if (!items_.emplace(names[i], std::move(it)).second) fail("has the item " + names[i] + " twice");
    }
  }

  bool has(const std::string& name) const override { return items_.count(name) != 0; }
  std::vector<int64_t> shape(const std::string& name) const override { return get(name).shape; }
  std::vector<std::string> names() const override {
    std::vector<std::string> out;
    for (const auto& [k, v] : items_) out.push_back(k);
    return out;
  }
  bool quantized() const override { return quantized_; }

  FloatTensor read(const std::string& name) const override {
    const Item& it = get(name);
    FloatTensor out;
    out.shape = it.shape;
    out.data.resize(static_cast<size_t>(it.numel));
    const uint8_t* s = it.data;
    switch (it.type) {
      case kFloat32:
        for (uint64_t i = 0; i < it.numel; ++i) std::memcpy(&out.data[i], s + 4 * i, 4);
        break;
      case kFloat16:
        for (uint64_t i = 0; i < it.numel; ++i) out.data[i] = half_to_float(le16(s + 2 * i));
        break;
      case kInt8:
        for (uint64_t i = 0; i < it.numel; ++i) out.data[i] = static_cast<float>(static_cast<int8_t>(s[i]));
        break;
      case kUint8:
        for (uint64_t i = 0; i < it.numel; ++i) out.data[i] = static_cast<float>(s[i]);
        break;
      case kIntgemm8:
      case kIntgemm16: {
        const size_t width = it.type == kIntgemm8 ? 1 : 2;
        float m;
        std::memcpy(&m, s + it.numel * width, 4);
        if (!(std::isfinite(m) && m > 0.0f))
          throw ConvertError(file_ + ": item " + name + " has the quantization multiplier " +
                             std::to_string(m));
        const float inv = 1.0f / m;  // as Marian unquantizes: q * (1 / m)
        if (width == 1) out.int8_step = inv;
        auto q = [&](uint64_t i) {
          return width == 1 ? static_cast<float>(static_cast<int8_t>(s[i]))
                            : static_cast<float>(static_cast<int16_t>(le16(s + 2 * i)));
        };
        const uint64_t cols = static_cast<uint64_t>(it.shape.back());
        const uint64_t rows = cols == 0 ? 0 : it.numel / cols;
        // Marian stores the transpose ([cols][rows]) of every quantized matrix but Wemb.
        const bool transposed = name.find("Wemb") == std::string::npos;
        for (uint64_t r = 0; r < rows; ++r)
          for (uint64_t c = 0; c < cols; ++c)
            out.data[r * cols + c] = q(transposed ? c * rows + r : r * cols + c) * inv;
        break;
      }
    }
    return out;
  }

  std::optional<std::string> text(const std::string& name) const override {
    const auto it = items_.find(name);
    if (it == items_.end()) return std::nullopt;
    if (it->second.type != kInt8 && it->second.type != kUint8)
      fail("has " + name + " of type " + type_name(it->second.type) + ", expected int8 text");
    std::string s(reinterpret_cast<const char*>(it->second.data), static_cast<size_t>(it->second.numel));
    if (const size_t nul = s.find('\0'); nul != std::string::npos) s.resize(nul);
    return s;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw ConvertError(file_ + " " + what); }
  const Item& get(const std::string& name) const {
    const auto it = items_.find(name);
    if (it == items_.end()) throw ConvertError("tensor " + name + " is missing from " + file_);
    return it->second;
  }

  std::string file_;
  std::unique_ptr<Blob> blob_;
  std::map<std::string, Item> items_;
  bool quantized_ = false;
};

}  // namespace

std::unique_ptr<MarianBin> MarianBin::open(const std::string& path) {
  return std::make_unique<MarianBinImpl>(path, std::make_unique<Blob>(Blob::FromFile{}, path));
}

std::unique_ptr<MarianBin> MarianBin::from_bytes(const std::string& name, std::string bytes) {
  return std::make_unique<MarianBinImpl>(name, std::make_unique<Blob>(Blob::FromBytes{}, std::move(bytes)));
}

}  // namespace edgemt::convert
