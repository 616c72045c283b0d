// edgemt public API.
//
//   auto model = edgemt::Model::load("models/edgemt-en-de.emt");      // mmap + verify
//   auto tr = edgemt::Translator::create(model.value(), {});          // plans the arena
//   auto out = tr.value()->translate({"The file could not be opened."});
//
// A Translator owns one arena (all its working memory, planned at creation from its
// limits) and one persistent thread pool. It is not thread-safe; use one Translator
// per worker thread. Translators share a Model: N workers cost one model + N arenas.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/core/cancel.h"
#include "runtime/core/profiler.h"
#include "runtime/core/status.h"
#include "runtime/formats/document_format.h"
#include "runtime/model/model.h"
#include "runtime/nmt/params.h"
#include "runtime/text/markup.h"
#include "runtime/text/protected_spans.h"
#include "runtime/text/sentence_splitter.h"

namespace edgemt {

class Engine;

// Limits the arena is planned for, fixed at creation. 0 means "from the model".
struct TranslatorOptions {
  int max_batch = 8;          // sentences translated together
  int max_beam = 0;           // 0: the model's num_beams (at least 1)
  int max_source_length = 0;  // tokens incl. eos; 0: min(model max positions, 512)
  int max_target_length = 0;  // generated tokens incl. eos; 0: the model's
                              // max_length - 1 (as transformers), else 256; capped at
                              // the model's max positions
  int num_threads = 1;
};

// What a text call's texts are: TextFormat (runtime/formats/document_format.h, one line
// per format in runtime/formats/format_list.h).

// Per call; what is not set comes from the model (its generation config) or the
// translator's limits.
struct TranslateOptions {
  std::optional<int> beam;                      // unset: the model's num_beams, capped at max_beam
  std::optional<int> max_length;                // max generated tokens incl. eos; unset: max_target_length
  std::optional<float> length_penalty;          // unset: the model's
  std::optional<EarlyStopping> early_stopping;  // unset: the model's (true or false); transformers' style
  // How beam search ranks and ends hypotheses (see BeamStyle); unset: the model's
  // (kMarian for models converted from Marian, so that they search as Marian does).
  std::optional<BeamStyle> beam_style;
  std::optional<float> word_penalty;  // kMarian: Marian's --word-penalty; unset: the model's
  // A length limit relative to each source (Marian's max-length-factor): a sentence of n
  // source tokens (eos included) generates at most ceil(max_length_factor * n) +
  // max_length_offset tokens (and never more than max_length). Bounds the output of a
  // model that repeats itself. Unset: the model's (Marian's max-length-factor for models
  // converted from Marian; none for transformers'); 0: no such limit.
  std::optional<float> max_length_factor;
  std::optional<int> max_length_offset;  // unset: 0
  // With a model that has a lexical shortlist (Marian's lex.s2t): choose each sentence's
  // tokens among its shortlist's candidates. Unset: true. Ignored without a shortlist.
  std::optional<bool> use_shortlist;
  // Random sampling for variety (SearchParams): each next token drawn among the
  // sampling_topk most likely (2 .. 1024; unset or 1: no sampling), with probabilities
  // softmax(logits / sampling_temperature) (unset: 1; > 0). Needs beam 1 (an unset beam
  // becomes 1). Reproducible: each sentence's draws depend only on `seed` (unset: 0)
  // and the sentence.
  std::optional<int> sampling_topk;
  std::optional<float> sampling_temperature;
  std::optional<uint64_t> seed;
  // Text calls (translate, translate_nbest): split each text into sentences (ICU's
  // sentence rules for the model's source language where edgemt is built with ICU, else
  // rules), translate them separately and put the translations back in the text's
  // whitespace, line breaks and blank lines. Unset: true. false: each text is one
  // sentence (as the model was trained; parity with transformers and Marian).
  std::optional<bool> split_sentences;
  // Repetition guard: a hypothesis that ends in one n-gram (up to 16 tokens) repeated back
  // to back (a single token 8 times, longer ones 4 times) can only end with eos next, so
  // that no input makes a model loop until the length limit. Unset: on for the text calls
  // (translate, translate_nbest), off for the ids calls (the model's exact search, as
  // transformers and Marian).
  std::optional<bool> repetition_guard;
  // Text calls: protected spans (runtime/text/protected_spans.h) come through verbatim:
  // URLs, e-mail addresses, file paths, backquoted code, placeholders (%s, {name}, $1)
  // and numbers with units are replaced by markers the model copies, and put back in
  // its translation (a span whose marker it dropped goes at the end); so are the
  // characters the model's vocabulary lacks (Tokenizer::unknown_spans: "€", "ç", CJK,
  // emoji in the bundled models), which a translation would drop. A sentence with
  // nothing but such spans, or without any letter (a number, a subtitle time code, a
  // table border), is not translated. A sentence written in capitals ("FILE NOT FOUND")
  // goes to the model recased and its translation comes back in capitals
  // (protect_for_model, runtime/api/model_input.h). Unset: true.
  std::optional<bool> protect_spans;
  // Text calls: a user glossary (Glossary::load/parse): each source term found in a
  // sentence is translated as its target (through the same markers as protected spans,
  // whether or not those are on). nullptr: none.
  std::shared_ptr<const Glossary> glossary;
  // Text calls: what each text is (TextFormat). Unset: kText. With kHtml each text node
  // is translated as a text (split into sentences, spans protected, as set above; its
  // whitespace runs with a line break become one space, as a browser shows them), and a
  // sentence with inline elements (<b>, <a href>, ...) whole, its tags put back in place
  // (runtime/text/markup.h InlineRun; with protect_spans only), or else node by node.
  std::optional<TextFormat> format;
  // Word alignment (translate_scored, and placing HTML inline tags): the decoder layer
  // whose cross-attention aligns target to source words (heads averaged). Unset: the
  // model's: for a model converted from Marian, the first head of its guided alignment
  // layer (transformer-guided-alignment-layer, as marian-decoder --alignment); else
  // SearchParams::alignment_layer -1, heads averaged. Set: that layer, heads averaged.
  std::optional<int> alignment_layer;
  // Cooperative cancellation: a flag another thread may set while the call runs
  // (CancelFlag::flag() of runtime/core/cancel.h, or a C caller's int32_t); the call then
  // stops within one decoder step and fails with StatusCode::kCancelled, its outputs
  // incomplete. A flag set before the call cancels it at once. The translator is ready
  // for the next call. nullptr: none.
  const int32_t* cancel = nullptr;
  // Text calls with a reranker (Translator::set_reranker): the weight of the backward
  // score. Unset: the reranker's; 0: no reranking for this call. Set above 0 on a
  // translator without a reranker: an error.
  std::optional<float> rerank_weight;
};

// A translation with its scores (Translator::translate_scored).
// Token id sequences back to back in one buffer (translate_ids' results). clear() keeps
// the capacity, so a buffer reused from call to call stops allocating once it has held
// the largest call's ids.
class IdSequences {
 public:
  size_t size() const { return ends_.size(); }
  bool empty() const { return ends_.empty(); }
  std::span<const int32_t> operator[](size_t i) const {
    const size_t begin = i == 0 ? 0 : ends_[i - 1];
    return {ids_.data() + begin, ends_[i] - begin};
  }
  void clear() {
    ids_.clear();
    ends_.clear();
  }
  // Begins a new (empty) last sequence; extend() appends ids to it.
  void start() { ends_.push_back(ids_.size()); }
  void extend(std::span<const int32_t> ids) {
    ids_.insert(ids_.end(), ids.begin(), ids.end());
    ends_.back() = ids_.size();
  }
  void push_back(std::span<const int32_t> ids) {
    start();
    extend(ids);
  }
  // Room for `sequences` sequences of `ids` ids in all, allocated now.
  void reserve(size_t sequences, size_t ids) {
    ends_.reserve(sequences);
    ids_.reserve(ids);
  }

