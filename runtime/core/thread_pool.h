// A persistent pool of worker threads, created with the translator. Running a job
// allocates nothing and creates no thread: the job is a function pointer and a
// context, published through one atomic word.
//
// A job over [0, n) is cut into a few chunks per thread (fixed boundaries i * n / chunks)
// that the calling thread and the workers claim one at a time from that word. Claiming
// (rather than giving thread i the i-th share) matters on a busy machine: when a worker
// is not scheduled, the caller does its chunks instead of waiting a time slice for it.
// Every kernel computes each output element the same way whatever range it is given, so
// results are identical for any thread count and any claiming order.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace edgemt {

class ThreadPool {
 public:
  // num_threads >= 1 (the calling thread is thread 0; num_threads - 1 workers).
  explicit ThreadPool(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return num_threads_; }

  using Fn = void (*)(void* ctx, size_t begin, size_t end, int thread);
  // Calls fn(ctx, begin, end, thread) on disjoint ranges covering [0, n), each at least
  // min_per_thread long (but one, if n is smaller), `thread` in [0, size()) naming the
  // thread that runs it (for per-thread scratch: one thread runs one range at a time);
  // returns when all are done. Not reentrant; one caller at a time.
  void run(size_t n, Fn fn, void* ctx, size_t min_per_thread = 1);

  // Convenience: f(begin, end, thread).
  template <class F>
  void parallel_for(size_t n, const F& f, size_t min_per_thread = 1) {
    run(
        n, [](void* ctx, size_t b, size_t e, int t) { (*static_cast<const F*>(ctx))(b, e, t); },
        const_cast<F*>(&f), min_per_thread);
  }

 private:
  void worker(int index);
  // Claims and runs chunks of job `gen` until none is left.
  void work_on(uint32_t gen, int thread);

  int num_threads_;
  std::vector<std::thread> workers_;
  // Current job; written by the caller before it publishes the job in work_, read by a
  // thread only after it has claimed one of the job's chunks (so the job cannot end, and
  // the caller cannot overwrite them, while they are read).
  Fn fn_ = nullptr;
  void* ctx_ = nullptr;
  size_t n_ = 0;
  // [generation: 32 bits][chunks: 16 bits][next unclaimed chunk: 16 bits].
  std::atomic<uint64_t> work_{0};
  std::atomic<uint32_t> done_{0};  // chunks of the current job finished
  uint32_t gen_ = 0;               // caller's generation counter
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<int> sleepers_{0};
};

}  // namespace edgemt
