#include "converter/zip.h"

#include <array>

namespace edgemt::convert {

uint32_t crc32(const uint8_t* p, size_t n) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

void Zip::read_directory() {
  if (n_ < 22 || le32(p_) != 0x04034b50u) fail("is not a zip archive (" + kind_ + ")");
  // End of central directory: the last signature within 64 KiB + 22 bytes of the end.
  size_t eocd = SIZE_MAX;
  for (size_t i = n_ - 22 + 1; i-- > 0 && n_ - i <= 22 + 65535;) {
    if (le32(p_ + i) == 0x06054b50u) {
      eocd = i;
      break;
    }
  }
  if (eocd == SIZE_MAX) fail("is not a zip archive: no end of central directory record (truncated?)");
  const uint8_t* e = p_ + eocd;
  uint64_t disk = le16(e + 4), cd_disk = le16(e + 6), count_disk = le16(e + 8), count = le16(e + 10);
  uint64_t cd_size = le32(e + 12), cd_off = le32(e + 16);
  if (count == 0xFFFF || cd_size == 0xFFFFFFFFu || cd_off == 0xFFFFFFFFu || count_disk == 0xFFFF) {
    // zip64: a locator right before the record points at the zip64 record.
    if (eocd < 20 || le32(p_ + eocd - 20) != 0x07064b50u) fail("has a zip64 directory without its locator");
    const uint64_t z = le64(p_ + eocd - 20 + 8);
    if (z > n_ || n_ - z < 56 || le32(p_ + z) != 0x06064b50u)
      fail("has a corrupt zip64 end of central directory");
    const uint8_t* r = p_ + z;
    disk = le32(r + 16);
    cd_disk = le32(r + 20);
    count_disk = le64(r + 24);
    count = le64(r + 32);
    cd_size = le64(r + 40);
    cd_off = le64(r + 48);
  }
  if (disk != 0 || cd_disk != 0 || count_disk != count)
    fail("is a multi-part zip archive, which is not supported");
  if (cd_off > n_ || cd_size > n_ - cd_off) fail("has a central directory outside the file (truncated?)");
  if (count > cd_size / 46)
    fail("has a central directory too small for its " + std::to_string(count) + " entries");
  uint64_t pos = cd_off;
  const uint64_t end = cd_off + cd_size;
  for (uint64_t i = 0; i < count; ++i) {
    if (end - pos < 46 || le32(p_ + pos) != 0x02014b50u)
      fail("has a corrupt central directory (entry " + std::to_string(i) + ")");
    const uint8_t* c = p_ + pos;
    ZipEntry z;
    z.flags = le16(c + 8);
    z.method = le16(c + 10);
    z.crc = le32(c + 16);
    uint64_t csize = le32(c + 20), usize = le32(c + 24), local = le32(c + 42);
    uint64_t start_disk = le16(c + 34);
    const size_t name_len = le16(c + 28), extra_len = le16(c + 30), comment_len = le16(c + 32);
    if (end - pos - 46 < name_len + extra_len + comment_len)
      fail("has a corrupt central directory (entry " + std::to_string(i) + " overruns it)");
    std::string name(reinterpret_cast<const char*>(c + 46), name_len);
    // zip64 extra field: 64-bit values for the fields that hold 0xFFFFFFFF, in order.
    const uint8_t* x = c + 46 + name_len;
    for (size_t k = 0; k + 4 <= extra_len;) {
      const uint16_t id = le16(x + k), len = le16(x + k + 2);
      if (k + 4 + len > extra_len) fail("entry " + name + " has a corrupt extra field");
      if (id == 0x0001) {
        const uint8_t* v = x + k + 4;
        size_t left = len;
        auto take = [&](uint64_t* field) {
          if (left < 8) fail("entry " + name + " has a truncated zip64 extra field");
          *field = le64(v);
          v += 8;
          left -= 8;
        };
        if (usize == 0xFFFFFFFFu) take(&usize);
        if (csize == 0xFFFFFFFFu) take(&csize);
        if (local == 0xFFFFFFFFu) take(&local);
        if (start_disk == 0xFFFF && left >= 4) start_disk = le32(v);
      }
      k += 4 + static_cast<size_t>(len);
    }
    if (start_disk != 0) fail("is a multi-part zip archive, which is not supported");
    if (z.method == 0 && csize != usize)
      fail("entry " + name + " is stored but its sizes differ (" + std::to_string(csize) + " and " +
           std::to_string(usize) + ")");
    // The local header repeats name and extra field, possibly with other lengths
    // (torch pads the local extra field to align the data).
    if (local > n_ || n_ - local < 30 || le32(p_ + local) != 0x04034b50u)
      fail("entry " + name + " has no valid local header");
    const uint64_t data = local + 30 + le16(p_ + local + 26) + le16(p_ + local + 28);
    if (data > n_ || csize > n_ - data)
      fail("entry " + name + " extends past the end of the file (truncated?)");
    z.data = data;
    z.size = csize;
    if (!entries_.emplace(name, z).second) fail("has the entry " + name + " twice");
    pos += 46 + name_len + extra_len + comment_len;
  }
}

}  // namespace edgemt::convert
