#include "runtime/server/service.h"

#include <algorithm>
#include <filesystem>
#include <thread>
#include <unordered_map>
#include <utility>

namespace edgemt::server {

// ---- Job ------------------------------------------------------------------------------

Status Job::status() const {
  std::lock_guard<std::mutex> lock(mu_);
  return status_;
}

void Job::finish_segments(size_t n) {
  std::lock_guard<std::mutex> lock(mu_);
  remaining_ -= std::min(n, remaining_);
  if (remaining_ == 0) done_cv_.notify_all();
}

void Job::fail(const Status& s) {
  std::lock_guard<std::mutex> lock(mu_);
  if (status_.is_ok()) status_ = s;
}

// ---- ModelWorkers: one model, its queue and its workers --------------------------------

class ModelWorkers : public std::enable_shared_from_this<ModelWorkers> {
 public:
  ModelWorkers(std::shared_ptr<const Model> model, const ServiceOptions& o)
      : model_(std::move(model)),
        o_(o),
        cache_(static_cast<size_t>(std::max(0, o.cache_size)), o.cache_bytes) {}

  // reverse (optional): each worker's translator reranks with its own translator of it.
  Status start(const std::shared_ptr<const Model>& reverse) {
    TranslatorOptions to;
    to.max_batch = o_.max_batch;
    to.max_beam = std::max({o_.beam, model_->generation().num_beams, o_.max_alternatives + 1, 1});
    to.max_source_length = std::min(o_.max_source_length, model_->config().max_positions);
    int threads = o_.threads;
    if (threads <= 0)
      threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / std::max(1, o_.workers));
    to.num_threads = threads;
    TranslatorOptions ro = to;
    ro.max_beam = 1;
    ro.max_source_length = 0;  // the reverse model's own limits (a translation may be longer)
    for (int w = 0; w < o_.workers; ++w) {
      auto t = Translator::create(model_, to);
      if (!t) return t.status();
      if (reverse != nullptr) {
        auto r = Translator::create(reverse, ro);
        if (!r) return r.status();
        EDGEMT_RETURN_IF_ERROR(t.value()->set_reranker(std::move(r.value()), o_.rerank_weight));
      }
      translators_.push_back(std::move(t.value()));
    }
    reranked_ = reverse != nullptr;
    running_ = std::vector<Running>(static_cast<size_t>(o_.workers));
    for (int w = 0; w < o_.workers; ++w)
      threads_.emplace_back([this, w] { loop(*translators_[w], running_[static_cast<size_t>(w)]); });
    return Status::ok();
  }

  const Tokenizer& tokenizer() const { return model_->tokenizer(); }