 private:
  std::vector<int32_t> ids_;
  std::vector<size_t> ends_;  // one past each sequence's last id
};

struct ScoredTranslation {
  struct Word {
    std::string text;  // the word as it appears in the translation (protected spans put back)
    float confidence;  // 0-1: the geometric mean of its tokens' probabilities
    // Where it stands in `text` (bytes); {0, 0} when it could not be found there.
    TextSpan span{};
    // The source word it is aligned to: an index into the sentence's (or text's)
    // source_words, or -1 (none, or no alignment asked for). The source word most of its
    // tokens are aligned to, the first of a tie; a token's source token is the one the
    // decoder's cross-attention weighs most (SearchParams::alignments).
    int source = -1;
  };
  std::string text;
  // As the search ranked it: log_prob / tokens^length_penalty (Marian style: less the
  // word penalty first). For a text, the sum over its sentences.
  float score = 0.0f;
  float log_prob = 0.0f;  // the sum of its tokens' log-probabilities (each final eos included)
  size_t tokens = 0;      // how many (a sentence not translated has none)
  // 0-1: exp(log_prob / tokens), the geometric mean of its tokens' probabilities; 1 for
  // what was not translated (given back verbatim).
  float confidence = 1.0f;
  // The translated words, in order: each a run of target tokens from one that starts a
  // word (SentencePiece's U+2581) to the next; the final eos belongs to none.
  std::vector<Word> words;
};

struct ScoredSentence {
  std::string source;  // the sentence as found in the text
  // Its words (runs of non-space bytes, a protected span one word), as bytes of `source`:
  // what the hypotheses' words are aligned to.
  std::vector<TextSpan> source_words;
  // Best first (n-best); hypotheses[0] is the one translate() puts in the text. A
  // sentence given back as it was (a number, nothing the model translates) has one,
  // verbatim, with confidence 1 and no tokens.
  std::vector<ScoredTranslation> hypotheses;
};

struct ScoredText {
  // Best first: hypotheses[0].text is translate()'s result; hypothesis j puts each
  // sentence's j-th (or its best, where it has fewer) in place, as translate_nbest.
  // Scores, log-probabilities and tokens add up over the sentences, and the words are
  // theirs in order.
  std::vector<ScoredTranslation> hypotheses;
  std::vector<ScoredSentence> sentences;  // in order (one when not split)
  // Every sentence's source words in order, as bytes of the text: the hypotheses' words'
  // `source` indexes these.
  std::vector<TextSpan> source_words;
};

class Translator {
 public:
  static Expected<std::unique_ptr<Translator>> create(std::shared_ptr<const Model> model,
                                                      const TranslatorOptions& options = {});
  static Expected<std::unique_ptr<Translator>> create(const std::string& model_path,
                                                      const TranslatorOptions& options = {});
  ~Translator();

