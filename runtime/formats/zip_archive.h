// ZIP archives in memory (PKWARE's APPNOTE): the container of .docx, .pptx, .odt, .odp
// and .epub files. zlib (Debian's zlib1g) does the deflate and inflate; this file reads
// and writes the container around it: the local headers, the central directory and its
// end record. Stored (0) and deflated (8) entries; encrypted, multi-disk and ZIP64
// archives are refused with a clear error, as is an entry whose data does not inflate to
// its recorded size and CRC-32.
//
// Writing keeps what an office suite or e-book reader checks: the entries in their order,
// each with its name, method (an OpenDocument or EPUB "mimetype" entry stays first and
// stored), time and attributes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/status.h"

namespace edgemt {

struct ZipEntry {
  std::string name;
  std::string data;     // uncompressed
  uint16_t method = 8;  // 0 stored, 8 deflated (how it is written back)
  uint16_t flags = 0;   // general purpose flags (bit 11: UTF-8 name); others are not kept
  uint16_t dos_time = 0, dos_date = 0;
  uint16_t version_made_by = 20;
  uint32_t external_attributes = 0;  // extra fields are not kept
};

// The entries of a ZIP archive, in the central directory's order. `max_bytes` bounds
// the sum of the uncompressed sizes (a small file may inflate to gigabytes).
Expected<std::vector<ZipEntry>> read_zip(std::string_view archive, size_t max_bytes = size_t{512} << 20);
// A ZIP archive of `entries`, each stored or deflated as its `method` says.
Expected<std::string> write_zip(const std::vector<ZipEntry>& entries);
// Whether `bytes` start as a ZIP archive does (a local file header's signature).
bool looks_like_zip(std::string_view bytes);

}  // namespace edgemt