  TranslationService::Submitted submit(const std::vector<std::string>& texts, int alternatives, bool align) {
    using R = TranslationService::Submitted::Refusal;
    TranslationService::Submitted out;
    if (alternatives < 0 || alternatives > o_.max_alternatives) {
      out.refusal = R::kBadRequest;
      out.message = "alternatives must be between 0 and " + std::to_string(o_.max_alternatives);
      return out;
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) {
        out.refusal = R::kStopping;
        out.message = "the server is shutting down";
        return out;
      }
    }
    // Tokenize outside the lock (on the caller's thread).
    std::vector<Job::Segment> segs(texts.size());
    const Tokenizer& tok = model_->tokenizer();
    for (size_t i = 0; i < texts.size(); ++i) {
      if (Status s = tok.encode(texts[i], &segs[i].ids); !s.is_ok()) {
        out.refusal = R::kBadRequest;
        out.message = s.message();
        return out;
      }
      if (segs[i].ids.size() <= 1) segs[i].ids.clear();  // blank: translates to ""
    }
    // What is translated: each segment neither cached nor repeating an earlier one (nor,
    // below, one being translated for another request).
    std::vector<size_t> queued;
    std::vector<std::string> keys;  // with the cache: each queued segment's key
    std::vector<std::vector<size_t>> followers;
    uint64_t repeats = 0;
    if (o_.cache_size > 0) {
      std::unordered_map<std::string, size_t> first;  // key -> the segment translating it
      CachedTranslation hit;
      for (size_t i = 0; i < segs.size(); ++i) {
        if (segs[i].ids.empty()) continue;
        std::string key = TranslationCache::key(segs[i].ids, alternatives, align);
        if (cache_.get(key, &hit)) {
          segs[i].text = std::move(hit.text);
          segs[i].alternatives = std::move(hit.alternatives);
          segs[i].target_ids = std::move(hit.target_ids);
          segs[i].alignment = std::move(hit.alignment);
          continue;
        }
        const auto [it, inserted] = first.emplace(key, i);
        if (inserted) {
          queued.push_back(i);
          keys.push_back(std::move(key));
        } else {
          if (followers.empty()) followers.resize(segs.size());
          followers[it->second].push_back(i);
          ++repeats;
        }
      }
    } else {
      for (size_t i = 0; i < segs.size(); ++i)
        if (!segs[i].ids.empty()) queued.push_back(i);
    }
    if (reranked_)
      for (size_t i : queued) segs[i].source = texts[i];
    const size_t pending = queued.size();
    if (pending > static_cast<size_t>(o_.queue_capacity)) {
      out.refusal = R::kTooLarge;
      out.message = "the request has " + std::to_string(pending) +
                    " segments to translate; this server takes at most " + std::to_string(o_.queue_capacity) +
                    " per request";
      return out;
    }
    auto job = std::make_shared<Job>(std::move(segs), alternatives, align);
    job->followers_ = std::move(followers);
    job->owner_ = weak_from_this();
    job->remaining_ = pending;
    if (pending == 0) {
      out.job = std::move(job);
      return out;
    }
    size_t late_hits = 0;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) {
        out.refusal = R::kStopping;
        out.message = "the server is shutting down";
        return out;
      }
      // With the cache, a segment that another request's segment is translating now waits
      // for that one (joins it) instead of being translated again; one finished since the
      // lookup above is in the cache now (workers store before they let go of the
      // segment), so each is translated once.
      std::vector<char> joins(queued.size(), 0);
      size_t to_queue = queued.size();
      for (size_t k = 0; k < keys.size(); ++k) {
        if (in_flight_.count(keys[k]) > 0) {
          joins[k] = 1;
          --to_queue;
        } else if (CachedTranslation hit; cache_.get(keys[k], &hit)) {
          fill(&job->segments_[queued[k]], hit);
          joins[k] = 2;
          --to_queue;
          ++late_hits;
        }
      }
      if (queue_.size() + to_queue > static_cast<size_t>(o_.queue_capacity)) {
        ++rejected_;
        out.refusal = R::kBusy;
        out.message = "the server is busy (translation queue full); retry later";
        return out;
      }
      for (size_t k = 0; k < queued.size(); ++k) {
        if (keys.empty()) {
          queue_.push_back({job, queued[k]});
        } else if (joins[k] == 1) {
          in_flight_[keys[k]].push_back({job, queued[k]});
          ++joined_;
        } else if (joins[k] == 0) {
          in_flight_.emplace(keys[k], std::vector<Item>());
          queue_.push_back({job, queued[k]});
        }
      }
      repeats_ += repeats;
      if (late_hits > 0) job->finish_segments(late_hits);
    }
    cv_.notify_all();
    out.job = std::move(job);
    return out;
  }

  const Model& model() const { return *model_; }

  void shutdown() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_ && threads_.empty()) return;
      stopping_ = true;
    }
    cv_.notify_all();
    for (std::thread& t : threads_) t.join();
    threads_.clear();
  }

  void add_stats(ServiceStats* s) const {
    std::lock_guard<std::mutex> lock(mu_);
    s->batches += batches_;
    s->segments += segments_;
    s->rejected += rejected_;
    s->queued += queue_.size();
    s->max_batch_seen = std::max(s->max_batch_seen, max_batch_seen_);
    s->repeats += repeats_;
    s->joined += joined_;
    s->cancelled_batches += cancelled_batches_;
    s->cache_hits += cache_.hits();
    s->cached += cache_.size();
    s->cached_bytes += cache_.bytes();
  }

  // A request timed out (Job::wait_until): a batch being translated whose requests, and
  // those that joined its segments, have all timed out is stopped through its worker's
  // cancel flag; the segments that joined it are let go of.
  void timed_out() {
    std::vector<Item> dropped;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (Running& r : running_) {
        if (r.batch == nullptr || r.cancelled) continue;
        bool wanted = false;
        for (const Item& it : *r.batch) {
          wanted = !cancelled(*it.job);
          if (!wanted && o_.cache_size > 0)
            if (const auto f = in_flight_.find(key_of(it)); f != in_flight_.end())
              wanted = std::any_of(f->second.begin(), f->second.end(),
                                   [](const Item& w) { return !cancelled(*w.job); });
          if (wanted) break;
        }
        if (wanted) continue;
        r.cancelled = true;
        r.flag.cancel();
        ++cancelled_batches_;
        // Their keys leave in_flight_ now: a request that comes later queues its own.
        if (o_.cache_size > 0)
          for (const Item& it : *r.batch)
            for (Item& w : take_joined(key_of(it))) dropped.push_back(std::move(w));
      }
    }
    for (Item& w : dropped) {
      w.job->fail(edgemt::cancelled("the request timed out"));
      w.job->finish_segments(1);
    }
  }

 private:
  struct Item {
    std::shared_ptr<Job> job;
    size_t segment;
  };
  // A worker's batch being translated (under mu_): timed_out() reads it and may stop it.
  struct Running {
    const std::vector<Item>* batch = nullptr;
    CancelFlag flag;         // TranslateOptions::cancel of the worker's calls
    bool cancelled = false;  // this batch was stopped: its keys already left in_flight_
  };

  static bool cancelled(const Job& j) {
    std::lock_guard<std::mutex> lock(j.mu_);
    return j.cancelled_;
  }

  static std::string key_of(const Item& it) {
    return TranslationCache::key(it.job->segments_[it.segment].ids, it.job->alternatives_, it.job->align_);
  }

  static void fill(Job::Segment* seg, const CachedTranslation& t) {
    seg->text = t.text;
    seg->alternatives = t.alternatives;
    seg->target_ids = t.target_ids;
    seg->alignment = t.alignment;
  }
  static void copy(Job::Segment* to, const Job::Segment& from) {
    to->text = from.text;
    to->alternatives = from.alternatives;
    to->target_ids = from.target_ids;
    to->alignment = from.alignment;
  }

  // A request's segment is done: its copies within the request get its result.
  static void finished(Job& job, size_t segment) {
    if (!job.followers_.empty())
      for (size_t f : job.followers_[segment]) copy(&job.segments_[f], job.segments_[segment]);
    job.finish_segments(1);
  }

  // The segments of other requests that wait for `key` (and no longer do); under mu_.
  std::vector<Item> take_joined(const std::string& key) {
    std::vector<Item> w;
    if (auto it = in_flight_.find(key); it != in_flight_.end()) {
      w = std::move(it->second);
      in_flight_.erase(it);
    }
    return w;
  }

  // Takes the next batch from the queue (blocking); false when stopping with nothing left.
  bool next_batch(std::vector<Item>* batch, Running& running) {
    batch->clear();
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      // Segments of requests that timed out are dropped; one that others joined hands
      // its place to the first of them whose request still waits.
      while (!queue_.empty() && cancelled(*queue_.front().job)) {
        Item dropped = std::move(queue_.front());
        queue_.pop_front();
        if (o_.cache_size <= 0) continue;
        const std::string key = key_of(dropped);
        auto it = in_flight_.find(key);
        if (it == in_flight_.end()) continue;
        std::vector<Item>& waiting = it->second;
        const auto next =
            std::find_if(waiting.begin(), waiting.end(), [](const Item& w) { return !cancelled(*w.job); });
        if (next == waiting.end()) {
          in_flight_.erase(it);
          continue;
        }
        queue_.push_front(std::move(*next));
        waiting.erase(next);
      }
      if (!queue_.empty()) break;
      if (stopping_) return false;
    }
    const Job* first_job = queue_.front().job.get();
    const int alternatives = first_job->alternatives_;
    const bool align = first_job->align_;
    const size_t max_batch = static_cast<size_t>(o_.max_batch);
    size_t tokens = 0;
    for (auto it = queue_.begin(); it != queue_.end() && batch->size() < max_batch;) {
      const Job& j = *it->job;
      const bool same_request = &j == first_job;
      if (!o_.batching && !same_request) break;                         // one request at a time
      if (j.alternatives_ != alternatives || j.align_ != align) break;  // other options: keep the order
      const size_t n = j.segments_[it->segment].ids.size();
      if (!batch->empty() && tokens + n > static_cast<size_t>(o_.batch_tokens)) break;
      tokens += n;
      batch->push_back(std::move(*it));
      it = queue_.erase(it);
    }
    ++batches_;
    segments_ += batch->size();
    max_batch_seen_ = std::max(max_batch_seen_, batch->size());
    running.batch = batch;
    running.flag.reset();
    running.cancelled = false;
    return true;
  }

  void loop(Translator& tr, Running& running) {
    std::vector<Item> batch;
    std::vector<std::span<const int32_t>> src;
    std::vector<std::vector<int32_t>> out;
    std::vector<std::vector<std::vector<int32_t>>> nbest, aligns;
    std::vector<std::vector<float>> scores;
    std::vector<std::vector<size_t>> order;
    std::vector<std::string> sources;
    const Tokenizer& tok = model_->tokenizer();
    const bool rerank = tr.reranker() != nullptr;
    TranslateOptions opts;
    opts.repetition_guard = true;  // text for people, as Translator::translate
    if (o_.beam > 0) opts.beam = o_.beam;
    if (o_.max_length_factor > 0.0f) {
      opts.max_length_factor = o_.max_length_factor;
      opts.max_length_offset = o_.max_length_offset;
    }
    const int default_beam = tr.resolve(opts).value().beam;
    opts.cancel = running.flag.flag();
    while (next_batch(&batch, running)) {
      src.clear();
      for (const Item& it : batch) src.push_back(it.job->segments_[it.segment].ids);
      const int alternatives = batch.front().job->alternatives_;
      const bool align = batch.front().job->align_;
      Status s;
      const bool best_only = alternatives == 0 && !align && !(rerank && default_beam > 1);
      if (best_only) {
        out.resize(src.size());
        s = tr.translate_ids(src, std::span(out), opts);
      } else {
        // Alternatives come from the beam's other hypotheses: the beam is at least 1 + n.
        TranslateOptions o = opts;
        if (alternatives > 0) o.beam = std::max(default_beam, alternatives + 1);
        const size_t count = std::max(static_cast<size_t>(alternatives + 1) * 2,
                                      static_cast<size_t>(o.beam.value_or(default_beam)));
        s = tr.translate_ids_nbest(src, count, &nbest, o, rerank ? &scores : nullptr, nullptr,
                                   align ? &aligns : nullptr);
        if (s.is_ok() && rerank) {  // each segment's hypotheses in the reranked order
          sources.clear();
          for (const Item& it : batch) sources.push_back(it.job->segments_[it.segment].source);
          s = tr.rerank_hypotheses(sources, nbest, scores, &order);
          for (size_t i = 0; s.is_ok() && i < order.size(); ++i) {
            if (order[i].empty()) continue;
            std::vector<std::vector<int32_t>> h, a;
            for (size_t j : order[i]) {
              h.push_back(std::move(nbest[i][j]));
              if (align) a.push_back(std::move(aligns[i][j]));
            }
            nbest[i] = std::move(h);
            if (align) aligns[i] = std::move(a);
          }
        }
      }
      bool stopped = false;  // by timed_out(), which let go of the segments that joined it
      {
        std::lock_guard<std::mutex> lock(mu_);
        running.batch = nullptr;
        stopped = running.cancelled;
      }
      for (size_t i = 0; i < batch.size(); ++i) {
        Job& job = *batch[i].job;
        std::vector<Item> joined;
        if (!s.is_ok()) {
          job.fail(s);
          if (o_.cache_size > 0 && !stopped) {
            std::lock_guard<std::mutex> lock(mu_);
            joined = take_joined(key_of(batch[i]));
          }
          for (Item& w : joined) {
            w.job->fail(s);
            w.job->finish_segments(1);
          }
        } else {
          Job::Segment& seg = job.segments_[batch[i].segment];
          if (align && !nbest[i].empty()) {
            seg.target_ids = nbest[i][0];
            seg.alignment = aligns[i][0];
          }
          if (best_only) {
            seg.text = tok.decode(out[i]);
          } else {
            // Best first; alternatives are the next distinct texts.
            for (size_t j = 0; j < nbest[i].size(); ++j) {
              std::string t = tok.decode(nbest[i][j]);
              if (j == 0) {
                seg.text = std::move(t);
              } else if (seg.alternatives.size() < static_cast<size_t>(alternatives) && t != seg.text &&
                         std::find(seg.alternatives.begin(), seg.alternatives.end(), t) ==
                             seg.alternatives.end()) {
                seg.alternatives.push_back(std::move(t));
              }
            }
          }
          if (o_.cache_size > 0) {
            // Stored first, then let go of (submit relies on that order).
            const std::string key = TranslationCache::key(seg.ids, alternatives, align);
            cache_.put(key, {seg.text, seg.alternatives, seg.target_ids, seg.alignment});
            {
              std::lock_guard<std::mutex> lock(mu_);
              joined = take_joined(key);
            }
            for (Item& w : joined) {
              copy(&w.job->segments_[w.segment], seg);
              finished(*w.job, w.segment);
            }
          }
        }
        if (s.is_ok()) {
          finished(job, batch[i].segment);
        } else {
          job.finish_segments(1);
        }
      }
      batch.clear();  // drop the job references
    }
  }

  std::shared_ptr<const Model> model_;
  ServiceOptions o_;
  bool reranked_ = false;  // the workers' translators have a reranker
  std::vector<std::unique_ptr<Translator>> translators_;
  std::vector<std::thread> threads_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Item> queue_;
  bool stopping_ = false;
  TranslationCache cache_;
  // With the cache: per segment key queued or being translated, the segments of later
  // requests that wait for its result (Item: their request and segment).
  std::unordered_map<std::string, std::vector<Item>> in_flight_;
  std::vector<Running> running_;  // one per worker
  uint64_t batches_ = 0, segments_ = 0, rejected_ = 0, repeats_ = 0, joined_ = 0, cancelled_batches_ = 0;
  size_t max_batch_seen_ = 0;
};

