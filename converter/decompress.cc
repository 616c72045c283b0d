#include "converter/decompress.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <system_error>
#include <vector>

#include "converter/checkpoint.h"

#if EDGEMT_HAVE_ZSTD
#include <zstd.h>
#endif

namespace edgemt::convert {
namespace {

namespace fs = std::filesystem;

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

constexpr size_t kChunk = size_t{1} << 18;

// Where decompressed bytes go; write() false: enough, stop.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual bool write(const void* data, size_t n) = 0;
};

// The first bytes only (decompressed_prefix).
class Prefix final : public Sink {
 public:
  explicit Prefix(size_t n) : n_(n) {}
  bool write(const void* data, size_t n) override {
    const size_t take = std::min(n, n_ - bytes.size());
    bytes.append(static_cast<const char*>(data), take);
    return bytes.size() < n_;
  }
  std::string bytes;

 private:
  size_t n_;
};

// The output file, removed unless done() is called: no partial file is ever left.
class Output final : public Sink {
 public:
  Output(const fs::path& to, std::string shown, uint64_t max_bytes)
      : to_(to), shown_(std::move(shown)), max_(max_bytes), f_(std::fopen(to.c_str(), "wb")) {
    if (!f_)
      throw ConvertError("cannot create a file to decompress " + shown_ + " into (" + to.string() + ")");
  }
  ~Output() {
    if (done_) return;
    f_.reset();
    std::error_code ec;
    fs::remove(to_, ec);
  }
  bool write(const void* data, size_t n) override {
    written_ += n;
    if (written_ > max_)
      throw ConvertError(shown_ + " decompresses to more than " +
                         (max_ >= (uint64_t{1} << 20) ? std::to_string(max_ >> 20) + " MiB"
                                                      : std::to_string(max_) + " bytes") +
                         ": not a model file");
    if (n && std::fwrite(data, 1, n, f_.get()) != n)
      throw ConvertError("cannot write the decompressed " + shown_ + " to " + to_.string() +
                         " (is the disk full?)");
    return true;
  }
  void done() {
    if (std::fclose(f_.release()) != 0)
      throw ConvertError("cannot write the decompressed " + shown_ + " to " + to_.string());
    done_ = true;
  }

 private:
  fs::path to_;
  std::string shown_;
  uint64_t max_, written_ = 0;
  File f_;
  bool done_ = false;
};

File open_input(const fs::path& from, const std::string& shown) {
  File in(std::fopen(from.c_str(), "rb"));
  if (!in) throw ConvertError("cannot read " + shown);
  return in;
}

void gunzip(const fs::path& from, Sink& out, const std::string& shown) {
  File in = open_input(from, shown);
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) throw ConvertError("zlib cannot start to inflate " + shown);
  struct End {
    z_stream* z;
    ~End() { inflateEnd(z); }
  } end{&z};
  std::vector<unsigned char> ibuf(kChunk), obuf(kChunk);
  bool in_member = false;  // inside a gzip member (its end not reached)
  bool any = false;
  for (;;) {
    if (z.avail_in == 0) {
      const size_t n = std::fread(ibuf.data(), 1, ibuf.size(), in.get());
      if (n == 0) {
        if (std::ferror(in.get())) throw ConvertError("cannot read " + shown);
        break;
      }
      z.next_in = ibuf.data();
      z.avail_in = static_cast<uInt>(n);
    }
    // Between members: nothing but zero padding may follow (as gzip -d allows).
    if (!in_member && any && z.next_in[0] == 0) {
      ++z.next_in;
      --z.avail_in;
      continue;
    }
    in_member = true;
    z.next_out = obuf.data();
    z.avail_out = static_cast<uInt>(obuf.size());
    const int rc = inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
      throw ConvertError(shown + " is not gzip data, or it is corrupt (zlib: " +
                         (z.msg ? std::string(z.msg) : std::to_string(rc)) + ")");
    if (!out.write(obuf.data(), obuf.size() - z.avail_out)) return;
    if (rc == Z_STREAM_END) {
      in_member = false;
      any = true;
      if (inflateReset(&z) != Z_OK) throw ConvertError("zlib cannot go on inflating " + shown);
    }
  }
  if (in_member || !any) throw ConvertError(shown + " is truncated or empty: its gzip data end early");
}

