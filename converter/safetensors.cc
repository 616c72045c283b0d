// safetensors: 8-byte little-endian header length, a JSON header
// {name: {dtype, shape, data_offsets: [begin, end]}}, then the raw data.

#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "converter/checkpoint.h"
#include "converter/float16.h"

namespace edgemt::convert {
namespace {

struct Entry {
  std::string dtype;
  std::vector<int64_t> shape;
  size_t begin = 0, end = 0;
  size_t file = 0;
};

struct MappedBlob {
  MappedBlob(const std::string& p) : path(p), file(map_file(p)) {}
  const uint8_t* data() const { return file.data(); }
  size_t size() const { return file.size(); }
  std::string path;
  MappedFile file;
};

class SafetensorsCheckpoint : public Checkpoint {
 public:
  void add_file(const std::string& path) {
    files_.push_back(std::make_unique<MappedBlob>(path));
    const MappedBlob& f = *files_.back();
    if (f.size() < 8) throw ConvertError(path + " is not a safetensors file (too small)");
    uint64_t n = 0;
    std::memcpy(&n, f.data(), 8);
    if (n > f.size() - 8) throw ConvertError(path + " has a header longer than the file");
    nlohmann::json header;
    try {
      header = nlohmann::json::parse(f.data() + 8, f.data() + 8 + n);
    } catch (const std::exception& e) {
      throw ConvertError(path + " has an invalid JSON header: " + e.what());
    }
    const size_t base = 8 + static_cast<size_t>(n);
    for (auto it = header.begin(); it != header.end(); ++it) {
      if (it.key() == "__metadata__") continue;
      const auto& v = it.value();
      Entry e;
      try {
        e.dtype = v.at("dtype").get<std::string>();
        e.shape = v.at("shape").get<std::vector<int64_t>>();
        const auto off = v.at("data_offsets").get<std::vector<uint64_t>>();
        if (off.size() != 2 || off[0] > off[1] || off[1] > f.size() - base)
          throw ConvertError("bad data_offsets");
        e.begin = base + off[0];
        e.end = base + off[1];
      } catch (const std::exception& ex) {
        throw ConvertError(path + ": tensor " + it.key() + " has a malformed header entry (" + ex.what() +
                           ")");
      }
      e.file = files_.size() - 1;
      entries_[it.key()] = e;
    }
  }

  bool has(const std::string& name) const override { return entries_.count(name) != 0; }
  std::vector<int64_t> shape(const std::string& name) const override { return get(name).shape; }
  std::vector<std::string> names() const override {
    std::vector<std::string> out;
    for (const auto& [k, v] : entries_) out.push_back(k);
    return out;
  }

  FloatTensor read(const std::string& name) const override {
    const Entry& e = get(name);
    const MappedBlob& f = *files_[e.file];
    size_t numel = 1;
    for (int64_t d : e.shape) {
      if (d < 0) throw ConvertError("tensor " + name + " has a negative dimension");
      numel *= static_cast<size_t>(d);
    }
    size_t esize;
    if (e.dtype == "F32")
      esize = 4;
    else if (e.dtype == "F16" || e.dtype == "BF16")
      esize = 2;
    else if (e.dtype == "F64")
      esize = 8;
    else
      throw ConvertError("tensor " + name + " has dtype " + e.dtype + "; supported: F32, F16, BF16, F64");
    if (e.end - e.begin != numel * esize)
      throw ConvertError("tensor " + name + " in " + f.path + " has " + std::to_string(e.end - e.begin) +
                         " bytes, expected " + std::to_string(numel * esize) + " for shape " +
                         shape_to_string(e.shape));
    FloatTensor t;
    t.shape = e.shape;
    t.data.resize(numel);
    const uint8_t* src = f.data() + e.begin;
    for (size_t i = 0; i < numel; ++i) {
      if (esize == 4) {
        std::memcpy(&t.data[i], src + 4 * i, 4);
      } else if (esize == 8) {
        double v;
        std::memcpy(&v, src + 8 * i, 8);
        t.data[i] = static_cast<float>(v);
      } else {
        uint16_t h;
        std::memcpy(&h, src + 2 * i, 2);
        t.data[i] = e.dtype == "F16" ? half_to_float(h) : bf16_to_float(h);
      }
    }
    return t;
  }

 private:
  const Entry& get(const std::string& name) const {
    auto it = entries_.find(name);
    if (it == entries_.end()) throw ConvertError("tensor " + name + " is missing from the checkpoint");
    return it->second;
  }
  std::vector<std::unique_ptr<MappedBlob>> files_;
  std::map<std::string, Entry> entries_;
};

}  // namespace

MappedFile map_file(const std::string& path) {
  auto f = MappedFile::open(path);
  if (!f) throw ConvertError(f.status().message());
  return std::move(f.value());
}

std::string shape_to_string(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

std::unique_ptr<Checkpoint> open_safetensors(const std::string& dir) {
  namespace fs = std::filesystem;
  auto ck = std::make_unique<SafetensorsCheckpoint>();
  const fs::path single = fs::path(dir) / "model.safetensors";
  const fs::path index = fs::path(dir) / "model.safetensors.index.json";
  if (fs::exists(single)) {
    ck->add_file(single.string());
  } else if (fs::exists(index)) {
    std::ifstream in(index);
    nlohmann::json j;
    try {
      in >> j;
    } catch (const std::exception& e) {
      throw ConvertError(index.string() + " is not valid JSON: " + e.what());
    }
    std::map<std::string, bool> shards;
    for (auto& [k, v] : j.at("weight_map").items()) shards[v.get<std::string>()] = true;
    for (const auto& [s, unused] : shards) ck->add_file((fs::path(dir) / s).string());
  } else {
    return nullptr;
  }
  return ck;
}

}  // namespace edgemt::convert
