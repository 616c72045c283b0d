// pytorch_model.bin (torch.save's zip + pickle format) read without Python.
//
// tests/data/pytorch_bin/pytorch_model.bin was written by
// tools/parity/make_bin_checkpoint.py from the m2 parity model: MarianMTModel's state
// dict with tied tensors sharing one storage, bfloat16 / float16 / float64 tensors,
// views at storage offsets, a non-contiguous tensor and an nn.Parameter
// (manifest.json lists them). It must read to exactly the parity model's safetensors
// values (rounded to each tensor's stored dtype) and convert to the same .emt file.
// Malformed archives and pickles must give a ConvertError that names the file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "converter/checkpoint.h"
#include "converter/float16.h"
#include "converter/readers.h"
#include "converter/writer.h"
#include "tests/converter/stored_zip.h"

namespace edgemt::convert {
namespace {

namespace fs = std::filesystem;
using edgemt::testing::make_stored_zip;
using edgemt::testing::zip_crc32;
using nlohmann::json;
using namespace std::string_literals;

const fs::path kBinDir = EDGEMT_PYTORCH_BIN_DIR;
const fs::path kSourceDir = fs::path(EDGEMT_PARITY_SOURCE_DIR) / "m2_joint_swish_d40h4_untied";

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

json manifest() {
  std::ifstream in(kBinDir / "manifest.json");
  return json::parse(in);
}

// float -> float16 / bfloat16 with round-to-nearest-even, as torch's .to(dtype).
float round_to_half(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t exp = (x >> 23) & 0xFFu;
  uint32_t mant = x & 0x7FFFFFu;
  uint32_t h;
  if (exp == 0xFF) {
    h = sign | 0x7C00u | (mant ? 0x200u : 0u);
  } else {
    const int e = static_cast<int>(exp) - 127 + 15;
    if (e >= 31) {
      h = sign | 0x7C00u;
    } else if (e <= 0) {
      if (e < -10) {
        h = sign;
      } else {
        mant |= 0x800000u;
        const int shift = 14 - e;
        uint32_t q = mant >> shift;
        const uint32_t rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (q & 1))) ++q;
        h = sign | q;
      }
    } else {
      uint32_t q = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
      const uint32_t rem = mant & 0x1FFFu;
      if (rem > 0x1000u || (rem == 0x1000u && (q & 1))) ++q;  // a carry into the exponent is right
      h = sign | q;
    }
  }
  return half_to_float(static_cast<uint16_t>(h));
}

float round_to_bf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if (std::isnan(f)) return f;
  x += 0x7FFFu + ((x >> 16) & 1u);
  return bf16_to_float(static_cast<uint16_t>(x >> 16));
}

float round_to(const std::string& dtype, float v) {
  if (dtype == "float16") return round_to_half(v);
  if (dtype == "bfloat16") return round_to_bf16(v);
  return v;  // float32, and float64 holds every float exactly
}

// The committed file was made from the current parity model (else regenerate it).
::testing::AssertionResult source_unchanged() {
  const std::string st = read_file(kSourceDir / "model.safetensors");
  const json m = manifest();
  if (m.at("source_safetensors_size").get<size_t>() == st.size() &&
      m.at("source_safetensors_crc32").get<uint32_t>() == zip_crc32(st))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << kSourceDir / "model.safetensors"
         << " is not the file " << kBinDir / "pytorch_model.bin"
         << " was made from (the parity models were regenerated?): rerun python3 "
            "tools/parity/make_bin_checkpoint.py "
            "tests/data/parity/m2_joint_swish_d40h4_untied tests/data/pytorch_bin";
}