bool Job::wait_until(std::chrono::steady_clock::time_point deadline) {
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (done_cv_.wait_until(lock, deadline, [&] { return remaining_ == 0; })) return true;
    cancelled_ = true;
  }
  // Outside the job's lock: the workers' lock comes first (ModelWorkers::timed_out).
  if (const std::shared_ptr<ModelWorkers> w = owner_.lock()) w->timed_out();
  return false;
}

// ---- TranslationService ---------------------------------------------------------------

Expected<ModelEntry> describe_model(const std::string& path, const Model& model) {
  ModelEntry e;
  e.path = path;
  for (const auto& [k, v] : model.metadata()) {
    if (k == "source_language") e.source = v;
    if (k == "target_language") e.target = v;
  }
  if ((e.source.empty() || e.target.empty()) && !Model::language_pair_of_file(path, &e.source, &e.target))
    return invalid_argument(path +
                            ": the model names no language pair (metadata source_language/target_language, "
                            "or a file name ending in -<src>-<tgt>.emt such as model-en-de.emt)");
  return e;
}

Expected<std::vector<ModelEntry>> TranslationService::scan(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return not_found(dir + ": not a directory");
  std::vector<std::string> paths;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".emt" && it->is_regular_file(ec)) paths.push_back(it->path().string());
  if (ec) return io_error(dir + ": " + ec.message());
  std::sort(paths.begin(), paths.end());
  if (paths.empty()) return not_found(dir + ": no model files (*.emt)");
  std::vector<ModelEntry> out;
  for (const std::string& p : paths) out.push_back({p, "", ""});
  return out;
}