  // Text to text, any number of strings, in order. An empty or whitespace-only string
  // gives "". By default (split_sentences) a text is split into sentences, a line break
  // always ending one; each is translated and the result is the text with every sentence
  // replaced by its translation (whitespace, line breaks and blank lines between and
  // around them kept byte for byte). A sentence longer than max_source_length tokens is
  // cut at a clause boundary or space near its middle (again while too long); one
  // without any space is split into chunks of at most max_source_length - 1 tokens,
  // translated separately and joined with a space. Allocates (strings, tokenization).
  Expected<std::vector<std::string>> translate(const std::vector<std::string>& texts,
                                               const TranslateOptions& options = {});

  // A PDF file's bytes to the translation of its text (runtime/formats/pdf_text.h: its
  // paragraphs, found by pdftotext from poppler-utils), each paragraph translated as plain
  // text (options.format is not used) and written on a line of its own, a blank line
  // between paragraphs. The layout is not kept. Errors: not a PDF, damaged or encrypted,
  // no text (a scan), pdftotext not installed (kUnsupported).
  Expected<std::string> translate_pdf(std::string_view pdf, const TranslateOptions& options = {});

  // Token ids to token ids for one batch, without any heap allocation:
  // sources.size() <= max_batch; each source ends with eos and has at most
  // max_source_length ids (longer: an OutOfRange error; use translate_ids below to
  // split). results[i] views sentence i's output ids (no decoder start, no final eos)
  // inside the arena, valid until the next call.
  Status translate_batch_ids(std::span<const std::span<const int32_t>> sources,
                             std::span<std::span<const int32_t>> results,
                             const TranslateOptions& options = {});

