// The Marian reader's parts: .npz arrays (dtypes, Fortran order, malformed archives),
// the YAML subset of Marian's configurations, and read_marian's refusals of what it
// does not support, each with a message naming the problem. (Parity with Marian's own
// outputs: tests/parity/marian_test.cc.)
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "converter/checkpoint.h"
#include "converter/marian.h"
#include "converter/marian_bin.h"
#include "converter/marian_yaml.h"
#include "converter/npz.h"
#include "converter/pack.h"
#include "converter/quantize.h"
#include "converter/readers.h"
#include "ops/gemm/pack.h"
#include "tests/converter/convert_error.h"
#include "tests/converter/stored_zip.h"

namespace edgemt::convert {
namespace {

namespace fs = std::filesystem;

// One .npy array: version 1.0 header padded to 64 bytes.
std::string npy(const std::string& descr, const std::string& shape, const std::string& data,
                bool fortran = false) {
  std::string h = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                  ", 'shape': " + shape + ", }";
  while ((10 + h.size() + 1) % 64 != 0) h += ' ';
  h += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(h.size() & 0xFF);
  out += static_cast<char>(h.size() >> 8);
  return out + h + data;
}

template <typename T>
std::string bytes_of(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

using edgemt::testing::convert_error_of;

TEST(Npz, ReadsDtypesShapesAndFortranOrder) {
  const std::vector<float> f = {1, 2, 3, 4, 5, 6};
  const std::vector<double> d = {0.5, -1.5};
  const std::vector<int8_t> i = {-3, 7};
  // Fortran order: column-major 2x3 [[1,2,3],[4,5,6]] is 1 4 2 5 3 6 in the file.
  const std::vector<float> fo = {1, 4, 2, 5, 3, 6};
  const std::string yml = "type: transformer\n";
  auto z = Npz::from_bytes(
      "t.npz", testing::make_stored_zip(
                   {{"a.npy", npy("<f4", "(2, 3)", bytes_of(f))},
                    {"b.npy", npy("<f8", "(2,)", bytes_of(d))},
                    {"c.npy", npy("|i1", "(1, 2)", bytes_of(i))},
                    {"f.npy", npy("<f4", "(2, 3)", bytes_of(fo), true)},
                    {"special:model.yml.npy",
                     npy("|i1", std::string("(") + std::to_string(yml.size() + 1) + ",)", yml + '\0')}}));
  EXPECT_EQ(z->shape("a"), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(z->read("a").data, f);
  EXPECT_EQ(z->read("b").data, (std::vector<float>{0.5f, -1.5f}));
  EXPECT_EQ(z->read("c").data, (std::vector<float>{-3.0f, 7.0f}));
  EXPECT_EQ(z->read("f").data, f);
  EXPECT_EQ(z->text("special:model.yml").value(), yml);
  EXPECT_FALSE(z->text("missing").has_value());
  EXPECT_NE(convert_error_of([&] { z->read("missing"); }).find("missing"), std::string::npos);
}

TEST(Npz, MalformedArchivesGiveNamedErrors) {
  const std::string four = bytes_of(std::vector<float>{1, 2, 3, 4});
  struct Bad {
    std::string what, bytes, expect;
  };
  std::vector<Bad> bad = {
      {"not a zip", "hello world, this is not an archive", "not a zip archive"},
      {"not .npy", testing::make_stored_zip({{"a.txt", "x"}}), "not an .npy array"},
      {"bad magic", testing::make_stored_zip({{"a.npy", "\x93NUMPX\x01\x00\x00\x00"}}), ".npy magic"},
      {"dtype", testing::make_stored_zip({{"a.npy", npy("<i4", "(4,)", four)}}), "dtype '<i4'"},
      {"big endian", testing::make_stored_zip({{"a.npy", npy(">f4", "(4,)", four)}}), "dtype '>f4'"},
      {"short data", testing::make_stored_zip({{"a.npy", npy("<f4", "(5,)", four)}}), "should hold 20 bytes"},
      {"bad shape", testing::make_stored_zip({{"a.npy", npy("<f4", "(2, x)", four)}}), "shape"},
      {"overflow", testing::make_stored_zip({{"a.npy", npy("<f4", "(999999999999, 999999999999)", four)}}),
       "too many elements"},
      {"header past end",
       testing::make_stored_zip({{"a.npy", std::string("\x93NUMPY\x01\x00\xff\x7f{", 11)}}), "header longer"},
      {"version", testing::make_stored_zip({{"a.npy", std::string("\x93NUMPY\x09\x00\x00\x00", 10)}}),
       "version 9"},
      {"empty", testing::make_stored_zip({}), "not a zip archive"},
  };
  // A deflated entry (numpy.savez_compressed): the method field of the stored zip set to 8.
  std::string deflated = testing::make_stored_zip({{"a.npy", npy("<f4", "(4,)", four)}});
  for (size_t p = 0; p + 4 <= deflated.size(); ++p) {
    if (std::memcmp(deflated.data() + p, "PK\x01\x02", 4) == 0) deflated[p + 10] = 8;
  }
  bad.push_back({"deflated", deflated, "savez_compressed"});
  for (const Bad& b : bad) {
    const std::string msg = convert_error_of([&] { Npz::from_bytes("bad.npz", b.bytes)->read("a"); });
    EXPECT_NE(msg.find("bad.npz"), std::string::npos) << b.what << ": " << msg;
    EXPECT_NE(msg.find(b.expect), std::string::npos) << b.what << ": " << msg;
  }
}

// Marian's binary format (common/binary.cpp), written here item by item.
struct BinItem {
  std::string name;
  uint64_t type;
  std::vector<int32_t> shape;
  std::string data;
};
std::string marian_bin(const std::vector<BinItem>& items, uint64_t version = 1) {
  auto u64 = [](uint64_t v) { return std::string(reinterpret_cast<const char*>(&v), 8); };
  std::string out = u64(version) + u64(items.size());
  for (const BinItem& it : items)
    out += u64(it.name.size() + 1) + u64(it.type) + u64(it.shape.size()) + u64(it.data.size());
  for (const BinItem& it : items) out += it.name + '\0';
  for (const BinItem& it : items)
    out += std::string(reinterpret_cast<const char*>(it.shape.data()), 4 * it.shape.size());
  const size_t pad = ((out.size() + 8) / 256 + 1) * 256 - out.size() - 8;
  out += u64(pad) + std::string(pad, '\0');
  for (const BinItem& it : items) out += it.data;
  return out;
}

TEST(MarianBin, ReadsFloatAndDequantizesIntgemm8WithMariansLayout) {
  const float m = 2.0f;  // value = q / m
  // W [2, 3] = [[1, 2, 3], [4, 5, 6]] / 2: stored transposed (3 x 2): 1 4 2 5 3 6.
  const std::vector<int8_t> wt = {1, 4, 2, 5, 3, 6};
  // Wemb [2, 3] stored as it is: 1 2 3 4 5 6.
  const std::vector<int8_t> emb = {1, 2, 3, 4, 5, 6};
  auto with_mult = [&](const std::vector<int8_t>& q) {
    return bytes_of(q) + bytes_of(std::vector<float>{m});
  };
  const std::string yml = "type: transformer\n";
  auto b = MarianBin::from_bytes(
      "t.bin",
      marian_bin({{"f", 0x0404, {1, 2}, bytes_of(std::vector<float>{0.5f, -2.0f})},
                  {"enc_W", 0x4101, {2, 3}, with_mult(wt)},
                  {"Wemb", 0x4101, {2, 3}, with_mult(emb)},
                  {"x_QuantMultA", 0x0404, {1}, bytes_of(std::vector<float>{9.0f})},
                  {"special:model.yml", 0x0101, {static_cast<int32_t>(yml.size() + 1)}, yml + '\0'}}));
  EXPECT_TRUE(b->quantized());
  EXPECT_EQ(b->read("f").data, (std::vector<float>{0.5f, -2.0f}));
  EXPECT_EQ(b->read("enc_W").data, (std::vector<float>{0.5f, 1.0f, 1.5f, 2.0f, 2.5f, 3.0f}));
  EXPECT_EQ(b->read("Wemb").data, (std::vector<float>{0.5f, 1.0f, 1.5f, 2.0f, 2.5f, 3.0f}));
  EXPECT_EQ(b->text("special:model.yml").value(), yml);
}

TEST(MarianBin, MalformedFilesGiveNamedErrors) {
  const std::string f2 = bytes_of(std::vector<float>{1, 2});
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"short", "truncated"},
      {marian_bin({{"a", 0x0404, {2}, f2}}, 2), "version 2"},
      {marian_bin({{"a", 0x1234, {2}, f2}}), "type 0x1234"},
      {marian_bin({{"a", 0x2101, {2}, f2}}), "not portable"},
      {marian_bin({{"a", 0x0404, {3}, f2}}), "fewer than the 12"},
      {marian_bin({{"a", 0x4101, {2}, f2}}), "not a matrix"},
      {marian_bin({{"a", 0x0404, {2}, f2}, {"a", 0x0404, {2}, f2}}), "twice"},
      {marian_bin({{"a", 0x0404, {-2}, f2}}), "negative dimension"},
      {marian_bin({{"a", 0x0404, {2}, f2}}).substr(0, 100), "truncated"},
  };
  for (const auto& [bytes, expect] : bad) {
    const std::string msg =
        convert_error_of([&b = bytes] { MarianBin::from_bytes("bad.bin", b)->read("a"); });
    EXPECT_NE(msg.find("bad.bin"), std::string::npos) << msg;
    EXPECT_NE(msg.find(expect), std::string::npos) << expect << " -> " << msg;
  }
  // A zero multiplier is refused when the matrix is read.
  auto z = MarianBin::from_bytes(
      "bad.bin",
      marian_bin(
          {{"a", 0x4101, {1, 2}, bytes_of(std::vector<int8_t>{1, 2}) + bytes_of(std::vector<float>{0})}}));
  EXPECT_NE(convert_error_of([&] { z->read("a"); }).find("multiplier"), std::string::npos);
}

TEST(MarianYaml, ReadsBlockAndFlowListsAndQuotedScalars) {
  const YamlMap y = parse_marian_yaml(
      "# comment\n---\ndim-vocabs:\n  - 32000\n  - 32000\nempty:\n  []\nflow: [a.npz, 'b c', \"d\\\\e\"]\n"
      "type: transformer  # trailing\nquoted: \"\"\nsq: 'it''s'\nlast-empty:\n",
      "t.yml");
  ASSERT_TRUE(y.at("dim-vocabs").is_list);
  EXPECT_EQ(y.at("dim-vocabs").items, (std::vector<std::string>{"32000", "32000"}));
  EXPECT_TRUE(y.at("empty").is_list);
  EXPECT_TRUE(y.at("empty").items.empty());
  EXPECT_EQ(y.at("flow").items, (std::vector<std::string>{"a.npz", "b c", "d\\e"}));
  EXPECT_EQ(y.at("type").scalar, "transformer");
  EXPECT_EQ(y.at("quoted").scalar, "");
  EXPECT_EQ(y.at("sq").scalar, "it's");
  EXPECT_TRUE(y.at("last-empty").is_list);
}

TEST(MarianYaml, RefusesWhatItDoesNotReadWithTheLine) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"a: 1\nb:\n  c: 2\n", "t.yml:3: nested mappings"},
      {"a: 1\na: 2\n", "t.yml:2: the key 'a' appears twice"},
      {"- x\n", "t.yml:1: a list item without a key"},
      {"a: &anchor 1\n", "anchors"},
      {"a: \"open\n", "unterminated"},
      {"a: [x, [y]]\n", "nested flow"},
      {"just text\n", "expected 'key: value'"},
      {"a:\n  - - x\n", "nested lists"},
  };
  for (const auto& [text, expect] : bad) {
    const std::string msg = convert_error_of([&t = text] { parse_marian_yaml(t, "t.yml"); });
    EXPECT_NE(msg.find(expect), std::string::npos) << text << " -> " << msg;
  }
}