Expected<std::unique_ptr<TranslationService>> TranslationService::create(
    const std::vector<ModelEntry>& models, const ServiceOptions& options) {
  if (models.empty()) return invalid_argument("no models to serve");
  if (options.workers < 1 || options.max_batch < 1 || options.batch_tokens < 1 ||
      options.queue_capacity < 1 || options.max_source_length < 2 || options.max_alternatives < 0 ||
      options.beam < 0 || options.cache_size < 0 || options.cache_bytes == 0 ||
      !(options.max_length_factor >= 0.0f && options.max_length_factor <= 1000.0f))
    return invalid_argument("service options out of range");
  if (options.rerank && !(options.rerank_weight >= 0.0f && options.rerank_weight <= 100.0f))
    return invalid_argument("rerank weight out of range [0, 100]");
  std::unique_ptr<TranslationService> s(new TranslationService());
  s->options_ = options;
  std::vector<std::shared_ptr<const Model>> loaded;
  for (const ModelEntry& m : models) {
    auto model = Model::load(m.path);
    if (!model) return model.status();
    ModelEntry e = m;
    if (e.source.empty() || e.target.empty()) {
      auto d = describe_model(m.path, *model.value());
      if (!d) return d.status();
      e = d.value();
    }
    if (s->find(e.source, e.target) >= 0)
      return invalid_argument(m.path + ": a second model for " + e.source + " -> " + e.target);
    s->entries_.push_back(e);
    loaded.push_back(std::move(model.value()));
  }
  // Each model's workers start with its reverse model (where reranking and one is served).
  for (size_t i = 0; i < loaded.size(); ++i) {
    const int r = options.rerank ? s->find(s->entries_[i].target, s->entries_[i].source) : -1;
    s->rerankers_.push_back(r);
    auto w = std::make_shared<ModelWorkers>(loaded[i], options);
    EDGEMT_RETURN_IF_ERROR(w->start(r >= 0 ? loaded[static_cast<size_t>(r)] : nullptr));
    s->models_.push_back(std::move(w));
  }
  return s;
}