  // Any number of id sequences (each should end with eos; one is appended if not).
  // Long sequences are split into chunks as in translate() and their outputs
  // concatenated. results[i] is sequence i's output (results->size() == sources.size()
  // after a call that succeeded). The allocation-free form: the translator's buffers and
  // `results`' keep their capacity, so once they have grown to the largest call's
  // (batch, lengths) a stream of calls allocates nothing, whatever lines come where,
  // repeated or not, greedy or beam.
  Status translate_ids(std::span<const std::span<const int32_t>> sources, IdSequences* results,
                       const TranslateOptions& options = {});
  // Same, into vectors: results[i] (results.size() >= sources.size()) receives sequence
  // i's output, reusing its capacity (a vector allocates where its sequence's output is
  // longer than any it held before).
  Status translate_ids(std::span<const std::span<const int32_t>> sources,
                       std::span<std::vector<int32_t>> results, const TranslateOptions& options = {});
  // Same, for vectors; `results` is resized to sources.size().
  Status translate_ids(const std::vector<std::vector<int32_t>>& sources,
                       std::vector<std::vector<int32_t>>* results, const TranslateOptions& options = {});

  // N-best: up to `num_hypotheses` translations of each sequence, best first (the first
  // is translate_ids' result). With beam search there are at most `beam` (the beam's
  // finished hypotheses, by score); greedy gives one. A sequence split into chunks gets
  // as many as its chunk with the most; hypothesis j joins each chunk's j-th (or its
  // best, where that chunk has fewer). results is resized to sources.size(). Allocates.
  // scores (optional): each hypothesis' score, as the search ranked it (log-probability
  // / length^length_penalty; Marian style less the word penalty first; greedy scores its
  // one hypothesis the same way); a chunked sequence's is the sum of its chunks'.
  // token_logprobs (optional, with scores): each hypothesis' tokens' log-probabilities
  // (log-softmax over the step's logits, as the search added them), each chunk's final
  // eos included: they sum to the hypothesis' log-probability.
  // alignments (optional): each hypothesis' tokens' aligned source positions (indexes into
  // its sequence; SearchParams::alignments), the final eos included like token_logprobs.
  Status translate_ids_nbest(std::span<const std::span<const int32_t>> sources, size_t num_hypotheses,
                             std::vector<std::vector<std::vector<int32_t>>>* results,
                             const TranslateOptions& options = {},
                             std::vector<std::vector<float>>* scores = nullptr,
                             std::vector<std::vector<std::vector<float>>>* token_logprobs = nullptr,
                             std::vector<std::vector<std::vector<int32_t>>>* alignments = nullptr);
  // Text to n-best texts (as translate(); a blank text gives one ""). With sentence
  // splitting, hypothesis j of a text puts each sentence's j-th (or its best) in place.
  Expected<std::vector<std::vector<std::string>>> translate_nbest(const std::vector<std::string>& texts,
                                                                  size_t num_hypotheses,
                                                                  const TranslateOptions& options = {});

  // Text to scored translations (plain text only; options as for translate()): per text
  // its translation(s) with score, log-probability, a 0-1 confidence and per-word
  // confidences, and the same for each of its sentences. Greedy search computes each
  // step's log-sum-exp for this (beam search always does). Allocates.
  Expected<std::vector<ScoredText>> translate_scored(const std::vector<std::string>& texts,
                                                     size_t num_hypotheses = 1,
                                                     const TranslateOptions& options = {});

