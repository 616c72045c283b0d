#include "runtime/server/translation_cache.h"

#include <cstring>
#include <utility>

namespace edgemt::server {

std::string TranslationCache::key(std::span<const int32_t> ids, int alternatives, bool align) {
  const int32_t flags[2] = {alternatives, align ? 1 : 0};
  std::string k((ids.size() + 2) * sizeof(int32_t), '\0');
  if (!ids.empty()) std::memcpy(k.data(), ids.data(), ids.size() * sizeof(int32_t));
  std::memcpy(k.data() + ids.size() * sizeof(int32_t), flags, sizeof(flags));
  return k;
}

size_t TranslationCache::entry_bytes(const std::string& key, const CachedTranslation& value) {
  // A list node (two pointers and the pair), an index node with its bucket share, and
  // the heap blocks of each string and vector beyond their headers.
  constexpr size_t kNodes = sizeof(void*) * 2 + sizeof(std::pair<std::string, CachedTranslation>) +
                            sizeof(void*) * 3 + sizeof(std::string_view) + sizeof(void*) * 2;
  size_t n = kNodes + key.size() + value.text.size() +
             (value.target_ids.size() + value.alignment.size()) * sizeof(int32_t);
  for (const std::string& a : value.alternatives) n += sizeof(std::string) + a.size();
  return n;
}

void TranslationCache::evict_to(size_t entries, size_t bytes) {
  while (!order_.empty() && (order_.size() > entries || bytes_ > bytes)) {
    bytes_ -= entry_bytes(order_.back().first, order_.back().second);
    index_.erase(std::string_view(order_.back().first));
    order_.pop_back();
  }
}

bool TranslationCache::get(const std::string& key, CachedTranslation* out) {
  std::lock_guard<std::mutex> lock(mu_);
  if (capacity_ == 0) return false;
  const auto it = index_.find(key);
  if (it == index_.end()) {
    ++misses_;
    return false;
  }
  ++hits_;
  order_.splice(order_.begin(), order_, it->second);
  *out = it->second->second;
  return true;
}

void TranslationCache::put(const std::string& key, const CachedTranslation& value) {
  std::lock_guard<std::mutex> lock(mu_);
  if (capacity_ == 0) return;
  const size_t need = entry_bytes(key, value);
  if (const auto it = index_.find(key); it != index_.end()) {
    const auto entry = it->second;
    bytes_ -= entry_bytes(entry->first, entry->second);
    index_.erase(it);  // first: its key is a view of the list entry's
    order_.erase(entry);
  }
  if (need > max_bytes_) return;  // it alone would not fit
  evict_to(capacity_ - 1, max_bytes_ - need);
  order_.emplace_front(key, value);
  index_.emplace(std::string_view(order_.front().first), order_.begin());
  bytes_ += need;
}

size_t TranslationCache::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

size_t TranslationCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return order_.size();
}

uint64_t TranslationCache::hits() const {
  std::lock_guard<std::mutex> lock(mu_);
  return hits_;
}

uint64_t TranslationCache::misses() const {
  std::lock_guard<std::mutex> lock(mu_);
  return misses_;
}

}  // namespace edgemt::server
