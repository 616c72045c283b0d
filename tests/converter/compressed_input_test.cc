// Marian models whose files are compressed as Firefox Translations ships them (*.gz in
// the firefox-translations-models repository, *.zst from the Remote Settings registry):
// they convert to the same model file as their uncompressed originals, name the files
// the user gave, leave no temporary files behind, and bad data gives a named error.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "converter/checkpoint.h"
#include "converter/decompress.h"
#include "converter/marian.h"
#include "converter/pack.h"
#include "converter/readers.h"
#include "converter/writer.h"
#include "tests/converter/convert_error.h"

#if EDGEMT_HAVE_ZSTD
#include <zstd.h>
#endif

namespace edgemt::convert {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
void spill(const fs::path& p, const std::string& bytes) { std::ofstream(p, std::ios::binary) << bytes; }

std::string gzip(const std::string& data) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&z, data.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
  return out;
}

std::string zstd(const std::string& data) {
#if EDGEMT_HAVE_ZSTD
  std::string out(ZSTD_compressBound(data.size()), '\0');
  const size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3);
  EXPECT_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
#else
  (void)data;
  return "\x28\xb5\x2f\xfd";  // a zstd frame's magic: refused by a build without libzstd
#endif
}

using edgemt::testing::convert_error_of;

// The model file edgemt-convert writes for `m`, less the metadata that names the files
// it came from (source_file, shortlist: checked on their own).
std::string model_bytes(SourceModel m, const fs::path& out) {
  for (auto& [k, v] : m.metadata)
    if (k == "source_file" || k == "shortlist") v.assign(1, 'x');
  ConvertOptions o;
  o.quantize_int8 = true;
  write_model(pack_model(std::move(m), o), out.string());
  return slurp(out);
}

std::string metadata(const SourceModel& m, const std::string& key) {
  for (const auto& [k, v] : m.metadata)
    if (k == key) return v;
  return "(none)";
}

class Compressed : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("edgemt_compressed_" + std::to_string(::getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "tmp");
    // Where the converter stages decompressed files: checked empty after each call.
    const char* old = std::getenv("TMPDIR");
    old_tmpdir_ = old ? old : "";
    had_tmpdir_ = old != nullptr;
    ::setenv("TMPDIR", (root_ / "tmp").c_str(), 1);
  }
  void TearDown() override {
    if (had_tmpdir_)
      ::setenv("TMPDIR", old_tmpdir_.c_str(), 1);
    else
      ::unsetenv("TMPDIR");
    fs::remove_all(root_);
  }
  // A copy of a Marian test model with the files named in `how` compressed
  // ('g' gzip, 'z' zstd), the others as they are; reference.json left out.
  fs::path compressed_copy(const std::string& model, const std::map<std::string, char>& how) {
    const fs::path src = fs::path(EDGEMT_MARIAN_SOURCE_DIR) / model;
    const fs::path dir = root_ / model;
    fs::create_directories(dir);
    for (const auto& e : fs::directory_iterator(src)) {
      const std::string n = e.path().filename().string();
      if (n == "reference.json") continue;
      const auto it = how.find(n);
      if (it == how.end())
        fs::copy_file(e.path(), dir / n);
      else if (it->second == 'g')
        spill(dir / (n + ".gz"), gzip(slurp(e.path())));
      else
        spill(dir / (n + ".zst"), zstd(slurp(e.path())));
    }
    return dir;
  }
  size_t staged_left() const {
    return static_cast<size_t>(
        std::distance(fs::directory_iterator(root_ / "tmp"), fs::directory_iterator()));
  }

  fs::path root_;
  std::string old_tmpdir_;
  bool had_tmpdir_ = false;
};

