// .npz reader. An .npy entry is: the magic "\x93NUMPY", a version (1.0: 16-bit header
// length; 2.0/3.0: 32-bit), then a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (1000, 32), }
// padded with spaces to a 16- or 64-byte boundary, then the array's bytes in C (or
// Fortran) order. numpy.savez (and Marian's cnpy) store entries uncompressed.
#include "converter/npz.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include "converter/float16.h"
#include "converter/zip.h"

namespace edgemt::convert {
namespace {

enum class NpyType { kF16, kF32, kF64, kI8, kU8 };

struct NpyArray {
  NpyType type = NpyType::kF32;
  size_t elem = 4;
  bool fortran = false;
  std::vector<int64_t> shape;
  uint64_t numel = 1;
  std::string_view data;
};

class NpzImpl final : public Npz {
 public:
  NpzImpl(std::string file, std::unique_ptr<Blob> blob)
      : file_(std::move(file)),
        blob_(std::move(blob)),
        zip_(file_, blob_->data(), blob_->size(), "numpy's .npz format",
             "edgemt-convert reads .npz files written uncompressed, as Marian and numpy.savez write them "
             "(not numpy.savez_compressed)") {
    zip_.read_directory();
    for (const auto& [entry, z] : zip_.entries()) {
      if (entry.size() < 4 || entry.compare(entry.size() - 4, 4, ".npy") != 0)
        fail("has the entry " + entry + ", which is not an .npy array: is it an .npz file?");
      const std::string name = entry.substr(0, entry.size() - 4);
      arrays_.emplace(name, parse(name, zip_.bytes(entry, z, true)));
    }
    if (arrays_.empty()) fail("holds no arrays");
  }

  bool has(const std::string& name) const override { return arrays_.count(name) != 0; }
  std::vector<int64_t> shape(const std::string& name) const override { return get(name).shape; }
  std::vector<std::string> names() const override {
    std::vector<std::string> out;
    for (const auto& [k, v] : arrays_) out.push_back(k);
    return out;
  }

  FloatTensor read(const std::string& name) const override {
    const NpyArray& a = get(name);
    FloatTensor out;
    out.shape = a.shape;
    out.data.resize(static_cast<size_t>(a.numel));
    const auto* src = reinterpret_cast<const uint8_t*>(a.data.data());
    if (!a.fortran || a.shape.size() < 2) {
      for (uint64_t i = 0; i < a.numel; ++i) out.data[i] = element(a, src, i);
      return out;
    }
    // Fortran order: the first index varies fastest in the file.
    const size_t rank = a.shape.size();
    std::vector<int64_t> idx(rank, 0);
    for (uint64_t c = 0; c < a.numel; ++c) {
      uint64_t f = 0, stride = 1;
      for (size_t d = 0; d < rank; ++d) {
        f += static_cast<uint64_t>(idx[d]) * stride;
        stride *= static_cast<uint64_t>(a.shape[d]);
      }
      out.data[c] = element(a, src, f);
      for (size_t d = rank; d-- > 0;) {
        if (++idx[d] < a.shape[d]) break;
        idx[d] = 0;
      }
    }
    return out;
  }

  std::optional<std::string> text(const std::string& name) const override {
    const auto it = arrays_.find(name);
    if (it == arrays_.end()) return std::nullopt;
    const NpyArray& a = it->second;
    if ((a.type != NpyType::kI8 && a.type != NpyType::kU8) || a.shape.size() != 1)
      fail("has " + name + " of shape " + shape_to_string(a.shape) + ", expected a 1-D array of bytes");
    std::string s(a.data);
    if (const size_t nul = s.find('\0'); nul != std::string::npos) s.resize(nul);
    return s;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw ConvertError(file_ + " " + what); }

  const NpyArray& get(const std::string& name) const {
    const auto it = arrays_.find(name);
    if (it == arrays_.end()) throw ConvertError("tensor " + name + " is missing from " + file_);
    return it->second;
  }

  static float element(const NpyArray& a, const uint8_t* src, uint64_t i) {
    switch (a.type) {
      case NpyType::kF32: {
        float v;
        std::memcpy(&v, src + 4 * i, 4);
        return v;
      }
      case NpyType::kF16:
        return half_to_float(le16(src + 2 * i));
      case NpyType::kF64: {
        double v;
        std::memcpy(&v, src + 8 * i, 8);
        if (std::fabs(v) > static_cast<double>(std::numeric_limits<float>::max()) && std::isfinite(v))
          return v > 0 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
        return static_cast<float>(v);
      }
      case NpyType::kI8:
        return static_cast<float>(static_cast<int8_t>(src[i]));
      case NpyType::kU8:
        return static_cast<float>(src[i]);
    }
    return 0.0f;
  }