TEST(MarianVocab, ReadsPlainAndQuotedPiecesAsMarianWritesThem) {
  const std::string text =
      "</s>: 0\n<unk>: 1\n\u2581the: 2\n\",\": 3\n\"\\\"\": 4\n'it''s': 5\n\"\\x41\\u00e9\\U0001F600\": 6\n"
      "a: b: 7\n";
  const std::vector<std::string> v = parse_marian_vocab(text, "v.yml");
  ASSERT_EQ(v.size(), 8u);
  EXPECT_EQ(v[0], "</s>");
  EXPECT_EQ(v[2], "\u2581the");
  EXPECT_EQ(v[3], ",");
  EXPECT_EQ(v[4], "\"");
  EXPECT_EQ(v[5], "it's");
  EXPECT_EQ(v[6], "A\u00e9\U0001F600");
  EXPECT_EQ(v[7], "a: b");  // a plain piece may hold ": "; the id follows the last one
}

TEST(MarianVocab, RefusesBadVocabulariesWithTheLine) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"a: 0\nb: 0\n", "v.yml:2: the id 0 is given to 'a' and to 'b'"},
      {"a: 0\na: 1\n", "v.yml:2: the piece 'a' appears twice"},
      {"a: 0\nc: 2\n", "no piece has the id 1"},
      {"a: -1\n", "v.yml:1: the id '-1' is not an integer"},
      {"a: x\n", "the id 'x' is not an integer"},
      {"just a word\n", "v.yml:1: expected 'piece: id'"},
      {"\"\\q\": 0\n", "unsupported escape"},
      {"\"\\u12\": 0\n", "escape"},
      {"\n", "an empty vocabulary"},
  };
  for (const auto& [text, expect] : bad) {
    const std::string msg = convert_error_of([&t = text] { parse_marian_vocab(t, "v.yml"); });
    EXPECT_NE(msg.find(expect), std::string::npos) << text << " -> " << msg;
  }
}