// Firefox's layout (mar9: split vocabularies, a binary shortlist): every file
// compressed, gzip and zstd mixed, converts to the same bytes as the original directory.
TEST_F(Compressed, FirefoxLayoutConvertsToTheSameModelAsItsOriginal) {
  if (!have_zstd()) GTEST_SKIP() << "built without libzstd (the .zst refusal is tested below)";
  const std::string model = "mar9_shortlist_bin";
  const fs::path src = fs::path(EDGEMT_MARIAN_SOURCE_DIR) / model;
  const fs::path dir = compressed_copy(model, {{"model.bin", 'g'},
                                               {"srcvocab.en.spm", 'z'},
                                               {"trgvocab.de.spm", 'g'},
                                               {"lex.10.5.ende.s2t.bin", 'z'}});
  ASSERT_TRUE(fs::exists(dir / "model.bin.gz"));
  ASSERT_FALSE(fs::exists(dir / "model.bin"));
  EXPECT_TRUE(is_marian_input(dir.string()));
  EXPECT_TRUE(is_marian_input((dir / "model.bin.gz").string()));
  // A compressed file that is not a Marian model is not taken for one.
  spill(root_ / "other.bin.gz", gzip("not a marian model"));
  EXPECT_FALSE(is_marian_input((root_ / "other.bin.gz").string()));

  const SourceModel original = read_checkpoint(src.string());
  const SourceModel from_dir = read_checkpoint(dir.string());
  EXPECT_EQ(staged_left(), 0u);
  const SourceModel from_file = read_checkpoint((dir / "model.bin.gz").string());
  EXPECT_EQ(staged_left(), 0u);
  // The metadata names the files as given.
  EXPECT_EQ(metadata(from_dir, "source_file"),
            fs::absolute(dir / "model.bin.gz").lexically_normal().string());
  EXPECT_EQ(metadata(from_file, "source_file"), metadata(from_dir, "source_file"));
  EXPECT_EQ(metadata(from_dir, "shortlist"), "lex.10.5.ende.s2t.bin.zst");
  EXPECT_EQ(metadata(original, "shortlist"), "lex.10.5.ende.s2t.bin");
  ASSERT_FALSE(original.shortlist.offsets.empty());
  EXPECT_EQ(from_dir.shortlist.targets, original.shortlist.targets);

  const std::string want = model_bytes(original, root_ / "a.emt");
  EXPECT_EQ(model_bytes(from_dir, root_ / "b.emt"), want);
  EXPECT_EQ(model_bytes(from_file, root_ / "c.emt"), want);
}

// An intgemm8 model (Firefox's int8 form) named by a decoder.yml as model.intgemm8.bin
// while the directory holds model.intgemm8.bin.gz; the uncompressed file wins when
// both are there.
TEST_F(Compressed, DecoderConfigNamesTheUncompressedFile) {
  const std::string model = "mar6_ssru_intgemm8_bin";
  const fs::path src = fs::path(EDGEMT_MARIAN_SOURCE_DIR) / model;
  const fs::path dir = compressed_copy(model, {{"model.intgemm8.bin", 'g'}, {"vocab.spm", 'g'}});
  const SourceModel original = read_checkpoint(src.string());
  const SourceModel staged = read_checkpoint(dir.string());
  EXPECT_EQ(staged_left(), 0u);
  EXPECT_EQ(metadata(staged, "source_format"), "marian-bin-intgemm");
  EXPECT_EQ(model_bytes(staged, root_ / "a.emt"), model_bytes(original, root_ / "b.emt"));
  // Naming the compressed file in decoder.yml works too.
  spill(dir / "decoder.yml", "models:\n  - model.intgemm8.bin.gz\nvocabs: [vocab.spm.gz, vocab.spm.gz]\n");
  EXPECT_EQ(model_bytes(read_checkpoint(dir.string()), root_ / "c.emt"),
            model_bytes(original, root_ / "b.emt"));
  // An uncompressed twin beside the compressed file is the one read: a broken .gz
  // beside it is never opened.
  fs::copy_file(src / "model.intgemm8.bin", dir / "model.intgemm8.bin");
  spill(dir / "model.intgemm8.bin.gz", "broken");
  spill(dir / "decoder.yml", slurp(src / "decoder.yml"));
  EXPECT_EQ(model_bytes(read_checkpoint(dir.string()), root_ / "d.emt"),
            model_bytes(original, root_ / "b.emt"));
  EXPECT_EQ(staged_left(), 0u);
}

