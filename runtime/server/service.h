// The translation service behind edgemt-server: the models of a directory, each served by
// a fixed set of worker Translators (sharing the one mapped model), fed from one bounded
// queue of segments per model. Dynamic batching: a free worker takes the oldest waiting
// segment and, behind it, as many other waiting segments with the same search options as
// fit the token budget and the batch size, from any request. With batching off a worker
// takes the segments of one request only (one request at a time per worker).
//
// Independent of HTTP (runtime/server/libretranslate.h maps requests onto it).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "runtime/api/translator.h"
#include "runtime/core/status.h"
#include "runtime/server/translation_cache.h"

namespace edgemt::server {

struct ServiceOptions {
  int workers = 1;              // translators per model
  int threads = 0;              // threads per translator; 0: cores / workers, at least 1
  int max_batch = 16;           // segments per batch
  int batch_tokens = 4096;      // source tokens per batch (the first segment always fits)
  bool batching = true;         // false: a batch holds the segments of one request only
  int queue_capacity = 1024;    // segments waiting per model; more: the request is refused
  int max_source_length = 256;  // tokens per translated chunk (longer segments are split)
  int max_alternatives = 3;     // most alternatives a request may ask for
  int beam = 0;                 // 0: each model's default
  // Output length limit per segment: ceil(factor x source tokens) + offset (Marian's
  // max-length-factor; Firefox Translations uses 2): a model that repeats itself stops
  // there instead of at the model's limit, and does not hold up the segments batched
  // with it. 0: off.
  float max_length_factor = 2.0f;
  int max_length_offset = 10;
  // Reranking (Translator::set_reranker): a model whose reverse is served too (de->en for
  // en->de) has each segment's beam hypotheses reranked with it, weight rerank_weight.
  bool rerank = false;
  float rerank_weight = 0.3f;
  // Translation cache (TranslationCache): the results of up to cache_size recently
  // translated segments per model, reused for a segment asked for again with the same
  // alternatives and alignment flag; a segment repeated within one request, or asked for
  // while another request's equal segment is being translated, is translated once. 0: off
  // (every segment is translated).
  int cache_size = 4096;
  // The most memory each model's cache may take (TranslationCache::entry_bytes): least
  // recently used entries go first past it, so long segments with alternatives and
  // alignments cannot make 4096 entries grow without bound.
  size_t cache_bytes = size_t{32} << 20;
};

// One model file and the language pair it serves.
struct ModelEntry {
  std::string path;
  std::string source;  // ISO 639-1 code, e.g. "en"
  std::string target;
};

// The language pair of a model: its metadata ("source_language", "target_language"),
// else a file name ending in "-<src>-<tgt>.emt" (e.g. edgemt-en-de.emt, opus-mt-en-de.emt).
Expected<ModelEntry> describe_model(const std::string& path, const Model& model);

class ModelWorkers;

// One translation request: segments of text, translated independently.
class Job {
 public:
  struct Segment {
    std::vector<int32_t> ids;               // source ids with the final eos; empty: blank text, nothing to do
    std::string source;                     // the text, kept where the model's hypotheses are reranked
    std::string text;                       // the best translation
    std::vector<std::string> alternatives;  // the next best, when asked for
    // With alignments: the best translation's ids and each one's aligned source position
    // (Translator::translate_ids_nbest), the final eos included.
    std::vector<int32_t> target_ids, alignment;
  };

  Job(std::vector<Segment> segments, int alternatives, bool align = false)
      : segments_(std::move(segments)), alternatives_(alternatives), align_(align) {}

  // Waits until every segment is translated or an error ends the job, at most until
  // `deadline`. False on timeout (the job is then cancelled: its waiting segments are
  // dropped from the queue, and a batch being translated stops within one decoder step
  // when every request it serves has timed out).
  bool wait_until(std::chrono::steady_clock::time_point deadline);
  Status status() const;
  const std::vector<Segment>& segments() const { return segments_; }
  int alternatives() const { return alternatives_; }
  bool align() const { return align_; }

