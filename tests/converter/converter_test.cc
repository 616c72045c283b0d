// edgemt-convert on bad input: every problem is a clear error that names it, and no
// partial output file is ever left behind (an existing output is not clobbered).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "converter/checkpoint.h"
#include "converter/readers.h"
#include "converter/writer.h"

namespace edgemt::convert {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

class ConverterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    work_ = fs::temp_directory_path() / ("edgemt_conv_" + std::to_string(getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(work_);
    fs::create_directories(work_);
    dir_ = work_ / "model";
    fs::copy(fs::path(EDGEMT_PARITY_SOURCE_DIR) / "m3_separate_gelu_d64", dir_);
    out_ = work_ / "out.emt";
  }
  void TearDown() override { fs::remove_all(work_); }

  json config() {
    std::ifstream in(dir_ / "config.json");
    json j;
    in >> j;
    return j;
  }
  void set_config(const json& j) { std::ofstream(dir_ / "config.json") << j.dump(2); }

  // Runs the converter; returns the error message ("" on success).
  std::string convert(bool int8 = false) {
    try {
      ConvertOptions o;
      o.quantize_int8 = int8;
      write_model(convert_checkpoint(dir_.string(), o), out_.string());
      return "";
    } catch (const ConvertError& e) {
      return e.what();
    }
  }
  void expect_error(const std::string& needle) {
    const std::string msg = convert();
    EXPECT_NE(msg.find(needle), std::string::npos)
        << "message: '" << msg << "' should mention '" << needle << "'";
    EXPECT_FALSE(fs::exists(out_)) << "a failed conversion left " << out_;
    for (const auto& e : fs::directory_iterator(work_))
      EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos)
          << "temporary file left: " << e.path();
  }

  fs::path work_, dir_, out_;
};

TEST_F(ConverterTest, GoodInputConverts) {
  EXPECT_EQ(convert(), "");
  EXPECT_TRUE(fs::exists(out_));
  EXPECT_EQ(convert(true), "");
}

TEST_F(ConverterTest, MissingDirectoryAndFiles) {
  dir_ = work_ / "nope";
  expect_error("does not exist");
  SetUp();
  fs::remove(dir_ / "config.json");
  expect_error("config.json");
  SetUp();
  fs::remove(dir_ / "source.spm");
  expect_error("source.spm");
  SetUp();
  fs::remove(dir_ / "model.safetensors");
  expect_error("no model.safetensors");
  SetUp();
  fs::remove(dir_ / "target_vocab.json");
  expect_error("target_vocab.json");
}

TEST_F(ConverterTest, MalformedFiles) {
  std::ofstream(dir_ / "config.json") << "{ not json";
  expect_error("not valid JSON");
  SetUp();
  std::ofstream(dir_ / "target.spm") << "garbage";
  expect_error("target.spm is not a SentencePiece model");
  SetUp();
  {
    // Truncate the weights.
    const auto size = fs::file_size(dir_ / "model.safetensors");
    fs::resize_file(dir_ / "model.safetensors", size / 2);
  }
  const std::string msg = convert();
  EXPECT_FALSE(msg.empty());
  EXPECT_FALSE(fs::exists(out_));
}

TEST_F(ConverterTest, UnsupportedOptionsAreNamed) {
  json c = config();
  c["activation_function"] = "tanh";
  set_config(c);
  expect_error("activation_function 'tanh'");
  SetUp();
  c = config();
  c["model_type"] = "bart";
  set_config(c);
  expect_error("model_type is 'bart'");
}

TEST_F(ConverterTest, ShapeMismatchNamesTheTensor) {
  json c = config();
  c["encoder_ffn_dim"] = c["encoder_ffn_dim"].get<int>() + 1;
  set_config(c);
  expect_error("model.encoder.layers.0.fc1.weight has shape");
}

TEST_F(ConverterTest, BadVocabulary) {
  json c = config();
  c["vocab_size"] = 10;  // vocab.json has more pieces
  set_config(c);
  expect_error("outside the model's vocabulary");
}

TEST_F(ConverterTest, ExistingOutputIsNotClobberedOnFailure) {
  std::ofstream(out_) << "previous";
  fs::remove(dir_ / "vocab.json");
  EXPECT_FALSE(convert().empty());
  std::ifstream in(out_);
  std::string s;
  in >> s;
  EXPECT_EQ(s, "previous");
}

TEST_F(ConverterTest, CommandLineReportsErrors) {
  const std::string cmd =
      std::string(EDGEMT_CONVERT_BIN) + " " + (work_ / "nope").string() + " " + out_.string() + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  char buf[512] = {};
  const size_t n = fread(buf, 1, sizeof buf - 1, p);
  const int rc = pclose(p);
  EXPECT_NE(rc, 0);
  EXPECT_NE(std::string(buf, n).find("error"), std::string::npos);
  EXPECT_FALSE(fs::exists(out_));
}

}  // namespace
}  // namespace edgemt::convert