// A copy of a committed Marian test model with its special:model.yml replaced.
class MarianReader : public ::testing::Test {
 protected:
  void SetUp() override {
    src_ = fs::path(EDGEMT_MARIAN_SOURCE_DIR) / "mar1_joint_tiedall_swish_d32";
    ASSERT_TRUE(fs::exists(src_ / "model.npz"));
    dir_ = fs::temp_directory_path() / ("edgemt_marian_reader_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fs::copy_file(src_ / "vocab.spm", dir_ / "vocab.spm");
    auto z = Npz::open((src_ / "model.npz").string());
    yml_ = z->text("special:model.yml").value();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Rewrites model.npz in dir_: every array as float32 (or the yml), with edits.
  void write_model(const std::string& yml, const std::string& drop = "", const std::string& rename_to = "") {
    auto z = Npz::open((src_ / "model.npz").string());
    std::vector<std::pair<std::string, std::string>> entries;
    for (const std::string& n : z->names()) {
      if (n == "special:model.yml") continue;
      if (n == drop && rename_to.empty()) continue;
      const FloatTensor t = z->read(n);
      std::string shape = "(";
      for (int64_t d : t.shape) shape += std::to_string(d) + ", ";
      shape += ")";
      entries.emplace_back((n == drop ? rename_to : n) + ".npy", npy("<f4", shape, bytes_of(t.data)));
    }
    entries.emplace_back("special:model.yml.npy",
                         npy("|i1", std::string("(") + std::to_string(yml.size() + 1) + ",)", yml + '\0'));
    std::ofstream(dir_ / "model.npz", std::ios::binary) << testing::make_stored_zip(entries);
  }
  std::string yml_with(const std::string& key, const std::string& value) const {
    std::string y = yml_;
    const size_t at = y.find("\n" + key + ":");
    EXPECT_NE(at, std::string::npos) << key;
    const size_t end = y.find('\n', at + 1);
    return y.substr(0, at + 1) + key + ": " + value + y.substr(end);
  }
  std::string convert_error() {
    return convert_error_of([&] { read_checkpoint(dir_.string()); });
  }

  fs::path src_, dir_;
  std::string yml_;
};

TEST_F(MarianReader, RewrittenModelStillConverts) {
  write_model(yml_);
  EXPECT_TRUE(is_marian_input(dir_.string()));
  EXPECT_TRUE(is_marian_input((dir_ / "model.npz").string()));
  const SourceModel m = read_checkpoint(dir_.string());
  EXPECT_EQ(m.config.d_model, 32);
  EXPECT_EQ(m.config.target_vocab_size, 1001);  // + the all-zero decoder start row
  EXPECT_EQ(m.config.decoder_start_id, 1000);
  EXPECT_FLOAT_EQ(m.config.layer_norm_epsilon, 1e-6f);
  // Marian's positions: position 1, column 1 is sin(exp(-ln(10000) / 15)).
  EXPECT_NEAR(m.positions[32 + 1], std::sin(std::exp(-std::log(10000.0) / 15.0)), 1e-6);
  // The start row is zeros; the decoder start is never generated.
  for (int j = 0; j < 32; ++j) EXPECT_EQ(m.source_embed[1000 * 32 + j], 0.0f);
  // <unk> (1) neither: Marian suppresses it unless --allow-unk.
  EXPECT_EQ(m.generation.banned_ids, (std::vector<int32_t>{1000, 1}));
  // ... and kept out of the softmax's normaliser by its logit bias.
  ASSERT_EQ(m.final_logits_bias.size(), 1001u);
  EXPECT_LE(m.final_logits_bias[1000], -1e8f);
  // Without a decoder configuration: marian-decoder's search, greedy.
  EXPECT_EQ(m.generation.beam_style, BeamStyle::kMarian);
  EXPECT_EQ(m.generation.num_beams, 1);
  EXPECT_EQ(m.generation.length_penalty, 0.0f);
  EXPECT_EQ(m.generation.word_penalty, 0.0f);
  EXPECT_EQ(m.generation.max_length_factor, 3.0f);
}

// The search settings of a decoder.yml become the model's defaults; bad ones are
// refused with the file and key.
TEST_F(MarianReader, DecoderConfigSearchSettingsAreTheDefaults) {
  write_model(yml_);
  std::ofstream(dir_ / "decoder.yml") << "models: [model.npz]\nvocabs: [vocab.spm, vocab.spm]\nbeam-size: 6\n"
                                         "normalize: 0.6\nword-penalty: 0.25\nmax-length-factor: 2.5\n";
  const SourceModel m = read_checkpoint(dir_.string());
  EXPECT_EQ(m.generation.beam_style, BeamStyle::kMarian);
  EXPECT_EQ(m.generation.num_beams, 6);
  EXPECT_FLOAT_EQ(m.generation.length_penalty, 0.6f);
  EXPECT_FLOAT_EQ(m.generation.word_penalty, 0.25f);
  EXPECT_FLOAT_EQ(m.generation.max_length_factor, 2.5f);
  for (const auto& [line, expect] : std::vector<std::pair<std::string, std::string>>{
           {"normalize: high", "normalize is 'high'"},
           {"beam-size: 2.5", "beam-size is not a whole number"},
           {"beam-size: 0", "beam-size is '0'"},
           {"max-length-factor: -1", "max-length-factor is '-1'"}}) {
    std::ofstream(dir_ / "decoder.yml") << "models: [model.npz]\nvocabs: [vocab.spm, vocab.spm]\n"
                                        << line << "\n";
    const std::string msg = convert_error();
    EXPECT_NE(msg.find("decoder.yml: " + expect), std::string::npos) << line << " -> " << msg;
  }
}

TEST_F(MarianReader, UnsupportedArchitecturesAreRefusedByName) {
  const std::vector<std::pair<std::pair<std::string, std::string>, std::string>> cases = {
      {{"transformer-decoder-autoreg", "rnn"}, "dec-cell 'gru'"},
      {{"transformer-decoder-autoreg", "average-attention"}, "average-attention"},
      {{"type", "s2s"}, "type is 's2s'"},
      {{"transformer-preprocess", "n"}, "post-norm"},
      {{"transformer-postprocess", "da"}, "post-norm"},
      {{"transformer-ffn-activation", "gelu"}, "gelu"},
      {{"transformer-train-position-embeddings", "true"}, "transformer-train-position-embeddings is true"},
      {{"transformer-ffn-depth", "3"}, "transformer-ffn-depth"},
      {{"dim-emb", "30"}, "not divisible"},
      {{"right-left", "true"}, "right-left"},
  };
  for (const auto& [kv, expect] : cases) {
    write_model(yml_with(kv.first, kv.second));
    const std::string msg = convert_error();
    EXPECT_NE(msg.find(expect), std::string::npos) << kv.first << ": " << kv.second << " -> " << msg;
  }
  std::string y = yml_;
  const size_t at = y.find("dim-vocabs:\n  - 1000\n  - 1000\n");
  ASSERT_NE(at, std::string::npos);
  write_model(y.replace(at, 32, "dim-vocabs:\n  - 1000\n  - 999\n"));
  EXPECT_NE(convert_error().find("dim-vocabs are 1000 and 999"), std::string::npos) << convert_error();
}

TEST_F(MarianReader, MissingOrUnknownParametersAreNamed) {
  write_model(yml_, "encoder_l2_ffn_W1");
  EXPECT_NE(convert_error().find("has no parameter encoder_l2_ffn_W1"), std::string::npos) << convert_error();
  write_model(yml_, "encoder_l2_ffn_W1", "encoder_l2_ffn_W9");
  const std::string msg = convert_error();
  EXPECT_NE(msg.find("encoder_l2_ffn_W"), std::string::npos) << msg;
}

TEST_F(MarianReader, MissingOrAmbiguousFilesAreNamed) {
  write_model(yml_);
  fs::copy_file(dir_ / "model.npz", dir_ / "model.best.npz");
  EXPECT_NE(convert_error().find("several models"), std::string::npos) << convert_error();
  // A decoder.yml resolves it.
  std::ofstream(dir_ / "decoder.yml") << "models:\n  - model.best.npz\nvocabs: [vocab.spm, vocab.spm]\n";
  EXPECT_EQ(read_checkpoint(dir_.string()).config.d_model, 32);
  std::ofstream(dir_ / "decoder.yml") << "models: [a.npz, b.npz]\n";
  EXPECT_NE(convert_error().find("ensemble"), std::string::npos) << convert_error();
  fs::remove(dir_ / "decoder.yml");
  fs::remove(dir_ / "model.best.npz");
  fs::remove(dir_ / "vocab.spm");
  EXPECT_NE(convert_error().find("no vocabulary"), std::string::npos) << convert_error();
  std::ofstream(dir_ / "vocab.spm") << "not a sentencepiece model";
  EXPECT_NE(convert_error().find("not a SentencePiece model"), std::string::npos) << convert_error();
}

// OPUS-MT's layout (mar10): a Marian word vocabulary (opus.vocab.yml, or the same as
// .json) over source.spm / target.spm pieces; the parity tests check its outputs.
TEST(MarianWordVocab, OpusMtLayoutConvertsAndMissingPiecesAreNamed) {
  const fs::path src = fs::path(EDGEMT_MARIAN_SOURCE_DIR) / "mar10_opus_yml_vocab";
  ASSERT_TRUE(fs::exists(src / "opus.vocab.yml"));
  const fs::path dir = fs::temp_directory_path() / ("edgemt_marian_words_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::copy(src, dir);
  const SourceModel yml = read_checkpoint(dir.string());
  const std::vector<std::string> pieces = parse_marian_vocab(
      std::string(std::istreambuf_iterator<char>(std::ifstream(dir / "opus.vocab.yml").rdbuf()),
                  std::istreambuf_iterator<char>()),
      "opus.vocab.yml");
  ASSERT_EQ(yml.source_vocab.size(), pieces.size() + 1);  // + the decoder start row
  for (size_t i = 0; i < pieces.size(); ++i) EXPECT_EQ(yml.source_vocab[i], pieces[i]);
  EXPECT_EQ(yml.config.eos_id, 0);
  // The pieces of each side come from its own SentencePiece model.
  EXPECT_NE(yml.source_spm, yml.target_spm);
  // The same vocabulary as JSON (Marian reads both).
  {
    std::ofstream j(dir / "opus.vocab.json");
    j << "{";
    for (size_t i = 0; i < pieces.size(); ++i) {
      std::string esc;
      for (char ch : pieces[i]) esc += ch == '"' || ch == '\\' ? std::string("\\") + ch : std::string(1, ch);
      j << (i ? ", " : "") << '"' << esc << "\": " << i;
    }
    j << "}";
  }
  std::ofstream(dir / "decoder.yml") << "models: [opus.npz]\nvocabs: [opus.vocab.json, opus.vocab.json]\n";
  const SourceModel json = read_checkpoint(dir.string());
  EXPECT_EQ(json.source_vocab, yml.source_vocab);
  EXPECT_EQ(json.target_spm, yml.target_spm);
  // Without target.spm there is nothing to split the target side's text.
  fs::remove(dir / "target.spm");
  std::string msg = convert_error_of([&] { read_checkpoint(dir.string()); });
  EXPECT_NE(msg.find("target.spm does not exist"), std::string::npos) << msg;
  fs::copy_file(src / "target.spm", dir / "target.spm");
  // A vocabulary without </s>.
  std::ofstream(dir / "opus.vocab.json") << "{\"<unk>\": 0, \"a\": 1}";
  msg = convert_error_of([&] { read_checkpoint(dir.string()); });
  EXPECT_NE(msg.find("has no </s> piece"), std::string::npos) << msg;
  fs::remove_all(dir);
}

std::string metadata_of(const std::vector<std::pair<std::string, std::string>>& md, const std::string& key) {
  for (const auto& [k, v] : md)
    if (k == key) return v;
  return "(none)";
}

// Firefox names a model's files by its pair (model.enit.intgemm.alphas.bin,
// vocab.enit.spm, lex.50.50.enit.s2t.bin): the converted model records it, unless the
// names disagree; ConvertOptions (edgemt-convert --source-language/--target-language)
// set it for any model.
TEST(MarianLanguages, FirefoxFileNamesGiveThePairAndOptionsSetIt) {
  const fs::path src = fs::path(EDGEMT_MARIAN_SOURCE_DIR) / "mar9_shortlist_bin";
  const SourceModel m9 = read_checkpoint(src.string());  // lex.10.5.ende.s2t.bin
  EXPECT_EQ(metadata_of(m9.metadata, "source_language"), "en");
  EXPECT_EQ(metadata_of(m9.metadata, "target_language"), "de");
  const fs::path dir = fs::temp_directory_path() / ("edgemt_marian_pair_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path mar6 = fs::path(EDGEMT_MARIAN_SOURCE_DIR) / "mar6_ssru_intgemm8_bin";
  fs::copy_file(mar6 / "model.intgemm8.bin", dir / "model.deen.intgemm8.bin");
  fs::copy_file(mar6 / "vocab.spm", dir / "vocab.deen.spm");
  SourceModel m = read_checkpoint(dir.string());
  EXPECT_EQ(metadata_of(m.metadata, "source_language"), "de");
  EXPECT_EQ(metadata_of(m.metadata, "target_language"), "en");
  // Names that disagree give no pair.
  fs::rename(dir / "vocab.deen.spm", dir / "vocab.enit.spm");
  m = read_checkpoint(dir.string());
  EXPECT_EQ(metadata_of(m.metadata, "source_language"), "(none)");
  // No pair in the names (mar6 as it is): none.
  EXPECT_EQ(metadata_of(read_checkpoint(mar6.string()).metadata, "source_language"), "(none)");
  fs::remove_all(dir);

  ConvertOptions o;
  o.source_language = "pt-br";
  o.target_language = "de";
  const ModelSpec spec = pack_model(m9, o);
  EXPECT_EQ(metadata_of(spec.metadata, "source_language"), "pt-br");
  EXPECT_EQ(metadata_of(spec.metadata, "target_language"), "de");
  EXPECT_EQ(std::count_if(spec.metadata.begin(), spec.metadata.end(),
                          [](const auto& kv) { return kv.first == "source_language"; }),
            1);
  o.source_language = "ROMANCE";
  EXPECT_NE(convert_error_of([&] { pack_model(m9, o); }).find("'ROMANCE' is not a language code"),
            std::string::npos);
  EXPECT_TRUE(is_language_code("zh-Hans"));
  EXPECT_FALSE(is_language_code("e"));
  EXPECT_FALSE(is_language_code("en_US"));
}

// intgemm8 matrices (mar6: Firefox's int8 form) keep Marian's int8 values and
// multipliers through --quantize int8: no second rounding.
TEST(MarianIntgemm8, Int8ConversionKeepsMariansValuesAndMultipliers) {
  const fs::path dir = fs::path(EDGEMT_MARIAN_SOURCE_DIR) / "mar6_ssru_intgemm8_bin";
  auto bin = MarianBin::open((dir / "model.intgemm8.bin").string());
  const FloatTensor w1 = bin->read("encoder_l1_ffn_W1");  // [d, ffn], stored transposed
  ASSERT_GT(w1.int8_step, 0.0f);
  const SourceModel m = read_checkpoint(dir.string());
  const SourceParam* fc1 = nullptr;
  for (const SourceParam& p : m.params)
    if (p.origin == "encoder_l1_ffn_W1") fc1 = &p;
  ASSERT_NE(fc1, nullptr);
  ASSERT_EQ(fc1->int8_steps.size(), fc1->n);
  for (float s : fc1->int8_steps) EXPECT_EQ(s, w1.int8_step);
  const SpecTensor q = quantize_linear("fc1", fc1->n, fc1->k, fc1->weight, fc1->int8_steps);
  size_t short_rows = 0;  // rows whose largest |q| is below 127: per-row scaling would re-round them
  for (size_t r = 0; r < fc1->n; ++r) {
    EXPECT_EQ(q.scales[r], w1.int8_step) << "row " << r;
    float mx = 0.0f;
    for (size_t c = 0; c < fc1->k; ++c) mx = std::max(mx, std::fabs(fc1->weight[r * fc1->k + c]));
    short_rows += std::round(mx / w1.int8_step) < 127.0f;
  }
  EXPECT_GT(short_rows, fc1->n / 2) << "the test would not notice per-row requantization";
  // Without the steps, the rows are requantized on their own scales.
  const SpecTensor requantized = quantize_linear("fc1", fc1->n, fc1->k, fc1->weight);
  EXPECT_NE(requantized.scales, q.scales);
  // Float weights (no steps, or values off the grid) are quantized per row as before.
  std::vector<float> off = fc1->weight;
  off[0] += w1.int8_step * 0.3f;
  const SpecTensor mixed = quantize_linear("fc1", fc1->n, fc1->k, off, fc1->int8_steps);
  EXPECT_NE(mixed.scales[0], w1.int8_step);
  EXPECT_EQ(mixed.scales[1], w1.int8_step);
}

// --int8-weight-bits 7: every value in [-63, 63] and max_abs recorded (Tensor.max_abs,
// which lets AVX2 run ops::qs8_gemm_w7); intgemm8 rows keep Marian's values and step
// only where those fit in 7 bits, and are requantized on their own scales otherwise.
TEST(MarianIntgemm8, SevenBitWeightsStayWithin63AndRecordTheirMaximum) {
  const fs::path dir = fs::path(EDGEMT_MARIAN_SOURCE_DIR) / "mar6_ssru_intgemm8_bin";
  const SourceModel m = read_checkpoint(dir.string());
  const SourceParam* fc1 = nullptr;
  for (const SourceParam& p : m.params)
    if (p.origin == "encoder_l1_ffn_W1") fc1 = &p;
  ASSERT_NE(fc1, nullptr);
  const SpecTensor q8 = quantize_linear("fc1", fc1->n, fc1->k, fc1->weight, fc1->int8_steps);
  const SpecTensor q7 = quantize_linear("fc1", fc1->n, fc1->k, fc1->weight, fc1->int8_steps, 63);
  EXPECT_GT(q8.max_abs, 63);
  EXPECT_LE(q8.max_abs, 127);
  EXPECT_EQ(q7.max_abs, 63);
  int mx = 0;
  for (uint8_t b : q7.data) mx = std::max(mx, std::abs(static_cast<int>(static_cast<int8_t>(b))));
  EXPECT_EQ(mx, 63);
  size_t kept = 0, requantized = 0;
  for (size_t r = 0; r < fc1->n; ++r) {
    float row_max = 0.0f;
    for (size_t c = 0; c < fc1->k; ++c) row_max = std::max(row_max, std::fabs(fc1->weight[r * fc1->k + c]));
    const bool fits = std::round(row_max / fc1->int8_steps[r]) <= 63.0f;
    if (fits) {
      ++kept;
      EXPECT_EQ(q7.scales[r], fc1->int8_steps[r]) << "row " << r;
    } else {
      ++requantized;
      EXPECT_FLOAT_EQ(q7.scales[r], row_max / 63.0f) << "row " << r;
    }
  }
  EXPECT_GT(requantized, 0u) << "no intgemm8 row exceeds 63: the test would not notice";
  EXPECT_GT(kept + requantized, 0u);
  // The row sums follow the new values.
  for (size_t r = 0; r < fc1->n; ++r) {
    int32_t s = 0;
    for (size_t c = 0; c < fc1->k; ++c)
      s += ops::qs8_panel_at(reinterpret_cast<const int8_t*>(q7.data.data()), fc1->k, r, c);
    EXPECT_EQ(q7.row_sums[r], s) << "row " << r;
  }
}
}  // namespace
}  // namespace edgemt::convert
