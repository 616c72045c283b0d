#include "converter/writer.h"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>

#include "converter/checkpoint.h"
#include "runtime/model/config_schema.h"
#include "runtime/model/schema_version.h"
#include "schema/edgemt_generated.h"

namespace edgemt::convert {

void write_model(const ModelSpec& spec, const std::string& path, const WriteOptions& options) {
  // Estimate and check the 2 GiB FlatBuffers limit before building anything.
  size_t estimate = spec.source_spm.size() + spec.target_spm.size() + (1u << 20);
  for (const SpecTensor& t : spec.tensors)
    estimate += t.data.size() + t.scales.size() * 4 + t.row_sums.size() * 4 + 256;
  for (const auto& p : spec.source_vocab) estimate += p.size() + 8;
  for (const auto& p : spec.target_vocab) estimate += p.size() + 8;
  if (estimate >= (size_t{1} << 31) - (size_t{1} << 20))
    throw ConvertError("the model needs about " + std::to_string(estimate >> 20) +
                       " MiB, more than the 2 GiB a FlatBuffer can hold; try --quantize int8");

  flatbuffers::FlatBufferBuilder fbb(estimate);
  // Tensors first (largest), each data vector aligned to 64 bytes.
  std::vector<flatbuffers::Offset<fb::Tensor>> tensors;
  for (const SpecTensor& t : spec.tensors) {
    flatbuffers::Offset<flatbuffers::Vector<int32_t>> sums = 0;
    if (!t.row_sums.empty()) {
      fbb.ForceVectorAlignment(t.row_sums.size(), sizeof(int32_t), 64);
      sums = fbb.CreateVector(t.row_sums);
    }
    flatbuffers::Offset<flatbuffers::Vector<float>> scales = 0;
    if (!t.scales.empty()) {
      fbb.ForceVectorAlignment(t.scales.size(), sizeof(float), 64);
      scales = fbb.CreateVector(t.scales);
    }
    if (options.align_tensors) {
      fbb.ForceVectorAlignment(t.data.size(), sizeof(uint8_t), 64);
    } else {
      // Deliberately misaligned (tests): aligned, then shifted by one padding byte
      // (the vector is then re-aligned to 4 bytes only).
      fbb.ForceVectorAlignment(t.data.size(), sizeof(uint8_t), 64);
      fbb.PushElement<uint8_t>(0);
    }
    const auto data = fbb.CreateVector(t.data);
    const auto shape = fbb.CreateVector(t.shape);
    const auto name = fbb.CreateString(t.name);
    fb::TensorBuilder tb(fbb);
    tb.add_name(name);
    tb.add_dtype(static_cast<fb::DType>(t.dtype));
    tb.add_layout(static_cast<fb::Layout>(t.layout));
    tb.add_shape(shape);
    tb.add_data(data);
    if (!t.scales.empty()) tb.add_scales(scales);
    if (!t.row_sums.empty()) tb.add_row_sums(sums);
    if (t.max_abs != 0) tb.add_max_abs(t.max_abs);
    tensors.push_back(tb.Finish());
  }
  const auto tensors_vec = fbb.CreateVector(tensors);

  auto vocab = [&](const std::vector<std::string>& pieces) {
    return fb::CreateVocabulary(fbb, fbb.CreateVectorOfStrings(pieces));
  };
  const auto src_vocab = vocab(spec.source_vocab);
  flatbuffers::Offset<fb::Vocabulary> tgt_vocab = 0;
  if (!spec.target_vocab.empty()) tgt_vocab = vocab(spec.target_vocab);
  const auto src_spm =
      fbb.CreateVector(reinterpret_cast<const uint8_t*>(spec.source_spm.data()), spec.source_spm.size());
  const auto tgt_spm =
      fbb.CreateVector(reinterpret_cast<const uint8_t*>(spec.target_spm.data()), spec.target_spm.size());
  fb::TokenizerBuilder tokb(fbb);
  tokb.add_source_spm(src_spm);
  tokb.add_target_spm(tgt_spm);
  tokb.add_source_vocab(src_vocab);
  if (!spec.target_vocab.empty()) tokb.add_target_vocab(tgt_vocab);
  const auto tokenizer = tokb.Finish();

  const ModelConfig& c = spec.config;
  fb::ConfigBuilder cb(fbb);
  cb.add_source_vocab_size(c.source_vocab_size);
  cb.add_target_vocab_size(c.target_vocab_size);
  cb.add_d_model(c.d_model);
  cb.add_encoder_layers(c.encoder_layers);
  cb.add_decoder_layers(c.decoder_layers);
  cb.add_encoder_heads(c.encoder_heads);
  cb.add_decoder_heads(c.decoder_heads);
  cb.add_encoder_ffn_dim(c.encoder_ffn_dim);
  cb.add_decoder_ffn_dim(c.decoder_ffn_dim);
  if (c.activation == ops::Activation::kNone) throw ConvertError("the model has no feed-forward activation");
  cb.add_activation(to_schema(c.activation));
  cb.add_norm_placement(to_schema(c.norm_placement));
  cb.add_layer_norm_epsilon(c.layer_norm_epsilon);
  cb.add_position_kind(to_schema(c.position_kind));
  cb.add_max_positions(c.max_positions);
  cb.add_embedding_scale(c.embedding_scale);
  cb.add_shared_embeddings(c.shared_embeddings);
  cb.add_tied_output(c.tied_output);
  cb.add_has_final_logits_bias(c.has_final_logits_bias);
  cb.add_pad_id(c.pad_id);
  cb.add_eos_id(c.eos_id);
  cb.add_unk_id(c.unk_id);
  cb.add_decoder_start_id(c.decoder_start_id);
  cb.add_decoder_layer_kind(to_schema(c.decoder_layer_kind));
  const auto config = cb.Finish();

  const GenerationDefaults& g = spec.generation;
  const auto banned = fbb.CreateVector(g.banned_ids);
  fb::GenerationBuilder gb(fbb);
  gb.add_num_beams(g.num_beams);
  gb.add_max_length(g.max_length);
  gb.add_length_penalty(g.length_penalty);
  gb.add_early_stopping(g.early_stopping);
  gb.add_forced_eos_id(g.forced_eos_id);
  gb.add_banned_ids(banned);
  gb.add_beam_style(g.beam_style == BeamStyle::kMarian ? fb::BeamStyle::Marian : fb::BeamStyle::Transformers);
  gb.add_word_penalty(g.word_penalty);
  gb.add_max_length_factor(g.max_length_factor);
  const auto generation = gb.Finish();

  std::vector<flatbuffers::Offset<fb::KeyValue>> meta;
  for (const auto& [k, v] : spec.metadata)
    meta.push_back(fb::CreateKeyValue(fbb, fbb.CreateString(k), fbb.CreateString(v)));
  const auto meta_vec = fbb.CreateVector(meta);
  flatbuffers::Offset<fb::Shortlist> shortlist = 0;
  if (!spec.shortlist.offsets.empty()) {
    const auto offs = fbb.CreateVector(spec.shortlist.offsets);
    const auto tgts = fbb.CreateVector(spec.shortlist.targets);
    fb::ShortlistBuilder sb(fbb);
    sb.add_first_num(spec.shortlist.first_num);
    sb.add_best_num(spec.shortlist.best_num);
    sb.add_add_source_ids(spec.shortlist.add_source_ids);
    sb.add_target_vocab(spec.shortlist.target_vocab);
    sb.add_offsets(offs);
    sb.add_targets(tgts);
    shortlist = sb.Finish();
  }

  fb::ModelBuilder mb(fbb);
  mb.add_schema_version(options.schema_version != 0 ? options.schema_version : kSchemaVersion);
  mb.add_config(config);
  mb.add_generation(generation);
  mb.add_tokenizer(tokenizer);
  mb.add_tensors(tensors_vec);
  mb.add_metadata(meta_vec);
  if (!shortlist.IsNull()) mb.add_shortlist(shortlist);
  // Size-prefixed: the loader checks that the file is exactly as long as written.
  fb::FinishSizePrefixedModelBuffer(fbb, mb.Finish());

  // Write atomically.
  namespace fs = std::filesystem;
  const fs::path out(path);
  const fs::path dir = out.has_parent_path() ? out.parent_path() : fs::path(".");
  std::string tmp_name = ".";
  tmp_name += out.filename().string();
  tmp_name += ".tmp.";
  tmp_name += std::to_string(getpid());
  const fs::path tmp = dir / tmp_name;
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) throw ConvertError("cannot create " + tmp.string() + ": " + std::strerror(errno));
  const size_t n = fbb.GetSize();
  const bool ok =
      std::fwrite(fbb.GetBufferPointer(), 1, n, f) == n && std::fflush(f) == 0 && fsync(fileno(f)) == 0;
  const bool closed = std::fclose(f) == 0;
  std::error_code ec;
  if (!ok || !closed) {
    fs::remove(tmp, ec);
    throw ConvertError("cannot write " + tmp.string() + ": " + std::strerror(errno));
  }
  fs::rename(tmp, out, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw ConvertError("cannot rename the output to " + path + ": " + ec.message());
  }
}

}  // namespace edgemt::convert