TranslationService::~TranslationService() { shutdown(); }

int TranslationService::reranker(int model) const {
  if (model < 0 || static_cast<size_t>(model) >= rerankers_.size()) return -1;
  return rerankers_[static_cast<size_t>(model)];
}

int TranslationService::find(const std::string& source, const std::string& target) const {
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].source == source && entries_[i].target == target) return static_cast<int>(i);
  return -1;
}

std::vector<int> TranslationService::route(const std::string& source, const std::string& target) const {
  std::vector<LanguagePair> pairs;
  for (const ModelEntry& e : entries_) pairs.emplace_back(e.source, e.target);
  std::vector<int> out;
  for (size_t i : language_route(pairs, source, target)) out.push_back(static_cast<int>(i));
  return out;
}

const Tokenizer& TranslationService::tokenizer(int model) const {
  return models_[static_cast<size_t>(model)]->tokenizer();
}

TranslationService::Submitted TranslationService::submit(int model, const std::vector<std::string>& texts,
                                                         int alternatives, bool align) {
  if (model < 0 || static_cast<size_t>(model) >= models_.size()) {
    Submitted s;
    s.refusal = Submitted::Refusal::kBadRequest;
    s.message = "no such model";
    return s;
  }
  return models_[static_cast<size_t>(model)]->submit(texts, alternatives, align);
}

double TranslationService::source_coverage(int model, const std::string& text) const {
  if (model < 0 || static_cast<size_t>(model) >= models_.size()) return 0.0;
  const Model& m = models_[static_cast<size_t>(model)]->model();
  std::vector<int32_t> ids;
  if (!m.tokenizer().encode(text, &ids).is_ok() || ids.size() <= 1) return 0.0;
  size_t known = 0;
  for (size_t i = 0; i + 1 < ids.size(); ++i) known += ids[i] != m.config().unk_id;
  return static_cast<double>(known) / static_cast<double>(ids.size() - 1);
}

void TranslationService::shutdown() {
  for (auto& m : models_) m->shutdown();
}

ServiceStats TranslationService::stats() const {
  ServiceStats s;
  for (const auto& m : models_) m->add_stats(&s);
  return s;
}

}  // namespace edgemt::server
