// edgemt-convert: Hugging Face MarianMT directory -> one .emt model file.
#include <cstdio>
#include <cstring>
#include <string>

#include "converter/checkpoint.h"
#include "converter/hf_marian.h"
#include "converter/writer.h"

namespace {

constexpr const char* kUsage = R"(usage: edgemt-convert [--quantize int8] [--keep-embeddings-f32] INPUT_DIR OUTPUT_FILE

Converts a Hugging Face MarianMT directory (as Opus-MT models ship: config.json,
model.safetensors or pytorch_model.bin, source.spm, target.spm, vocab.json
[, target_vocab.json]) into one edgemt model file (.emt) holding config, tokenizer
and weights. pytorch_model.bin (torch.save's format) is read without Python.

  --quantize int8         store linear weights (and embeddings) as int8 with one
                          symmetric scale per output channel
  --keep-embeddings-f32   with --quantize int8, keep the embedding tables float32
  --help                  show this help
)";

}  // namespace

int main(int argc, char** argv) {
  edgemt::convert::ConvertOptions opt;
  std::string in, out;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--quantize") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "edgemt-convert: --quantize needs a value (int8)\n");
        return 2;
      }
      const std::string v = argv[++i];
      if (v == "int8") {
        opt.quantize_int8 = true;
      } else if (v == "none" || v == "float32") {
        opt.quantize_int8 = false;
      } else {
        std::fprintf(stderr, "edgemt-convert: unknown quantization '%s' (supported: int8)\n", v.c_str());
        return 2;
      }
    } else if (a == "--keep-embeddings-f32") {
      opt.keep_embeddings_f32 = true;
    } else if (a.size() > 1 && a[0] == '-') {
      std::fprintf(stderr, "edgemt-convert: unknown option %s (see --help)\n", a.c_str());
      return 2;
    } else if (in.empty()) {
      in = a;
    } else if (out.empty()) {
      out = a;
    } else {
      std::fprintf(stderr, "edgemt-convert: too many arguments (see --help)\n");
      return 2;
    }
  }
  if (in.empty() || out.empty()) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  try {
    const edgemt::convert::ModelSpec spec = edgemt::convert::read_hf_marian(in, opt);
    edgemt::convert::write_model(spec, out);
    size_t weights = 0;
    for (const auto& t : spec.tensors) weights += t.data.size();
    std::fprintf(stderr, "edgemt-convert: wrote %s (%zu tensors, %.1f MiB of weights, %s)\n", out.c_str(),
                 spec.tensors.size(), weights / 1048576.0, opt.quantize_int8 ? "int8" : "float32");
    return 0;
  } catch (const edgemt::convert::ConvertError& e) {
    std::fprintf(stderr, "edgemt-convert: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "edgemt-convert: error: %s\n", e.what());
    return 1;
  }
}