  // The value text of 'key': in the header dict (up to the next top-level ',' or '}').
  std::string dict_value(const std::string& entry, std::string_view header, std::string_view key) const {
    std::string quoted(1, '\'');
    quoted.append(key).push_back('\'');
    const size_t at = header.find(quoted);
    if (at == std::string_view::npos) fail("has the array " + entry + " whose header lacks " + quoted);
    size_t p = header.find(':', at + quoted.size());
    if (p == std::string_view::npos) fail("has the array " + entry + " with a malformed header");
    ++p;
    int depth = 0;
    size_t end = p;
    for (; end < header.size(); ++end) {
      const char ch = header[end];
      if (ch == '(' || ch == '[') ++depth;
      if (ch == ')' || ch == ']') --depth;
      if (depth < 0 || (depth == 0 && (ch == ',' || ch == '}'))) break;
    }
    if (end >= header.size() || depth < 0) fail("has the array " + entry + " with a malformed header");
    std::string v(header.substr(p, end - p));
    const size_t b = v.find_first_not_of(" \t"), e = v.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : v.substr(b, e - b + 1);
  }

  NpyArray parse(const std::string& entry, std::string_view bytes) const {
    const auto bad = [&](const std::string& why) { fail("has the array " + entry + " " + why); };
    if (bytes.size() < 10 || bytes.substr(0, 6) != "\x93NUMPY") bad("without the .npy magic");
    const auto* u = reinterpret_cast<const uint8_t*>(bytes.data());
    const int major = u[6];
    size_t hlen = 0, hstart = 0;
    if (major == 1) {
      hlen = le16(u + 8);
      hstart = 10;
    } else if (major == 2 || major == 3) {
      if (bytes.size() < 12) bad("with a truncated header");
      hlen = le32(u + 8);
      hstart = 12;
    } else {
      bad("in .npy version " + std::to_string(major) + " (1, 2 and 3 are known)");
    }
    if (hlen > bytes.size() - hstart) bad("with a header longer than the array");
    const std::string_view header = bytes.substr(hstart, hlen);
    NpyArray a;
    const std::string descr = dict_value(entry, header, "descr");
    const std::string fortran = dict_value(entry, header, "fortran_order");
    const std::string shape = dict_value(entry, header, "shape");
    if (descr == "'<f4'") {
      a.type = NpyType::kF32, a.elem = 4;
    } else if (descr == "'<f2'") {
      a.type = NpyType::kF16, a.elem = 2;
    } else if (descr == "'<f8'") {
      a.type = NpyType::kF64, a.elem = 8;
    } else if (descr == "'|i1'" || descr == "'<i1'") {
      a.type = NpyType::kI8, a.elem = 1;
    } else if (descr == "'|u1'" || descr == "'<u1'") {
      a.type = NpyType::kU8, a.elem = 1;
    } else {
      bad("of dtype " + descr + " (supported: little-endian float16, float32, float64, int8, uint8)");
    }
    if (fortran == "True")
      a.fortran = true;
    else if (fortran != "False")
      bad("with fortran_order " + fortran);
    if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')') bad("with the shape " + shape);
    std::string dims = shape.substr(1, shape.size() - 2);
    size_t pos = 0;
    while (pos < dims.size()) {
      const size_t comma = dims.find(',', pos);
      std::string d = dims.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      const size_t b = d.find_first_not_of(' '), e = d.find_last_not_of(' ');
      pos = comma == std::string::npos ? dims.size() : comma + 1;
      if (b == std::string::npos) {
        if (comma == std::string::npos) break;  // "(5,)": nothing after the comma
        bad("with the shape " + shape);
      }
      d = d.substr(b, e - b + 1);
      if (d.size() > 12 || d.find_first_not_of("0123456789") != std::string::npos)
        bad("with the shape " + shape);
      const int64_t n = std::stoll(d);
      a.shape.push_back(n);
      if (__builtin_mul_overflow(a.numel, static_cast<uint64_t>(n), &a.numel)) bad("with too many elements");
    }
    if (a.shape.size() > 8) bad("of rank " + std::to_string(a.shape.size()));
    uint64_t need = 0;
    if (__builtin_mul_overflow(a.numel, static_cast<uint64_t>(a.elem), &need)) bad("with too many elements");
    const size_t data_at = hstart + hlen;
    if (need != bytes.size() - data_at)
      bad("of shape " + shape_to_string(a.shape) + " that should hold " + std::to_string(need) +
          " bytes of data but holds " + std::to_string(bytes.size() - data_at));
    a.data = bytes.substr(data_at);
    return a;
  }

  std::string file_;
  std::unique_ptr<Blob> blob_;
  Zip zip_;
  std::map<std::string, NpyArray> arrays_;
};

}  // namespace

std::unique_ptr<Npz> Npz::open(const std::string& path) {
  return std::make_unique<NpzImpl>(path, std::make_unique<Blob>(Blob::FromFile{}, path));
}

std::unique_ptr<Npz> Npz::from_bytes(const std::string& name, std::string bytes) {
  return std::make_unique<NpzImpl>(name, std::make_unique<Blob>(Blob::FromBytes{}, std::move(bytes)));
}

}  // namespace edgemt::convert