TEST(PytorchBin, EveryTensorEqualsTheSafetensorsValue) {
  ASSERT_TRUE(source_unchanged());
  const json m = manifest();
  const auto bin = open_pytorch_bin((kBinDir / "pytorch_model.bin").string());
  const auto st = open_safetensors(kSourceDir.string());
  ASSERT_NE(st, nullptr);

  std::set<std::string> listed;
  for (const auto& [name, info] : m.at("tensors").items()) listed.insert(name);
  const std::vector<std::string> names = bin->names();
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()), listed);

  std::set<std::string> dtypes;
  int compared = 0, views = 0, strided = 0;
  for (const auto& [name, info] : m.at("tensors").items()) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(bin->has(name));
    const std::vector<int64_t> shape = info.at("shape").get<std::vector<int64_t>>();
    EXPECT_EQ(bin->shape(name), shape);
    const FloatTensor t = bin->read(name);
    EXPECT_EQ(t.shape, shape);
    const std::string dtype = info.at("dtype").get<std::string>();
    dtypes.insert(dtype);
    views += info.at("storage_offset").get<int64_t>() != 0;
    strided += !info.at("contiguous").get<bool>();
    if (!st->has(name)) continue;  // e.g. the sinusoidal positions, not in model.safetensors
    const FloatTensor want = st->read(name);
    ASSERT_EQ(t.data.size(), want.data.size());
    size_t bad = 0;
    for (size_t i = 0; i < t.data.size(); ++i) {
      const float w = round_to(dtype, want.data[i]);
      if (t.data[i] != w && bad++ < 3)
        ADD_FAILURE() << name << " (" << dtype << ") element " << i << ": read " << t.data[i] << ", expected "
                      << w << " (safetensors " << want.data[i] << ")";
    }
    EXPECT_EQ(bad, 0u);
    ++compared;
  }
  EXPECT_GE(compared, 60);
  // The file covers what the reader must handle.
  EXPECT_EQ(dtypes, (std::set<std::string>{"bfloat16", "float16", "float32", "float64"}));
  EXPECT_GE(views, 2);
  EXPECT_GE(strided, 1);
}

// Writes model.safetensors (float32) with the given tensors.
void write_safetensors(const fs::path& path, const Checkpoint& ck, const json& m) {
  json header = json::object();
  std::string data;
  for (const auto& [name, info] : m.at("tensors").items()) {
    if (!ck.has(name)) continue;
    const FloatTensor t = ck.read(name);
    std::vector<float> v(t.data.size());
    for (size_t i = 0; i < v.size(); ++i) v[i] = round_to(info.at("dtype").get<std::string>(), t.data[i]);
    header[name] = {
        {"dtype", "F32"}, {"shape", t.shape}, {"data_offsets", {data.size(), data.size() + 4 * v.size()}}};
    data.append(reinterpret_cast<const char*>(v.data()), 4 * v.size());
  }
  std::string h = header.dump();
  h.append((8 - h.size() % 8) % 8, ' ');
  const uint64_t n = h.size();
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(&n), 8);
  out << h << data;
}

TEST(PytorchBin, ConvertsToTheSameModelFileAsSafetensors) {
  ASSERT_TRUE(source_unchanged());
  const fs::path work = fs::temp_directory_path() / ("edgemt_pytorch_bin_" + std::to_string(getpid()));
  fs::remove_all(work);
  const fs::path dir = work / "model";
  fs::create_directories(dir);
  // The tokenizer and config files of the parity model, and the .bin for its weights.
  for (const auto& e : fs::directory_iterator(kSourceDir)) {
    const std::string f = e.path().filename().string();
    if (f != "model.safetensors" && f != "reference.json") fs::copy(e.path(), dir / f);
  }
  fs::copy(kBinDir / "pytorch_model.bin", dir / "pytorch_model.bin");
  const ModelSpec from_bin = convert_checkpoint(dir.string(), {});
  write_model(from_bin, (work / "from_bin.emt").string());

  // Same directory (the file records it), weights now from safetensors holding the
  // parity model's values rounded as the .bin stores them.
  fs::remove(dir / "pytorch_model.bin");
  write_safetensors(dir / "model.safetensors", *open_safetensors(kSourceDir.string()), manifest());
  write_model(convert_checkpoint(dir.string(), {}), (work / "from_safetensors.emt").string());

  const std::string a = read_file(work / "from_bin.emt"), b = read_file(work / "from_safetensors.emt");
  EXPECT_GT(a.size(), 100000u);
  EXPECT_TRUE(a == b) << "the .emt converted from pytorch_model.bin (" << a.size()
                      << " bytes) differs from the one converted from model.safetensors (" << b.size()
                      << " bytes)";
  fs::remove_all(work);
}

// ---------------------------------------------------------------------------------
// Malformed input.

