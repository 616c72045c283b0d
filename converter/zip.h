// Zip archives as checkpoint containers (torch.save's pytorch_model.bin, numpy's .npz):
// the central directory (with zip64 extensions) and stored (uncompressed) entries,
// read in place from a mapping or from owned bytes. Everything is bounds-checked; a
// malformed archive gives a ConvertError naming the file and the problem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "converter/checkpoint.h"

namespace edgemt::convert {

// Bytes of the whole file: mapped, or owned (open_pytorch_bin_bytes).
class Blob {
 public:
  struct FromFile {};
  struct FromBytes {};
  Blob(FromFile, const std::string& path) : file_(map_file(path)) {
    data_ = file_.data();
    size_ = file_.size();
  }
  Blob(FromBytes, std::string bytes) : owned_(std::move(bytes)) {
    data_ = reinterpret_cast<const uint8_t*>(owned_.data());
    size_ = owned_.size();
  }
  Blob(const Blob&) = delete;
  Blob& operator=(const Blob&) = delete;
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  MappedFile file_;
  std::string owned_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

inline uint16_t le16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
inline uint32_t le32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}
inline uint64_t le64(const uint8_t* p) { return le32(p) | (static_cast<uint64_t>(le32(p + 4)) << 32); }

// CRC-32 (zip, IEEE 802.3).
uint32_t crc32(const uint8_t* p, size_t n);

// ---------------------------------------------------------------------------------
// Zip: central directory -> entries.

struct ZipEntry {
  uint64_t data = 0;  // offset of the first data byte
  uint64_t size = 0;  // compressed == uncompressed for stored entries
  uint32_t crc = 0;
  uint16_t method = 0;
  uint16_t flags = 0;
};

class Zip {
 public:
  // kind: what the archive should be, for messages ("torch.save's format");
  // stored_hint: how to re-save it with uncompressed entries.
  Zip(std::string file, const uint8_t* p, size_t n, std::string kind, std::string stored_hint)
      : file_(std::move(file)), kind_(std::move(kind)), stored_hint_(std::move(stored_hint)), p_(p), n_(n) {}

  // Reads the central directory; throws ConvertError for anything malformed.
  void read_directory();

  const ZipEntry* find(const std::string& name) const {
    const auto it = entries_.find(name);
    return it == entries_.end() ? nullptr : &it->second;
  }
  const std::map<std::string, ZipEntry>& entries() const { return entries_; }

  // The bytes of a stored entry, optionally checked against its CRC-32.
  std::string_view bytes(const std::string& name, const ZipEntry& z, bool check_crc) const {
    if (z.flags & 1) fail("entry " + name + " is encrypted");
    if (z.method != 0)
      fail("entry " + name + " is compressed (zip method " + std::to_string(z.method) + "); " + stored_hint_);
    const std::string_view v(reinterpret_cast<const char*>(p_ + z.data), static_cast<size_t>(z.size));
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION  // let fuzzers reach past the checksum
    if (check_crc && crc32(p_ + z.data, v.size()) != z.crc)
      fail("entry " + name + " is corrupt (CRC-32 mismatch)");
#else
    (void)check_crc;
#endif
    return v;
  }

  [[noreturn]] void fail(const std::string& what) const { throw ConvertError(file_ + " " + what); }

 private:
  std::string file_, kind_, stored_hint_;
  const uint8_t* p_;
  size_t n_;
  std::map<std::string, ZipEntry> entries_;
};

}  // namespace edgemt::convert
