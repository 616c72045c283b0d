#include "runtime/tokenizer/tokenizer.h"

#include <sentencepiece_processor.h>

#include <algorithm>
#include <exception>
#include <string>

#include "runtime/core/utf8.h"

namespace edgemt {

Tokenizer::Tokenizer() = default;
Tokenizer::~Tokenizer() = default;

Expected<std::unique_ptr<Tokenizer>> Tokenizer::create(TokenizerSpec spec) {
  std::unique_ptr<Tokenizer> t(new Tokenizer());
  t->source_ = std::make_unique<sentencepiece::SentencePieceProcessor>();
  if (spec.source_spm.empty()) return invalid_model("the source SentencePiece model is empty");
  if (spec.target_spm.empty()) return invalid_model("the target SentencePiece model is empty");
  // SentencePiece reports most problems as a status but throws on some malformed
  // models (e.g. Darts' "zero-length key" for an empty piece): both become a Status.
  auto load = [](sentencepiece::SentencePieceProcessor* p, std::string_view bytes, const char* which) {
    try {
      const auto st = p->LoadFromSerializedProto(absl::string_view(bytes.data(), bytes.size()));
      if (st.ok()) return Status::ok();
      return invalid_model(std::string("the ") + which +
                           " SentencePiece model does not parse: " + st.ToString());
    } catch (const std::exception& e) {
      return invalid_model(std::string("the ") + which + " SentencePiece model does not parse: " + e.what());
    }
  };
  EDGEMT_RETURN_IF_ERROR(load(t->source_.get(), spec.source_spm, "source"));
  // The target model is used only to decode with separate vocabularies (transformers
  // decodes a shared vocabulary with the source model), so it is parsed only then, and
  // not twice when both sides are the same model (SentencePiece's load dominates the
  // model's load time: ~28 ms for 16k pieces).
  if (!spec.target_pieces.empty() && spec.target_spm != spec.source_spm) {
    t->target_ = std::make_unique<sentencepiece::SentencePieceProcessor>();
    EDGEMT_RETURN_IF_ERROR(load(t->target_.get(), spec.target_spm, "target"));
  }
  t->source_pieces_ = std::move(spec.source_pieces);
  t->target_pieces_ = std::move(spec.target_pieces);
  t->eos_id_ = spec.eos_id;
  t->unk_id_ = spec.unk_id;
  t->pad_id_ = spec.pad_id;
  // Piece -> id, and MarianTokenizer's special tokens by their text (with separate
  // vocabularies the config's pad id is a target id, so ids cannot be used here).
  auto index = [](const std::vector<std::string_view>& pieces,
                  std::unordered_map<std::string_view, int32_t>* ids,
                  std::vector<std::pair<std::string_view, int32_t>>* specials) {
    ids->reserve(pieces.size());
    for (size_t i = 0; i < pieces.size(); ++i)
      if (!pieces[i].empty()) ids->emplace(pieces[i], static_cast<int32_t>(i));
    for (std::string_view special : {"</s>", "<unk>", "<pad>"}) {
      const auto it = ids->find(special);
      if (it != ids->end()) specials->emplace_back(it->first, it->second);
    }
  };
  index(t->source_pieces_, &t->source_ids_, &t->specials_);
  // Target text (scoring): the target vocabulary's own ids where it is separate.
  if (!t->target_pieces_.empty()) index(t->target_pieces_, &t->target_ids_, &t->target_specials_);
  return t;
}

Status Tokenizer::encode(std::string_view text, std::vector<int32_t>* ids) const {
  EDGEMT_RETURN_IF_ERROR(encode_with(*source_, source_ids_, specials_, text, ids));
  ids->push_back(eos_id_);
  return Status::ok();
}

Status Tokenizer::encode_target(std::string_view text, std::vector<int32_t>* ids) const {
  if (target_pieces_.empty()) return encode_with(*source_, source_ids_, specials_, text, ids);
  return encode_with(target_ != nullptr ? *target_ : *source_, target_ids_, target_specials_, text, ids);
}

Status Tokenizer::encode_with(const sentencepiece::SentencePieceProcessor& spm,
                              const std::unordered_map<std::string_view, int32_t>& vocab,
                              const std::vector<std::pair<std::string_view, int32_t>>& specials,
                              std::string_view text, std::vector<int32_t>* ids) const {
  // A leading language code ">>xx<<" is a token of its own (MarianTokenizer).
  if (text.size() >= 4 && text.substr(0, 2) == ">>") {
    const size_t end = text.find("<<", 2);
    if (end != std::string_view::npos) {
      const std::string_view code = text.substr(0, end + 2);
      const auto it = vocab.find(code);
      ids->push_back(it != vocab.end() ? it->second : unk_id_);
      text.remove_prefix(end + 2);
    }
  }
  // Special tokens written in the text ("</s>", "<unk>", "<pad>") are tokens of their
  // own and split the text; each segment is encoded separately (transformers does the
  // same before calling SentencePiece).
  std::vector<std::string> pieces;
  while (!text.empty()) {
    size_t cut = text.size(), cut_len = 0;
    int32_t cut_id = -1;
    for (const auto& [piece, id] : specials) {
      const size_t at = text.find(piece);
      if (at < cut) {
        cut = at;
        cut_len = piece.size();
        cut_id = id;
      }
    }
    const std::string_view segment = text.substr(0, cut);
    if (!segment.empty()) {
      pieces.clear();
      const auto st = spm.Encode(absl::string_view(segment.data(), segment.size()), &pieces);
      if (!st.ok()) return invalid_argument("tokenization failed: " + st.ToString());
      for (const std::string& p : pieces) {
        const auto it = vocab.find(p);
        ids->push_back(it != vocab.end() ? it->second : unk_id_);
      }
    }
    if (cut_id < 0) break;
    ids->push_back(cut_id);
    text.remove_prefix(cut + cut_len);
  }
  return Status::ok();
}

bool Tokenizer::for_each_source_piece(std::string_view text,
                                      const std::function<void(size_t, size_t, int, bool)>& f) const {
  try {
    const sentencepiece::ImmutableSentencePieceText spt =
        source_->EncodeAsImmutableProto(absl::string_view(text.data(), text.size()));
    for (const auto& piece : spt.pieces()) {
      const auto it = source_ids_.find(std::string_view(piece.piece()));
      const bool known = it != source_ids_.end() && it->second != unk_id_;
      f(piece.begin(), piece.end(), static_cast<int>(piece.id()), known);
    }
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

void Tokenizer::unknown_spans(std::string_view text, std::vector<std::pair<size_t, size_t>>* out) const {
  if (text.empty()) return;
  std::vector<std::pair<size_t, size_t>> unk;  // the unk pieces' byte ranges
  const bool took = for_each_source_piece(text, [&](size_t b, size_t e, int, bool known) {
    if (!known) unk.emplace_back(b, e);
  });
  if (!took) return;  // as encode(): a text SentencePiece cannot take has no ranges to keep
  const size_t first = out->size();
  for (auto [b, e] : unk) {
    if (e > text.size() || b >= e) continue;
    while (b < e && is_ascii_space(text[b])) ++b;
    while (e > b && is_ascii_space(text[e - 1])) --e;
    if (b == e) continue;
    if (out->size() > first && out->back().second >= b) {  // adjacent pieces: one range
      out->back().second = std::max(out->back().second, e);
      continue;
    }
    out->emplace_back(b, e);
  }
}

double Tokenizer::source_log_prob(std::string_view text) const {
  double lp = 0.0;
  const bool took = for_each_source_piece(text, [&](size_t, size_t, int id, bool known) {
    lp += known ? static_cast<double>(source_->GetScore(id)) : -100.0;
  });
  return took ? lp : -1e30;  // as encode(): a text SentencePiece cannot take
}

std::string Tokenizer::decode(std::span<const int32_t> ids) const {
  const auto& pieces = target_pieces();
  std::vector<std::string> buf;
  buf.reserve(ids.size());
  for (int32_t id : ids) {
    if (id == eos_id_ || id == pad_id_ || id == unk_id_) continue;
    if (id < 0 || static_cast<size_t>(id) >= pieces.size() || pieces[id].empty()) continue;
    buf.emplace_back(pieces[id]);
  }
  // transformers decodes with the source model when the vocabulary is shared.
  const auto& spm = target_ != nullptr ? *target_ : *source_;
  std::string out;
  if (!spm.Decode(buf, &out).ok()) {
    out.clear();
    for (const std::string& p : buf) out += p;
  }
  // "▁" -> " ", then trim (MarianTokenizer.convert_tokens_to_string).
  std::string text;
  text.reserve(out.size());
  for (size_t i = 0; i < out.size(); ++i) {
    if (out.compare(i, 3, "\xE2\x96\x81") == 0) {
      text += ' ';
      i += 2;
    } else {
      text += out[i];
    }
  }
  const size_t b = text.find_first_not_of(" \t\n\r\f\v");
  if (b == std::string::npos) return "";
  const size_t e = text.find_last_not_of(" \t\n\r\f\v");
  return text.substr(b, e - b + 1);
}

}  // namespace edgemt