  // Scoring (forced decoding; CTranslate2's score_batch): each target's tokens'
  // log-probabilities given its source, the final eos included (so they sum to the
  // target's log-probability): the log-softmax of the model's raw logits, without the
  // search's processors and without the lexical shortlist. sources[i]: token ids (eos
  // appended when missing), at most max_source_length with it; targets[i]: target ids
  // without decoder start or final eos, at most max_target_length - 1. token_logprobs
  // is resized to sources.size(). Allocates.
  Status score_ids(std::span<const std::span<const int32_t>> sources,
                   std::span<const std::span<const int32_t>> targets,
                   std::vector<std::vector<float>>* token_logprobs);
  // Text pairs, each tokenized whole with the model's tokenizers (not split into
  // sentences, no span protection; soft hyphens and other break hints left out, as the
  // text calls leave them out): per pair its target's tokens' log-probabilities as
  // score_ids (the final eos included). target_ids (optional): each target's ids, the
  // tokens those log-probabilities are of (without the final eos).
  Expected<std::vector<std::vector<float>>> score(const std::vector<std::string>& sources,
                                                  const std::vector<std::string>& targets,
                                                  std::vector<std::vector<int32_t>>* target_ids = nullptr);

  // Reranking with a reverse model (noisy-channel reranking): the text calls (translate,
  // translate_nbest, translate_scored, and every document format) find each sentence's
  // `beam` hypotheses as usual, score each backwards with `reverse`, a model of the
  // opposite direction (the source sentence's log-probability given the hypothesis, per
  // source token: does the translation say what the source says?) and rank them by the
  // search's score + weight * that; the first is the translation. A sentence whose pair is
  // too long for `reverse`'s limits keeps the search's order. Costs one forced decoding
  // per hypothesis (about as much again as the search at beam 4). Greedy search (beam 1)
  // and the ids calls are not reranked. Hypotheses keep their own scores (n-best lists are
  // in the reranked order). `reverse` must translate this model's target language to its
  // source language where both models name theirs; weight: finite, >= 0 (0: off). Only
  // hypotheses within kRerankMargin * weight of the best search score are candidates.
  // nullptr removes the reranker.
  static constexpr float kDefaultRerankWeight = 0.3f;
  // Only hypotheses whose search score is at most kRerankMargin * weight below the best's
  // are scored backwards and reranked (the others follow them in the search's order): one
  // further behind would need a backward score better by that much per token to win.
  static constexpr float kRerankMargin = 0.5f;
  Status set_reranker(std::unique_ptr<Translator> reverse, float weight = kDefaultRerankWeight);
  const Translator* reranker() const { return reverse_.get(); }
  // Reranks hypotheses an ids call found (translate_ids_nbest with scores; edgemt-server's
  // workers): hypotheses[i], with their search scores scores[i], translate the source text
  // sources[i]; (*order)[i] receives their indexes best first by the reranked score
  // (empty where there are fewer than two, or the pair does not fit the reverse model's
  // limits: the search's order stands). Needs a reranker; weight unset: the reranker's.
  Status rerank_hypotheses(const std::vector<std::string>& sources,
                           const std::vector<std::vector<std::vector<int32_t>>>& hypotheses,
                           const std::vector<std::vector<float>>& scores,
                           std::vector<std::vector<size_t>>* order, std::optional<float> weight = {});
  float rerank_weight() const { return rerank_weight_; }

  const Model& model() const { return *model_; }
  std::shared_ptr<const Model> shared_model() const { return model_; }
  // The limits this translator was planned for (options resolved against the model).
  const EngineLimits& limits() const;
  // Per-op timings (translate --profile); disabled by default.
  Profiler& profiler();
  // Bytes of this translator's arena (all its working memory).
  size_t arena_bytes() const;
  // The search parameters a call with `options` would use.
  Expected<SearchParams> resolve(const TranslateOptions& options) const;