// Expects a ConvertError naming the file and containing `needle`.
void expect_error(const std::string& bytes, const std::string& needle, bool read_all = true) {
  try {
    const auto ck = open_pytorch_bin_bytes("bad.bin", bytes);
    if (read_all)
      for (const std::string& n : ck->names()) ck->read(n);
    ADD_FAILURE() << "no error; expected one mentioning '" << needle << "'";
  } catch (const ConvertError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("bad.bin"), std::string::npos) << "message does not name the file: " << msg;
    EXPECT_NE(msg.find(needle), std::string::npos)
        << "message: '" << msg << "' should mention '" << needle << "'";
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a ConvertError: " << e.what();
  }
}

// A protocol-2 pickle of {name: _rebuild_tensor_v2(storage, offset, size, stride, False, {})}.
struct FakeTensor {
  std::string name, storage_type = "FloatStorage", key = "0";
  int64_t numel = 6, offset = 0;
  std::vector<int64_t> size{2, 3}, stride{3, 1};
};

std::string pickle_int(int64_t v) {
  std::string s = "J";
  for (int k = 0; k < 4; ++k) s.push_back(static_cast<char>((static_cast<uint32_t>(v) >> (8 * k)) & 0xFF));
  return s;
}
std::string pickle_str(const std::string& v) {
  std::string s = "X";
  for (int k = 0; k < 4; ++k) s.push_back(static_cast<char>((v.size() >> (8 * k)) & 0xFF));
  return s + v;
}
std::string pickle_tuple(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (int64_t x : v) s += pickle_int(x);
  return s + "t";
}
std::string state_dict_pickle(const std::vector<FakeTensor>& ts) {
  std::string p = "\x80\x02}(";
  for (const FakeTensor& t : ts) {
    p += pickle_str(t.name);
    p += "ctorch._utils\n_rebuild_tensor_v2\n(";
    p += '(';
    p += pickle_str("storage") + "ctorch\n" + t.storage_type + "\n" + pickle_str(t.key) + pickle_str("cpu") +
         pickle_int(t.numel) + "tQ";
    p += pickle_int(t.offset) + pickle_tuple(t.size) + pickle_tuple(t.stride) + "\x89}tR";
  }
  return p + "u.";
}
std::string archive(const std::string& pkl, std::vector<std::pair<std::string, std::string>> storages = {
                                                {"0", std::string(24, '\0')}}) {
  std::vector<std::pair<std::string, std::string>> e{{"archive/data.pkl", pkl}};
  for (auto& [k, v] : storages) e.emplace_back("archive/data/" + k, v);
  e.emplace_back("archive/byteorder", "little");
  return make_stored_zip(e);
}

TEST(PytorchBin, HandMadeArchiveReads) {
  FakeTensor t{"w"};
  std::string data(24, '\0');
  for (int i = 0; i < 6; ++i) {
    const float v = static_cast<float>(i) + 0.5f;
    std::memcpy(&data[4 * i], &v, 4);
  }
  FakeTensor tt = t;  // its transpose, sharing the storage
  tt.name = "wt";
  tt.size = {3, 2};
  tt.stride = {1, 3};
  const auto ck = open_pytorch_bin_bytes("ok.bin", archive(state_dict_pickle({t, tt}), {{"0", data}}));
  EXPECT_EQ(ck->read("w").data, (std::vector<float>{0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f}));
  EXPECT_EQ(ck->read("wt").data, (std::vector<float>{0.5f, 3.5f, 1.5f, 4.5f, 2.5f, 5.5f}));
  EXPECT_EQ(ck->shape("wt"), (std::vector<int64_t>{3, 2}));
}

