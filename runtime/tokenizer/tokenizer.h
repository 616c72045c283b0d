// Tokenization with the SentencePiece models embedded in the model file, the MarianMT
// way: SentencePiece splits text into pieces, and the checkpoint's own vocabulary
// (vocab.json) maps pieces to ids (unknown pieces -> unk). The encoder input ends with
// eos. A leading language code such as ">>deu<<" is one token, and special tokens
// written in the text ("</s>", "<unk>", "<pad>") are tokens, as in MarianTokenizer.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/core/status.h"

namespace sentencepiece {
class SentencePieceProcessor;
}

namespace edgemt {

struct TokenizerSpec {
  std::string_view source_spm;  // serialized ModelProto
  std::string_view target_spm;
  std::vector<std::string_view> source_pieces;  // id -> piece ("" for holes)
  std::vector<std::string_view> target_pieces;  // empty: same as source
  int eos_id = 0;
  int unk_id = 1;
  int pad_id = -1;
};

class Tokenizer {
 public:
  // The views in `spec` must outlive the tokenizer (they point into the model file).
  static Expected<std::unique_ptr<Tokenizer>> create(TokenizerSpec spec);
  ~Tokenizer();

  // Appends the source ids of `text` (with the final eos) to *ids. Invalid UTF-8 is
  // handled by SentencePiece (replaced), never an error for the caller.
  Status encode(std::string_view text, std::vector<int32_t>* ids) const;
  // Appends the target ids of `text` (no decoder start, no final eos), as a reference
  // translation to score: the target vocabulary (and its SentencePiece model where the
  // vocabularies are separate), else as encode().
  Status encode_target(std::string_view text, std::vector<int32_t>* ids) const;
  // Target ids -> text. Special tokens (eos, pad, unk) are skipped, like
  // transformers' decode(..., skip_special_tokens=True).
  std::string decode(std::span<const int32_t> ids) const;

  // The byte ranges [first, second) of `text` that encode() turns into unk: characters
  // the source vocabulary has no piece for (the bundled models' 8000 pieces lack "€",
  // "ç", "ñ", Cyrillic, CJK, emoji...). A translation cannot give them back, so the text
  // layer copies them through (protect_spans). Appended to *out in order, without
  // overlaps; whitespace at a range's ends is left out.
  void unknown_spans(std::string_view text, std::vector<std::pair<size_t, size_t>>* out) const;

  // How likely the source SentencePiece model finds `text`: the sum of its pieces' scores
  // (a unigram model's log-probabilities; a BPE model's merge ranks, negated), a piece
  // the model's vocabulary lacks counted as -100. Higher is likelier; for choosing between
  // spellings of one word ("Hut", "hut", "HUT": recase_capitals).
  double source_log_prob(std::string_view text) const;

  // The source id of one piece as the vocabulary has it (unk when it has none).
  int32_t source_id(std::string_view piece) const {
    const auto it = source_ids_.find(piece);
    return it != source_ids_.end() ? it->second : unk_id_;
  }
  // The target id of one piece (unk when the vocabulary has none).
  int32_t target_id(std::string_view piece) const {
    const auto& ids = target_pieces_.empty() ? source_ids_ : target_ids_;
    const auto it = ids.find(piece);
    return it != ids.end() ? it->second : unk_id_;
  }
  // The piece of a target id ("" outside the vocabulary or for a hole in it).
  std::string_view target_piece(int32_t id) const {
    const auto& pieces = target_pieces();
    return id >= 0 && static_cast<size_t>(id) < pieces.size() ? pieces[static_cast<size_t>(id)]
                                                              : std::string_view();
  }

  // The piece of a source id ("" outside the vocabulary or for a hole in it).
  std::string_view source_piece(int32_t id) const {
    return id >= 0 && static_cast<size_t>(id) < source_pieces_.size()
               ? source_pieces_[static_cast<size_t>(id)]
               : std::string_view();
  }
  int source_vocab_size() const { return static_cast<int>(source_pieces_.size()); }
  int target_vocab_size() const { return static_cast<int>(target_pieces().size()); }
  bool shared_vocab() const { return target_pieces_.empty(); }

 private:
  Tokenizer();
  const std::vector<std::string_view>& target_pieces() const {
    return target_pieces_.empty() ? source_pieces_ : target_pieces_;
  }

  std::unique_ptr<sentencepiece::SentencePieceProcessor> source_;
  std::unique_ptr<sentencepiece::SentencePieceProcessor> target_;  // null: decode with source_
  std::vector<std::string_view> source_pieces_;
  std::vector<std::string_view> target_pieces_;
  std::unordered_map<std::string_view, int32_t> source_ids_;
  std::vector<std::pair<std::string_view, int32_t>> specials_;  // eos, unk, pad pieces
  // Separate target vocabulary only: its piece -> id map and special pieces.
  std::unordered_map<std::string_view, int32_t> target_ids_;
  std::vector<std::pair<std::string_view, int32_t>> target_specials_;
  // Calls f(begin, end, id, known) for each piece the source SentencePiece model cuts
  // `text` into (byte range, id; known: the model's vocabulary has it and it is not
  // <unk>); false where SentencePiece cannot take the text.
  bool for_each_source_piece(std::string_view text,
                             const std::function<void(size_t, size_t, int, bool)>& f) const;
  Status encode_with(const sentencepiece::SentencePieceProcessor& spm,
                     const std::unordered_map<std::string_view, int32_t>& vocab,
                     const std::vector<std::pair<std::string_view, int32_t>>& specials, std::string_view text,
                     std::vector<int32_t>* ids) const;
  int eos_id_ = 0, unk_id_ = 1, pad_id_ = -1;
};

}  // namespace edgemt