void unzstd(const fs::path& from, Sink& out, const std::string& shown) {
#if EDGEMT_HAVE_ZSTD
  File in = open_input(from, shown);
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> d(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!d) throw ConvertError("libzstd cannot start to decompress " + shown);
  std::vector<char> ibuf(ZSTD_DStreamInSize()), obuf(ZSTD_DStreamOutSize());
  size_t last = 1;  // 0: the last frame ended
  bool any = false;
  for (;;) {
    const size_t n = std::fread(ibuf.data(), 1, ibuf.size(), in.get());
    if (n == 0) {
      if (std::ferror(in.get())) throw ConvertError("cannot read " + shown);
      break;
    }
    any = true;
    ZSTD_inBuffer zin{ibuf.data(), n, 0};
    while (zin.pos < zin.size) {
      ZSTD_outBuffer zout{obuf.data(), obuf.size(), 0};
      last = ZSTD_decompressStream(d.get(), &zout, &zin);
      if (ZSTD_isError(last))
        throw ConvertError(shown + " is not zstd data, or it is corrupt (zstd: " +
                           std::string(ZSTD_getErrorName(last)) + ")");
      if (!out.write(obuf.data(), zout.pos)) return;
    }
  }
  // Flush what the last frame still holds.
  while (last != 0) {
    ZSTD_inBuffer zin{nullptr, 0, 0};
    ZSTD_outBuffer zout{obuf.data(), obuf.size(), 0};
    last = ZSTD_decompressStream(d.get(), &zout, &zin);
    if (ZSTD_isError(last))
      throw ConvertError(shown + " is corrupt (zstd: " + std::string(ZSTD_getErrorName(last)) + ")");
    if (!out.write(obuf.data(), zout.pos)) return;
    if (zout.pos == 0) break;
  }
  if (!any || last != 0) throw ConvertError(shown + " is truncated or empty: its zstd data end early");
#else
  (void)from;
  (void)out;
  throw ConvertError(shown +
                     " is zstd-compressed and this edgemt-convert was built without libzstd: decompress it "
                     "first (zstd -d), or rebuild with Debian's libzstd-dev");
#endif
}

}  // namespace

Compression compression_of(std::string_view name) {
  if (ends_with(name, ".gz")) return Compression::kGzip;
  if (ends_with(name, ".zst") || ends_with(name, ".zstd")) return Compression::kZstd;
  return Compression::kNone;
}

std::string without_compression_suffix(std::string_view name) {
  for (std::string_view s : {".gz", ".zst", ".zstd"})
    if (ends_with(name, s) && name.size() > s.size())
      return std::string(name.substr(0, name.size() - s.size()));
  return std::string(name);
}

bool have_zstd() { return EDGEMT_HAVE_ZSTD != 0; }

std::string decompressed_prefix(const fs::path& from, Compression c, size_t n) {
  Prefix p(n);
  if (n == 0) return {};
  try {
    if (c == Compression::kGzip)
      gunzip(from, p, from.string());
    else if (c == Compression::kZstd && have_zstd())
      unzstd(from, p, from.string());
  } catch (const ConvertError&) {  // corrupt after (or before) the first bytes
  }
  return p.bytes;
}

void decompress_file(const fs::path& from, const fs::path& to, Compression c, const std::string& shown,
                     uint64_t max_bytes) {
  Output out(to, shown, max_bytes);
  if (c == Compression::kGzip)
    gunzip(from, out, shown);
  else if (c == Compression::kZstd)
    unzstd(from, out, shown);
  else
    throw ConvertError(shown + " is not compressed");
  out.done();
}

}  // namespace edgemt::convert
