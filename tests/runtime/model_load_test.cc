// Hostile model files: loading checks everything before use and rejects bad files with
// a message that says what is wrong; it never crashes. Variants are built from the
// parity models with the converter's own reader and writer, then broken on purpose.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "converter/readers.h"
#include "converter/writer.h"
#include "runtime/api/translator.h"
#include "schema/edgemt_generated.h"

namespace edgemt {
namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

fs::path parity_dir(const char* name) { return fs::path(EDGEMT_PARITY_SOURCE_DIR) / name; }
fs::path good_model() { return fs::path(EDGEMT_PARITY_BUILD_DIR) / "m2_joint_swish_d40h4_untied.emt"; }

fs::path temp_file(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("edgemt_test_" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir / name;
}

// Loads bytes; if they load, translating must work without crashing either.
Status load_and_use(const std::vector<uint8_t>& bytes) {
  auto m = Model::from_bytes(bytes.data(), bytes.size());
  if (!m) return m.status();
  TranslatorOptions o;
  o.max_batch = 2;
  o.max_beam = 2;
  o.max_source_length = 16;
  o.max_target_length = 8;
  auto t = Translator::create(m.value(), o);
  if (!t) return t.status();
  TranslateOptions to;
  to.beam = 2;
  auto r = t.value()->translate({"Hello world.", "x"}, to);
  return r ? Status::ok() : r.status();
}

TEST(ModelLoad, GoodModelLoads) {
  ASSERT_TRUE(fs::exists(good_model()));
  auto m = Model::load(good_model().string());
  ASSERT_TRUE(m.has_value()) << m.status().to_string();
  EXPECT_TRUE(load_and_use(read_bytes(good_model())).is_ok());
}

TEST(ModelLoad, MissingFileAndDirectory) {
  auto m = Model::load("/nonexistent/model.emt");
  ASSERT_FALSE(m.has_value());
  EXPECT_EQ(m.status().code(), StatusCode::kNotFound);
  EXPECT_NE(m.status().message().find("/nonexistent/model.emt"), std::string::npos);
  auto d = Model::load("/tmp");
  ASSERT_FALSE(d.has_value());
}

TEST(ModelLoad, TruncatedFilesAreRejected) {
  const auto bytes = read_bytes(good_model());
  for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{16}, size_t{100}, bytes.size() / 3,
                   bytes.size() / 2, bytes.size() - 64, bytes.size() - 1}) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    auto m = Model::from_bytes(cut.data(), cut.size());
    ASSERT_FALSE(m.has_value()) << "a file cut to " << n << " bytes loaded";
    EXPECT_EQ(m.status().code(), StatusCode::kInvalidModel) << m.status().to_string();
  }
  auto longer = bytes;
  longer.push_back(0);
  auto m = Model::from_bytes(longer.data(), longer.size());
  ASSERT_FALSE(m.has_value());
  EXPECT_NE(m.status().message().find("trailing data"), std::string::npos) << m.status().message();
}

