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
constexpr int kYieldRounds = 1024;
// Chunks per taking-part thread: enough for the caller to absorb a descheduled
// worker's share, few enough that per-call overheads (activation widening in the int8
// GEMM, panel set-up) stay small.
constexpr size_t kChunksPerThread = 4;
constexpr size_t kMaxChunks = 0xffff;

constexpr uint32_t gen_of(uint64_t w) { return static_cast<uint32_t>(w >> 32); }
constexpr uint32_t chunks_of(uint64_t w) { return static_cast<uint32_t>((w >> 16) & 0xffff); }
constexpr uint32_t next_of(uint64_t w) { return static_cast<uint32_t>(w & 0xffff); }

}  // namespace

ThreadPool::ThreadPool(int num_threads) : num_threads_(num_threads < 1 ? 1 : num_threads) {
  workers_.reserve(static_cast<size_t>(num_threads_ - 1));
  for (int i = 1; i < num_threads_; ++i) workers_.emplace_back([this, i] { worker(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_.store(true, std::memory_order_release);
    ++gen_;
    work_.store(static_cast<uint64_t>(gen_) << 32, std::memory_order_release);
  }
  cv_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::work_on(uint32_t gen, int thread) {
  uint64_t w = work_.load(std::memory_order_acquire);
  for (;;) {
    if (gen_of(w) != gen || next_of(w) >= chunks_of(w)) return;
    if (!work_.compare_exchange_weak(w, w + 1, std::memory_order_acq_rel, std::memory_order_acquire))
      continue;
    // Chunk next_of(w) of job `gen` is ours: the job is not over until we report it.
    const size_t i = next_of(w), chunks = chunks_of(w), n = n_;
    fn_(ctx_, n * i / chunks, n * (i + 1) / chunks, thread);
    done_.fetch_add(1, std::memory_order_acq_rel);
    w = work_.load(std::memory_order_acquire);
  }
}

void ThreadPool::run(size_t n, Fn fn, void* ctx, size_t min_per_thread) {
  if (n == 0) return;
  if (min_per_thread < 1) min_per_thread = 1;
  const size_t pieces = n / min_per_thread;
  if (num_threads_ == 1 || pieces < 2) {
    fn(ctx, 0, n, 0);
    return;
  }
  const size_t active =
      pieces < static_cast<size_t>(num_threads_) ? pieces : static_cast<size_t>(num_threads_);
  size_t chunks = active * kChunksPerThread;
  if (chunks > pieces) chunks = pieces;
  if (chunks > kMaxChunks) chunks = kMaxChunks;
  fn_ = fn;
  ctx_ = ctx;
  n_ = n;
  done_.store(0, std::memory_order_relaxed);
  {
    // The lock orders the publication with workers that are about to sleep.
    std::lock_guard<std::mutex> lock(mu_);
    ++gen_;
    work_.store((static_cast<uint64_t>(gen_) << 32) | (static_cast<uint64_t>(chunks) << 16),
                std::memory_order_release);
  }
  if (sleepers_.load(std::memory_order_acquire) > 0) cv_.notify_all();
  work_on(gen_, 0);
  int spins = 0;
  while (done_.load(std::memory_order_acquire) != chunks) {
    if (++spins < kPauseRounds) {
      cpu_relax();
    } else {
      std::this_thread::yield();
    }
  }
}

void ThreadPool::worker(int index) {
  uint32_t seen = 0;
  for (;;) {
    uint64_t w = work_.load(std::memory_order_acquire);
    int spins = 0;
    while (gen_of(w) == seen) {
      ++spins;
      if (spins < kPauseRounds) {
        cpu_relax();
      } else if (spins < kPauseRounds + kYieldRounds) {
        std::this_thread::yield();
      } else {
        std::unique_lock<std::mutex> lock(mu_);
        sleepers_.fetch_add(1, std::memory_order_acq_rel);
        cv_.wait(lock, [&] { return gen_of(work_.load(std::memory_order_acquire)) != seen; });
        sleepers_.fetch_sub(1, std::memory_order_acq_rel);
        spins = 0;
      }
      w = work_.load(std::memory_order_acquire);
    }
    seen = gen_of(w);
    if (stop_.load(std::memory_order_acquire)) return;
    work_on(seen, index);
  }
}

}  // namespace edgemt
