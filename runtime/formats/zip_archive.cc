#include "runtime/formats/zip_archive.h"

#include <zlib.h>

#include <algorithm>
#include <limits>

namespace edgemt {
namespace {

constexpr uint32_t kLocalSig = 0x04034b50, kCentralSig = 0x02014b50, kEndSig = 0x06054b50;
constexpr size_t kLocalSize = 30, kCentralSize = 46, kEndSize = 22;

uint16_t u16(std::string_view s, size_t at) {
  return static_cast<uint16_t>(static_cast<unsigned char>(s[at]) | static_cast<unsigned char>(s[at + 1])
                                                                       << 8);
}
uint32_t u32(std::string_view s, size_t at) {
  return u16(s, at) | static_cast<uint32_t>(u16(s, at + 2)) << 16;
}
void put16(std::string* out, uint16_t v) {
  out->push_back(static_cast<char>(v & 0xff));
  out->push_back(static_cast<char>(v >> 8));
}
void put32(std::string* out, uint32_t v) {
  put16(out, static_cast<uint16_t>(v & 0xffff));
  put16(out, static_cast<uint16_t>(v >> 16));
}

uint32_t crc_of(std::string_view data) {
  uLong crc = crc32(0L, Z_NULL, 0);
  size_t at = 0;
  while (at < data.size()) {  // zlib takes uInt lengths
    const uInt n = static_cast<uInt>(std::min<size_t>(data.size() - at, 1u << 30));
    crc = crc32(crc, reinterpret_cast<const Bytef*>(data.data() + at), n);
    at += n;
  }
  return static_cast<uint32_t>(crc);
}

// Raw deflate data (no zlib header) inflated to exactly `size` bytes.
Expected<std::string> inflate_raw(std::string_view in, size_t size, const std::string& name) {
  std::string out(size, '\0');
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) return internal_error("zlib: inflateInit2 failed");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  // One byte more of room than recorded would be needed to tell "longer than recorded"
  // from "exactly as long": Z_STREAM_END with avail_out 0 is exactly.
  const int rc = inflate(&z, Z_FINISH);
  const size_t produced = size - z.avail_out;
  inflateEnd(&z);
  if (rc != Z_STREAM_END || produced != size)
    return invalid_argument("ZIP entry " + name + ": its deflated data is damaged or not " +
                            std::to_string(size) + " bytes long");
  return out;
}

Expected<std::string> deflate_raw(std::string_view in) {
  z_stream z{};
  if (deflateInit2(&z, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return internal_error("zlib: deflateInit2 failed");
  std::string out(deflateBound(&z, static_cast<uLong>(in.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) return internal_error("zlib: deflate did not finish");
  return out;
}

}  // namespace

bool looks_like_zip(std::string_view bytes) { return bytes.size() >= 4 && u32(bytes, 0) == kLocalSig; }

Expected<std::vector<ZipEntry>> read_zip(std::string_view a, size_t max_bytes) {
  if (a.size() < kEndSize) return invalid_argument("not a ZIP archive (too short)");
  // The end record: its signature, searched back from the end (a comment may follow it).
  size_t end = std::string_view::npos;
  const size_t lowest = a.size() > kEndSize + 0xffff ? a.size() - kEndSize - 0xffff : 0;
  for (size_t at = a.size() - kEndSize + 1; at-- > lowest;) {
    if (u32(a, at) == kEndSig && at + kEndSize + u16(a, at + 20) <= a.size()) {
      end = at;
      break;
    }
  }
  if (end == std::string_view::npos)
    return invalid_argument("not a ZIP archive (no end of central directory)");
  const uint16_t disk = u16(a, end + 4), cd_disk = u16(a, end + 6);
  const uint16_t here = u16(a, end + 8), count = u16(a, end + 10);
  const uint32_t cd_size = u32(a, end + 12), cd_offset = u32(a, end + 16);
  if (count == 0xffff || cd_size == 0xffffffffu || cd_offset == 0xffffffffu)
    return unsupported("ZIP64 archives are not supported");
  if (disk != 0 || cd_disk != 0 || here != count)
    return unsupported("multi-disk ZIP archives are not supported");
  if (static_cast<size_t>(cd_offset) + cd_size > end)
    return invalid_argument("damaged ZIP archive (central directory out of bounds)");

  std::vector<ZipEntry> entries;
  entries.reserve(count);
  size_t total = 0;
  size_t at = cd_offset;
  for (uint16_t i = 0; i < count; ++i) {
    if (at + kCentralSize > end || u32(a, at) != kCentralSig)
      return invalid_argument("damaged ZIP archive (central directory entry " + std::to_string(i) + ")");
    ZipEntry e;
    e.version_made_by = u16(a, at + 4);
    const uint16_t flags = u16(a, at + 8);
    e.method = u16(a, at + 10);
    e.dos_time = u16(a, at + 12);
    e.dos_date = u16(a, at + 14);
    const uint32_t crc = u32(a, at + 16), csize = u32(a, at + 20), usize = u32(a, at + 24);
    const size_t name_len = u16(a, at + 28), extra_len = u16(a, at + 30), comment_len = u16(a, at + 32);
    e.external_attributes = u32(a, at + 38);
    const uint32_t local = u32(a, at + 42);
    if (at + kCentralSize + name_len + extra_len + comment_len > end)
      return invalid_argument("damaged ZIP archive (central directory entry " + std::to_string(i) + ")");
    e.name.assign(a.substr(at + kCentralSize, name_len));
    at += kCentralSize + name_len + extra_len + comment_len;
    if (flags & 0x1) return unsupported("encrypted ZIP entries are not supported (" + e.name + ")");
    if (csize == 0xffffffffu || usize == 0xffffffffu || local == 0xffffffffu)
      return unsupported("ZIP64 entries are not supported (" + e.name + ")");
    if (e.method != 0 && e.method != 8)
      return unsupported("ZIP entry " + e.name + " uses compression method " + std::to_string(e.method) +
                         " (only stored and deflated are supported)");
    e.flags = flags & 0x0800;
    total += usize;
    if (total > max_bytes)
      return out_of_range("ZIP archive too large: its entries hold more than " +
                          std::to_string(max_bytes >> 20) + " MiB uncompressed");
    // The data follows the local header, whose name and extra lengths may differ.
    if (static_cast<size_t>(local) + kLocalSize > a.size() || u32(a, local) != kLocalSig)
      return invalid_argument("damaged ZIP archive (local header of " + e.name + ")");
    const size_t data = static_cast<size_t>(local) + kLocalSize + u16(a, local + 26) + u16(a, local + 28);
    if (data > a.size() || csize > a.size() - data)
      return invalid_argument("damaged ZIP archive (data of " + e.name + " out of bounds)");
    const std::string_view raw = a.substr(data, csize);
    if (e.method == 0) {
      if (csize != usize)
        return invalid_argument("damaged ZIP archive (stored entry " + e.name + " sizes differ)");
      e.data.assign(raw);
    } else {
      auto d = inflate_raw(raw, usize, e.name);
      if (!d) return d.status();
      e.data = std::move(d.value());
    }
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION  // the fuzzer's mutations get past checksums
    if (crc_of(e.data) != crc)
      return invalid_argument("damaged ZIP archive (CRC-32 of " + e.name + " differs)");
#else
    (void)crc;
#endif
    entries.push_back(std::move(e));
  }
  return entries;
}

Expected<std::string> write_zip(const std::vector<ZipEntry>& entries) {
  if (entries.size() >= 0xffff) return unsupported("too many ZIP entries (ZIP64 is not supported)");
  std::string out, central;
  for (const ZipEntry& e : entries) {
    if (e.name.size() > 0xffff) return invalid_argument("ZIP entry name too long");
    std::string deflated;
    std::string_view body = e.data;
    if (e.method == 8) {
      auto d = deflate_raw(e.data);
      if (!d) return d.status();
      deflated = std::move(d.value());
      body = deflated;
    } else if (e.method != 0) {
      return unsupported("ZIP method " + std::to_string(e.method));
    }
    const uint32_t crc = crc_of(e.data);
    constexpr size_t kMax = std::numeric_limits<uint32_t>::max() - 1;
    if (out.size() > kMax || body.size() > kMax || e.data.size() > kMax)
      return unsupported("ZIP archive over 4 GiB (ZIP64 is not supported)");
    const uint32_t offset = static_cast<uint32_t>(out.size());
    const uint16_t needed = e.method == 8 ? 20 : 10;
    put32(&out, kLocalSig);
    put16(&out, needed);
    put16(&out, e.flags);
    put16(&out, e.method);
    put16(&out, e.dos_time);
    put16(&out, e.dos_date);
    put32(&out, crc);
    put32(&out, static_cast<uint32_t>(body.size()));
    put32(&out, static_cast<uint32_t>(e.data.size()));
    put16(&out, static_cast<uint16_t>(e.name.size()));
    put16(&out, 0);
    out += e.name;
    out.append(body);

    put32(&central, kCentralSig);
    put16(&central, e.version_made_by);
    put16(&central, needed);
    put16(&central, e.flags);
    put16(&central, e.method);
    put16(&central, e.dos_time);
    put16(&central, e.dos_date);
    put32(&central, crc);
    put32(&central, static_cast<uint32_t>(body.size()));
    put32(&central, static_cast<uint32_t>(e.data.size()));
    put16(&central, static_cast<uint16_t>(e.name.size()));
    put16(&central, 0);  // extra
    put16(&central, 0);  // comment
    put16(&central, 0);  // disk
    put16(&central, 0);  // internal attributes
    put32(&central, e.external_attributes);
    put32(&central, offset);
    central += e.name;
  }
  if (out.size() + central.size() > std::numeric_limits<uint32_t>::max() - 1)
    return unsupported("ZIP archive over 4 GiB (ZIP64 is not supported)");
  const uint32_t cd_offset = static_cast<uint32_t>(out.size());
  out += central;
  put32(&out, kEndSig);
  put16(&out, 0);
  put16(&out, 0);
  put16(&out, static_cast<uint16_t>(entries.size()));
  put16(&out, static_cast<uint16_t>(entries.size()));
  put32(&out, static_cast<uint32_t>(central.size()));
  put32(&out, cd_offset);
  put16(&out, 0);
  return out;
}

}  // namespace edgemt