TEST(PytorchBin, MalformedArchivesGiveNamedErrors) {
  const std::string good = read_file(kBinDir / "pytorch_model.bin");
  ASSERT_GT(good.size(), 1000u);
  expect_error("", "not a zip archive");
  expect_error("hello world, this is not a zip file at all", "not a zip archive");
  expect_error("\x80\x02}q\x00."s + std::string(100, '\0'), "legacy");
  // Truncated anywhere: the directory at the end is gone or points past the end.
  for (size_t n : {size_t{30}, size_t{1000}, good.size() / 2, good.size() - 30, good.size() - 1}) {
    SCOPED_TRACE(n);
    expect_error(good.substr(0, n), "");
  }
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION  // fuzzing builds skip CRCs
  // A corrupt weight byte: the CRC check catches it when the tensor is read.
  std::string flipped = good;
  flipped[good.size() / 2] ^= 0x5A;
  expect_error(flipped, "CRC");
#endif
  // Compressed data.pkl (method 8 in the central directory).
  const std::string z = archive(state_dict_pickle({FakeTensor{"w"}}));
  std::string deflated = z;
  const size_t cd = deflated.find("PK\x01\x02"s);  // data.pkl's central directory entry
  ASSERT_NE(cd, std::string::npos);
  deflated[cd + 10] = 8;
  expect_error(deflated, "compressed");
  // A big-endian checkpoint, a TorchScript archive, no data.pkl.
  expect_error(make_stored_zip({{"a/data.pkl", state_dict_pickle({})}, {"a/byteorder", "big"}}),
               "big-endian");
  expect_error(make_stored_zip({{"a/data.pkl", state_dict_pickle({})}, {"a/constants.pkl", "x"}}),
               "TorchScript");
  expect_error(make_stored_zip({{"a/other.pkl", "x"}}), "no <archive>/data.pkl");
}

TEST(PytorchBin, MalformedPicklesGiveNamedErrors) {
  // Anything but tensors in dicts is refused; no callable is ever run.
  expect_error(archive("\x80\x02"
                       "cos\nsystem\n"
                       "X\x02\x00\x00\x00"
                       "ls"
                       "\x85R."s),
               "os.system");
  expect_error(archive("\x80\x02K\x01."s), "holds an int");
  expect_error(archive("\x80\x02}(X\x01\x00\x00\x00"
                       "aK\x01u."s),
               "not a tensor");
  expect_error(archive("\x80\x02}q\x00("s), "truncated");
  expect_error(archive("\x80\x02s."s), "empty stack");
  expect_error(archive("\x80\x02h\x07."s), "memo");
  expect_error(archive("\x80\x02\xff."s), "opcode 0xff");
  expect_error(archive("\x80\x02\x8a\x09"s + std::string(9, '\x01') + "."), "integer of 9 bytes");
  // Tensors that do not fit their storage.
  FakeTensor t{"w"};
  t.key = "5";
  expect_error(archive(state_dict_pickle({t})), "archive/data/5");
  t = FakeTensor{"w"};
  t.numel = 7;  // 28 bytes, the entry has 24
  expect_error(archive(state_dict_pickle({t})), "should have 7 x 4 bytes");
  t = FakeTensor{"w"};
  t.size = {3, 3};
  expect_error(archive(state_dict_pickle({t})), "reaches element 8");
  t = FakeTensor{"w"};
  t.offset = 1;
  expect_error(archive(state_dict_pickle({t})), "reaches element 6");
  t = FakeTensor{"w"};
  t.size = {-1, 3};
  expect_error(archive(state_dict_pickle({t})), "negative size");
  t = FakeTensor{"w"};
  t.size = {1 << 30, 1 << 30};
  t.stride = {0, 0};
  expect_error(archive(state_dict_pickle({t})), "expanded");
  t = FakeTensor{"w"};
  t.storage_type = "ComplexFloatStorage";
  expect_error(archive(state_dict_pickle({t})), "unsupported type torch.ComplexFloatStorage");
  t = FakeTensor{"w"};
  t.storage_type = "LongStorage";
  t.numel = 3;  // 24 bytes, as the entry
  t.size = {3};
  t.stride = {1};
  expect_error(archive(state_dict_pickle({t})), "LongStorage");
  expect_error(archive(state_dict_pickle({FakeTensor{"w"}, FakeTensor{"w"}})), "tensor w twice");
}

TEST(PytorchBin, RandomCorruptionGivesErrorsNotCrashes) {
  const std::string good = read_file(kBinDir / "pytorch_model.bin");
  std::mt19937 rng(7);
  int ok = 0, errors = 0;
  for (int iter = 0; iter < 300; ++iter) {
    std::string b = good;
    const int flips = 1 + static_cast<int>(rng() % 8);
    for (int k = 0; k < flips; ++k) b[rng() % b.size()] = static_cast<char>(rng());
    try {
      const auto ck = open_pytorch_bin_bytes("bad.bin", b);
      for (const std::string& n : ck->names()) ck->read(n);
      ++ok;
    } catch (const ConvertError&) {
      ++errors;
    }
  }
  EXPECT_GT(errors, 0);
  EXPECT_EQ(ok + errors, 300);
}

}  // namespace
}  // namespace edgemt::convert
