// edgemt-server's translation cache: the translations of recently translated segments,
// so a segment asked for again (a web page's menu, a repeated request, a kiosk's fixed
// phrases) is answered without running the model. Least recently used entries go first
// once `capacity` entries, or `max_bytes` bytes of them (TranslationCache::entry_bytes),
// are held. Thread-safe: the service's submitting threads look up, its workers store.
//
// The key is what decides a segment's output under the service's fixed options: its
// source ids and the request's alternatives and alignment flag (see TranslationCache::key).
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace edgemt::server {

// One segment's result, as Job::Segment holds it.
struct CachedTranslation {
  std::string text;
  std::vector<std::string> alternatives;
  std::vector<int32_t> target_ids, alignment;
};

class TranslationCache {
 public:
  // capacity 0: nothing is kept (get always misses). max_bytes: the most the entries may
  // take together; an entry larger than that is not kept.
  explicit TranslationCache(size_t capacity, size_t max_bytes = SIZE_MAX)
      : capacity_(capacity), max_bytes_(max_bytes) {}

  static std::string key(std::span<const int32_t> ids, int alternatives, bool align);
  // The memory one entry takes: its key, texts and ids, and the list and index nodes
  // and string headers around them (a fixed estimate of the allocator's share).
  static size_t entry_bytes(const std::string& key, const CachedTranslation& value);

  // True (and *out filled) when `key` is held; it becomes the most recently used.
  bool get(const std::string& key, CachedTranslation* out);
  // Stores (or refreshes) `key`, evicting the least recently used beyond capacity.
  void put(const std::string& key, const CachedTranslation& value);

  size_t capacity() const { return capacity_; }
  size_t max_bytes() const { return max_bytes_; }
  size_t size() const;
  size_t bytes() const;  // entry_bytes of the entries held
  uint64_t hits() const;
  uint64_t misses() const;

 private:
  using Entry = std::pair<std::string, CachedTranslation>;
  void evict_to(size_t entries, size_t bytes);  // under mu_
  const size_t capacity_, max_bytes_;
  size_t bytes_ = 0;
  mutable std::mutex mu_;
  std::list<Entry> order_;                                                  // most recently used first
  std::unordered_map<std::string_view, std::list<Entry>::iterator> index_;  // views of order_'s keys
  uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace edgemt::server
