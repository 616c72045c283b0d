// A minimal zip writer for tests and fuzzers: stored (uncompressed) entries, as
// torch.save writes them, with correct CRC-32s. Header-only.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace edgemt::testing {

inline uint32_t zip_crc32(const std::string& s) {
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : s) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
  }
  return c ^ 0xFFFFFFFFu;
}

inline std::string make_stored_zip(const std::vector<std::pair<std::string, std::string>>& entries) {
  auto put16 = [](std::string* o, uint32_t v) {
    o->push_back(static_cast<char>(v & 0xFF));
    o->push_back(static_cast<char>((v >> 8) & 0xFF));
  };
  auto put32 = [&](std::string* o, uint32_t v) {
    put16(o, v & 0xFFFF);
    put16(o, v >> 16);
  };
  std::string out, cd;
  for (const auto& [name, data] : entries) {
    const uint32_t crc = zip_crc32(data), size = static_cast<uint32_t>(data.size());
    const uint32_t local = static_cast<uint32_t>(out.size());
    put32(&out, 0x04034b50u);
    put16(&out, 20);  // version needed
    put16(&out, 0);   // flags
    put16(&out, 0);   // method: stored
    put16(&out, 0);   // time
    put16(&out, 0);   // date
    put32(&out, crc);
    put32(&out, size);
    put32(&out, size);
    put16(&out, static_cast<uint32_t>(name.size()));
    put16(&out, 0);  // extra
    out += name;
    out += data;
    put32(&cd, 0x02014b50u);
    put16(&cd, 20);  // version made by
    put16(&cd, 20);  // version needed
    put16(&cd, 0);
    put16(&cd, 0);
    put16(&cd, 0);
    put16(&cd, 0);
    put32(&cd, crc);
    put32(&cd, size);
    put32(&cd, size);
    put16(&cd, static_cast<uint32_t>(name.size()));
    put16(&cd, 0);  // extra
    put16(&cd, 0);  // comment
    put16(&cd, 0);  // disk
    put16(&cd, 0);  // internal attributes
    put32(&cd, 0);  // external attributes
    put32(&cd, local);
    cd += name;
  }
  const uint32_t cd_off = static_cast<uint32_t>(out.size());
  out += cd;
  put32(&out, 0x06054b50u);
  put16(&out, 0);
  put16(&out, 0);
  put16(&out, static_cast<uint32_t>(entries.size()));
  put16(&out, static_cast<uint32_t>(entries.size()));
  put32(&out, static_cast<uint32_t>(cd.size()));
  put32(&out, cd_off);
  put16(&out, 0);  // comment
  return out;
}

}  // namespace edgemt::testing
