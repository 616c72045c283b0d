// Writes small valid models for fuzz_model_load's corpus: the fuzzers' parity model with
// the SentencePiece normalization tables (about 240 KB of each 243 KB model) dropped, so
// the fuzzer mutates a ~70 KB model rather than a 600 KB one; and an int8 variant.
//   make_fuzz_seed PARITY_MODEL_DIR OUT_DIR
#include <cstdio>
#include <string>

#include "converter/checkpoint.h"
#include "converter/readers.h"
#include "converter/writer.h"

namespace {

bool read_varint(const std::string& s, size_t* pos, uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift < 64 && *pos < s.size(); shift += 7) {
    const uint8_t b = static_cast<uint8_t>(s[(*pos)++]);
    *v |= static_cast<uint64_t>(b & 0x7F) << shift;
    if ((b & 0x80) == 0) return true;
  }
  return false;
}

void write_varint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

// Copies a protobuf message, passing each length-delimited field through `edit`.
template <class Edit>
std::string rewrite(const std::string& msg, const Edit& edit) {
  std::string out;
  size_t pos = 0;
  while (pos < msg.size()) {
    const size_t start = pos;
    uint64_t key = 0, v = 0;
    if (!read_varint(msg, &pos, &key)) throw edgemt::convert::ConvertError("bad protobuf key");
    switch (key & 7) {
      case 0:
        if (!read_varint(msg, &pos, &v)) throw edgemt::convert::ConvertError("bad varint");
        break;
      case 1:
        pos += 8;
        break;
      case 5:
        pos += 4;
        break;
      case 2: {
        if (!read_varint(msg, &pos, &v) || v > msg.size() - pos)
          throw edgemt::convert::ConvertError("bad length");
        std::string payload = msg.substr(pos, v);
        pos += v;
        bool keep = true;
        payload = edit(key >> 3, payload, &keep);
        if (keep) {
          write_varint(&out, key);
          write_varint(&out, payload.size());
          out += payload;
        }
        continue;
      }
      default:
        throw edgemt::convert::ConvertError("unsupported wire type");
    }
    out.append(msg, start, pos - start);
  }
  return out;
}

// ModelProto.normalizer_spec (3) without NormalizerSpec.precompiled_charsmap (2): the
// identity normalization.
std::string strip_charsmap(const std::string& spm) {
  return rewrite(spm, [](uint64_t field, const std::string& p, bool*) {
    if (field != 3) return p;
    return rewrite(p, [](uint64_t f, const std::string& q, bool* keep) {
      *keep = f != 2;
      return q;
    });
  });
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_fuzz_seed PARITY_MODEL_DIR OUT_DIR\n");
    return 2;
  }
  try {
    using namespace edgemt::convert;
    const std::string out = argv[2];
    ModelSpec spec = convert_checkpoint(argv[1], {});
    spec.source_spm = strip_charsmap(spec.source_spm);
    spec.target_spm = strip_charsmap(spec.target_spm);
    spec.metadata.clear();
    write_model(spec, out + "/small_f32.emt");
    ConvertOptions int8;
    int8.quantize_int8 = true;
    ModelSpec q = convert_checkpoint(argv[1], int8);
    q.source_spm = spec.source_spm;
    q.target_spm = spec.target_spm;
    q.metadata.clear();
    write_model(q, out + "/small_int8.emt");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_fuzz_seed: %s\n", e.what());
    return 1;
  }
}