TEST(ModelLoad, WrongIdentifierAndVersion) {
  auto bytes = read_bytes(good_model());
  auto wrong_id = bytes;
  std::memcpy(wrong_id.data() + 8, "XXXX", 4);  // after the size prefix and root offset
  auto m = Model::from_bytes(wrong_id.data(), wrong_id.size());
  ASSERT_FALSE(m.has_value());
  EXPECT_NE(m.status().message().find("identifier"), std::string::npos) << m.status().message();

  EXPECT_EQ(m.status().message().find("edgemt-convert"), std::string::npos) << "no guess for random bytes";
  // Checkpoints people load before converting them are named, with what to do.
  for (const auto& [magic, what] : std::vector<std::pair<std::string, std::string>>{
           {std::string("PK\x03\x04", 4), "zip archive"},
           {"\x1f\x8b\x08", "gzip-compressed"},
           {"\x28\xb5\x2f\xfd", "zstd-compressed"},
           {std::string("\x01\0\0\0\0\0\0\0", 8), "Marian binary model"},
           {std::string("\x10\0\0\0\0\0\0\0{\"a\":{}}", 16), "safetensors"}}) {
    std::vector<uint8_t> f(64, 0);
    std::memcpy(f.data(), magic.data(), magic.size());
    m = Model::from_bytes(f.data(), f.size());
    ASSERT_FALSE(m.has_value());
    EXPECT_NE(m.status().message().find(what), std::string::npos) << m.status().message();
    EXPECT_NE(m.status().message().find("edgemt-convert first"), std::string::npos) << m.status().message();
  }
  const auto dir =
      std::filesystem::temp_directory_path() / ("edgemt_model_dir_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  m = Model::load(dir.string());
  ASSERT_FALSE(m.has_value());
  EXPECT_NE(m.status().message().find("is a directory"), std::string::npos) << m.status().message();
  EXPECT_NE(m.status().message().find("edgemt-convert " + dir.string()), std::string::npos)
      << m.status().message();
  std::filesystem::remove_all(dir);

  fb::GetMutableSizePrefixedModel(bytes.data())->mutate_schema_version(99);
  m = Model::from_bytes(bytes.data(), bytes.size());
  ASSERT_FALSE(m.has_value());
  EXPECT_NE(m.status().message().find("schema version 99"), std::string::npos) << m.status().message();
}

TEST(ModelLoad, RandomBitFlipsNeverCrash) {
  const auto bytes = read_bytes(good_model());
  std::mt19937 g(42);
  int rejected = 0, loaded = 0;
  for (int trial = 0; trial < 300; ++trial) {
    auto b = bytes;
    const int flips = 1 + trial % 4;
    for (int f = 0; f < flips; ++f) {
      // Half of the flips land in the first 4 KiB (tables, offsets, config), the rest anywhere.
      const size_t pos = (trial % 2 == 0) ? g() % std::min<size_t>(4096, b.size()) : g() % b.size();
      b[pos] ^= static_cast<uint8_t>(1u << (g() % 8));
    }
    const Status s = load_and_use(b);
    if (s.is_ok()) {
      ++loaded;
    } else {
      ++rejected;
      EXPECT_FALSE(s.message().empty());
    }
  }
  RecordProperty("rejected", rejected);
  RecordProperty("loaded", loaded);
  EXPECT_GT(rejected, 0);
}

class SpecVariant : public ::testing::Test {
 protected:
  void SetUp() override {
    spec_ = convert::convert_checkpoint(parity_dir("m2_joint_swish_d40h4_untied").string(), {});
  }
  Status write_and_load(const convert::WriteOptions& w = {}) {
    const fs::path p = temp_file("variant.emt");
    convert::write_model(spec_, p.string(), w);
    auto m = Model::load(p.string());
    fs::remove(p);
    return m ? Status::ok() : m.status();
  }
  convert::SpecTensor* find(const std::string& name) {
    for (auto& t : spec_.tensors)
      if (t.name == name) return &t;
    return nullptr;
  }
  convert::ModelSpec spec_;
};

TEST_F(SpecVariant, UnchangedLoads) { EXPECT_TRUE(write_and_load().is_ok()); }

TEST_F(SpecVariant, MissingTensorIsNamed) {
  const std::string name = "decoder/layer_0/fc1/weight";
  auto it =
      std::find_if(spec_.tensors.begin(), spec_.tensors.end(), [&](const auto& t) { return t.name == name; });
  ASSERT_NE(it, spec_.tensors.end());
  spec_.tensors.erase(it);
  const Status s = write_and_load();
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find(name + " is missing"), std::string::npos) << s.message();
}

TEST_F(SpecVariant, WrongShapeIsNamedWithBothShapes) {
  convert::SpecTensor* t = find("encoder/layer_1/fc2/weight");
  ASSERT_NE(t, nullptr);
  std::swap(t->shape[0], t->shape[1]);
  const Status s = write_and_load();
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("encoder/layer_1/fc2/weight has shape"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("expected"), std::string::npos) << s.message();
}

TEST_F(SpecVariant, WrongDataSizeIsRejected) {
  convert::SpecTensor* t = find("encoder/layer_0/self_attn_layer_norm/bias");
  ASSERT_NE(t, nullptr);
  t->data.resize(t->data.size() - 4);
  const Status s = write_and_load();
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("bytes of data"), std::string::npos) << s.message();
}

TEST_F(SpecVariant, MisalignedWeightsAreRejected) {
  convert::WriteOptions w;
  w.align_tensors = false;
  const Status s = write_and_load(w);
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("aligned"), std::string::npos) << s.message();
}

TEST_F(SpecVariant, BadConfigAndSpecialIds) {
  spec_.config.decoder_heads = 7;  // 40 is not divisible by 7
  Status s = write_and_load();
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("divisible"), std::string::npos) << s.message();
  SetUp();
  spec_.config.eos_id = spec_.config.source_vocab_size + 5;
  s = write_and_load();
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("eos_id"), std::string::npos) << s.message();
  SetUp();
  spec_.generation.banned_ids.push_back(-3);
  s = write_and_load();
  ASSERT_FALSE(s.is_ok());
  SetUp();
  spec_.source_spm = "this is not a sentencepiece model";
  s = write_and_load();
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("SentencePiece"), std::string::npos) << s.message();
  SetUp();
  spec_.source_vocab.pop_back();
  s = write_and_load();
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("vocabulary"), std::string::npos) << s.message();
}

TEST_F(SpecVariant, UnknownDecoderLayerKindIsNamed) {
  // A model from a newer converter with a decoder layer this build cannot run.
  spec_.config.decoder_layer_kind = static_cast<DecoderLayerKind>(9);
  const Status s = write_and_load();
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("decoder layer kind 9"), std::string::npos) << s.message();
}

TEST_F(SpecVariant, NonFiniteScaleInInt8IsRejected) {
  convert::ConvertOptions int8;
  int8.quantize_int8 = true;
  spec_ = convert::convert_checkpoint(parity_dir("m2_joint_swish_d40h4_untied").string(), int8);
  convert::SpecTensor* t = find("encoder/layer_0/fc1/weight");
  ASSERT_NE(t, nullptr);
  ASSERT_FALSE(t->scales.empty());
  t->scales[3] = -1.0f;
  const Status s = write_and_load();
  ASSERT_FALSE(s.is_ok());
  EXPECT_NE(s.message().find("invalid scale"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace edgemt