 private:
  friend class ModelWorkers;
  void finish_segments(size_t n);
  void fail(const Status& s);

  std::vector<Segment> segments_;
  // followers_[i]: the later segments of this request with segment i's source (filled
  // from it when it is translated); empty when the request repeats none.
  std::vector<std::vector<size_t>> followers_;
  int alternatives_ = 0;
  bool align_ = false;
  mutable std::mutex mu_;
  std::condition_variable done_cv_;
  size_t remaining_ = 0;
  bool cancelled_ = false;
  Status status_;
  std::weak_ptr<ModelWorkers> owner_;  // told when the job times out
};

struct ServiceStats {
  uint64_t batches = 0;
  uint64_t segments = 0;
  uint64_t rejected = 0;  // requests refused because the queue was full
  size_t queued = 0;      // segments waiting now
  size_t max_batch_seen = 0;
  uint64_t cache_hits = 0;  // segments answered from the translation cache
  uint64_t repeats = 0;     // segments answered by an equal segment of the same request
  uint64_t joined = 0;      // segments answered by an equal one being translated for another request
  // Batches stopped while being translated because every request they served had timed
  // out (the worker goes on with the queue within one decoder step).
  uint64_t cancelled_batches = 0;
  size_t cached = 0;        // segments held in the caches now
  size_t cached_bytes = 0;  // the memory they take (TranslationCache::bytes)
};

class ModelWorkers;

class TranslationService {
 public:
  // Loads and verifies every model; starts options.workers workers per model.
  static Expected<std::unique_ptr<TranslationService>> create(const std::vector<ModelEntry>& models,
                                                              const ServiceOptions& options);
  // Every *.emt file directly inside `dir`, sorted by name.
  static Expected<std::vector<ModelEntry>> scan(const std::string& dir);
  ~TranslationService();  // shutdown()

  const std::vector<ModelEntry>& models() const { return entries_; }
  // The model reranking model `model`'s hypotheses (ServiceOptions::rerank), or -1.
  int reranker(int model) const;
  // The model index serving source -> target, or -1.
  int find(const std::string& source, const std::string& target) const;
  // The models that translate source -> target, in order: the one serving the pair, else
  // two through a pivot language, else none (edgemt::language_route).
  std::vector<int> route(const std::string& source, const std::string& target) const;
  // Model `model`'s tokenizer (a valid index).
  const Tokenizer& tokenizer(int model) const;
  const ServiceOptions& options() const { return options_; }

  // Tokenizes `texts` (blank ones are done at once) and queues them for model `model`.
  struct Submitted {
    enum class Refusal { kNone, kBusy, kTooLarge, kBadRequest, kStopping };
    std::shared_ptr<Job> job;  // null when refused
    Refusal refusal = Refusal::kNone;
    std::string message;
  };
  // kBusy: the queue cannot take the segments now (answer 503, retry later); kTooLarge:
  // more segments than the queue ever holds; kBadRequest: too many alternatives;
  // kStopping: shutdown began. align: the segments also get word alignments (Job::Segment).
  Submitted submit(int model, const std::vector<std::string>& texts, int alternatives, bool align = false);

  // Language guess for /detect and source "auto": the share of `text`'s tokens that model
  // `model`'s source vocabulary knows (not unknown), in [0, 1]; 0 for blank text.
  double source_coverage(int model, const std::string& text) const;

  // Stops taking requests, lets the workers finish every queued segment, joins them.
  void shutdown();
  ServiceStats stats() const;

 private:
  TranslationService() = default;
  ServiceOptions options_;
  std::vector<ModelEntry> entries_;
  std::vector<std::shared_ptr<ModelWorkers>> models_;
  std::vector<int> rerankers_;  // per model: reranker()'s
};

}  // namespace edgemt::server
