#include "runtime/core/thread_pool.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace edgemt {
namespace {

inline void cpu_relax() {
#if defined(__x86_64__)
  _mm_pause();
#elif defined(__aarch64__) || defined(__arm__)
  asm volatile("yield");
#endif
}

// Waiting: a short busy spin (decoding runs many short jobs back to back), then
// yielding the CPU (so that an oversubscribed machine still makes progress), then
// sleeping on the condition variable.
constexpr int kPauseRounds = 256;
constexpr int kYieldRounds = 2048;

}  // namespace

ThreadPool::ThreadPool(int num_threads) : num_threads_(num_threads < 1 ? 1 : num_threads) {
  workers_.reserve(static_cast<size_t>(num_threads_ - 1));
  for (int i = 1; i < num_threads_; ++i) workers_.emplace_back([this, i] { worker(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_.store(true, std::memory_order_release);
    generation_.fetch_add(1, std::memory_order_acq_rel);
  }
  cv_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::run(size_t n, Fn fn, void* ctx, size_t min_per_thread) {
  if (n == 0) return;
  if (min_per_thread < 1) min_per_thread = 1;
  size_t want = n / min_per_thread;
  if (want < 1) want = 1;
  const int active = static_cast<int>(want < static_cast<size_t>(num_threads_) ? want : num_threads_);
  if (active == 1) {
    fn(ctx, 0, n, 0);
    return;
  }
  fn_ = fn;
  ctx_ = ctx;
  n_ = n;
  active_ = active;
  // Every worker acknowledges every job, active or not, so no worker can still be
  // reading this job's parameters when the next one is published.
  pending_.store(num_threads_ - 1, std::memory_order_relaxed);
  {
    // The lock orders the publication with workers that are about to sleep.
    std::lock_guard<std::mutex> lock(mu_);
    generation_.fetch_add(1, std::memory_order_acq_rel);
  }
  if (sleepers_.load(std::memory_order_acquire) > 0) cv_.notify_all();
  fn(ctx, 0, n / static_cast<size_t>(active), 0);
  int spins = 0;
  while (pending_.load(std::memory_order_acquire) != 0) {
    if (++spins < kPauseRounds) {
      cpu_relax();
    } else {
      std::this_thread::yield();
    }
  }
}

void ThreadPool::worker(int index) {
  uint64_t seen = 0;
  for (;;) {
    uint64_t g = generation_.load(std::memory_order_acquire);
    int spins = 0;
    while (g == seen) {
      ++spins;
      if (spins < kPauseRounds) {
        cpu_relax();
      } else if (spins < kPauseRounds + kYieldRounds) {
        std::this_thread::yield();
      } else {
        std::unique_lock<std::mutex> lock(mu_);
        sleepers_.fetch_add(1, std::memory_order_acq_rel);
        cv_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
        sleepers_.fetch_sub(1, std::memory_order_acq_rel);
        spins = 0;
      }
      g = generation_.load(std::memory_order_acquire);
    }
    seen = g;
    if (stop_.load(std::memory_order_acquire)) return;
    if (index < active_) {
      const size_t t = static_cast<size_t>(active_);
      const size_t begin = n_ * static_cast<size_t>(index) / t;
      const size_t end = n_ * static_cast<size_t>(index + 1) / t;
      if (begin < end) fn_(ctx_, begin, end, index);
    }
    pending_.fetch_sub(1, std::memory_order_acq_rel);
  }
}

}  // namespace edgemt
