// edgemt-convert: a checkpoint (any registered reader) -> one .emt model file.
#include <cstdio>
#include <cstring>
#include <string>

#include "converter/checkpoint.h"
#include "converter/pack.h"
#include "converter/readers.h"
#include "converter/writer.h"

namespace {

constexpr const char* kUsage = R"(usage: edgemt-convert [options] INPUT OUTPUT_FILE

Converts a checkpoint into one edgemt model file (.emt) holding config, tokenizer and
weights. The reader is chosen from what INPUT holds (see formats below), or by
--format. pytorch_model.bin (torch.save's format) is read without Python.

  --format NAME           read INPUT with this reader
  --quantize int8         store linear weights (and embeddings) as int8 with one
                          symmetric scale per output channel (weights that are int8
                          already, Marian's intgemm8, keep their values and scale)
  --keep-embeddings-f32   with --quantize int8, keep the embedding tables float32
  --int8-weight-bits N    with --quantize int8: 8 (the default, values in [-127, 127])
                          or 7 (the matrices that gemms multiply in [-63, 63]): 7-bit
                          weights run about 1.2x faster on x86 CPUs with AVX2 but no
                          VNNI and 1.7-1.9x on AVX-512 without VNNI (Skylake-SP/X;
                          measured at that level on Zen 5), the same elsewhere, at a
                          small cost in precision (intgemm8 rows whose values exceed
                          63 are requantized)
  --source-language CODE  the language pair the model translates, recorded in its
  --target-language CODE  metadata (translate --from/--to and edgemt-server find models
                          by it), over what the reader found (Hugging Face's
                          tokenizer_config.json, Firefox's file names such as
                          model.enit.intgemm.alphas.bin); both or neither
  --help                  show this help

formats:
)";

void print_usage(FILE* f) {
  std::fputs(kUsage, f);
  for (const auto& r : edgemt::convert::checkpoint_readers())
    std::fprintf(f, "  %-22s  %.*s\n", std::string(r.name).c_str(), static_cast<int>(r.description.size()),
                 r.description.data());
}

}  // namespace

int main(int argc, char** argv) {
  edgemt::convert::ConvertOptions opt;
  std::string in, out, format;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      print_usage(stdout);
      return 0;
    } else if (a == "--format") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "edgemt-convert: --format needs a value (see --help)\n");
        return 2;
      }
      format = argv[++i];
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
    } else if (a == "--source-language" || a == "--target-language") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "edgemt-convert: %s needs a language code (such as en)\n", a.c_str());
        return 2;
      }
      (a == "--source-language" ? opt.source_language : opt.target_language) = argv[++i];
      if (!edgemt::convert::is_language_code(argv[i])) {
        std::fprintf(stderr, "edgemt-convert: %s '%s' is not a language code (such as en, de, pt-br)\n",
                     a.c_str(), argv[i]);
        return 2;
      }
    } else if (a == "--keep-embeddings-f32") {
      opt.keep_embeddings_f32 = true;
    } else if (a == "--int8-weight-bits") {
      const std::string v = i + 1 < argc ? argv[++i] : "";
      if (v == "8") {
        opt.int8_levels = 127;
      } else if (v == "7") {
        opt.int8_levels = 63;
      } else {
        std::fprintf(stderr, "edgemt-convert: --int8-weight-bits takes 7 or 8, not '%s'\n", v.c_str());
        return 2;
      }
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
    print_usage(stderr);
    return 2;
  }
  if (opt.source_language.empty() != opt.target_language.empty()) {
    std::fprintf(stderr, "edgemt-convert: give both --source-language and --target-language, or neither\n");
    return 2;
  }
  if (opt.int8_levels != 127 && !opt.quantize_int8) {
    std::fprintf(stderr, "edgemt-convert: --int8-weight-bits needs --quantize int8\n");
    return 2;
  }
  try {
    const edgemt::convert::ModelSpec spec = edgemt::convert::convert_checkpoint(in, opt, format);
    edgemt::convert::write_model(spec, out);
    size_t weights = 0;
    for (const auto& t : spec.tensors) weights += t.data.size();
    std::fprintf(stderr, "edgemt-convert: wrote %s (%zu tensors, %.1f MiB of weights, %s)\n", out.c_str(),
                 spec.tensors.size(), weights / 1048576.0,
                 !opt.quantize_int8       ? "float32"
                 : opt.int8_levels == 127 ? "int8"
                                          : "int8, 7-bit weights");
    return 0;
  } catch (const edgemt::convert::ConvertError& e) {
    std::fprintf(stderr, "edgemt-convert: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "edgemt-convert: error: %s\n", e.what());
    return 1;
  }
}
