// Cooperative cancellation (TranslateOptions::cancel): another thread sets a flag and the
// call that reads it stops within one decoder step, returning StatusCode::kCancelled.
// The flag is a plain int32_t, read and written atomically (std::atomic_ref), so that a C
// caller can own one too (edgemt_translate_options.cancel: C11's atomic_store on an
// _Atomic int32_t, or __atomic_store_n).
#pragma once

#include <atomic>
#include <cstdint>

namespace edgemt {

class CancelFlag {
 public:
  // Any thread, any time: the calls reading this flag stop.
  void cancel() { std::atomic_ref<int32_t>(flag_).store(1, std::memory_order_relaxed); }
  // For the next call (not while one reads it, if that one should still stop).
  void reset() { std::atomic_ref<int32_t>(flag_).store(0, std::memory_order_relaxed); }
  bool cancelled() const { return is_set(&flag_); }
  // What TranslateOptions::cancel takes.
  const int32_t* flag() const { return &flag_; }

  // Is a flag set (nonzero)? nullptr: never.
  static bool is_set(const int32_t* flag) {
    return flag != nullptr &&
           std::atomic_ref<int32_t>(*const_cast<int32_t*>(flag)).load(std::memory_order_relaxed) != 0;
  }

 private:
  alignas(std::atomic_ref<int32_t>::required_alignment) mutable int32_t flag_ = 0;
};

}  // namespace edgemt