 private:
  Translator() = default;
  // nbest (optional): (*nbest)[i] receives up to nbest_count hypotheses of sequence i,
  // and (*scores)[i] and (*token_logprobs)[i] (optional too) their scores and their
  // tokens' log-probabilities (needs scores), and (*alignments)[i] (with token_logprobs and
  // params.alignments) each token's source position in sequence i.
  // run_chunked's search: the chunks' outputs into out_ids_ (chunk_output), in the order
  // of chunk_owner_; gather() then hands them out by sequence.
  Status run_chunks(std::span<const std::span<const int32_t>> sources, const SearchParams& params,
                    size_t nbest_count = 0, std::vector<std::vector<std::vector<int32_t>>>* nbest = nullptr,
                    std::vector<std::vector<float>>* scores = nullptr,
                    std::vector<std::vector<std::vector<float>>>* token_logprobs = nullptr,
                    std::vector<std::vector<std::vector<int32_t>>>* alignments = nullptr);
  std::span<const int32_t> chunk(size_t c) const;         // chunk c's ids (eos last)
  std::span<const int32_t> chunk_output(size_t c) const;  // its output ids
  void gather(std::span<std::vector<int32_t>> results) const;
  void gather(IdSequences* results) const;
  Status run_chunked(std::span<const std::span<const int32_t>> sources,
                     std::span<std::vector<int32_t>> results, const SearchParams& params,
                     size_t nbest_count = 0, std::vector<std::vector<std::vector<int32_t>>>* nbest = nullptr,
                     std::vector<std::vector<float>>* scores = nullptr,
                     std::vector<std::vector<std::vector<float>>>* token_logprobs = nullptr,
                     std::vector<std::vector<std::vector<int32_t>>>* alignments = nullptr);

 public:
  // How text calls protect sentences (protect_spans, glossary).
  struct Protection {
    bool spans = true;
    const Glossary* glossary = nullptr;
    bool any() const { return spans || glossary != nullptr; }
  };

 private:
  // The text layer: texts -> sentences to translate (ids) -> texts.
  struct Segments {
    Protection protect;                     // how its sentences were protected
    std::vector<std::vector<int32_t>> ids;  // each sentence's tokens (eos-terminated)
    std::vector<size_t> text;               // the text each sentence belongs to
    std::vector<TextSpan> span;             // its bytes in that text (split mode only)
    std::vector<ProtectedSentence> kept;    // its protected spans (when protecting)
    // Sentence k's translation from its decoded output: the protected spans put back.
    std::string finish(size_t k, std::string decoded) const {
      return kept.empty() ? decoded : restore_spans(decoded, kept[k]);
    }
  };

