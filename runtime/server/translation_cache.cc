#include "runtime/server/translation_cache.h"

#include <cstring>

namespace edgemt::server {

std::string TranslationCache::key(std::span<const int32_t> ids, int alternatives, bool align) {
  const int32_t flags[2] = {alternatives, align ? 1 : 0};
  std::string k((ids.size() + 2) * sizeof(int32_t), '\0');
  if (!ids.empty()) std::memcpy(k.data(), ids.data(), ids.size() * sizeof(int32_t));
  std::memcpy(k.data() + ids.size() * sizeof(int32_t), flags, sizeof(flags));
  return k;
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
  if (const auto it = index_.find(key); it != index_.end()) {
    it->second->second = value;
    order_.splice(order_.begin(), order_, it->second);
    return;
  }
  order_.emplace_front(key, value);
  index_.emplace(std::string_view(order_.front().first), order_.begin());
  while (order_.size() > capacity_) {
    index_.erase(std::string_view(order_.back().first));
    order_.pop_back();
  }
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
