// Compressed checkpoint files: Firefox Translations ships its models' files gzip'd
// (the firefox-translations-models repository: model.*.intgemm.alphas.bin.gz,
// lex.*.s2t.bin.gz, vocab.*.spm.gz) or zstd'd (the Remote Settings registry: *.zst).
// The converter reads them as they are, through zlib and, where edgemt-convert is built
// with it, libzstd.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace edgemt::convert {

enum class Compression { kNone, kGzip, kZstd };

// By the name's suffix: .gz, .zst (.zstd); anything else kNone.
Compression compression_of(std::string_view name);
// The name without that suffix ("model.bin.gz" -> "model.bin"); unchanged for kNone.
std::string without_compression_suffix(std::string_view name);
// Whether this build reads zstd (libzstd found at configure time).
bool have_zstd();

// Up to `n` first bytes of the decompressed data ("" when the file cannot be read or
// decompressed, or zstd is not built in): enough to recognise a format by its magic.
std::string decompressed_prefix(const std::filesystem::path& from, Compression c, size_t n);

// Decompresses `from` into a new file `to` (gzip: one or more members, as gzip -d; zstd:
// one or more frames). Throws ConvertError naming `shown` (the file as the user gave it)
// on corrupt, truncated or non-matching data, a write error, or output past `max_bytes`;
// `to` is then removed.
void decompress_file(const std::filesystem::path& from, const std::filesystem::path& to, Compression c,
                     const std::string& shown, uint64_t max_bytes = uint64_t{16} << 30);

}  // namespace edgemt::convert