// Corrupt, truncated or mislabelled files give an error naming the file the user gave
// (never a temporary one), and nothing is left behind.
TEST_F(Compressed, BadCompressedFilesAreNamed) {
  const std::string model = "mar9_shortlist_bin";
  const fs::path src = fs::path(EDGEMT_MARIAN_SOURCE_DIR) / model;
  const fs::path dir = compressed_copy(model, {{"model.bin", 'g'}, {"srcvocab.en.spm", 'g'}});
  const std::string good = slurp(dir / "model.bin.gz");
  const std::string gz = (dir / "model.bin.gz").string();

  spill(gz, good.substr(0, good.size() / 2));
  std::string msg = convert_error_of([&] { read_checkpoint(dir.string()); });
  EXPECT_NE(msg.find(gz + " is truncated"), std::string::npos) << msg;
  EXPECT_EQ(staged_left(), 0u);

  std::string flipped = good;
  for (size_t i = 20; i < 60 && i < flipped.size(); ++i) flipped[i] = static_cast<char>(flipped[i] ^ 0x5a);
  spill(gz, flipped);
  msg = convert_error_of([&] { read_checkpoint((dir / "model.bin.gz").string(), "marian-npz"); });
  EXPECT_NE(msg.find(gz), std::string::npos) << msg;
  EXPECT_TRUE(msg.find("corrupt") != std::string::npos || msg.find("truncated") != std::string::npos) << msg;
  EXPECT_EQ(msg.find((root_ / "tmp").string()), std::string::npos) << msg;
  EXPECT_EQ(staged_left(), 0u);

  // A .gz holding a bad model: the model's own error, naming the .gz.
  spill(gz, gzip(slurp(src / "model.bin").substr(0, 4000)));
  msg = convert_error_of([&] { read_checkpoint(dir.string()); });
  EXPECT_NE(msg.find("model.bin.gz"), std::string::npos) << msg;
  EXPECT_EQ(msg.find((root_ / "tmp").string()), std::string::npos) << msg;
  EXPECT_EQ(staged_left(), 0u);
  spill(gz, good);

  // A compressed vocabulary that is not gzip data.
  spill(dir / "srcvocab.en.spm.gz", slurp(src / "srcvocab.en.spm"));
  msg = convert_error_of([&] { read_checkpoint(dir.string()); });
  EXPECT_NE(msg.find((dir / "srcvocab.en.spm.gz").string() + " is not gzip data"), std::string::npos) << msg;
  EXPECT_EQ(staged_left(), 0u);
  spill(dir / "srcvocab.en.spm.gz", gzip(slurp(src / "srcvocab.en.spm")));
  EXPECT_EQ(read_checkpoint(dir.string()).config.d_model, read_checkpoint(src.string()).config.d_model);

  // zstd: truncated, or refused by name where the build has no libzstd.
  fs::remove(gz);
  const std::string z = zstd(slurp(src / "model.bin"));
  spill(dir / "model.bin.zst", z.substr(0, z.size() - 9));
  msg = convert_error_of([&] { read_checkpoint(dir.string()); });
  EXPECT_NE(msg.find((dir / "model.bin.zst").string()), std::string::npos) << msg;
  if (have_zstd())
    EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;
  else
    EXPECT_NE(msg.find("built without libzstd"), std::string::npos) << msg;
  EXPECT_EQ(staged_left(), 0u);
}

// gzip -d's semantics: several members are one stream; an empty or cut file is an
// error and leaves no output file.
TEST(Decompress, GzipMembersConcatenateAndBadDataLeavesNoFile) {
  const fs::path dir = fs::temp_directory_path() / ("edgemt_decompress_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  spill(dir / "two.gz", gzip("first member, ") + gzip("second member"));
  decompress_file(dir / "two.gz", dir / "two", Compression::kGzip, "two.gz");
  EXPECT_EQ(slurp(dir / "two"), "first member, second member");
  EXPECT_EQ(decompressed_prefix(dir / "two.gz", Compression::kGzip, 5), "first");
  // An empty first member: the prefix comes from the next one, as the whole file's does.
  spill(dir / "late.gz", gzip("") + gzip("abcdef"));
  EXPECT_EQ(decompressed_prefix(dir / "late.gz", Compression::kGzip, 3), "abc");
  EXPECT_EQ(decompressed_prefix(dir / "late.gz", Compression::kGzip, 100), "abcdef");
  spill(dir / "empty.gz", "");
  EXPECT_NE(convert_error_of([&] {
              decompress_file(dir / "empty.gz", dir / "empty", Compression::kGzip, "empty.gz");
            }).find("empty.gz is truncated or empty"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "empty"));
  // Output past the limit stops with an error (a decompression bomb fills no disk).
  spill(dir / "big.gz", gzip(std::string(1 << 20, 'a')));
  EXPECT_NE(convert_error_of([&] {
              decompress_file(dir / "big.gz", dir / "big", Compression::kGzip, "big.gz", 1 << 16);
            }).find("big.gz decompresses to more than"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "big"));
  EXPECT_EQ(compression_of("a.bin.gz"), Compression::kGzip);
  EXPECT_EQ(compression_of("a.spm.zst"), Compression::kZstd);
  EXPECT_EQ(compression_of("a.spm"), Compression::kNone);
  EXPECT_EQ(without_compression_suffix("lex.50.50.enit.s2t.bin.zst"), "lex.50.50.enit.s2t.bin");
  if (have_zstd()) {
    spill(dir / "two.zst", zstd("first frame, ") + zstd("second frame"));
    decompress_file(dir / "two.zst", dir / "twoz", Compression::kZstd, "two.zst");
    EXPECT_EQ(slurp(dir / "twoz"), "first frame, second frame");
    spill(dir / "late.zst", zstd("") + zstd("abcdef"));
    EXPECT_EQ(decompressed_prefix(dir / "late.zst", Compression::kZstd, 3), "abc");
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace edgemt::convert