  Status segment(const std::vector<std::string>& texts, bool split, Protection protect, Segments* seg);
  // Tokens of one sentence (builtin spans left in place, glossary terms replaced by
  // markers; a sentence with nothing to translate gets no tokens but eos).
  Status encode_sentence(std::string_view sentence, Protection protect, Segments* seg,
                         std::vector<int32_t>* ids);
  // run_chunked over seg's sentences, the outputs as there (by sentence). Then a sentence
  // whose spans left in place did not all come through (spans_kept: in its best
  // translation, and in each of its n-best where asked) is translated again with markers
  // for them (SpanMode::kMarkers): its kept, ids and outputs are replaced.
  // rerank_weight > 0 (with a reranker and beam search): each sentence's hypotheses are
  // reranked (rerank_segments) and best[k] is the first of them; the lists the caller
  // asked for come back in that order, cut to nbest_count.
  Status run_segments(const std::vector<std::string>& texts, Segments* seg, const SearchParams& params,
                      std::vector<std::vector<int32_t>>* best, size_t nbest_count = 0,
                      std::vector<std::vector<std::vector<int32_t>>>* nbest = nullptr,
                      std::vector<std::vector<float>>* scores = nullptr,
                      std::vector<std::vector<std::vector<float>>>* token_logprobs = nullptr,
                      std::vector<std::vector<std::vector<int32_t>>>* alignments = nullptr,
                      float rerank_weight = 0.0f);
  Status run_protected(const std::vector<std::string>& texts, Segments* seg, const SearchParams& params,
                       std::vector<std::vector<int32_t>>* best, size_t nbest_count,
                       std::vector<std::vector<std::vector<int32_t>>>* nbest,
                       std::vector<std::vector<float>>* scores,
                       std::vector<std::vector<std::vector<float>>>* token_logprobs,
                       std::vector<std::vector<std::vector<int32_t>>>* alignments);
  // Each sentence's order of its hypotheses (indexes into nbest[k]) by score + weight *
  // the reverse model's per-token log-probability of the sentence given the hypothesis.
  Status rerank_segments(const std::vector<std::string>& texts, const Segments& seg,
                         const std::vector<std::vector<std::vector<int32_t>>>& nbest,
                         const std::vector<std::vector<float>>& scores, float weight,
                         std::vector<std::vector<size_t>>* order);
  // Both: n sentences; sentence_of(k, &text) false skips sentence k; hypothesis_of(k, h)
  // gives hypothesis h's text.
  Status rerank_core(size_t n, const std::function<bool(size_t, std::string_view*)>& sentence_of,
                     const std::function<std::string(size_t, size_t)>& hypothesis_of,
                     const std::vector<std::vector<std::vector<int32_t>>>& nbest,
                     const std::vector<std::vector<float>>& scores, float weight,
                     std::vector<std::vector<size_t>>* order);
  // The call's rerank weight (options over the translator's); 0: none.
  Expected<float> call_rerank_weight(const TranslateOptions& options) const;
  // The n-best search of the text calls (translate_nbest, translate_scored, the HTML
  // aligner): texts segmented (options' splitting and protection), each sentence's
  // hypotheses found with options; `scored` adds their scores and token log-probabilities
  // (greedy search included), `aligned` each token's aligned source position.
  struct NbestRun {
    const std::vector<std::string>* texts = nullptr;  // as translated: the input, or `visible`
    std::vector<std::string> visible;                 // the input without break hints, where it had any
    Segments seg;
    std::vector<std::vector<int32_t>> best;
    std::vector<std::vector<std::vector<int32_t>>> hyps, aligns;
    std::vector<std::vector<float>> scores;
    std::vector<std::vector<std::vector<float>>> lps;
  };
  Status run_text_nbest(const std::vector<std::string>& texts, size_t num_hypotheses,
                        const TranslateOptions& options, bool scored, bool aligned, NbestRun* run);
  // texts[i] with its sentences replaced by `translation(k)` for each sentence k of it.
  template <typename F>
  std::string assemble(const std::string& text, const Segments& seg, size_t first, size_t last,
                       F translation) const;
  // One scored hypothesis of segment k: its ids and their log-probabilities.
  // `alignment` (each token's source position) with `word_of` (source token -> index
  // into the sentence's source words) gives each word's `source`; empty: none.
  ScoredTranslation score_hypothesis(const Segments& seg, size_t k, const std::vector<int32_t>& ids,
                                     const std::vector<float>& lps, float score,
                                     const std::vector<int32_t>& alignment,
                                     const std::vector<int32_t>& word_of) const;
  // Documents: every document's units() translated with `options` in one call, then
  // each document's render() of its own.
  Expected<std::vector<std::string>> translate_units(const std::vector<std::unique_ptr<Document>>& docs,
                                                     const TranslateOptions& options);
  // HTML: texts -> their aligned translations (translate_scored), for placing inline tags.
  using Aligner =
      std::function<Expected<std::vector<std::vector<AlignedText>>>(const std::vector<std::string>&)>;
  Aligner aligner(const TranslateOptions& options, size_t num_hypotheses);
  // Views of vector inputs for run_chunked.
  std::span<const std::span<const int32_t>> views_of(const std::vector<std::vector<int32_t>>& sources);

