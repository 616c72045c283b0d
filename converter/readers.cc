#include "converter/readers.h"

#include <filesystem>

#include "converter/checkpoint.h"
#include "converter/hf_marian.h"
#include "converter/marian.h"

namespace edgemt::convert {

std::span<const CheckpointReader> checkpoint_readers() {
  static const CheckpointReader kReaders[] = {
      {"huggingface-marian",
       "Hugging Face MarianMT (Opus-MT) or Pegasus directory: config.json, model.safetensors or "
       "pytorch_model.bin, "
       "source.spm, target.spm, vocab.json",
       &is_hf_marian_dir, &read_hf_marian},
      {"marian-npz",
       "Marian transformer: model.npz or Marian's .bin (float32 or intgemm8, as Firefox Translations "
       "ships them), or a directory with it and vocab*.spm, or srcvocab*.spm + trgvocab*.spm, or a "
       "decoder.yml naming them; any of these files may be gzip'd (.gz) or zstd'd (.zst), as Firefox "
       "ships them",
       &is_marian_input, &read_marian},
  };
  return kReaders;
}

SourceModel read_checkpoint(const std::string& input, std::string_view format) {
  std::string known, described;
  for (const CheckpointReader& r : checkpoint_readers()) {
    known += (known.empty() ? "" : ", ") + std::string(r.name);
    described += "; " + std::string(r.name) + ": " + std::string(r.description);
    if (format.empty() ? r.accepts(input) : r.name == format) return r.read(input);
  }
  if (!format.empty())
    throw ConvertError("unknown checkpoint format '" + std::string(format) + "' (known: " + known + ")");
  if (!std::filesystem::exists(input)) throw ConvertError(input + " does not exist");
  throw ConvertError(input + " is not a checkpoint that edgemt-convert reads" + described);
}

ModelSpec convert_checkpoint(const std::string& input, const ConvertOptions& options,
                             std::string_view format) {
  return pack_model(read_checkpoint(input, format), options);
}

}  // namespace edgemt::convert