  std::shared_ptr<const Model> model_;
  std::unique_ptr<Engine> engine_;
  // Reused across calls.
  std::vector<std::span<const int32_t>> batch_src_;
  std::vector<std::span<const int32_t>> batch_out_;
  std::vector<int32_t> chunk_ids_;                 // the chunks, back to back
  std::vector<size_t> chunk_end_;                  // one past each chunk's last id
  std::vector<int32_t> out_ids_;                   // the chunks' outputs
  std::vector<std::pair<size_t, size_t>> out_at_;  // chunk c's output: begin and size in out_ids_
  std::vector<std::vector<std::vector<int32_t>>> chunk_nbest_;  // n-best calls only
  std::vector<std::vector<float>> chunk_scores_;                // n-best calls with scores
  std::vector<std::vector<std::vector<float>>> chunk_lps_;      // n-best calls with log-probs
  std::vector<std::vector<std::vector<int32_t>>> chunk_align_;  // n-best calls with alignments
  std::vector<size_t> chunk_owner_;
  std::vector<int32_t> chunk_start_;  // each chunk's first token in its sequence
  std::vector<size_t> order_;
  std::vector<size_t> unique_;   // the chunks run: one of each distinct content, longest first
  std::vector<size_t> same_as_;  // per chunk: the chunk of unique_ whose results it copies
  std::vector<std::span<const int32_t>> views_;
  std::unique_ptr<SentenceSplitter> splitter_;  // made on the first split call
  std::unique_ptr<Translator> reverse_;         // set_reranker's
  float rerank_weight_ = 0.0f;
};

// The instruction set the kernels run with in this process (best the CPU supports, or
// the one EDGEMT_ISA forces): "avx2", "avx512vnni", "neon64_dot", "ref", ...
const char* active_isa();

// Path of the bundled default model: $EDGEMT_MODEL if set, else the first of these that
// has it: $EDGEMT_MODELS_DIR, the installed copy (<prefix>/share/edgemt/models/) next to
// the running executable, a models/ folder beside it, the source tree this build was
// configured from. Empty if none exists.
std::string default_model_path();

// The bundled models, found where default_model_path() looks ($EDGEMT_MODELS_DIR,
// installed, beside the executable, source tree): files named
// edgemt-<source>-<target>.emt, one per language pair, in the first of those folders that
// holds any.
struct BundledModel {
  std::string path, source, target;
};
std::vector<BundledModel> bundled_models();

// The bundled model for a language pair; an empty `source` or `target` matches any, and
// then exactly one model must match. The error names the pairs that are bundled.
Expected<std::string> bundled_model_path(std::string_view source, std::string_view target);

// Among models that translate `pairs[i]` (source and target language codes), the ones
// that translate `source` -> `target`, as indices in order: the pair's own model; else two
// chained through a pivot language (source -> pivot -> target), as Argos Translate and
// Firefox pivot: English when it is a pivot, else the first pivot in model order; else
// none (also when source and target are the same: no round trips).
using LanguagePair = std::pair<std::string, std::string>;
std::vector<size_t> language_route(const std::vector<LanguagePair>& pairs, std::string_view source,
                                   std::string_view target);

// The bundled models that translate source -> target: bundled_model_path's one, else two
// through a pivot language (language_route; both languages given). The error names the
// pairs that are bundled.
Expected<std::vector<std::string>> bundled_model_route(std::string_view source, std::string_view target);

// Translates `texts` with each translator of `chain` in turn, a pivot language between
// one's target and the next one's source (fr->en, then en->de). Text and documents go
// through whole; the formats that fill in what is still to translate (gettext catalogs,
// XLIFF, CSV translation tables), whose first translation would leave nothing for the next, send the texts to
// translate through the chain and fill the document in once, in the last one's
// language. An empty chain is an error.
Expected<std::vector<std::string>> translate_through(std::span<Translator* const> chain,
                                                     const std::vector<std::string>& texts,
                                                     const TranslateOptions& options);

}  // namespace edgemt
